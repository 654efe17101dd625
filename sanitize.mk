# sanitize.mk - the sanitized build's compiler and flags, one definition
# for the unit tests (Makefile: build/asan/) and the libFuzzer targets
# (tests/fuzz/Makefile), which link the same objects: one compile of
# every module for both, and clang's -Werror from it (check-clang's
# syntax pass is then left with the tools).
#
# With clang and its fuzzer runtime (Debian: clang, libclang-rt-14-dev):
# ASan, UBSan and libFuzzer's coverage (fuzzer-no-link: the unit tests
# link without libFuzzer; the sanitizers' runtime has the coverage
# hooks' defaults). Without: the C compiler's ASan and UBSan, and no
# fuzz targets (tests/t0150-fuzz.t skips them, saying why).
SAN_RT   := $(shell clang --print-runtime-dir 2>/dev/null)
# Line tables are what a sanitizer's report needs (file:line in each
# frame); full debug info (CFLAGS' -g) was a tenth of this build's
# compile time, in make check's build before the first suite. The last
# -g option on clang's line wins.
SAN_DEBUG := -gline-tables-only
SAN_FUZZ := $(if $(wildcard $(SAN_RT)/libclang_rt.fuzzer-*.a),yes)
# The sanitized programs (66 unit tests, build/asan/perflog, 15 fuzz
# targets) are linked by LLVM's lld where it is installed (Debian: lld):
# a link with the sanitizers' runtimes took 0.68 CPU-s with ld.bfd and
# 0.35 with lld, 22 CPU-s of make check's build before the first suite.
# Links only (at compile time clang would warn that it is unused).
SAN_LD   := $(if $(shell command -v ld.lld 2>/dev/null),-fuse-ld=lld)
# A unit test's own file (tests/unit/test_*.c, compiled and linked in one
# step) gets the sanitizers without libFuzzer's coverage: no fuzz target
# links it, and the coverage was a third of its compile (0.4 CPU-s of
# 1.3), 28 CPU-s of make check's build. The modules it links keep theirs.
ifneq ($(SAN_FUZZ),)
SAN_CC   := clang
SAN_UNIT := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all $(SAN_DEBUG)
SAN      := -fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer \
	-fno-sanitize-recover=all $(SAN_DEBUG)
else
SAN_CC   := $(CC)
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_UNIT := $(SAN)
endif

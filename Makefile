# perflog - a plain Makefile (STYLE 15).
#   make            build ./perflog
#   make check      unit tests under ASan+UBSan, clang -Werror pass, and the
#                   end-to-end suites, all through prove (TAP)
#   make demo       install what is missing, build, log a reference workload
#                   (make check installs what is missing too: tests/deps.sh)
#   make check-stress  the unit tests and suites beside stress-ng's steady
#                   load (a CPU, I/O, 128 MB): every tolerance must hold
#   make bench      overhead, viewer and estimate benchmarks (figures only)
#   make install    PREFIX=/usr/local DESTDIR=: the program, its manual pages,
#                   bash completion, perflog.service and the sample settings
#   make uninstall  removes exactly what install put there
#   make deb        the Debian package, in build/deb/ (dist/deb.sh)
#   make fuzz       libFuzzer targets (clang); FUZZ_TIME=S runs each S seconds
#   make soak       an hour at 1 s under load: RSS and open fds (bench/soak.sh)

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/perflog
MANDIR  ?= $(PREFIX)/share/man
# the settings of perflog.service live in /etc/perflog whatever the PREFIX
SYSCONFDIR ?= /etc
# where bash-completion looks for PREFIX (its completionsdir)
ifeq ($(origin BASHCOMPDIR),undefined)
BASHCOMPDIR := $(shell pkg-config --define-variable=datadir=$(PREFIX)/share \
	--variable=completionsdir bash-completion 2>/dev/null || \
	echo $(PREFIX)/share/bash-completion/completions)
endif
# systemd's unit directory for PREFIX=/usr (/lib/systemd/system on Debian 12),
# else PREFIX/lib/systemd/system, which systemd also reads
ifeq ($(origin SYSTEMDUNITDIR),undefined)
ifeq ($(PREFIX),/usr)
SYSTEMDUNITDIR := $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || \
	echo /lib/systemd/system)
else
SYSTEMDUNITDIR := $(PREFIX)/lib/systemd/system
endif
endif
CC      ?= cc
PKGS    := librrd libstatgrab ncursesw libpng

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN := -Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes -Wshadow \
	-Wwrite-strings -Wvla -Wpointer-arith -Wformat=2 -Wno-format-nonliteral
WERROR ?= -Werror
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 $(WARN) $(WERROR) $(PKG_CFLAGS) -D_XOPEN_SOURCE_EXTENDED $(CPPFLAGS) $(CFLAGS)
LIBS := $(PKG_LIBS) -lm -pthread

MODULES := common sources process counters waits logs client collector run export verdict report viewer estimate workload import
SRCS    := $(foreach m,$(MODULES),$(wildcard $(m)/*.c))
OBJS    := $(SRCS:%.c=build/obj/%.o)
ASAN_OBJS := $(SRCS:%.c=build/asan/%.o)
include sanitize.mk

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/asan/tests/%)
E2E       := $(sort $(wildcard tests/t[0-9]*.t))
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOLS     := $(TOOL_SRCS:tests/tools/%.c=build/tools/%)

MAN1 := $(wildcard man/*.1)
MAN5 := $(wildcard man/*.5)

.PHONY: all check check-run check-stress check-stress-run check-fuzz unit e2e check-clang demo bench install \
	uninstall service deb clean fuzz soak

all: perflog

# Modules are archived, so a test or tool links only what it uses.
build/libperflog.a: $(OBJS)
	rm -f $@; ar rcs $@ $^

build/asan/libperflog.a: $(ASAN_OBJS)
	rm -f $@; ar rcs $@ $^

perflog: build/obj/perflog.o build/libperflog.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

build/obj/%.o: %.c $(wildcard */*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

build/asan/%.o: %.c $(wildcard */*.h)
	@mkdir -p $(dir $@)
	$(SAN_CC) $(ALL_CFLAGS) $(SAN) -O1 -c -o $@ $<

build/asan/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h tests/tools/*.h) build/asan/libperflog.a
	@mkdir -p $(dir $@)
	$(SAN_CC) $(ALL_CFLAGS) $(SAN_UNIT) $(SAN_LD) -O1 -o $@ $< build/asan/libperflog.a $(LIBS)

# The sanitized build of the program itself, for end-to-end suites that want
# it (PERFLOG_ASAN in tests/lib.sh).
build/asan/perflog: build/asan/perflog.o build/asan/libperflog.a
	$(SAN_CC) $(ALL_CFLAGS) $(SAN) $(SAN_LD) -o $@ $^ $(LIBS)

# Helpers of the end-to-end suites (load generators, log set writers).
build/tools/%: tests/tools/%.c $(wildcard tests/tools/*.h) build/libperflog.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< build/libperflog.a $(LIBS)

# The hung FUSE server of t7710 and bench/hostile.sh: built against
# libfuse3 when pkg-config knows it, else a stub that says so (exit 77),
# so the suite skips with the reason.
FUSE_FLAGS := $(shell pkg-config --exists fuse3 2>/dev/null && \
	echo -DPERFLOG_HAVE_FUSE3 `pkg-config --cflags fuse3`)
FUSE_LIBS  := $(shell pkg-config --libs fuse3 2>/dev/null)
build/tools/fusehang: tests/tools/fusehang.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(FUSE_FLAGS) -o $@ $< $(FUSE_LIBS)

unit: $(UNIT_BINS)
	prove -f $(UNIT_BINS)

# Everything must also compile warning-free under clang: the sanitized
# build is clang's where it can be (sanitize.mk), which covers the program
# and the unit tests; the rest (all of it without that build) gets a
# syntax pass, a stamp per file (build/clang/), so make -jN checks them
# side by side and a second check only the files changed since. Without
# clang: said, skipped.
HAVE_CLANG  := $(shell command -v clang 2>/dev/null)
CLANG_ALL   := perflog.c $(SRCS) $(UNIT_SRCS) $(TOOL_SRCS)
ifeq ($(SAN_CC),clang)
CLANG_SRCS  := $(TOOL_SRCS)
CLANG_BUILT := $(ASAN_OBJS) build/asan/perflog $(UNIT_BINS)
else
CLANG_SRCS  := $(CLANG_ALL)
CLANG_BUILT :=
endif
CLANG_STAMP := $(CLANG_SRCS:%.c=build/clang/%.ok)
ifneq ($(HAVE_CLANG),)
check-clang: $(CLANG_STAMP) $(CLANG_BUILT)
	@echo "clang: $(words $(CLANG_ALL)) files clean ($(words $(CLANG_SRCS)) by a syntax pass$(if $(CLANG_BUILT),; the rest built sanitized by clang))"
else
check-clang:
	@echo "clang not installed; skipped"
endif

build/clang/%.ok: %.c $(wildcard */*.h tests/*/*.h)
	@mkdir -p $(dir $@)
	@clang -std=c11 $(WARN) -Werror $(PKG_CFLAGS) $(FUSE_FLAGS) -D_XOPEN_SOURCE_EXTENDED -fsyntax-only $< && touch $@

# First what is missing on this machine (as make demo does), then the rest
# in a second make, which sees the pkg-config flags of what was installed.
# The builds (gcc, ASan, clang's pass) run a job per CPU; the suites as
# check-run says (the fuzz targets are built and run by one of them,
# t0150-fuzz.t, beside the others).
NPROC := $(shell nproc 2>/dev/null || echo 2)
check:
	@sh tests/deps.sh check
	@$(MAKE) --no-print-directory -j$(NPROC) check-run

# prove runs the suites CHECK_JOBS at a time, but for the load-sensitive
# ones, which run first and alone (testrules.yml says which and why).
# Six, not four: the others mostly wait on the collector's samples (at
# four, the machine's CPUs were half idle over the parallel part: 308 s
# of it against 188-250 s at six, same suites, both passing).
CHECK_JOBS ?= 6
# Every tolerance's headroom goes to build/margins.tsv; the closest are
# printed after prove's summary, pass or fail (tests/margins.sh).
check-run: perflog build/asan/perflog $(UNIT_BINS) $(TOOLS) check-clang
	@rm -f build/margins.tsv
	@rc=0; PERFLOG=$(CURDIR)/perflog PERFLOG_MARGINS=$(CURDIR)/build/margins.tsv \
	  prove -f --timer -j$(CHECK_JOBS) $(UNIT_BINS) $(E2E) || rc=$$?; \
	  sh tests/margins.sh build/margins.tsv; exit $$rc

# The same tests beside a steady unrelated load (stress-ng: a CPU's worth,
# synced writes, 128 MB touched), started and stopped by PID; not part of
# check (it doubles the time). tests/stress.sh, tests/README.md.
check-stress:
	@sh tests/deps.sh check
	@$(MAKE) --no-print-directory -j$(NPROC) check-stress-run

check-stress-run: perflog build/asan/perflog $(UNIT_BINS) $(TOOLS)
	@CHECK_JOBS=$(CHECK_JOBS) sh tests/stress.sh $(UNIT_BINS) $(E2E)

# Every libFuzzer target a short while on its corpus (tests/fuzz/Makefile;
# skipped with a note when clang's fuzzer runtime is missing); make check
# does the same through tests/t0150-fuzz.t.
check-fuzz:
	@$(MAKE) --no-print-directory -f tests/fuzz/Makefile check-fuzz

e2e: perflog $(TOOLS)
	PERFLOG=$(CURDIR)/perflog prove -v $(E2E)

demo:
	@sh tests/demo.sh

bench: perflog
	@sh bench/run.sh

soak: perflog
	@sh bench/soak.sh

fuzz:
	@$(MAKE) --no-print-directory -f tests/fuzz/Makefile

# perflog.service with this installation's paths (dist/perflog.service.in);
# `make service SERVICE=FILE` writes it alone (t9200 checks it)
SERVICE ?= build/perflog.service
SERVICE_SED = sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g'

service:
	@mkdir -p $(dir $(SERVICE))
	$(SERVICE_SED) dist/perflog.service.in > $(SERVICE)

# The settings of perflog.service are the admin's once installed: never
# overwritten, and removed by uninstall only when unchanged.
install: perflog
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(SYSTEMDUNITDIR) \
		$(DESTDIR)$(SYSCONFDIR)/perflog
	install -m 0755 perflog $(DESTDIR)$(BINDIR)/perflog
	install -m 0644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 dist/perflog.bash $(DESTDIR)$(BASHCOMPDIR)/perflog
	$(SERVICE_SED) dist/perflog.service.in > $(DESTDIR)$(SYSTEMDUNITDIR)/perflog.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/perflog.service
	install -m 0644 perftest.pml.sample $(DESTDIR)$(DATADIR)/perftest.pml.sample
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/perflog/perftest.pml ]; then \
		echo "kept $(DESTDIR)$(SYSCONFDIR)/perflog/perftest.pml"; \
	else \
		echo "install -m 0644 perftest.pml.sample $(DESTDIR)$(SYSCONFDIR)/perflog/perftest.pml"; \
		install -m 0644 perftest.pml.sample $(DESTDIR)$(SYSCONFDIR)/perflog/perftest.pml; \
	fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/perflog \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5))) \
		$(DESTDIR)$(BASHCOMPDIR)/perflog \
		$(DESTDIR)$(SYSTEMDUNITDIR)/perflog.service \
		$(DESTDIR)$(DATADIR)/perftest.pml.sample
	@f=$(DESTDIR)$(SYSCONFDIR)/perflog/perftest.pml; \
	if cmp -s perftest.pml.sample $$f; then echo "rm -f $$f"; rm -f $$f; \
	elif [ -e $$f ]; then echo "kept $$f (changed since it was installed)"; fi
	-@rmdir $(DESTDIR)$(DATADIR) $(DESTDIR)$(SYSCONFDIR)/perflog 2>/dev/null || true

deb:
	@sh dist/deb.sh

clean:
	rm -rf build perflog

-include $(OBJS:.o=.d) build/obj/perflog.d

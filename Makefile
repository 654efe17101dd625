# perflog - a plain Makefile (STYLE 15).
#   make            build ./perflog
#   make check      unit tests under ASan+UBSan, clang -Werror pass, and the
#                   end-to-end suites, all through prove (TAP)
#   make demo       install what is missing, build, log a reference workload
#   make bench      overhead, viewer and estimate benchmarks (figures only)
#   make install    PREFIX=/usr/local DESTDIR=
#   make fuzz       libFuzzer targets (clang); FUZZ_TIME=S runs each S seconds
#   make soak       an hour at 1 s under load: RSS and open fds (bench/soak.sh)

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/perflog
CC      ?= cc
PKGS    := librrd libstatgrab ncursesw

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN := -Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes -Wshadow \
	-Wwrite-strings -Wvla -Wpointer-arith -Wformat=2 -Wno-format-nonliteral
WERROR ?= -Werror
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 $(WARN) $(WERROR) $(PKG_CFLAGS) -D_XOPEN_SOURCE_EXTENDED $(CFLAGS)
LIBS := $(PKG_LIBS) -lm -pthread

MODULES := common counters logs client collector export report viewer estimate workload
SRCS    := $(foreach m,$(MODULES),$(wildcard $(m)/*.c))
OBJS    := $(SRCS:%.c=build/obj/%.o)
ASAN_OBJS := $(SRCS:%.c=build/asan/%.o)
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/asan/tests/%)
E2E       := $(sort $(wildcard tests/t[0-9]*.t))
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOLS     := $(TOOL_SRCS:tests/tools/%.c=build/tools/%)

.PHONY: all check check-fuzz unit e2e check-clang demo bench install uninstall clean fuzz soak

all: perflog

# Modules are archived, so a test or tool links only what it uses.
build/libperflog.a: $(OBJS)
	rm -f $@; ar rcs $@ $^

build/asan/libperflog.a: $(ASAN_OBJS)
	rm -f $@; ar rcs $@ $^

perflog: build/obj/perflog.o build/libperflog.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS)

build/obj/%.o: %.c $(wildcard */*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -c -o $@ $<

build/asan/%.o: %.c $(wildcard */*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN) -O1 -c -o $@ $<

build/asan/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h tests/tools/*.h) build/asan/libperflog.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN) -O1 -o $@ $< build/asan/libperflog.a $(LIBS)

# The sanitized build of the program itself, for end-to-end suites that want
# it (PERFLOG_ASAN in tests/lib.sh).
build/asan/perflog: build/asan/perflog.o build/asan/libperflog.a
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(LIBS)

# Helpers of the end-to-end suites (load generators, log set writers).
build/tools/%: tests/tools/%.c $(wildcard tests/tools/*.h) build/libperflog.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< build/libperflog.a $(LIBS)

unit: $(UNIT_BINS)
	prove -f $(UNIT_BINS)

# Everything must also compile warning-free under clang.
check-clang:
	@if command -v clang >/dev/null; then \
	  for f in perflog.c $(SRCS) $(UNIT_SRCS) $(TOOL_SRCS); do \
	    clang -std=c11 $(WARN) -Werror $(PKG_CFLAGS) -D_XOPEN_SOURCE_EXTENDED -fsyntax-only $$f || exit 1; \
	  done; echo "clang: $(words $(SRCS) $(UNIT_SRCS)) files clean"; \
	else echo "clang not installed; skipped"; fi

check: perflog build/asan/perflog $(UNIT_BINS) $(TOOLS) check-clang check-fuzz
	PERFLOG=$(CURDIR)/perflog prove -f $(UNIT_BINS) $(E2E)

# Every libFuzzer target a short while on its corpus (tests/fuzz/Makefile;
# skipped with a note when clang's fuzzer runtime is missing).
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

install: perflog
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)
	install -m 0755 perflog $(DESTDIR)$(BINDIR)/perflog
	install -m 0644 perftest.pml.sample $(DESTDIR)$(DATADIR)/perftest.pml.sample

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/perflog $(DESTDIR)$(DATADIR)/perftest.pml.sample
	-rmdir $(DESTDIR)$(DATADIR)

clean:
	rm -rf build perflog

-include $(OBJS:.o=.d) build/obj/perflog.d

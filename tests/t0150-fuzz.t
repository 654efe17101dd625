#!/bin/sh
# tests/t0150-fuzz.t - every libFuzzer target (tests/fuzz/) built and run
# a short while on its corpus: one TAP line a target, "not ok" with the
# end of its log when it crashed (build/fuzz/crash-* keeps the input).
#
# A suite, not a step before the suites: building and running the
# targets took 90 s of make check's wall clock ahead of prove (a seventh
# of it), with both CPUs busy, while the suites run side by side leave
# about one idle (they mostly wait on the collector's samples). Here it
# runs among them (testrules.yml starts it first of those). The targets
# link the unit tests' sanitized objects (../sanitize.mk), so what is
# built here is one link a target: 42 s alone, 68 CPU-s (was 90 s and
# 135: 75 CPU-s were a second compile of every module).
#
#   prove tests/t0150-fuzz.t       (make check runs it)
#   FUZZ_TIME=S                    seconds a target (4)
cd "$(dirname "$0")/.." || exit 2
# called from make check through prove: this make is not a sub-make of
# that one (its job server is not ours to share)
unset MAKEFLAGS MFLAGS MAKELEVEL
T=${FUZZ_TIME:-4}
LOG=$(mktemp /tmp/perflog-fuzz.XXXXXX) || exit 2
trap 'rm -f "$LOG"' EXIT

# at the lowest priority: the suites beside it judge their collectors'
# timeliness (a sample skipped beside this build once failed t6000)
nice -n 19 make --no-print-directory -k -j"$(nproc)" -f tests/fuzz/Makefile \
	fuzz-all FUZZ_TIME="$T" >"$LOG" 2>&1
rc=$?
names=$(ls tests/fuzz/fuzz_*.c | sed 's|tests/fuzz/fuzz_\(.*\)\.c|\1|')
echo "1..$(echo "$names" | wc -l)"
i=0
for n in $names; do
	i=$((i + 1))
	if [ -f build/fuzz/.nofuzzer ]; then
		echo "ok $i # SKIP $n: $(grep -m1 'not available' "$LOG")"
	elif line=$(grep "^fuzz: $n for " "$LOG"); then
		echo "ok $i - $n: ${line#fuzz: $n }"
	else
		echo "not ok $i - $n: no run (make said $rc)"
		grep -B40 "^fuzz: $n FAILED" "$LOG" | sed 's/^/# /'
		[ "$rc" != 0 ] && ! grep -q "^fuzz: .* FAILED" "$LOG" &&
			tail -20 "$LOG" | sed 's/^/# /'
	fi
done
exit 0

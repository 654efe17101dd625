#!/bin/sh
# bench/timing.sh - how punctual the 1 s schedule is on a loaded machine:
# the collector runs at -i 1 for TIMING_SECONDS (an hour by default) while
# `loadgen burn` keeps every core busy; PERFLOG_TRACE (collector.c) logs,
# per sample, its monotonic deadline, when taking it began and when it was
# written. Printed: lateness (begin - deadline) and duration (written -
# begin) min / median / p99 / max in ms, and the deadlines skipped (a
# sample is "missed" when the next deadline passed before it was taken).
#
#   TIMING_SECONDS=3600   span
#   TIMING_LOAD=0         no load (the idle machine, for comparison)
. "$(dirname "$0")/lib.sh"
S=${TIMING_SECONDS:-3600}
LOADGEN=$TOP/build/tools/loadgen
[ -x "$LOADGEN" ] || make -s -C "$TOP" build/tools/loadgen >/dev/null || exit 1
if [ "${TIMING_LOAD:-1}" != 0 ]; then
	for _ in $(seq "$(nproc)"); do
		"$LOADGEN" burn $((S + 30)) >/dev/null & bench_track $!
	done
	load="loadgen burn on all $(nproc) cores"
else
	load="no load"
fi
trace=$BENCH_TMP/trace
PERFLOG_TRACE=$trace "$PERFLOG" start -f -o "$BENCH_TMP/logs" -i 1 >/dev/null 2>"$BENCH_TMP/err" &
pid=$!; bench_track $pid
sleep "$S"
kill -TERM $pid; wait $pid 2>/dev/null
echo "== timing: 1 s schedule for $S s, $load =="
[ -s "$trace" ] || { echo "no trace written"; cat "$BENCH_TMP/err"; exit 1; }
stats() { # column expression -> min median p99 max (ms)
	awk "{ print ($1) * 1000 }" "$trace" | sort -g | awk '
		{ v[NR] = $1 }
		END { p = int(NR * 0.99); if (p < 1) p = 1
		      printf "min %.3f  median %.3f  p99 %.3f  max %.3f ms (%d samples)\n",
			v[1], v[int((NR + 1) / 2)], v[p], v[NR], NR }'
}
printf 'lateness (start - deadline): '; stats '$2 - $1'
printf 'duration (written - start):  '; stats '$3 - $2'
awk 'NR == 1 { printf "first sample (creates the RRD files): %.1f ms\n", ($3 - $2) * 1000 }' "$trace"
awk 'NR > 1 { d = $1 - prev; if (d > 1.5) miss += int(d + 0.5) - 1 } { prev = $1 }
     END { printf "deadlines skipped: %d of %d\n", miss, NR + miss }' "$trace"
grep -h "fell behind" "$BENCH_TMP/err" | head -3

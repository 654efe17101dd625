#!/bin/sh
# bench/waits.sh - the wait-state sampler's cost (waits/waits.h) against
# the number of threads it samples: 1, 8, 64 and 512 threads of one
# process, idle (parked on a condition variable: one pread a tick each)
# and active (each polls a socket with a 20 ms timeout, so it has run
# between two ticks and takes the whole path: schedstat, wchan, syscall,
# the memoised descriptor probe). First the floor: the sampler watching
# nothing, only waking at its full rate.
#
# Printed per case: the tick rate the adaptive rule settled on, the
# sampler's CPU per second (its thread's /proc/self/task/TID/schedstat,
# exact, plus the once-a-second reads the collector would make, on the
# reading thread's clock) as ms/s and as % of one CPU, and what one read
# took (the collector's side: how long its sample waits on the sampler).
# The design limit is 1% of one CPU for a 64-thread client.
#
#   WAITS_SECONDS=10   measured span per case (after 1 s of warm-up)
. "$(dirname "$0")/lib.sh"
S=${WAITS_SECONDS:-10}
[ -n "${BENCH_QUICK:-}" ] && S=${WAITS_SECONDS:-4}
TOOL=$TOP/build/tools/waitsbench
[ -x "$TOOL" ] || make -s -C "$TOP" build/tools/waitsbench >/dev/null || exit 1

echo "wait-state sampler, ${S} s per case ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%8s %-7s %8s %12s %10s %12s %11s\n' threads mode ticks/s "CPU ms/s" "% of CPU" "read ms avg" "read ms max"
for n in 0 1 8 64 512; do
	for m in idle active; do
		[ "$n" = 0 ] && [ "$m" = active ] && continue
		out=$("$TOOL" "$n" "$S" "$m") || { echo "waits: $n $m failed"; exit 1; }
		set -- $out
		label=$2; [ "$n" = 0 ] && label=floor
		printf '%8s %-7s %8s %12s %10s %12s %11s\n' "$1" "$label" "$3" "$4" "$5" "$6" "$7"
		if [ "$n" = 64 ]; then
			awk -v p="$5" -v m="$m" 'BEGIN { printf "  64 threads %s: %.2f%% of one CPU, %s the 1%% limit\n", m, p, (p < 1 ? "under" : "OVER") }'
		fi
	done
done

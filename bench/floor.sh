#!/bin/sh
# bench/floor.sh - what the default set's /proc files cost by themselves
# on this host, beside sysstat's sadc -S DISK in the same span (issue 48
# item 5: is a third of sadc within the collector's reach here?). Each
# process below wakes once a second at a phase of its own, so none reads
# with caches another warmed (build/tools/samplefloor):
#   a 1 s wake alone (ppoll, as the collector waits);
#   each of the nine files the default set reads, alone after a wake of
#   its own (stat, diskstats, meminfo, vmstat, net/dev, net/snmp and the
#   three pressure files: sources/procfs.c's reads), less the bare wake;
#   the nine one after another after one wake (samplefloor read), as any
#   sampler of them reads them;
# and their share of sadc's CPU a sample. CPU from /proc/PID/schedstat.
#
#   BENCH_SECONDS=60   measured span (after 3 s)
. "$(dirname "$0")/lib.sh"
D=${BENCH_SECONDS:-60}
FLOOR=$TOP/build/tools/samplefloor
[ -x "$SADC" ] || { echo "floor: $SADC not found (apt-get install sysstat)"; exit 0; }
[ -x "$FLOOR" ] || make -s -C "$TOP" build/tools/samplefloor >/dev/null || exit 1

files="/proc/stat /proc/diskstats /proc/meminfo /proc/vmstat /proc/net/dev
/proc/net/snmp /proc/pressure/cpu /proc/pressure/io /proc/pressure/memory"
"$SADC" -S DISK 1 "$BENCH_TMP/sa.data" 2>/dev/null & spid=$!; bench_track $spid
$FLOOR wake & wpid=$!; bench_track $wpid		# at .25 s
$FLOOR read & rpid=$!; bench_track $rpid		# at .5 s
pids=""
set -- 60 140 330 410 580 660 740 820 900	# ms past the second
for f in $files; do
	[ -r "$f" ] || continue
	$FLOOR file "$f" "$1" & pids="$pids $!"; bench_track $!
	shift
done
sleep 3
snap() { for p in $spid $wpid $rpid $pids; do cpu_ns $p; done | tr '\n' ' '; }
c0=$(snap); t0=$(date +%s.%N)
sleep "$D"
c1=$(snap); t1=$(date +%s.%N)
echo "== floor: each part alone at its own phase of the second, ${D} s ($(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)) =="
echo "$c0" "$c1" | awk -v a="$t0" -v b="$t1" -v names="$(echo $files | tr '\n' ' ')" '{
	n = int(b - a + 0.5); k = NF / 2; split(names, F, " ")
	for (i = 1; i <= k; i++) us[i] = ($(i + k) - $i) / n / 1000
	sadc = us[1]; wake = us[2]; nine = us[3] - wake
	printf "  sadc -S DISK          %7.1f us a sample\n", sadc
	printf "  a 1 s wake            %7.1f us (%.3f of sadc)\n", wake, wake / sadc
	for (i = 4; i <= k; i++) {
		printf "  %-21s %+7.1f us alone, less the wake (%.3f of sadc)\n", F[i - 3], us[i] - wake, (us[i] - wake) / sadc
		alone += us[i] - wake
	}
	printf "  the %d alone          %7.1f us; after one wake together %.1f us\n", k - 3, alone, nine
	printf "  a wake and the %d     %7.1f us: %.3f of sadc -S DISK (the target 0.35)\n", k - 3, us[3], us[3] / sadc
}'

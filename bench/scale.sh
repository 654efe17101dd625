#!/bin/sh
# bench/scale.sh - the collector with many instances, at 1 s:
#   N block devices through a generated /proc root ($PERFLOG_PROC_ROOT: a
#   proc/diskstats of N fake disks "fsdK" whose counters advance by a
#   formula, rewritten by a generator each second at x.5 s, half-way
#   between two samples, plus sys/block/fsdK), and 0.6 N real network
#   interfaces (0.3 N veth pairs in a network namespace of this script's
#   own, no addresses, no traffic; proc/net and sys/class/net of the fake
#   root point at the real ones inside that namespace; proc/stat, meminfo
#   and vmstat are the real ones).
# For each size (SCALE_SIZES="100 300 1000": 1000 disks + 600 interfaces is
# the issue's target), once every instance has its RRD file, SCALE_SECONDS
# (60) are measured: CPU per sample (schedstat), lateness and duration of
# each sample (PERFLOG_TRACE), deadlines skipped, the collector's "fell
# behind" complaints, and afterwards every RRD file's unknown rows between
# its first and last known row. One counter per instance (% Disk Time,
# Bytes Total/sec): each data source costs ~1.25 MB on disk whatever the
# retention (the 30-day and 1-year archives), and 1600 instances x 7 data
# sources would be 14 GB of RRD files; the per-sample cost goes with the
# number of files, not of data sources.
# Needs root (network namespaces); without it, disks only.
. "$(dirname "$0")/lib.sh"
S=${SCALE_SECONDS:-60}
SIZES=${SCALE_SIZES:-100 300 1000}
GEN_PID=""
NS=""
bench_extra_cleanup() {
	[ -n "$GEN_PID" ] && kill "$GEN_PID" 2>/dev/null
	[ -n "$NS" ] && ip netns del "$NS" 2>/dev/null
}
can_net=0
[ "$(id -u)" = 0 ] && command -v ip >/dev/null && can_net=1

make_root() { # DIR N
	r=$1 n=$2
	mkdir -p "$r/proc" "$r/sys/block" "$r/sys/class"
	for f in stat meminfo vmstat; do ln -s /proc/$f "$r/proc/$f"; done
	ln -s /proc/net "$r/proc/net"
	ln -s /sys/class/net "$r/sys/class/net"
	i=0
	while [ $i -lt "$n" ]; do
		mkdir -p "$r/sys/block/fsd$i/slaves"
		echo 2097152 > "$r/sys/block/fsd$i/size"
		i=$((i + 1))
	done
}

# diskstats for time T: disk K does (K % 50 + 1) reads and 2x that writes
# a second, 8 sectors each, 1 ms each, busy 100 ms of each 1000.
gen_once() { # DIR N
	awk -v n="$2" -v t="$(date +%s)" 'BEGIN {
		for (k = 0; k < n; k++) { r = (k % 50 + 1) * t; w = 2 * r
			printf "%4d %7d fsd%d %d 0 %d %d %d 0 %d %d 0 %d %d 0 0 0 0 0 0\n",
				259, k, k, r, 8 * r, r, w, 8 * w, w, t * 100, 3 * t * 100 }
	}' > "$1/proc/diskstats.new"
	cat "$1/proc/diskstats.new" > "$1/proc/diskstats"	# in place: perflog keeps it open
}
generator() { # DIR N: rewrite at every x.5 s
	while :; do
		gen_once "$1" "$2"
		sleep "$(date +%N | awk '{ d = 1.5 - $1 / 1e9; if (d > 1) d -= 1; printf "%.3f", d }')"
	done
}

echo "== scale: 1 s, ${S} s measured per size, one counter per instance =="
printf '%6s %6s %6s %6s | %9s %9s | %8s %8s %8s %8s | %7s %7s %7s\n' disks ifaces files "join_s" \
	"cpu_ms" "us/file" "late_med" "late_max" "dur_med" "dur_max" "skipped" "behind" "gaps"
for n in $SIZES; do
	run=$BENCH_TMP/n$n
	mkdir -p "$run"
	make_root "$run/root" "$n"
	gen_once "$run/root" "$n"
	generator "$run/root" "$n" & GEN_PID=$!
	pairs=0 pre=""
	if [ $can_net = 1 ]; then
		NS=plbench$$n$n
		ip netns add "$NS"
		pairs=$((n * 3 / 10))
		i=0
		while [ $i -lt $pairs ]; do
			echo "link add va$i type veth peer name vb$i"; i=$((i + 1))
		done > "$run/links"
		ip -n "$NS" -batch "$run/links"
		pre="ip netns exec $NS"
	fi
	cat > "$run/scale.pml" <<PML
[log]
interval = 1
retention = 10m
name = scale
[counters]
\\LogicalDisk(*)\\% Disk Time
\\Network Interface(*)\\Bytes Total/sec
\\Processor(*)\\*
\\Memory\\*
\\System\\*
PML
	want=$((n + 2 * pairs))
	t0=$(date +%s.%N)
	PERFLOG_TRACE=$run/trace PERFLOG_PROC_ROOT=$run/root $pre "$PERFLOG" start -f \
		-c "$run/scale.pml" -o "$run/logs" >/dev/null 2>"$run/err" &
	pid=$!; bench_track $pid
	# wait until every disk and interface has its file
	while :; do
		have=$(grep -c '^counter.*\(LogicalDisk(fsd\|Network Interface(v[ab]\)' "$run/logs/scale/perflog.meta" 2>/dev/null)
		[ "${have:-0}" -ge $want ] && break
		kill -0 $pid 2>/dev/null || { echo "collector died:"; cat "$run/err"; exit 1; }
		sleep 0.5
	done
	t1=$(date +%s.%N)
	sleep 2
	lines0=$(wc -l < "$run/trace")
	c0=$(cpu_ns $pid); s0=$(date +%s.%N)
	sleep "$S"
	c1=$(cpu_ns $pid); s1=$(date +%s.%N)
	kill -TERM $pid; wait $pid 2>/dev/null
	kill $GEN_PID; GEN_PID=""
	files=$(ls "$run/logs/scale" | grep -c '\.rrd$')
	join=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	cpu=$(awk -v a="$c0" -v b="$c1" -v s="$s0" -v e="$s1" 'BEGIN { printf "%.3f", (b - a) / 1e6 / int(e - s + 0.5) }')
	per=$(awk -v c="$cpu" -v f="$files" 'BEGIN { printf "%.1f", c * 1000 / f }')
	tail -n +$((lines0 + 1)) "$run/trace" > "$run/trace.steady"
	late=$(awk '{ print ($2 - $1) * 1000 }' "$run/trace.steady" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f %.2f", v[int((NR + 1) / 2)], v[NR] }')
	dur=$(awk '{ print ($3 - $2) * 1000 }' "$run/trace.steady" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f %.1f", v[int((NR + 1) / 2)], v[NR] }')
	skipped=$(awk 'NR > 1 { d = $1 - p; if (d > 1.5) m += int(d + 0.5) - 1 } { p = $1 } END { print m + 0 }' "$run/trace")
	behind=$(grep -c "fell behind" "$run/err")
	gaps=0
	for f in "$run"/logs/scale/*.rrd; do
		rrdtool fetch "$f" AVERAGE -r 1 -s -500 | awk -F': ' '/^[0-9]+:/ {
			if ($2 ~ /nan/) { if (seen) pend++ } else { seen++; holes += pend; pend = 0 } }
			END { exit !(holes > 0 || seen == 0) }' && gaps=$((gaps + 1))
	done
	printf '%6d %6d %6d %6s | %9s %9s | %8s %8s %8s %8s | %7s %7s %7s\n' "$n" $((2 * pairs)) "$files" "$join" \
		"$cpu" "$per" $late $dur "$skipped" "$behind" "$gaps"
	[ -n "$NS" ] && ip netns del "$NS"; NS=""
	rm -rf "$run/logs"
done
echo "join_s: seconds until every instance had its RRD file; cpu_ms: CPU per sample after that;"
echo "late_*: sample start - deadline (ms); dur_*: sample start to written (ms);"
echo "skipped: deadlines skipped (whole run); behind: 'fell behind' complaints; gaps: files with"
echo "unknown rows between their first and last known row"

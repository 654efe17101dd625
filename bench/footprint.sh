#!/bin/sh
# bench/footprint.sh - a log set's size follows its duration (issue 14):
#
#   1. the demo's run (perflog run -i 1 around `perflog workload --scale
#      4`, as `make demo`): bytes of the log set it leaves
#   2. FOOTPRINT_SECONDS (300) at 1 s with the default counters, beside
#      `sadc -S XDISK` and `sadc -S DISK` for the same span: bytes measured,
#      and both projected to an hour exactly (perflog: the set's files grown
#      to the span the growth schedule gives at 3600 s, by the writer's own
#      code, build/tools/growto; sadc: its fixed record size per sample).
#      FOOTPRINT_SECONDS=3600 measures the hour itself.
#   3. the cost of a growth step against the file's size (build/tools/
#      growtime: a file of 7 data sources at 1 s, 3/4 full, grown from each
#      span of the schedule to the next)
#   4. (root) FOOTPRINT_IFACES (600) veth interfaces in a private network
#      namespace at 1 s, measured for FOOTPRINT_VETH_SECONDS (150) once all
#      have their files, which start at a 40 s span so growth steps of all
#      of them happen while measured:
#      interfaces not logged from the first row, files with a gap, CPU per
#      sample per file, sampling lateness while a growth step runs and
#      while none does, the growth steps' cost. PERFLOG_BASELINE=PATH runs
#      the same with another perflog binary (the one before growth) at
#      FOOTPRINT_BASE_IFACES (200) interfaces, and this one at that count.
. "$(dirname "$0")/lib.sh"
S=${FOOTPRINT_SECONDS:-300}
VS=${FOOTPRINT_VETH_SECONDS:-150}
IFACES=${FOOTPRINT_IFACES:-600}
TOOLS=$TOP/build/tools
NS=""
bench_extra_cleanup() { [ -n "$NS" ] && ip netns del "$NS" 2>/dev/null; }
make -s -C "$TOP" build/tools/growto build/tools/growtime >/dev/null || exit 1
mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1048576 }'; }

echo "== footprint: log set bytes against duration ($(nproc) CPUs, $(uname -r)) =="

# 1. the demo's run
d1=$BENCH_TMP/demo
mkdir -p "$d1/logs"
( cd "$d1" && "$PERFLOG" run -i 1 -o logs -l reference -- "$PERFLOG" workload --scale 4 \
	>/dev/null 2>"$d1/err" ) || { echo "demo run failed:"; cat "$d1/err"; }
set1=$(ls -d "$d1"/logs/*/ 2>/dev/null | head -1)
if [ -n "$set1" ]; then
	b=$(du -sb "$set1" | cut -f1)
	secs=$(( $(rrdtool last "$set1/Memory.rrd") - $(date -u -d "$(awk -F'\t' '$1 == "start" { print $2 }' "$set1/perflog.meta")" +%s) ))
	printf '1. make demo run: %s s, %s RRD files, log set %s (was 163 MB)\n' \
		"$secs" "$(ls "$set1" | grep -c '\.rrd$')" "$(mb "$b")"
fi

# 2. perflog beside sadc
d2=$BENCH_TMP/hour
mkdir -p "$d2"
set2=$("$PERFLOG" start -i 1 -o "$d2/logs") || exit 1
"$SADC" -S XDISK 1 "$d2/sa.xdisk" & x=$!; bench_track $x
"$SADC" -S DISK 1 "$d2/sa.disk" & y=$!; bench_track $y
sleep $((S / 2))
x1=$(stat -c %s "$d2/sa.xdisk"); y1=$(stat -c %s "$d2/sa.disk")
sleep $((S - S / 2))
x2=$(stat -c %s "$d2/sa.xdisk"); y2=$(stat -c %s "$d2/sa.disk")
kill $x $y
"$PERFLOG" stop "$set2" >/dev/null
p2=$(du -sb "$set2" | cut -f1)
mkdir -p "$d2/grow"
set -- $("$TOOLS/growto" "$set2" 3600 "$d2/grow")
ph=$1 span=$3
# sadc: one record per sample, its size fixed: extrapolate linearly
n2=$((S - S / 2))
xh=$(awk -v a="$x1" -v b="$x2" -v n="$n2" -v s="$S" 'BEGIN { printf "%.0f", b + (b - a) / n * (3600 - s) }')
yh=$(awk -v a="$y1" -v b="$y2" -v n="$n2" -v s="$S" 'BEGIN { printf "%.0f", b + (b - a) / n * (3600 - s) }')
printf '2. %s s at 1 s, default counters:  perflog %s   sadc -S XDISK %s   sadc -S DISK %s\n' \
	"$S" "$(mb "$p2")" "$(mb "$x2")" "$(mb "$y2")"
printf '   an hour (projected exactly):  perflog %s (files sized for %s s)   sadc -S XDISK %s   -S DISK %s\n' \
	"$(mb "$ph")" "$span" "$(mb "$xh")" "$(mb "$yh")"
printf '   ratio perflog / sadc -S XDISK: %s, / sadc -S DISK: %s (target: at most 2)\n' \
	"$(ratio "$ph" "$xh")" "$(ratio "$ph" "$yh")"

# 3. one growth step against the file's size
echo "3. growth step (7 data sources, 1 s, file 3/4 full): span -> span, bytes before -> after, ms"
mkdir -p "$BENCH_TMP/gt"
"$TOOLS/growtime" "$BENCH_TMP/gt" 7 | awk '{ printf "   %7d -> %7d s  %9d -> %9d B  %7.1f ms  (%.0f ms/MB)\n",
	$1, $2, $3, $4, $5, $5 / ($4 / 1048576) }'

# 4. many interfaces
veth_run() { # BINARY PAIRS DIR: the run; prints the figures
	bin=$1 pairs=$2 dir=$3
	mkdir -p "$dir"
	NS=plfp$$
	ip netns add "$NS" || return 1
	i=0
	while [ $i -lt "$pairs" ]; do
		echo "link add fa$i type veth peer name fb$i"; i=$((i + 1))
	done > "$dir/links"
	ip -n "$NS" -batch "$dir/links" || return 1
	: > "$dir/grow"
	printf '[log]\ninterval = 1\nname = v\n[counters]\n\\Network Interface(*)\\*\n\\Memory\\*\n' > "$dir/v.pml"
	PERFLOG_TEST_FIRST_SPAN=40 PERFLOG_TRACE=$dir/trace PERFLOG_GROW_TRACE=$dir/grow \
		ip netns exec "$NS" "$bin" start -f -c "$dir/v.pml" -o "$dir/logs" \
		>/dev/null 2>"$dir/err" &
	pid=$!; bench_track $pid
	# measured once every interface has its file (the collector before
	# growth created them for tens of seconds)
	j0=$(date +%s.%N)
	for _ in $(seq 1 600); do
		have=$(grep -c '^counter.*Network Interface(f[ab]' "$dir/logs/v/perflog.meta" 2>/dev/null)
		[ "${have:-0}" -ge $((2 * pairs)) ] && break
		sleep 0.2
	done
	join=$(awk -v a="$j0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	sleep 2
	l0=$(wc -l < "$dir/trace"); c0=$(cpu_ns $pid); t0=$(date +%s.%N)
	sleep "$VS"
	c1=$(cpu_ns $pid); t1=$(date +%s.%N)
	kill -TERM $pid; wait $pid 2>/dev/null
	ip netns del "$NS"; NS=""
	set=$dir/logs/v
	start=$(date -u -d "$(awk -F'\t' '$1 == "start" { print $2 }' "$set/perflog.meta")" +%s)
	files=$(ls "$set" | grep -c '\.rrd$')
	late_join=0 gaps=0
	for f in "$set"/NetworkInterface-f*.rrd; do
		set -- $(rrdtool fetch "$f" AVERAGE -r 1 -s "$start" | awk -F': ' '/^[0-9]+:/ {
			if ($2 ~ /nan/) { if (seen) pend++ } else { if (!seen) first = $1; seen++; holes += pend; pend = 0 } }
			END { print first + 0, holes + 0 }')
		[ "$1" -gt $((start + 1)) ] && late_join=$((late_join + 1))
		[ "$2" -gt 0 ] && gaps=$((gaps + 1))
	done
	samples=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", b - a + 0.5 }')
	us=$(awk -v a="$c0" -v b="$c1" -v n="$samples" -v f="$files" 'BEGIN { printf "%.1f", (b - a) / 1e3 / n / f }')
	ms=$(awk -v a="$c0" -v b="$c1" -v n="$samples" 'BEGIN { printf "%.2f", (b - a) / 1e6 / n }')
	# lateness of the samples taken while a growth step ran, and the others
	tail -n +$((l0 + 1)) "$dir/trace" > "$dir/trace.steady"
	lat=$(awk 'NR == FNR { if ($1 == "grow") { s[++n] = $6; e[n] = $6 + $5 / 1000 } next }
		{ l = ($2 - $1) * 1000; g = 0; for (i = 1; i <= n; i++) if ($2 >= s[i] && $2 <= e[i]) g = 1
		  if (g) { gs += l; gn++; if (l > gm) gm = l } else { os += l; on++; if (l > om) om = l } }
		END { printf "%.2f/%.1f ms (%d samples) vs %.2f/%.1f ms (%d)", gn ? gs / gn : 0, gm, gn, on ? os / on : 0, om, on }' \
		"$dir/grow" "$dir/trace.steady")
	steps=$(awk '$1 == "grow" && $7 == "ok" { n++; ms += $5; b += $4 } END { printf "%d growth jobs, %.1f ms and %.0f KB each on average", n, n ? ms / n : 0, n ? b / n / 1024 : 0 }' "$dir/grow")
	printf '   %s: %d interfaces, %d files (all mapped after %s s): %d not logged from the first row, %d with a gap; CPU %s ms/sample, %s us per file\n' \
		"$bin" $((2 * pairs)) "$files" "$join" "$late_join" "$gaps" "$ms" "$us"
	printf '     lateness mean/max while a growth step runs: %s otherwise; %s; log set %s\n' \
		"$lat" "$steps" "$(mb "$(du -sb "$set" | cut -f1)")"
}
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
	echo "4. $IFACES veth interfaces in a namespace at 1 s, ${VS} s, first span 40 s (grows at 30, 60, 120 s)"
	veth_run "$PERFLOG" $((IFACES / 2)) "$BENCH_TMP/v" ||
		echo "   (could not create the interfaces)"
	if [ -n "${PERFLOG_BASELINE:-}" ]; then
		b=${FOOTPRINT_BASE_IFACES:-200}
		echo "   at $b interfaces, this perflog and $PERFLOG_BASELINE:"
		veth_run "$PERFLOG" $((b / 2)) "$BENCH_TMP/vb1"
		veth_run "$PERFLOG_BASELINE" $((b / 2)) "$BENCH_TMP/vb2"
	fi
else
	echo "4. (needs root for a network namespace: skipped)"
fi

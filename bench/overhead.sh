#!/bin/sh
# bench/overhead.sh - perflog's collector beside sysstat's sadc, logging the
# same machine at 1 s for the same span, at the same time:
#   CPU time per sample (steady state: from the WARMUP-th second to the end,
#   so RRD file creation at start is not spread over the samples), peak RSS
#   (VmHWM), and the ratios perflog/sadc.
# Three runs: perflog's default set vs `sadc -S DISK` (Debian's sa1
# default, which covers the same objects); every counter of every
# instance (bench/lib.sh all_counters_pml) vs `sadc -S XALL`; then the
# default set with a watched command (`perflog run` joined to the
# collector, a client of BENCH_THREADS threads each waiting on a socket
# with a 20 ms timeout), where the collector's CPU is every thread's: its
# loop (the Process object, the cgroup's counters, the wait-state reads)
# and the wait-state sampler's own thread.
#
#   BENCH_SECONDS=60   measured span per run (after WARMUP)
#   BENCH_WARMUP=10    seconds before the first reading (RRD files of
#                      every instance are created during the first samples)
# Beside each pair, build/tools/samplefloor three times (a 1 s wake alone;
# and the default set's nine /proc preads; and the journal's write and
# its fdatasync every 5 s; each at its own quarter of the second, so
# none reads with caches another warmed): what any sampler of the same
# files at the same rate pays on this host, as a share of sadc's CPU in
# the same span.
# CPU time is read from /proc/PID/schedstat (ns, exact); utime+stime from
# /proc/PID/stat (10 ms ticks) is printed beside it as a cross-check.
# Each run ends with the collector's own cost table over the same span
# (`perflog status --json` cost_us, collector/cost.c): the loop's stages
# (read, rates, watch, select, write) and, inside the read, each part of
# the source, in microseconds a sample (wall time on the monotonic clock,
# so a loaded machine's waits are in it; the CPU figure above is not).
#   PERFLOG_COST_CLOCK=cpu   the table in the loop thread's CPU time
#                      instead (the collector's clock reads become system
#                      calls, some 20 a sample more: take the ratios from a
#                      run without it), and the loop's CPU the stages
#                      leave out (its wait and wake between samples).
. "$(dirname "$0")/lib.sh"
D=${BENCH_SECONDS:-60}
W=${BENCH_WARMUP:-10}
[ -x "$SADC" ] || { echo "overhead: $SADC not found (apt-get install sysstat)"; exit 0; }

run_pair() { # label pml-or-empty sadc-option
	label=$1 pml=$2 sopt=$3
	out=$BENCH_TMP/$label
	mkdir -p "$out"
	if [ -n "$pml" ]; then
		"$PERFLOG" start -f -c "$pml" -o "$out" -i 1 >/dev/null 2>"$out/perflog.err" &
	else
		"$PERFLOG" start -f -o "$out" -i 1 >/dev/null 2>"$out/perflog.err" &
	fi
	ppid=$!; bench_track $ppid
	"$SADC" -S "$sopt" 1 "$out/sa.data" 2>"$out/sadc.err" &
	spid=$!; bench_track $spid
	fpids=""
	for part in wake read "journal $out/floor.journal"; do
		$FLOOR $part & fpids="$fpids $!"; bench_track $!
	done
	sleep "$W"
	p0=$(cpu_ns $ppid) s0=$(cpu_ns $spid) pt0=$(cpu_ticks $ppid) st0=$(cpu_ticks $spid)
	f0=$(for f in $fpids; do cpu_ns $f; done)
	t0=$(date +%s.%N)
	c0=$(cost_snap)
	sleep "$D"
	p1=$(cpu_ns $ppid) s1=$(cpu_ns $spid) pt1=$(cpu_ticks $ppid) st1=$(cpu_ticks $spid)
	f1=$(for f in $fpids; do cpu_ns $f; done)
	t1=$(date +%s.%N)
	c1=$(cost_snap)
	kill -TERM $fpids; wait $fpids 2>/dev/null
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	ph=$(hwm_kb $ppid) sh=$(hwm_kb $spid)
	prss=$(awk '/^VmRSS:/ { print $2 }' /proc/$ppid/status)
	panon=$(awk '/^RssAnon:/ { print $2 }' /proc/$ppid/status)
	ppss=$(awk '/^Pss:/ { print $2 }' /proc/$ppid/smaps_rollup 2>/dev/null)
	spss=$(awk '/^Pss:/ { print $2 }' /proc/$spid/smaps_rollup 2>/dev/null)
	kill -TERM $ppid $spid; wait $ppid 2>/dev/null; wait $spid 2>/dev/null
	n=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", b - a + 0.5 }')
	files=$(ls "$out"/*/*.rrd 2>/dev/null | wc -l)
	dss=$(grep -c '^counter' "$out"/*/perflog.meta 2>/dev/null)
	pc=$(awk -v a="$p0" -v b="$p1" -v n="$n" 'BEGIN { printf "%.3f", (b - a) / n / 1e6 }')
	sc=$(awk -v a="$s0" -v b="$s1" -v n="$n" 'BEGIN { printf "%.3f", (b - a) / n / 1e6 }')
	ptk=$(awk -v a="$pt0" -v b="$pt1" -v n="$n" 'BEGIN { printf "%.2f", (b - a) * 10 / n }')
	stk=$(awk -v a="$st0" -v b="$st1" -v n="$n" 'BEGIN { printf "%.2f", (b - a) * 10 / n }')
	printf '%-8s %3d samples  %4d RRD files %5d counters\n' "$label" "$n" "$files" "$dss"
	printf '  CPU/sample ms   perflog %7s  sadc -S %-5s %7s  ratio %s   (stat ticks: %s vs %s)\n' \
		"$pc" "$sopt" "$sc" "$(ratio $pc $sc)" "$ptk" "$stk"
	printf '  peak RSS kB     perflog %7s  sadc -S %-5s %7s  ratio %s\n' \
		"$ph" "$sopt" "$sh" "$(ratio $ph $sh)"
	printf '  perflog at the end: VmRSS %s kB, RssAnon %s kB (its own memory), Pss %s kB (sadc Pss %s kB)\n' \
		"$prss" "$panon" "$ppss" "$spss"
	echo $f0 $f1 | awk -v n="$n" -v sc="$sc" '{
		printf "  floor ms        a 1 s wake %.3f, + nine preads %.3f, + the journal %.3f: %.2f of sadc\n",
			($4 - $1) / n / 1e6, ($5 - $2) / n / 1e6, ($6 - $3) / n / 1e6,
			(sc > 0 ? ($6 - $3) / n / 1e6 / sc : 0) }'
	cost_table "$c0" "$c1" "$pc"
	printf '  load average at the end: %s\n' "$load"
	if [ -s "$out/perflog.err" ]; then sed 's/^/  perflog: /' "$out/perflog.err" | head -5; fi
}

# The default set with a command watched for the whole measured span.
run_watched() {
	out=$BENCH_TMP/watched
	mkdir -p "$out"
	"$PERFLOG" start -f -o "$out" -i 1 >/dev/null 2>"$out/perflog.err" &
	ppid=$!; bench_track $ppid
	"$SADC" -S DISK 1 "$out/sa.data" 2>"$out/sadc.err" &
	spid=$!; bench_track $spid
	sleep 2
	"$PERFLOG" run -o "$out" -l bench -- "$LOADGEN" threads "$T" $((W + D + 5)) \
		>/dev/null 2>"$out/run.err" &
	rpid=$!; bench_track $rpid
	sleep "$W"
	p0=$(cpu_ns_all $ppid) m0=$(cpu_ns $ppid) s0=$(cpu_ns $spid) r0=$(cpu_ns_all $rpid)
	t0=$(date +%s.%N)
	c0=$(cost_snap)
	sleep "$D"
	p1=$(cpu_ns_all $ppid) m1=$(cpu_ns $ppid) s1=$(cpu_ns $spid) r1=$(cpu_ns_all $rpid)
	t1=$(date +%s.%N)
	c1=$(cost_snap)
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	nthreads=$(ls /proc/$ppid/task | wc -l)
	kill -TERM $spid; wait $spid 2>/dev/null
	wait $rpid 2>/dev/null
	kill -TERM $ppid; wait $ppid 2>/dev/null
	n=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", b - a + 0.5 }')
	per() { awk -v a="$1" -v b="$2" -v n="$n" 'BEGIN { printf "%.3f", (b - a) / n / 1e6 }'; }
	pc=$(per $p0 $p1) mc=$(per $m0 $m1) sc=$(per $s0 $s1) rc=$(per $r0 $r1)
	hz=$(grep -o 'waits.hz=[0-9.]*' "$out"/*/markers.tsv | cut -d= -f2)
	printf 'watched  %3d samples, Process(bench): %s threads waiting on sockets, sampled at %s Hz\n' \
		"$n" "$T" "${hz:-?}"
	printf '  CPU/sample ms   perflog %7s  sadc -S DISK  %7s  ratio %s   (collector threads: %s)\n' \
		"$pc" "$sc" "$(ratio $pc $sc)" "$nthreads"
	printf '  of which        loop %s ms, wait-state sampler thread %s ms (%s%% of one CPU); perflog run itself %s ms\n' \
		"$mc" "$(awk -v a="$pc" -v b="$mc" 'BEGIN { printf "%.3f", a - b }')" \
		"$(awk -v a="$pc" -v b="$mc" 'BEGIN { printf "%.2f", (a - b) / 10 }')" "$rc"
	cost_table "$c0" "$c1" "$mc"
	printf '  load average at the end: %s\n' "$load"
	if [ -s "$out/perflog.err" ]; then sed 's/^/  perflog: /' "$out/perflog.err" | head -5; fi
}

T=${BENCH_THREADS:-16}
LOADGEN=$TOP/build/tools/loadgen
FLOOR=$TOP/build/tools/samplefloor
for tool in "$LOADGEN" "$FLOOR"; do
	[ -x "$tool" ] || make -s -C "$TOP" "${tool#$TOP/}" >/dev/null || exit 1
done
echo "== overhead: perflog vs sadc at 1 s, ${D} s measured after ${W} s warm-up ($(nproc) CPUs, $(uname -r)) =="
run_pair default "" DISK
all_counters_pml "$BENCH_TMP/all.pml"
run_pair all "$BENCH_TMP/all.pml" XALL
run_watched

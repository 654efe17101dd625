#!/bin/sh
# A child that lives between two samples of a PID watch has its own
# wait-state row (issue 29: a watch by PID or name= hands its tree to the
# wait-state sampler at each of the collector's samples, so a child done
# within one interval was never read, and a shell's loop of short jobs
# showed the shell waiting and no job). Here a shell, watched by PID at
# -i 1, runs six jobs of 0.15 s (loadgen burn), 0.6 s apart: the
# sampler, which sees the shell wait for its child, reads each job
# itself. At least five of the six get a row in waits-S.tsv (none did
# before, in a run where the shell's own row was there).
# And the shell ends before `mark --end`, as a client watched by PID
# does before the tester marks the end: its session's wait states were
# lost with its slot (no waits= field, no file); they are now written
# when the tree ends and given to the end marker.
. "$(dirname "$0")/lib.sh"
LOADGEN=$TOP/build/tools/loadgen
[ -x "$LOADGEN" ] || skip_all "build/tools/loadgen not built (make check builds it)"
LS=$($PERFLOG start -o "$SCRATCH/logs" -i 1)
[ -d "$LS" ] || { echo "Bail out! perflog start failed"; exit 1; }
field() { grep -P "\t$1\t$2\t" "$LS/markers.tsv" | tail -n 1 | tr '\t' '\n' | sed -n "s/^$3=//p"; }

sh -c 'sleep 1.5; for i in 1 2 3 4 5 6; do "$0" burn 0.15 >>"$1"; sleep 0.6; done' \
	"$LOADGEN" "$SCRATCH/jobs" &
p=$!
track_pid $p
$PERFLOG mark -d "$LS" --begin -s short --watch "$p" go 2>"$SCRATCH/m.err"
is "$?" 0 'the shell is watched by PID'
wait $p
sleep 1.2	# a sample after the last job
$PERFLOG mark -d "$LS" --end -s short done 2>>"$SCRATCH/m.err"
w=$(field end short waits)
rows=$(awk -F'\t' 'NR > 1 && $2 == "loadgen"' "$LS/$w" 2>/dev/null | wc -l)
diag "waits file $w: $(awk -F'\t' 'NR > 1 { print $2 }' "$LS/$w" 2>/dev/null | sort | uniq -c | tr '\n' ' ')"
ok "at least five of the six short jobs have a row ($rows)" test "$rows" -ge 5
ok '... and the shell its own' sh -c "awk -F'\t' -v p=$p 'NR > 1 && \$1 == p' '$LS/$w' | grep -q ."
is "$(cat "$SCRATCH/m.err")" "" 'no mark complained'

# A parent that never waits for its children (it reaps them in a
# SIGCHLD handler, as daemons do): the sampler sees no thread of the set
# waiting for a child, and a job of 0.15 s lives between two samples, so
# no tick lists it. Its row comes from its exit record, which the
# collector's books already took as the tree's (waits.h waits_exits).
# Before: the parent's row alone, no job's.
if [ "$(id -u)" != 0 ]; then
	# (exit records come from taskstats, which needs root)
	for i in 1 2 3 4; do skip 'reaped: exit records need root (taskstats)'; done
else
	cat >"$SCRATCH/reaper.py" <<'EOF'
import os, signal, sys, time
signal.signal(signal.SIGCHLD, lambda s, f: os.waitpid(-1, os.WNOHANG))
time.sleep(1.5)
for i in range(6):
    if os.fork() == 0:
        os.execv(sys.argv[1], [sys.argv[1], "burn", "0.15"])
    time.sleep(0.6)
EOF
	python3 "$SCRATCH/reaper.py" "$LOADGEN" >"$SCRATCH/jobs2" &
	p=$!
	track_pid $p
	$PERFLOG mark -d "$LS" --begin -s reaped --watch "$p" go 2>"$SCRATCH/m.err"
	is "$?" 0 'a parent that reaps in a signal handler is watched by PID'
	wait $p
	sleep 1.2
	$PERFLOG mark -d "$LS" --end -s reaped done 2>>"$SCRATCH/m.err"
	w=$(field end reaped waits)
	diag "waits file $w: $(awk -F'\t' 'NR > 1 { print $2 }' "$LS/$w" 2>/dev/null | sort | uniq -c | tr '\n' ' ')"
	rows=$(awk -F'\t' 'NR > 1 && $2 == "loadgen"' "$LS/$w" 2>/dev/null | wc -l)
	ok "the six jobs it never waited for have a row each ($rows)" test "$rows" -eq 6
	# their CPU time is the records' (each job printed its own, getrusage
	# at its end): the record counts in the kernel's ticks (4 ms here at 250
	# Hz; 10 ms at 100), so the sums agree within 10 ms a job
	cpu=$(awk -F'\t' 'NR > 1 && $2 == "loadgen" { s += $5 } END { printf "%.3f", s }' "$LS/$w" 2>/dev/null)
	own=$(awk '{ s += $1 } END { printf "%.3f", s }' "$SCRATCH/jobs2")
	ok "... with the CPU time they used: $cpu s, they say $own s" \
		awk -v a="$cpu" -v b="$own" 'BEGIN { d = a - b; exit !(b > 0 && d < 0.06 && d > -0.06) }'
	is "$(cat "$SCRATCH/m.err")" "" 'no mark complained'
fi
$PERFLOG stop "$LS" >/dev/null
done_testing

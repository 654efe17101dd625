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
$PERFLOG stop "$LS" >/dev/null
done_testing

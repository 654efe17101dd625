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
	for i in 1 2 3 4 5; do skip 'reaped: exit records need root (taskstats)'; done
else
	# (the handler reads each job's CPU time as the scheduler ran it,
	# /proc/PID/schedstat's, from its zombie: its final figure, exit
	# included)
	cat >"$SCRATCH/reaper.py" <<'EOF'
import os, signal, sys, time
def reap(sig, frame):
    try:
        while True:
            r = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if r is None:
                return
            with open("/proc/%d/schedstat" % r.si_pid) as f:
                ns = int(f.read().split()[0])
            with open(os.path.join(sys.argv[2], str(r.si_pid)), "w") as o:
                o.write("%.6f\n" % (ns / 1e9))
            os.waitpid(r.si_pid, 0)
    except (ChildProcessError, FileNotFoundError):
        pass    # none left, or reaped by a handler run within this one
signal.signal(signal.SIGCHLD, reap)
time.sleep(1.5)
for i in range(6):
    if os.fork() == 0:
        os.execv(sys.argv[1], [sys.argv[1], "burn", "0.15"])
    time.sleep(0.6)
EOF
	# the kernel's exit records of the jobs, as the collector gets them
	$TOP/build/tools/exitrecs "$SCRATCH/recs" loadgen &
	rp=$!
	track_pid $rp
	wait_for 10 test -e "$SCRATCH/recs.ready"
	mkdir "$SCRATCH/ran"
	python3 "$SCRATCH/reaper.py" "$LOADGEN" "$SCRATCH/ran" >"$SCRATCH/jobs2" &
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
	# Their CPU time is the kernel's, once: each job's row holds its exit
	# record's figure, or the last a tick read when one listed the job
	# (the larger of the two, waits/waitexit.c raise_to; the read's alone
	# when the record came after a read took the row). A read is the
	# scheduler's count (schedstat), at most the job's final one read
	# from its zombie; the record counts by the scheduler's ticks (a
	# whole tick to the task running when it comes), and beside other
	# work the two part by more than a tick a job, the record mostly the
	# larger: 0.640 s of records against 0.557 s by the jobs' getrusage in
	# a loaded make check, 0.160 against 0.125 beside stress-ng --cpu 2
	# read with no perflog in the path (tests/tools/exitrecs.c). So a row
	# lies between the two figures of its job, to the file's ms: a job
	# counted twice, or a row short of both, is outside.
	kill -TERM $rp; wait $rp
	awk -F'\t' 'NR > 1 && $2 == "loadgen" { print $1, $5 }' "$LS/$w" 2>/dev/null | sort >"$SCRATCH/rows"
	(cd "$SCRATCH/ran" && for j in *; do echo "$j $(cat "$j")"; done) | sort >"$SCRATCH/ran.jobs"
	awk -v p=$p '$2 == p { print $1, $3 / 1e6 }' "$SCRATCH/recs" | sort >"$SCRATCH/recs.jobs"
	join -a 1 -e - -o 0,1.2,2.2 "$SCRATCH/ran.jobs" "$SCRATCH/recs.jobs" |
		join -a 1 -e - -o 0,1.2,1.3,2.2 - "$SCRATCH/rows" >"$SCRATCH/jobs.cmp"
	sed 's/^/# job, ran, record, row: /' "$SCRATCH/jobs.cmp"
	grep -qx lost "$SCRATCH/recs" && diag "exitrecs: the kernel dropped records"
	cpu=$(awk '{ s += $4 } END { printf "%.3f", s }' "$SCRATCH/jobs.cmp")
	rec=$(awk '{ s += $3 } END { printf "%.3f", s }' "$SCRATCH/jobs.cmp")
	ran=$(awk '{ s += $2 } END { printf "%.3f", s }' "$SCRATCH/jobs.cmp")
	own=$(awk '{ s += $1 } END { printf "%.3f", s }' "$SCRATCH/jobs2")
	# Counted once: no row over the larger of its job's two figures
	# (a job counted twice is), nor a job without a record or a row
	ok "... each counted once, at most the CPU time the kernel counted: $cpu s, the records $rec s, the scheduler $ran s (they say $own s)" \
		awk '$3 == "-" || $4 == "-" { print "job " $1 ": no record or no row"; bad = 1; next }
		{ hi = ($3 > $2 ? $3 : $2) + 0.0005 }
		$4 > hi + 1e-9 { print "job " $1 ": row " $4 " over " hi; bad = 1 }
		END { exit bad || NR != 6 }' "$SCRATCH/jobs.cmp"
	# TODO (stop 58): and none short of the smaller. A row short of
	# both by the job's exit, 0.3-1 ms after the last read of it (row
	# 0.159 against its record's 0.160 and its final schedstat 0.1596),
	# in 5 runs of 6 here with this stop's binary and 2 of 3 with stop
	# 57's, on a quiet machine, and in a clean make check: the record of
	# such a job is taken as no row's (the sampler's gone table had no
	# entry of it, and no tick listed it when it came), so the read's
	# figure stands. Checked as a TODO until the record is matched.
	TAP_TODO="a job's row short of its record by its exit's CPU (the record matched to no row)"
	ok "... and at least the smaller of the two" \
		awk '$3 == "-" || $4 == "-" { next }
		{ lo = ($3 < $2 ? $3 : $2) - 0.0005 }
		$4 < lo - 1e-9 { print "job " $1 ": row " $4 " under " lo; bad = 1 }
		END { exit bad }' "$SCRATCH/jobs.cmp"
	TAP_TODO=
	is "$(cat "$SCRATCH/m.err")" "" 'no mark complained'
fi
$PERFLOG stop "$LS" >/dev/null
done_testing

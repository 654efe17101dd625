#!/bin/bash
# Late samples (issue 11, item 6): the collector is stopped (SIGSTOP) for
# 2.6 s mid-run at -i 1, as a stalled machine would stop it. Its next read
# covers the whole stall; its average was measured, so the rows it covers
# hold it (before: the 2-step heartbeat made them unknown). Time that was
# not measured stays unknown: the wall clock stepped 20 s forward (the
# test seam of t7300) leaves those 20 rows empty although 20 s is under
# the one-minute limit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
LOGS=$SCRATCH/logs
OFF=$SCRATCH/clock-offset
echo 0 > $OFF
export PERFLOG_TEST_CLOCK_OFFSET_FILE=$OFF

start_fg $PERFLOG start -f -o $LOGS -i 1
ok 'collector started' test -f "$dir/perflog.meta"
sleep 3.3
kill -STOP $fg
sleep 2.6
kill -CONT $fg
sleep 3.2
echo 20 > $OFF			# the wall clock jumps 20 s forward
sleep 3.2
kill -TERM $fg
wait $fg
is "$?" 0 'the collector exits 0 after the stall and the step'

$PERFLOG export "$dir" --csv $SCRATCH/c.csv
mem=$(csv_col $SCRATCH/c.csv 'Memory\Available Bytes')
cs=$(csv_col $SCRATCH/c.csv 'System\Context Switches/sec')
# rows between the first and the last known one: the unknown ones, and
# runs of identical context-switch rates (one read filling several rows)
tail -n +2 $SCRATCH/c.csv | awk -F, -v m="$mem" -v c="$cs" '
	{ t[NR] = $1; k[NR] = ($m != ""); v[NR] = $c }
	k[NR] && !first { first = NR }
	k[NR] { last = NR }
	END {
		for (i = first; i <= last; i++) if (!k[i]) u++
		for (i = first + 1; i <= last; i++)
			if (k[i] && k[i - 1] && v[i] != "" && v[i] == v[i - 1]) {
				run++; if (run > best) best = run
			} else run = 0
		print u + 0, best + 1, last - first + 1
	}' > $SCRATCH/counts
read -r unknown same rows < $SCRATCH/counts
diag "rows $rows, unknown $unknown, longest run of one read's value $same"
ok "the stall's rows hold the late read's average ($same rows of one value)" test "$same" -ge 2
ok "the 20 s the clock skipped stay unknown ($unknown rows), nothing else" test "$unknown" -ge 19 -a "$unknown" -le 21
ok 'the collector said it fell behind' grep -q 'fell behind' $SCRATCH/fg.err
done_testing

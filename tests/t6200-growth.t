#!/bin/bash
# Log sets that grow with the run (issue 14), end to end. A run at 1 s
# whose files start sized for 4 s ($PERFLOG_TEST_FIRST_SPAN, logs/layout.h)
# grows three times in 20 s (4 -> 8 -> 16 -> 32 s), beside a run that
# never grows (the first span of an hour). While it runs, a reader reads
# the growing files every 0.2 s: it never meets a half file, and a row it
# has seen never changes or disappears. Afterwards: the files did grow,
# there is no gap at any growth step, `rrdtool fetch` and the CSV export
# agree, and both runs logged the same seconds. Then kill -9 during a
# growth step (the worker made slow by $PERFLOG_TEST_GROW_DELAY): of the
# collector alone, and of the collector and its worker; the set stays
# readable either way. (Exactness, row by row and archive by archive, is
# tests/unit/test_grow.c.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
LOGS=$SCRATCH/logs
cat > $SCRATCH/s.pml <<'PML'
[log]
interval = 1
[counters]
\Memory\*
\System\*
\Processor(_Total)\*
PML

PERFLOG_TEST_FIRST_SPAN=4 PERFLOG_GROW_TRACE=$SCRATCH/grow.trace \
	$PERFLOG start -f -c $SCRATCH/s.pml -o $LOGS/g > $SCRATCH/g.out 2> $SCRATCH/g.err &
g=$!
track_pid $g
$PERFLOG start -f -c $SCRATCH/s.pml -o $LOGS/n > $SCRATCH/n.out 2> $SCRATCH/n.err &
n=$!
track_pid $n
wait_for 15 test -s $SCRATCH/g.out -a -s $SCRATCH/n.out || { echo "# did not start"; cat $SCRATCH/g.err $SCRATCH/n.err; }
gdir=$(head -1 $SCRATCH/g.out)
ndir=$(head -1 $SCRATCH/n.out)
ok 'both collectors started' test -f "$gdir/System.rrd" -a -f "$ndir/System.rrd"

# the reader: every 0.2 s, rrdtool info and fetch of the growing files
# (the last 3 s: a stock rrdtool fetch of a span longer than the file is
# sized for may be answered from a coarser archive; logs/layout.h)
(
	while :; do
		for f in System Memory; do
			rrdtool info "$gdir/$f.rrd" > /dev/null 2>&1 || echo "info failed: $f" >&2
			rrdtool fetch "$gdir/$f.rrd" AVERAGE -r 1 -s -3 2>/dev/null |
				awk -v f=$f '/^[0-9]+:/ && $2 !~ /nan/ { print f, $0 }' ||
				echo "fetch failed: $f" >&2
		done
		sleep 0.2
	done
) > $SCRATCH/seen 2> $SCRATCH/reader.err &
reader=$!
track_pid $reader
sleep 20
kill $reader; wait $reader 2>/dev/null
ok 'stop the growing run' $PERFLOG stop "$gdir"
ok 'stop the other' $PERFLOG stop "$ndir"
wait $g $n

ok 'the reader never met a half file' test ! -s $SCRATCH/reader.err
sed 's/^/#   /' $SCRATCH/reader.err | head -5
grows=$(grep -c '^grow System.rrd .* ok$' $SCRATCH/grow.trace)
ok "System.rrd grew three times or more ($grows)" test "$grows" -ge 3
is "$(rrdtool info $gdir/System.rrd | awk '/^rra\[0\].rows/ { print $3 }')" 32 'it holds 32 s at full resolution now'
is "$(rrdtool info $ndir/System.rrd | awk '/^rra\[0\].rows/ { print $3 }')" 3600 'the other run still an hour'
ok 'no failure reported' test ! -s $SCRATCH/g.err

# a row seen while running is in the final file, the same
gstart=$(date -u -d "$(awk -F'\t' '$1 == "start" { print $2 }' $gdir/perflog.meta)" +%s)
sort -u $SCRATCH/seen > $SCRATCH/seen.u
for f in System Memory; do
	rrdtool fetch "$gdir/$f.rrd" AVERAGE -r 1 -s $gstart |
		awk -v f=$f '/^[0-9]+:/ && $2 !~ /nan/ { print f, $0 }'
done | sort -u > $SCRATCH/final
changed=$(comm -23 $SCRATCH/seen.u $SCRATCH/final | wc -l)
ok "every row seen while growing is in the final files unchanged ($(wc -l < $SCRATCH/seen.u) seen, $changed not)" test "$changed" = 0

# no gap: a row with values for every second of the run, in both runs
$PERFLOG export "$gdir" --csv $SCRATCH/g.csv
$PERFLOG export "$ndir" --csv $SCRATCH/n.csv
unknown_rows() { tail -n +2 "$1" | grep -c ',,\|,$'; }
is "$(unknown_rows $SCRATCH/g.csv)" 0 'the growing run: no empty cell in any row'
is "$(unknown_rows $SCRATCH/n.csv)" 0 'the other run: none either'
gn=$(($(wc -l < $SCRATCH/g.csv) - 1)); nn=$(($(wc -l < $SCRATCH/n.csv) - 1))
ok "both runs have a row per second ($gn and $nn rows)" test "$gn" -ge 18 -a "$nn" -ge 18
common=$(comm -12 <(cut -d, -f1 $SCRATCH/g.csv | sort) <(cut -d, -f1 $SCRATCH/n.csv | sort) | wc -l)
ok "the same seconds ($common in common)" test "$common" -ge $((gn - 2))
# the two runs measured the same machine over the same seconds: their
# means agree (two collectors never read at the same instant, so not to
# the digit; tests/unit/test_grow.c has the same samples agree exactly)
mean() { # CSV COLUMN-SUFFIX
	c=$(csv_col "$1" "$2")
	tail -n +2 "$1" | awk -F, -v c="$c" '$c != "" { s += $c; n++ } END { printf "%.6g\n", n ? s / n : -1 }'
}
near "$(mean $SCRATCH/g.csv 'Memory\Available Bytes')" "$(mean $SCRATCH/n.csv 'Memory\Available Bytes')" 0.02 \
	'Memory\Available Bytes: the grown and the never grown run agree'
a=$(mean $SCRATCH/g.csv 'Processor(_Total)\% Processor Time')
b=$(mean $SCRATCH/n.csv 'Processor(_Total)\% Processor Time')
ok "Processor(_Total)\\% Processor Time: within 2 points ($a vs $b)" \
	awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; exit !(a >= 0 && b >= 0 && d < 2 && d > -2) }'

# rrdtool fetch and the export agree, value for value
c=$(csv_col $SCRATCH/g.csv 'System\Context Switches/sec')
ok 'the export has the column' test -n "$c"
tail -n +2 $SCRATCH/g.csv | cut -d, -f1,$c | while IFS=, read -r t v; do
	echo "$(date -u -d "$t" +%s) $v"
done > $SCRATCH/csv.vals
rrdtool fetch $gdir/System.rrd AVERAGE -r 1 -s $gstart | tr -d : |
	awk '/^[0-9]+ / { print $1, $3 }' > $SCRATCH/rrd.vals
set -- $(awk 'NR == FNR { v[$1] = $2; next } ($1 in v) { n++; d = v[$1] - $2
	if (d < 0) d = -d; a = $2 < 0 ? -$2 : $2; if (d > 1e-9 * a + 1e-9) bad++ }
	END { print n + 0, bad + 0 }' $SCRATCH/csv.vals $SCRATCH/rrd.vals)
ok "rrdtool fetch and the CSV export agree ($1 rows compared, $2 differ)" test "$1" -ge 18 -a "$2" = 0

# kill -9 of the collector during a growth step: the worker finishes
export PERFLOG_TEST_FIRST_SPAN=4 PERFLOG_TEST_GROW_DELAY=2
$PERFLOG start -f -c $SCRATCH/s.pml -o $LOGS/k1 > $SCRATCH/k1.out 2>&1 &
k1=$!
track_pid $k1
wait_for 15 test -s $SCRATCH/k1.out
dir=$(head -1 $SCRATCH/k1.out)
wait_for 10 sh -c "ls -a '$dir' | grep -q '^\.grow'"
ok 'a growth step is under way' sh -c "ls -a '$dir' | grep -q '^\.grow'"
kill -9 $k1; wait $k1 2>/dev/null
ok 'killed mid-step: every file passes rrdtool info' rrds_ok "$dir"
ok 'and exports' $PERFLOG export "$dir" --csv $SCRATCH/k1.csv
wait_for 5 sh -c "! ls -a '$dir' | grep -q '^\.grow'"
ok 'the worker finished its step on its own' sh -c "! ls -a '$dir' | grep -q '^\.grow'"
ok 'every file still whole' rrds_ok "$dir"
ok 'and the set exports' $PERFLOG export "$dir" --csv $SCRATCH/k1b.csv

# kill -9 of the collector and its worker mid-step: the old files stay
$PERFLOG start -f -c $SCRATCH/s.pml -o $LOGS/k2 > $SCRATCH/k2.out 2>&1 &
k2=$!
track_pid $k2
wait_for 15 test -s $SCRATCH/k2.out
dir=$(head -1 $SCRATCH/k2.out)
wait_for 10 sh -c "ls -a '$dir' | grep -q '^\.grow'"
worker=$(cat /proc/$k2/task/$k2/children 2>/dev/null | awk '{ print $1 }')
ok "the worker is running ($worker)" test -n "$worker"
kill -9 $k2 $worker; wait $k2 2>/dev/null
wait_gone "$worker"
ok 'both killed mid-step: every file passes rrdtool info' rrds_ok "$dir"
ok 'the set exports' $PERFLOG export "$dir" --csv $SCRATCH/k2.csv
ok 'with rows' test "$(csv_rows_with_values $SCRATCH/k2.csv)" -ge 2
done_testing

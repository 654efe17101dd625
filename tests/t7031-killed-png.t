#!/bin/bash
# `perflog export --png` of a set whose collector was killed (-9) draws
# the rows only its journal held (issue 48, "every export and chart").
# The collector writes the RRD files once a [log] flush (60 s by
# default) and journals every sample; the CSV replays the journal
# (t7000), but the PNGs are drawn by librrd from the files alone, so a
# set killed at 5 s of -i 1 had its rows in the CSV and none in any chart.
# Export now writes a dead set's journal rows into its files first (the
# collector's next flush, which never came: logs/settle.c). Judged by the
# rows the drawn files hold against the CSV's, not by time.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
LOGS=$SCRATCH/logs

# the production flush: rows held for 60 s
start_held $LOGS 5
kill -9 "$pid"
wait_gone "$pid"
ok 'killed' gone "$pid"
$PERFLOG export "$dir" --csv $SCRATCH/k.csv
csv=$(csv_rows_with_values $SCRATCH/k.csv)
before=$(known_rows "$dir/Memory.rrd")
diag "the CSV has $csv rows with values (the journal's), Memory.rrd $before"
ok "the CSV has the rows sampled ($csv)" test "$csv" -ge 4
$PERFLOG export "$dir" --png $SCRATCH/png 2> $SCRATCH/png.err; st=$?
is "$st" 0 'export --png of the killed set exits 0'
ok 'without a warning' test ! -s $SCRATCH/png.err
rows=$(known_rows "$dir/Memory.rrd")
ok "the charts' files hold the CSV's rows ($rows rows, the CSV $csv)" test "$rows" -ge "$csv"
# what the memory chart draws: rrdtool graph's own count of the known
# values of its DEF over the set's span
end=$(rrdtool last "$dir/Memory.rrd")
ds=$(rrdtool info "$dir/Memory.rrd" | sed -n 's/^ds\[\(.*\)\]\.type.*/\1/p' | head -1)
drawn=$(rrdtool graph /dev/null -s "$start" -e "$end" DEF:v="$dir/Memory.rrd":"$ds":AVERAGE \
	CDEF:k=v,UN,0,1,IF VDEF:n=k,TOTAL PRINT:n:%.0lf 2>/dev/null | tail -1)
ok "rrdtool graph draws as many known rows ($drawn)" test "${drawn:-0}" -ge "$csv"
ok 'the memory chart has its figures' sh -c "awk -F'\t' '\$1 == \"memory.png\" && \$4 ~ /^[0-9]/ { f = 1 } END { exit !f }' $SCRATCH/png/charts.tsv"
# the CSV still reads the same (the journal stays, the files agree), to
# the text librrd is given (rows_format's 15 digits, as the writer's)
$PERFLOG export "$dir" --csv $SCRATCH/k2.csv
same() {
	paste -d'\n' "$1" "$2" | awk -F, 'NR % 2 { split($0, a, ","); n = NF; next }
		{ if (NF != n) bad++
		  for (i = 2; i <= NF; i++) { d = a[i] - $i; if (d < 0) d = -d
			m = $i < 0 ? -$i : $i
			if ((a[i] == "") != ($i == "") || d > 1e-9 * (m + 1)) bad++ } }
		END { exit bad > 0 }'
}
ok 'the CSV is unchanged' same $SCRATCH/k.csv $SCRATCH/k2.csv
is "$(wc -l < $SCRATCH/k2.csv)" "$(wc -l < $SCRATCH/k.csv)" 'as many rows' 
ok 'every RRD file still passes rrdtool info' rrds_ok "$dir"
$PERFLOG export "$dir" --png $SCRATCH/png2 2> $SCRATCH/png2.err; st=$?
is "$st" 0 'a second export --png exits 0'
ok 'without a warning either' test ! -s $SCRATCH/png2.err

# A killed set that cannot be settled (another user's, a read-only
# medium; here its .lock is a directory, which no one opens for writing,
# root included). The report said "is live and its collector did not
# sync" and that it lacked rows: the set is not live, and the report's
# figures read the journal. Now the text says nothing, and --html (whose
# charts are drawn from the files) says what could not be done, and why.
start_held $SCRATCH/logs2 5
kill -9 "$pid"
wait_gone "$pid"
rm -f "$dir/.lock" && mkdir "$dir/.lock"
$PERFLOG report "$dir" > $SCRATCH/r.txt 2> $SCRATCH/r.err; st=$?
is "$st" 0 'report of a killed set it cannot settle exits 0'
ok 'without a warning (nothing said live)' test ! -s $SCRATCH/r.err
sed 's/^/#   /' $SCRATCH/r.err >&2
ok '... and with its figures (CPU from the journal)' grep -Eq '^ *CPU total .* [0-9.]+%' $SCRATCH/r.txt
$PERFLOG report "$dir" --html $SCRATCH/h > /dev/null 2> $SCRATCH/h.err
ok 'with --html: the collector is gone, the rows could not be written, why, and the charts lack them' \
	grep -q "its collector is gone and the rows only its journal holds could not be written into its files (unable to write '.*/.lock': Is a directory): the charts lack those rows" $SCRATCH/h.err
sed 's/^/#   /' $SCRATCH/h.err >&2
done_testing

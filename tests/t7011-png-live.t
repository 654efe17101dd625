#!/bin/bash
# `perflog export --png` of a live set draws every row sampled so far
# (issue 48, "every export and chart"). The PNGs are drawn by librrd from
# the RRD files themselves (DEFs that `rrdtool graph` can redo), and the
# collector writes those files once a [log] flush (60 s by default): the
# CSV and the report read the rows it holds from the journal, the charts
# lacked them (a set 6 s old had none of its rows in any chart). Export
# now asks a live set's collector to sync first, as the report does.
# Judged by the rows the drawn files hold, not by time.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
LOGS=$SCRATCH/logs

# the production flush: rows held for 60 s
start_held $LOGS 5
samples=$($PERFLOG status | grep -F "$dir" | awk '{ print $3 }')
before=$(known_rows "$dir/Memory.rrd")
diag "$samples samples taken, $before rows in Memory.rrd before the export"
$PERFLOG export "$dir" --png $SCRATCH/png 2> $SCRATCH/png.err; st=$?
is "$st" 0 'export --png of the live set exits 0'
ok 'without a warning' test ! -s $SCRATCH/png.err
rows=$(known_rows "$dir/Memory.rrd")
ok "the charts' files hold the rows sampled before the export ($rows rows, $samples samples)" \
	test "$rows" -ge "$samples"
# the memory chart's legend: from those rows (charts.tsv's figures)
ok 'the memory chart has its figures' sh -c "awk -F'\t' '\$1 == \"memory.png\" && \$4 ~ /^[0-9]/ { f = 1 } END { exit !f }' $SCRATCH/png/charts.tsv"
ok 'the collector still runs' kill -0 "$pid"
ok 'stop' $PERFLOG stop "$dir"
done_testing

#!/bin/bash
# `perflog start` returns once the set exists and the collector answers,
# not after its first sample (issue 48 item 2: at the default interval of
# 5 s it returned after 7.6 s), and a command that joins the set right
# then and ends before that first sample is logged whole. The early
# return was built once and reverted (bc3956d): the baseline waited for
# the first aligned deadline, so a run that joined before it had its tree
# re-read after it was gone and no row at all (t3110's 'big'). Now the
# baseline is read before the starter hears of the set, and a watch
# takes its zero row and its last figures at once.
# Judged by the order of times, not wall-clock bounds: start's return
# against the set's first scheduled sample, the command's end against the
# first aligned deadline.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
LOGS=$SCRATCH/logs
export PERFLOG

# --- 1. the built-in settings: the default set every 5 s ---
dir=$($PERFLOG start -o $LOGS); st=$?
returned=$(date +%s.%N)
pid=$(collector_pid "$dir")
[ -n "$pid" ] && track_pid "$pid"
is "$st" 0 'start exits 0'
ok "the path it printed exists ($dir)" test -d "$dir"
ok 'its metadata and files are there' sh -c "test -s '$dir/perflog.meta' && ls '$dir'/Memory.rrd '$dir'/Processor-_Total.rrd >/dev/null"
ok 'every counter of the metadata has its file' sh -c "awk -F'\t' '\$1 == \"counter\" { print \$3 }' '$dir/perflog.meta' | sort -u | while read f; do test -f '$dir'/\"\$f\" || exit 1; done"
status=$($PERFLOG status)
ok 'status lists it' sh -c "printf '%s\n' '$status' | grep -qF '$dir'"
wait_for 20 sh -c "$PERFLOG status | grep -F '$dir' | awk '{ exit \$3 < 1 }'"
last=$($PERFLOG status --json | tr -d ' \n' | grep -o '"last_sample":"[^"]*"' | head -1 | cut -d'"' -f4)
diag "start returned at $returned, the first sample at $last"
ok "start returned before the collector's first sample ($last)" \
	awk -v a="$returned" -v b="$(date -u -d "${last:-1970-01-01}" +%s)" 'BEGIN { exit !(a < b) }'
ok 'stop' $PERFLOG stop "$dir"
ok 'the stopped set has its rows' test "$(csv_rows_with_values <($PERFLOG export "$dir" --csv -))" -ge 1

# --- 2. a short command joining right after start returned ---
# -i 10, started early in a step: its first deadline is 7 s or more away,
# far more than the command (10 MiB to a pipe, a few tenths of a second)
wait_for 15 sh -c 's=$(date +%s.%N); awk -v s=$s "BEGIN { r = s - 10 * int(s / 10); exit !(r > 0.2 && r < 3) }"'
before=$(date +%s.%N)
LS=$($PERFLOG start -o $LOGS -i 10)
is "$?" 0 'a collector at 10 s'
pid=$(collector_pid "$LS")
[ -n "$pid" ] && track_pid "$pid"
$PERFLOG run -o "$LS" -l short -- sh -c "$LOADGEN stdout 10485760 2>/dev/null" >/dev/null
is "$?" 0 'a command wrote 10 MiB to stdout through perflog run'
ended=$(date +%s.%N)
first=$(awk -v s="$before" 'BEGIN { printf "%d\n", 10 * (int(s / 10) + 1) }')
diag "start at $before, the command ended at $ended, the first deadline $first"
ok "it ended before the set's first deadline ($ended < $first)" \
	awk -v a="$ended" -v b="$first" 'BEGIN { exit !(a < b) }'
ok 'stop' $PERFLOG stop "$LS"
ok 'Process(short) has its file' test -f "$LS/Process-short.rrd"
$PERFLOG export "$LS" --csv $SCRATCH/short.csv
c=$(csv_col $SCRATCH/short.csv 'Process(short)\IO Write Bytes/sec')
ok 'Process(short) is in the export' test -n "$c"
wr=$([ -n "$c" ] && csv_integral $SCRATCH/short.csv "$c" 10)
near "${wr:-0}" 10485760 0.05 'Process(short): the 10 MiB it wrote, in its rows'
is "$(grep -cP '\t(begin|end)\tshort\t' "$LS/markers.tsv")" 2 'its session has its begin and end'
done_testing

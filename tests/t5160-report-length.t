#!/bin/sh
# t5160-report-length: the text report a manager reads (issue 49 item 2),
# on a real set of make demo's shape (perflog run -l reference --
# perflog workload, 3 s a set: five sessions, the run's and its four
# sets'; t3210 is the demo at its full length):
# - each session in at most 30 lines at the default level (it took 60 to
#   70: the client's own lines, the checks, every resource row, the wait
#   states' table, the wait graph), no line over 100 columns (the
#   verdict ran to 331); -v has the fine print back, lines whole;
# - one unit of a rate: every rate of perflog's own in MiB/s (the
#   report said KiB/s, MiB/s and GiB/s by size, and bytes/s beside);
#   the client's own lines, quoted as it printed them, only with -v;
# - stages named by what they are: no perflog[PID] (every stage of the
#   workload is a perflog): the set's client is "1m1k client", its
#   server "server", the run's command "perflog workload".
. "$(dirname "$0")/lib.sh"
LOGS=$SCRATCH/logs

$PERFLOG run -i 1 -o $LOGS -l reference -- $PERFLOG workload --seconds 3 \
	>$SCRATCH/out 2>$SCRATCH/err
is "$?" 0 'the demo workload ran under perflog run'
LS=$(ls -d $LOGS/*/ | head -1)
$PERFLOG report $LS >$SCRATCH/report 2>&1
is "$?" 0 'report'
$PERFLOG report -v $LS >$SCRATCH/verbose 2>&1
is "$?" 0 'report -v'

# lines a session: from its "Session" line to the next one's
per_session() {
	awk '/^Session / { if (name != "") print name, n; name = $2; n = 0 }
	     name != "" && NF { n++ } END { print name, n }' "$1"
}
per_session $SCRATCH/report >$SCRATCH/lengths
diag "default: $(wc -l <$SCRATCH/report) lines; a session: $(tr '\n' ' ' <$SCRATCH/lengths)"
diag "-v: $(wc -l <$SCRATCH/verbose) lines; a session: $(per_session $SCRATCH/verbose | tr '\n' ' ')"
is "$(wc -l <$SCRATCH/lengths)" 5 'five sessions'
while read -r name n; do
	ok "session $name in $n lines: at most 30" test "$n" -le 30
done <$SCRATCH/lengths
wide=$(awk 'length > 100' $SCRATCH/report)
is "$wide" "" 'no line of the default level over 100 columns'
ok '-v is the longer' test "$(wc -l <$SCRATCH/verbose)" -gt "$(wc -l <$SCRATCH/report)"
like "$(cat $SCRATCH/verbose)" "dsmc's own figures:" "-v quotes the client's own lines"
like "$(cat $SCRATCH/verbose)" 'Seconds \(the wait graph' '-v has the wait graph'
ok "the default level does not quote them" sh -c "! grep -q 'Total number of' $SCRATCH/report"
like "$(grep -m1 '^  Bottleneck: ' $SCRATCH/verbose)" '^  Bottleneck: .{100,}' '-v: the verdict whole on its line'

# units: the figures of perflog's own, the client's quotes left out
# (-v's "CLIENT's own figures:" block, lines at 4 spaces under it)
own() { awk '/own figures:$/ { q = 1; next } q && /^    / { next } { q = 0; print }' "$1"; }
for f in report verbose; do
	units=$(own $SCRATCH/$f | grep -o -E '[0-9.]+ ?([KMGT]i?B|[kK]?[bB]|bytes)/(s|sec)' |
		sed -E 's/^[0-9.]+ ?//' | sort -u | tr '\n' ' ')
	is "$units" "MiB/s " "$f: every rate of perflog's own in MiB/s"
done
# (the workload's sets run inside the run's session: the sessions overlap,
# and the table is the night's ranking, a rank before each name)
like "$(grep -E '^ +([0-9]+ +)?1m1k ' $SCRATCH/report)" ' <?[0-9]+\.[0-9]+ MiB/s ' 'the sessions table: a small rate in MiB/s too'

# names
# (a demo's contended server 'ran -1.0 s': its queued seconds were its
# command's, its seconds on the CPUs one process's)
ok 'no seconds below zero' sh -c "! grep -E '(ran|waited|for) -[0-9.]+ s' $SCRATCH/report $SCRATCH/verbose"
ok 'no stage called perflog[PID] (default)' sh -c "! grep -q 'perflog\[[0-9]' $SCRATCH/report"
ref=$(sed -n '/^Session reference/,/^Session 1m1k/p' $SCRATCH/verbose)
like "$ref" '    1m1k client +\(' "the reference session's stage of set 1m1k: its client"
like "$ref" '    server +\(' 'the server of the four sets: server'
like "$ref" '    perflog workload +\(' "the run's own command: perflog workload"
like "$(sed -n '/^Session reference/,/^Session 1m1k/p' $SCRATCH/report | grep -A3 Bottleneck)" \
	'stage (server|[0-9a-z]+ client|perflog workload) ' 'the verdict names the stage by its name'

# the run's session has no client summary: --json read its count as NAN
# and cast it to a long (UBSan stopped the sanitized build there)
ASAN=$TOP/build/asan/perflog
if [ -x "$ASAN" ]; then
	ok 'report --json of the set under ASan and UBSan' sh -c "'$ASAN' report --json '$LS' >/dev/null"
else
	skip 'report --json under ASan: build/asan/perflog not built'
fi
done_testing

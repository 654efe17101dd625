#!/bin/bash
# perflog mark: markers through the running collector. Hostile text stays
# one line, marks from 8 processes at once are neither lost nor
# interleaved, and with no collector (or someone else's) it is a one-line
# error with a non-zero status.
. "$(dirname "$0")/lib.sh"
LOGS=$SCRATCH/logs

err_is 'no collector: one-line error' 'no collector is running' $PERFLOG mark hello
err_is 'TEXT missing' 'TEXT missing' $PERFLOG mark --begin
err_is '--begin and --end together' 'exclude' $PERFLOG mark --begin --end x
ok 'mark --help' $PERFLOG mark --help

LS=$($PERFLOG start -o $LOGS -i 1)
is "$?" 0 'collector started'
M=$LS/markers.tsv
lines() { if [ -f "$M" ]; then wc -l < "$M"; else echo 0; fi; }

n0=$(lines)
ok 'a point marker' $PERFLOG mark 'plain text'
is "$(lines)" $((n0 + 1)) 'one more line'
like "$(tail -n 1 $M)" $'^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\\.[0-9]{3}Z\tpoint\t\tplain text$' \
	'time in ms, kind point, no session, text'

hostile=$(printf 'tab\there\nnew line\r back\\slash \001\002 \177 caf\303\251 %%s %%n $(x) `y`')
ok 'hostile text accepted' $PERFLOG mark -d "$LS" "$hostile"
is "$(lines)" $((n0 + 2)) 'hostile text is still one line'
last=$(tail -n 1 $M)
is "$(printf '%s' "$last" | awk -F'\t' '{print NF}')" 4 'still four tab-separated fields'
like "$last" 'tab\\there\\nnew line\\r back\\\\slash \\x01\\x02 \\x7f caf' 'escaped as markers.h says'
like "$last" '%s %n \$\(x\) `y`$' 'printf and shell syntax kept literally'

long=$(head -c 20000 /dev/zero | tr '\0' 'L')
ok 'a 20 KB text' $PERFLOG mark "$long"
is "$(tail -n 1 $M | awk -F'\t' '{print length($4)}')" 20000 'kept whole'

ok '--begin, default session' $PERFLOG mark --begin 'go'
like "$(tail -n 1 $M)" $'\tbegin\tsession\tgo$' 'session "session"'
ok '--end -s name' $PERFLOG mark --end -s 'my backup' 'done'
like "$(tail -n 1 $M)" $'\tend\tmy backup\tdone$' 'named session'
ok 'PERFLOG_LOGSET names the log set' env PERFLOG_LOGSET="$LS" $PERFLOG mark via-env
err_is 'PERFLOG_LOGSET not logging' 'no collector is logging to' env PERFLOG_LOGSET=$SCRATCH $PERFLOG mark x
err_is '-d not a log set' 'no collector is logging to' $PERFLOG mark -d $SCRATCH x

# 8 processes x 25 marks at once: 200 whole lines, none lost
n1=$(lines)
pids=""
for p in 1 2 3 4 5 6 7 8; do
	( for i in $(seq 1 25); do $PERFLOG mark "proc$p mark$i $(printf 'x%.0s' $(seq 1 $((p * 40))))" || echo FAIL; done ) >$SCRATCH/c$p.out 2>&1 &
	pids="$pids $!"
done
for p in $pids; do wait $p; done
is "$(cat $SCRATCH/c*.out)" "" 'no mark failed'
is "$(lines)" $((n1 + 200)) '200 more lines'
is "$(tail -n 200 $M | awk -F'\t' 'NF != 4 || $2 != "point"' | wc -l)" 0 'every line whole'
is "$(tail -n 200 $M | cut -f4 | cut -d' ' -f1,2 | sort -u | wc -l)" 200 'every mark exactly once'
ok 'times never go backwards' sh -c "tail -n 200 $M | cut -f1 | sort -c"

# only the collector's owner may mark
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 0755 $SCRATCH
	err_is 'another user cannot mark' '' setpriv --reuid=65534 --regid=65534 --clear-groups \
		env PERFLOG_RUNTIME_DIR=$PERFLOG_RUNTIME_DIR $PERFLOG mark -d "$LS" intruder
	ok 'nothing written by the other user' sh -c "! grep -q intruder $M"
else
	echo "ok $((_tap_n + 1)) # SKIP needs root and setpriv"; _tap_n=$((_tap_n + 1))
fi

ok 'stop' $PERFLOG stop "$LS"
err_is 'after stop: error' 'no collector' $PERFLOG mark -d "$LS" late
done_testing

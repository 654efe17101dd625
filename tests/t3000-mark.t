#!/bin/bash
# perflog mark: markers through the running collector. Hostile text stays
# one line, marks from 8 processes at once are neither lost nor
# interleaved, and with no collector (or someone else's) it is a one-line
# error with a non-zero status. A session's end goes to the collector
# that has it open when two run; an end of a session not open is an
# error that lists the open ones; --at closes one after the fact.
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
ok '--end, default session' $PERFLOG mark --end 'stop'
ok '--begin -s name' $PERFLOG mark --begin -s 'my backup' 'go'
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

# --- a session's end with a second collector running (issue 50) ---
# mark --begin, then another collector starts (the packaged service, a
# second run): the end goes to the collector that has the session open
# ("2 collectors are running; name the log set" before, and the session
# stayed open for good)
ok 'begin tar' $PERFLOG mark --begin -s tar 'backup'
ok 'begin full' $PERFLOG mark --begin -s full 'full backup'
LS2=$($PERFLOG start -o $SCRATCH/logs2 -i 1)
is "$?" 0 'a second collector started'
$PERFLOG mark --end -s tar 'done' 2>$SCRATCH/tar.err
is "$?:$(cat $SCRATCH/tar.err)" '0:' 'mark --end finds the collector that has tar open'
like "$(tail -n 1 $M)" $'\tend\ttar\tdone$' 'the end marker is in that set'
ok 'nothing went to the other set' test ! -s "$LS2/markers.tsv"
# a typo: an error listing the open sessions, nothing written
n2=$(lines)
out=$($PERFLOG mark --end -s ful 'done' 2>&1); st=$?
is "$st" 1 'an end of a session no collector has open fails'
like "$out" "^perflog mark: no session 'ful' is open in the 2 running log sets \\(open: full in $LS\\)\$" 'one line listing the open ones'
out=$($PERFLOG mark -d "$LS" --end -s ful 'done' 2>&1); st=$?
like "$st:$out" "^1:perflog mark: no session 'ful' is open in $LS \\(open: full\\)\$" 'with -d too, from the collector'
is "$(lines)" "$n2" 'no marker written'
# open in both: ambiguous, and it says where
ok 'begin x in the first set' $PERFLOG mark -d "$LS" --begin -s both 'one'
ok 'begin x in the second' $PERFLOG mark -d "$LS2" --begin -s both 'two'
out=$($PERFLOG mark --end -s both 'done' 2>&1); st=$?
like "$st:$out" "^1:perflog mark: session 'both' is open in 2 log sets \\([^)]*$(basename $LS)[^)]*\\); name one with -d\$" 'open in two sets: an error naming both ...'
like "$out" "$(basename $LS2)" '... the second too'

# --- mark --at: a session closed after the fact ---
b=$(grep -P '\tbegin\tfull\t' $M | cut -f1)
bs=$(date -u -d "$b" +%s)
at=$(date -u -d "@$((bs + 1))" +%Y-%m-%dT%H:%M:%S).250Z
while [ "$(date +%s)" -le $((bs + 2)) ]; do sleep 0.2; done
ok 'a later point marker' $PERFLOG mark -d "$LS" 'after the real end'
ok "--end --at $at" $PERFLOG mark --end -s full --at "$at" 'ended earlier'
is "$(tail -n 1 $M | cut -f1-3)" "$at"$'\tend\tfull' 'stamped at that time, to the millisecond'
$PERFLOG report -v "$LS" >$SCRATCH/report.txt 2>&1
ok 'the report ends session full there' grep -A1 -x 'Session full' $SCRATCH/report.txt
like "$(grep -A1 -x 'Session full' $SCRATCH/report.txt | tail -n 1)" "from $b to $at" '... from its begin to that time'
ok '--begin -s early' $PERFLOG mark -d "$LS" --begin -s early 'x'
out=$($PERFLOG mark -d "$LS" --end -s early --at "$at" 'x' 2>&1); st=$?
like "$st:$out" "^1:perflog mark: the end of 'early' at $at is before its begin" '--at before the session'"'"'s begin: refused'
out=$($PERFLOG mark -d "$LS" --end -s early --at 2020-01-01T00:00:00Z 'x' 2>&1); st=$?
like "$st:$out" "^1:perflog mark: 2020-01-01T00:00:00.000Z is before the log set's start" '--at before the set: refused'
out=$($PERFLOG mark -d "$LS" --end -s early --at 2099-01-01T00:00:00Z 'x' 2>&1); st=$?
like "$st:$out" "^1:perflog mark: 2099-01-01T00:00:00.000Z is in the future" '--at in the future: refused'
err_is '--at garbage: usage error' "--at: bad time 'yesterday'" $PERFLOG mark -d "$LS" --end -s early --at yesterday x
sleep 1.2
ok '--at -1s (relative)' $PERFLOG mark -d "$LS" --end -s early --at -1s 'a second ago'
e=$(date -u -d "$(tail -n 1 $M | cut -f1)" +%s.%N)
eb=$(date -u -d "$(grep -P '\tbegin\tearly\t' $M | cut -f1)" +%s.%N)
ok "... stamped after the begin and a second before now ($eb < $e)" sh -c "echo '$e > $eb && $e < $(date +%s.%N) - 0.9' | bc | grep -qx 1"

ok 'stop' $PERFLOG stop "$LS"
ok 'stop the second' $PERFLOG stop "$LS2"
err_is 'after stop: error' 'no collector' $PERFLOG mark -d "$LS" late
done_testing

#!/bin/bash
# t4161-view-compare: `perflog view A B` of two runs logged at different
# times (issue 49 item 4) lays them over each other from their sessions'
# begins, as perfmon overlays logs: one set of panes, each with A's
# lines and B's labelled A and B, their figures each run's own, the
# header naming both; before, they stood end to end on absolute time
# (each pane twice, CPU@host, the window two hours wide). Driven in tmux
# at 80x24 on two crafted sets (mklogset), B two hours after A.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-tmux.sh"
MK=$TOP/build/tools/mklogset
[ -x "$MK" ] || skip_all "build/tools/mklogset not built"
A=$($MK "$SCRATCH/sets" runA cpu1 --session full)
B=$($MK "$SCRATCH/sets" runB disk --session full --offset 7200)

T new-session -d -x 80 -y 24 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color TZ=UTC '$PERFLOG' view '$A' '$B'; echo EXIT=\$?; sleep 60"
ok 'view A B draws' wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q 'CPU \[%\]'"
sleep 0.5
S=$(screen)
printf '%s\n' "$S" | sed 's/^/# | /'
like "$(printf '%s\n' "$S" | head -1)" ' A [^ ]+ \| B [^ ]+\(-7200s\)' 'header: A and B, B moved onto A by its session'
is "$(printf '%s\n' "$S" | grep -c '^ CPU \[')" 1 'one CPU pane, both runs in it'
like "$S" '■A total ' 'the CPU pane: A total'
like "$S" '■B total ' 'the CPU pane: B total'
like "$S" '■A sdb ' 'the disk pane: A sdb'
like "$S" '■B sdb ' 'the disk pane: B sdb'
like "$(printf '%s\n' "$S" | head -1)" '\+7[0-9]s$' "the window is the session's span (60 s and margins), not two hours"
bavg=$(printf '%s\n' "$S" | grep -oE '■B sdb +[0-9.]+% +[0-9.]+%' | awk '{ sub(/%/, "", $4); print $4 }')
aavg=$(printf '%s\n' "$S" | grep -oE '■A sdb +[0-9.]+% +[0-9.]+%' | awk '{ sub(/%/, "", $4); print $4 }')
within "B's disk busy in its run, on A's time axis (avg $bavg)" "$bavg" 60 100
within "A's disk idle in its run (avg $aavg)" "$aavg" 0 10
like "$(printf '%s\n' "$S" | sed -n 2p)" '\[(A|B) full' 'sessions on the marker row, tagged'
T send-keys q
ok 'viewer quits' wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q 'EXIT=0'"
T kill-server 2>/dev/null

# -s names the anchor; a session a set has not is refused before the
# terminal is touched; -s with one set is a usage error
"$PERFLOG" view -s nosuch "$A" "$B" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null
is "$?" 1 'an anchor session not there: exit 1'
like "$(cat "$SCRATCH/err")" "no session 'nosuch'" 'the error names it'
"$PERFLOG" view -s full "$A" >/dev/null 2>&1 </dev/null
is "$?" 2 '-s with one log set: usage'
done_testing

#!/bin/bash
# t5161-view-session-bar: the viewer's session bar at 80x24 in ASCII mode
# (issue 49 item 5), on a set made by tests/tools/mkwaveset with the
# demo's shape: a run's session (`outer`) and, a second into it, its sets
# one after the other (a, b, c), each a column or less apart from the
# next. The bar read `[[a===...[b`: the set's '[' beside the run's, the
# run's name under the first set's. Now one '[' opens both, each name is
# whole on its own stretch, the run's where its sets leave room.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-tmux.sh"
MK=$TOP/build/tools/mkwaveset
[ -x "$MK" ] || skip_all "build/tools/mkwaveset not built"

SET=$SCRATCH/logs/set1
# 1 h in about 70 columns: some 50 s a column; `a` begins 20 s after `outer`
"$MK" "$SET" -s 1h -i 1 -S outer:100:3400 -S a:120:1000 -S b:1000:1900 \
	-S c:1900:2500 >/dev/null || skip_all "mkwaveset failed"

T new-session -d -x 80 -y 24 \
	"cd '$SCRATCH' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color TZ=UTC '$PERFLOG' view --ascii '$SET'; sleep 60"
ok 'viewer draws its first frame' \
	wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q 'CPU \[%\]'"
bar=$(T capture-pane -p | sed -n 2p)
diag "the bar: $bar"
ok 'no bracket doubled' sh -c "! printf '%s' '$bar' | grep -q '\[\['"
ok 'nothing but printable ASCII (no escape, no Unicode)' \
	sh -c "! printf '%s' '$bar' | LC_ALL=C grep -q '[^ -~]'"
like "$bar" '^ *\[a=*\[b=*\[c=*\]' "the sets' names, each after its '['"
like "$bar" '\]outer=*\] *$' "the run's name where its sets leave room, its ']' last"
is "$(printf '%s' "$bar" | tr -cd '[' | wc -c)" 3 "three '[': the run's is its first set's"
T send-keys q
done_testing

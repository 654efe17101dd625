#!/bin/sh
# t4150-view-night: the night on one axis in the viewer (issue 47 item
# 3), driven in tmux at 80x24 on a real log set: a session "idle" (sleeps
# until 2 s after the burns) and, while it runs, "burn1" then "burn2" (loadgen burn 3 each, one
# after the other): lanes under the panes, above the time axis: idle's
# bar in the first, burn1 and burn2 sharing the second (one after
# another), each with its name and its verdict's word (nothing, CPU), in
# that word's colour (the xterm 256-colour cube of verdict/'s table:
# CPU #c62828 is 160, nothing #616161 is 59); resized to 100x30 the
# lanes stay; a set whose sessions do not overlap has none.
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || skip_all "tmux not installed"
[ -x "$LOADGEN" ] || skip_all "build/tools/loadgen not built"

SET=$("$PERFLOG" start -o "$SCRATCH/logs" -i 1) || { echo "Bail out! perflog start failed"; exit 1; }
# idle outlasts the burns by 2 s however slow the machine: a fixed
# `sleep 8` ended before burn2 in a loaded make check, and burn2's bar,
# cut at the set's end, had no room for its word ('burn1 CPUburn2')
"$PERFLOG" run -o "$SET" -l idle -- sh -c \
	"while [ ! -e '$SCRATCH/burnt' ]; do sleep 0.2; done; sleep 2" >/dev/null 2>&1 &
idle=$!
track_pid $idle
wait_for 10 grep -q '	begin	idle	' "$SET/markers.tsv" || { echo "Bail out! no begin marker"; exit 1; }
"$PERFLOG" run -o "$SET" -l burn1 -- "$LOADGEN" burn 3 >/dev/null 2>&1
"$PERFLOG" run -o "$SET" -l burn2 -- "$LOADGEN" burn 3 >/dev/null 2>&1
touch "$SCRATCH/burnt"
wait $idle
"$PERFLOG" stop "$SET" >/dev/null
# the burns ran inside idle's span (the report ranks a night)
ok 'the set is a night (the report ranks it)' grep -q '^Sessions: a night of 3' \
	"$(sh -c '"$0" report "$1" >"$2"; echo "$2"' "$PERFLOG" "$SET" "$SCRATCH/report.txt")"

SOCK=$SCRATCH/tmux.sock
T() { tmux -S "$SOCK" "$@"; }
screen() { T capture-pane -p; }
await() { wait_for 10 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q -- '$1'"; }
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; _cleanup' EXIT
T new-session -d -x 80 -y 24 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color TZ=UTC '$PERFLOG' view '$SET'; echo EXIT=\$?; sleep 60"
# (at 80 columns a burn's bar was 8-10 columns when it burnt 2 s: its word may be cut
# where the next bar begins, 'burn1 CPburn2 CPU' in a loaded make check,
# or left out, 'burn1   burn2 CPU' in another, where the set's span grew
# to some 17 s; the names are checked here, the word by its colour here
# and whole at 100 columns below)
ok 'the viewer draws the lanes' await 'burn1 .*burn2'
S=$(screen)
printf '%s\n' "$S" | sed -n '18,24p' | sed 's/^/#   /'
# rows from 1: the status is 24, the axis 23, the two lanes 21 and 22
row() { printf '%s\n' "$S" | sed -n "$1p"; }
like "$(row 21)" '^ +idle nothing' 'lane 1: idle, its word nothing'
# (burn2 begins as burn1 ends: their bars may touch, no column between)
like "$(row 22)" '^ +burn1 .*burn2' 'lane 2: burn1 then burn2, one after another'
like "$(row 23)" '[0-9]{2}:[0-9]{2}:[0-9]{2}' 'the time axis under the lanes'
like "$(row 20)" '│' 'the last pane just above the lanes'
# the columns: each burn's bar within idle's
c_idle=$(row 21 | awk '{ print index($0, "idle") }')
c_b1=$(row 22 | awk '{ print index($0, "burn1") }')
c_b2=$(row 22 | awk '{ print index($0, "burn2") }')
ok "burn1 (col $c_b1) after idle began (col $c_idle), burn2 (col $c_b2) after it" \
	test "$c_idle" -gt 0 -a "$c_b1" -ge "$c_idle" -a "$c_b2" -gt "$c_b1"
# the colours: the bars in reverse video in the word's colour
E=$(T capture-pane -p -e)
like "$(printf '%s\n' "$E" | sed -n 22p)" '38;5;160m' "lane 2: CPU's colour (160, the table's #c62828)"
like "$(printf '%s\n' "$E" | sed -n 21p)" '38;5;59m' "lane 1: nothing's colour (59, the table's #616161)"
# resized: the lanes stay above the axis
T resize-window -x 100 -y 30
ok 'resized to 100x30' wait_for 10 sh -c "tmux -S '$SOCK' capture-pane -p | sed -n 28p | grep -q 'burn1 CPU'"
T send-keys q
ok 'the viewer quits' await 'EXIT=0'
T kill-server 2>/dev/null

# sessions one after the other: no lanes
SET2=$("$PERFLOG" start -o "$SCRATCH/logs2" -i 1) || { echo "Bail out! perflog start failed"; exit 1; }
"$PERFLOG" run -o "$SET2" -l one -- sleep 0.5 >/dev/null 2>&1
"$PERFLOG" run -o "$SET2" -l two -- sleep 0.5 >/dev/null 2>&1
"$PERFLOG" stop "$SET2" >/dev/null
T new-session -d -x 80 -y 24 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color TZ=UTC '$PERFLOG' view '$SET2'; echo EXIT=\$?; sleep 60"
ok 'the viewer draws' await 'CPU \[%\]'
S=$(screen)
ok 'no night, no lanes: the panes reach the axis' sh -c "printf '%s\n' '$(row 22)' | grep -q '│'"
T send-keys q
done_testing

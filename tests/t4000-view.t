#!/bin/bash
# t4000-view: the terminal viewer driven in tmux (its own server socket
# under the scratch dir), on a log set made by tests/tools/mkwaveset: panes,
# titles, markers, sessions, cursor readout against the CSV export, zoom,
# session jump, resize, help, quit with the terminal restored, signals,
# follow of a live set at the production flush (the journal's last sample),
# and bad log sets refused before the terminal is touched.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-tmux.sh"
MK=$TOP/build/tools/mkwaveset
[ -x "$MK" ] || skip_all "build/tools/mkwaveset not built"

SET=$SCRATCH/logs/set1
"$MK" "$SET" -s 1h -i 1 -m 300:mark-A -S nightly:1200:2400 >/dev/null ||
	{ echo "1..0 # SKIP mkwaveset failed"; exit 0; }
n_sock=0
# a key's effect is waited for on the screen, not for a fixed time: the
# line drawn last of what the key changes (ncurses draws top down), up
# to 5 s (wait_for); a check then reads the screen as before
row() { screen | sed -n "$1p"; }
row_like() { row "$1" | grep -Eq -- "$2"; }
row_not() { r=$(row "$1"); [ -n "$r" ] && [ "$r" != "$2" ]; }
gone() { ! screen | grep -q -- "$1"; }
cursor_time() { screen | sed -n 's/^cursor \([0-9-]*\) \([0-9:]*\).*/\1 \2/p'; }
cursor_not_at() { c=$(cursor_time); [ -n "$c" ] && [ "$c" != "$1" ]; }

T new-session -d -x 80 -y 24 \
	"cd '$SCRATCH' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color TZ=UTC '$PERFLOG' view '$SET'; echo EXIT=\$?; sleep 60"
ok 'viewer draws its first frame' await 'CPU \[%\]'
S=$(screen)
like "$S" 'Disk busy' 'disk pane'
like "$S" 'Memory, paging' 'memory and paging pane'
like "$S" 'Network' 'network pane'
like "$S" 'total [0-9.]+%.*user [0-9.]+%.*priv' 'CPU lines with values'
like "$S" 'mark-A' 'marker label on the marker row'
like "$S" 'nightly' 'session shown'
like "$S" '[⠁-⣿]' 'braille sub-cell plot'
axis1=$(screen | sed -n 23p)
like "$axis1" '[0-9][0-9]:[0-9][0-9]' 'time axis labelled'

# cursor readout against the CSV export at the same time
T send-keys Enter
ok 'cursor on' await '^cursor '
S=$(screen)
when=$(printf '%s\n' "$S" | sed -n 's/^cursor \([0-9-]*\) \([0-9:]*\).*/\1 \2/p')
got=$(printf '%s\n' "$S" | grep -o 'total [0-9.]*%' | head -1 | tr -dc '0-9.')
"$PERFLOG" export "$SET" --csv - > "$SCRATCH/all.csv"
col=$(head -1 "$SCRATCH/all.csv" | tr ',' '\n' | grep -n 'Processor(_Total)\\% Processor Time' | cut -d: -f1)
want=$(grep "^$when," "$SCRATCH/all.csv" | cut -d, -f"$col")
[ -n "$want" ] || diag "no CSV row at '$when' (col $col)"
near "$got" "$want" 0.005 "cursor readout at $when equals the CSV export"
# in GiB as the report writes it (counters/units.h), not "avail 23.0GB"
like "$S" 'avail [0-9]+\.[0-9] GiB' 'available memory in GiB, as the report'
gotm=$(printf '%s\n' "$S" | grep -o 'avail [0-9.]* GiB' | head -1 | sed 's/ GiB//' | tr -dc '0-9.')
colm=$(head -1 "$SCRATCH/all.csv" | tr ',' '\n' | grep -n 'Memory\\Available Bytes' | cut -d: -f1)
wantm=$(grep "^$when," "$SCRATCH/all.csv" | cut -d, -f"$colm" | awk '{ printf "%.4f", $1 / 1073741824 }')
# one decimal, as the report's: within half of its last digit
within 'available memory readout in GiB equals the CSV' "$gotm" \
	"$(awk -v w="$wantm" 'BEGIN { print w - 0.0501 }')" \
	"$(awk -v w="$wantm" 'BEGIN { print w + 0.0501 }')"
# one sample on: the readout's time moves by the interval
T send-keys .
wait_for 5 cursor_not_at "$when"
when2=$(cursor_time)
is "$(( $(date -u -d "$when2" +%s) - $(date -u -d "$when" +%s) ))" 1 \
	'"." moves the cursor one sample'
T send-keys Enter

# zoom changes the time axis and the span in the header
span1=$(screen | head -1 | grep -o '+[0-9.]*[smhd]$')
T send-keys +
zoomed() { row_like 1 '\+30m$' && row_not 23 "$axis1"; }
wait_for 5 zoomed
span2=$(screen | head -1 | grep -o '+[0-9.]*[smhd]$')
axis2=$(screen | sed -n 23p)
is "$span1 $span2" "+60m +30m" 'zoom in halves the span'
[ "$axis1" != "$axis2" ]; ok 'zoom changes the time axis' [ "$axis1" != "$axis2" ]
T send-keys -
wait_for 5 row_like 1 '\+60m$'

# session list and jump
T send-keys s
ok 'session list' await 'Sessions'
T send-keys Enter
jumped() { row_like 1 '\+22m$' && gone 'Sessions'; }
wait_for 5 jumped
S=$(screen)
like "$(printf '%s\n' "$S" | head -1)" '\+22m$' 'zoomed to the session (20 min and margins)'
like "$(printf '%s\n' "$S" | sed -n 2p)" '\[nightly' 'session begins in view'

# markers: n jumps to the next boundary
T send-keys a n
wait_for 5 row_like 24 'marker: mark-A'
like "$(screen | tail -1)" 'marker: mark-A' 'n jumps to the first marker'

# resize redraws at the new size
T resize-window -x 100 -y 30
wait_for 5 row_like 29 '[0-9][0-9]:[0-9][0-9]'
S=$(screen)
is "$(printf '%s\n' "$S" | wc -l)" 30 'resized to 30 rows'
like "$(printf '%s\n' "$S" | sed -n 29p)" '[0-9][0-9]:[0-9][0-9]' 'axis moved to the new bottom'
like "$(printf '%s\n' "$S" | head -1)" '^.{90,}' 'header spans the new width'

# replay: Space plays from the window's start, the cursor moves on its own;
# Space again pauses
T send-keys ' '
ok 'replay: the cursor appears' await '^cursor '
t1=$(cursor_time)
wait_for 5 cursor_not_at "$t1"
t2=$(cursor_time)
ok "replay: the cursor moved by itself ($t1 -> $t2)" test -n "$t1" -a -n "$t2" -a "$t1" != "$t2"
T send-keys ' '
wait_for 5 gone 'PLAY x'
t3=$(cursor_time)
sleep 1.2
t4=$(cursor_time)
is "$t4" "$t3" 'replay: Space pauses'
T send-keys Enter
wait_for 5 gone '^cursor '

# c: choose the CPU pane's counters; dropping "total" removes it from the pane
T send-keys c
ok 'chooser lists the counters' await '\[x\] Processor(_Total)'
T send-keys ' ' Enter
wait_for 5 gone '] Processor('
S=$(screen)
ok 'chooser: the pane no longer shows total' sh -c "! printf '%s\n' \"\$1\" | grep -q '^ CPU.* total '" _ "$S"
like "$S" '^ CPU.*User.*Privileg' 'chooser: the other CPU lines stay'

# e exports the window as PNG charts (through perflog export --png's code)
T send-keys e
# (every chart takes two rrd_graph passes, the figures then the drawing:
# 20 s on a loaded machine)
ok 'e: status names the PNG directory' wait_for 20 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q -- 'PNG charts written to perflog-view-'"
pngdir=$(ls -d $SCRATCH/perflog-view-* 2>/dev/null | head -1)
ok 'e: the charts are PNG files' sh -c "test -n '$pngdir' && head -c 8 '$pngdir/cpu.png' | od -c | grep -q 'P   N   G'"

# help lists the keys
T send-keys '?'
ok 'help screen' await 'perflog view: keys'
S=$(screen)
like "$S" 'quit' 'help names q'
like "$S" 'next marker' 'help names n'
like "$S" 'replay' 'help names replay'
like "$S" 'export view as PNG' 'help names e'
T send-keys x
wait_for 5 gone 'perflog view: keys'

# q quits with status 0 and leaves the alternate screen
T send-keys q
ok 'viewer quits' await 'EXIT='
like "$(screen)" 'EXIT=0' 'q exits with status 0'
is "$(T display -p '#{alternate_on}')" 0 'terminal restored (alternate screen off)'
T kill-server 2>/dev/null
SOCK=$SCRATCH/tmux$((n_sock += 1)).sock

# SIGTERM: terminal restored, non-zero exit
T new-session -d -x 80 -y 24 \
	"sh -c 'echo \$\$ > $SCRATCH/pid; LANG=C.UTF-8 TERM=xterm-256color exec $PERFLOG view $SET'; echo EXIT=\$?; sleep 60"
ok 'viewer up again' await 'CPU \[%\]'
kill -TERM "$(cat "$SCRATCH/pid")"
ok 'SIGTERM ends the viewer' await 'EXIT='
like "$(screen)" 'EXIT=143' 'status 128+15 after SIGTERM'
is "$(T display -p '#{alternate_on}')" 0 'terminal restored after SIGTERM'
T kill-server 2>/dev/null
SOCK=$SCRATCH/tmux$((n_sock += 1)).sock

# ASCII fallback without UTF-8
T new-session -d -x 80 -y 24 \
	"env LC_ALL=C LANG=C TERM=xterm '$PERFLOG' view '$SET'; echo EXIT=\$?; sleep 60"
await 'CPU \[%\]'
S=$(screen)
[ -z "$(printf '%s' "$S" | LC_ALL=C tr -d '\0-\177')" ]
ok 'ASCII only without a UTF-8 locale' [ -z "$(printf '%s' "$S" | LC_ALL=C tr -d '\0-\177')" ]
T send-keys q
await 'EXIT='
T kill-server 2>/dev/null
SOCK=$SCRATCH/tmux$((n_sock += 1)).sock

# two sets side by side, one shifted
"$MK" "$SCRATCH/logs/set2" -s 30m -i 1 -H serverhost >/dev/null
T new-session -d -x 80 -y 40 \
	"env LANG=C.UTF-8 TERM=xterm-256color '$PERFLOG' view '$SET' --shift '$SCRATCH/logs/set2=-600' '$SCRATCH/logs/set2'; echo EXIT=\$?; sleep 60"
ok 'two sets open' await 'serverhost'
S=$(screen)
like "$(printf '%s\n' "$S" | head -1)" 'serverhost\(-600s\)' 'header names both hosts and the shift'
like "$S" 'CPU@serverhost' 'panes labelled with their host'
T send-keys q
await 'EXIT='
T kill-server 2>/dev/null
SOCK=$SCRATCH/tmux$((n_sock += 1)).sock

# follow a set the real collector is still writing
LIVE=$("$PERFLOG" start -i 1 -o "$SCRATCH/live" 2>"$SCRATCH/start.err")
if [ -n "$LIVE" ] && wait_for 10 sh -c "'$PERFLOG' export '$LIVE' --csv - | sed -n 3p | grep -q ."; then
	T new-session -d -x 80 -y 24 \
		"env LANG=C.UTF-8 TERM=xterm-256color '$PERFLOG' view '$LIVE'; echo EXIT=\$?; sleep 60"
	ok 'live set opens' await 'CPU \[%\]'
	T send-keys f
	ok 'follow mode shown' await 'FOLLOW'
	h1=$(row 1)
	wait_for 10 row_not 1 "$h1"
	h2=$(row 1)
	[ "$h1" != "$h2" ]; ok "window follows new samples ($h2)" [ "$h1" != "$h2" ]
	T send-keys q
	await 'EXIT='
	T kill-server 2>/dev/null
	SOCK=$SCRATCH/tmux$((n_sock += 1)).sock
	"$PERFLOG" stop "$LIVE" >/dev/null 2>&1
else
	diag "collector did not start: $(cat "$SCRATCH/start.err")"
	_result 1 'collector for the follow test'
fi

# follow with the production flush ([log] flush = 60s: the RRD files are
# written once a minute): the window ends at the last sample, read from
# the journal, within 2 s at -i 1 (the header's "WHEN +SPAN": the window's
# start and span), at five of six looks a second apart (a loaded machine
# may delay one; before the journal the lag grew to the flush between
# writes)
LIVE=$(env -u PERFLOG_BATCH "$PERFLOG" start -i 1 -o "$SCRATCH/live60" 2>"$SCRATCH/start.err")
if [ -n "$LIVE" ] && sleep 2; then
	T new-session -d -x 100 -y 24 \
		"env LANG=C.UTF-8 TERM=xterm-256color TZ=UTC '$PERFLOG' view '$LIVE'; echo EXIT=\$?; sleep 60"
	ok 'live set (flush 60 s) opens' await 'CPU \[%\]'
	T send-keys f
	ok 'follow mode shown' await 'FOLLOW'
	near=0 lags=
	for i in 1 2 3 4 5 6; do
		sleep 1
		h=$(screen | head -1 | grep -o '[0-9-]\{10\} [0-9:]\{8\} +[0-9]*[sm]  FOLLOW')
		now=$(date +%s)
		[ -n "$h" ] || continue
		set -- $h
		span=${3#+}
		case $span in *m) span=$((${span%m} * 60)) ;; *s) span=${span%s} ;; esac
		lag=$((now - $(TZ=UTC date -d "$1 $2" +%s) - span))
		lags="$lags $lag"
		[ "$lag" -le 2 ] && near=$((near + 1))
	done
	ok "follow shows the last sample within 2 s at -i 1 (lags:$lags s)" test "$near" -ge 5
	T send-keys q
	await 'EXIT='
	T kill-server 2>/dev/null
	SOCK=$SCRATCH/tmux$((n_sock += 1)).sock
	lags=
	for i in 1 2 3; do
		last=$("$PERFLOG" export "$LIVE" --csv - | tail -1 | cut -d, -f1)
		lags="$lags $(($(date +%s) - $(date -d "$last" +%s)))"
		sleep 1
	done
	ok "export of the running set reaches the last sample (lags:$lags s)" \
		sh -c "for l in $lags; do [ \$l -le 2 ] || exit 1; done"
	"$PERFLOG" stop "$LIVE" >/dev/null 2>&1
	ok 'a set stopped whole keeps no journal' test ! -e "$LIVE/perflog.journal"
else
	diag "collector did not start: $(cat "$SCRATCH/start.err")"
	_result 1 'collector for the follow test (flush 60 s)'
fi

# bad log sets: one line, exit 1, before any terminal output
mkdir -p "$SCRATCH/empty" "$SCRATCH/corrupt"
printf 'format\tbanana\n\x01\x02garbage\n' > "$SCRATCH/corrupt/perflog.meta"
for d in empty corrupt missing; do
	"$PERFLOG" view "$SCRATCH/$d" > "$SCRATCH/out" 2> "$SCRATCH/err" < /dev/null
	rc=$?
	is "$rc" 1 "$d log set: exit 1"
	is "$(wc -l < "$SCRATCH/err")" 1 "$d log set: one line on stderr"
	is "$(wc -c < "$SCRATCH/out")" 0 "$d log set: nothing on stdout"
done
like "$(cat "$SCRATCH/err")" "missing" 'message names the set'
fails 'bad --shift refused' "$PERFLOG" view --shift nonsense "$SET"
fails 'no log set given' "$PERFLOG" view
done_testing

#!/bin/bash
# t4020-view-hosts: perflog view CLIENT SERVER aligns the server on the
# client's clock by the offset its markers recorded (perflog run
# --server), driven in tmux: crafted sets (mklogset), the server's clock
# 30 s ahead and its markers saying offset=-30. The header names the shift
# and where it came from; the session's begin and end lines stand in the
# same screen columns in the client's and the server's panes, and the
# server's disk rises at the session's begin; --shift overrides it (and
# the lines part); a pair with no recorded offset says so. Zoomed to a
# session, each host's wait pane shows that session's process (issue 32
# item 6: it kept the whole log's busiest, the first session's, empty),
# and back to the whole log the whole log's busiest again.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-tmux.sh"
command -v perl >/dev/null || skip_all "perl not installed"
MK=$TOP/build/tools/mklogset
[ -x "$MK" ] || skip_all "build/tools/mklogset not built"
L=$SCRATCH/sets
C=$($MK "$L" cli idle --host cli --session job --waits net \
	--extra peer=backup@srv --extra offset=30.000 --extra rtt=0.002) || skip_all "mklogset failed"
S=$($MK "$L" srv wdisk --host srv --session job --waits disk --offset 30 \
	--extra peer=cli --extra offset=-30.000 --extra rtt=0.002)
S_plain=$($MK "$L" srvplain wdisk --host srvplain --offset 30 --no-markers)
C_plain=$($MK "$L" cliplain idle --host cliplain --session job)

n_sock=0
# view ARGS...: start the viewer at 100x40 and keep its first frame in $SCR
view() {
	SOCK=$SCRATCH/tmux$((n_sock += 1)).sock
	T new-session -d -x 100 -y 40 \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color TZ=UTC '$PERFLOG' view $*; echo EXIT=\$?; sleep 60"
	wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q 'Network@'"
	SCR=$(T capture-pane -p)
	T send-keys q
	wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q 'EXIT='"
	T kill-server 2>/dev/null
}
# the columns of the vertical lines (│) between the axes in the first
# row of the pane titled $1 (a pane with both axes: memory and paging)
lines_of() {
	printf '%s\n' "$SCR" | grep -A1 -- "^ $1" | tail -1 |
		perl -CSD -Mutf8 -ne 'chomp; my @c; while (/│/g) { push @c, pos($_) - 1 }
			shift @c; pop @c; print "@c"'
}
# the column of the first plotted cell in the first row of pane $1
rise_of() {
	printf '%s\n' "$SCR" | grep -A1 -- "^ $1" | tail -1 |
		perl -CSD -Mutf8 -ne 'chomp; pos($_) = index($_, "│") + 1;
			/[^ ]/g and print pos($_) - 1'
}

view "'$C' '$S'"
like "$(printf '%s\n' "$SCR" | head -1)" 'cli \| srv\(-30s\) by its markers' 'header: the shift and where it came from'
cl=$(lines_of 'Memory, paging@cli')
sl=$(lines_of 'Memory, paging@srv')
[ -n "$cl" ] || diag "screen: $SCR"
is "$sl" "$cl" "the same session lines in the client's and the server's panes"
is "$(printf '%s\n' $cl | wc -l)" 2 "both hosts' sessions on the same two columns ($cl)"
begin=${cl%% *}
rise=$(rise_of 'Disk busy@srv')
near "$rise" "$begin" 0.05 "the server's disk rises at the session's begin"

# --shift 0: the server's own clock; its session lines 30 s (about a
# quarter of the 2 minute screen) later
view "--shift '$S=0' '$C' '$S'"
like "$(printf '%s\n' "$SCR" | head -1)" 'srv\(\+0s\) by --shift' '--shift overrides the recorded offset'
sl0=$(lines_of 'Memory, paging@srv')
is "$(printf '%s\n' $sl0 | wc -l)" 4 "unshifted, the two sessions part: four lines ($sl0)"
set -- $sl0
d=$(( $2 - $1 ))
# (a fifth of the 52-column plot beside the legend, on by default since
# issue 49: 10 columns; 17 of the 88 without it)
ok "the server's session 30 s later: about a fifth of the plot ($d columns)" [ "$d" -ge 8 ]

view "'$C_plain' '$S_plain'"
like "$(printf '%s\n' "$SCR" | head -1)" 'srvplain\(\+0s\) no recorded offset' 'no recorded offset: said in the header'

# two sessions: job (60 s) then job2 (20 s), each its own Process
C2=$($MK "$L" cli2 idle --host cli2 --session job --waits net --later job2)
S2=$($MK "$L" srv2 wdisk --host srv2 --session job --waits disk --later job2)
SOCK=$SCRATCH/tmux$((n_sock += 1)).sock
T new-session -d -x 100 -y 50 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color TZ=UTC '$PERFLOG' view '$C2' '$S2'; echo EXIT=\$?; sleep 60"
wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q 'Wait states'"
waitpane() { T capture-pane -p | grep -o "Wait states, [a-z0-9]*@$1 \[%\].*disk [0-9.]*%" | head -1; }
w0=$(waitpane srv2)
like "$w0" '^Wait states, job@srv2 .*disk 90' 'whole log: the server wait pane shows the busiest process (job)'
T send-keys s
wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q 'Sessions'"
# the list: job@cli2, job@srv2, job2@cli2, job2@srv2
T send-keys Down Down Down Enter
wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q '^session job2@srv2'"
w1=$(waitpane srv2)
like "$w1" '^Wait states, job2@srv2 .*disk 90' 'zoomed to job2: the server wait pane shows job2, its disk wait 90%'
like "$(waitpane cli2)" '^Wait states, job2@cli2' "zoomed to job2: the client's too"
T send-keys a
sleep 0.5
like "$(waitpane srv2)" '^Wait states, job@srv2' 'back to the whole log: job again'
T send-keys q
wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q 'EXIT='"
T kill-server 2>/dev/null
done_testing

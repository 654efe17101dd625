#!/bin/bash
# t4010-bands: a peak that survives zooming out (issue 17). A week at 1 s
# of 5% CPU with one 10-second peak to 100%, three days in (older than the
# 2 days of full resolution: only the MIN/AVERAGE/MAX consolidations hold
# it), written through the real writer and librrd (tests/tools/mkspike).
# The viewer, driven in tmux at 80x24 and at the 7-day zoom, shows the
# peak's top: the band takes the CPU scale to 100% and fills the top plot
# row at the peak's column (braille, and '.' in ASCII), the legend's max is
# 100%, the cursor on the peak reads its row's min..max, the header says
# what the points are, and zoomed in the peak stays. The 7-day PNG's
# rrd_graph_v results (the legend's PRINTs, charts.tsv) give 100 as the
# max, from the MIN/MAX archives, with 5 as the min and the average near 5.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-tmux.sh"
MK=$TOP/build/tools/mkspike
[ -x "$MK" ] || skip_all "build/tools/mkspike not built (make check builds it)"

SET=$SCRATCH/logs/week
t0=$(date +%s)
"$MK" "$SET" -m peak -H spikehost >/dev/null || { echo "1..0 # SKIP mkspike failed"; exit 0; }
diag "a week at 1 s written in $(( $(date +%s) - t0 )) s"

# each non-ASCII character as one '#': columns are byte offsets then
flat() { LC_ALL=C.UTF-8 sed 's/[^ -~]/#/g'; }
# the 1-based column of the marker's arrow on the marker row
arrow_col() { printf '%s\n' "$1" | sed -n 2p | awk -v a="$2" '{ print index($0, a) }'; }
# does row $2 of screen $1 hold glyph class $4 within a column of $3?
glyph_near() {
	printf '%s\n' "$1" | sed -n "${2}p" |
		awk -v c="$3" -v g="$4" '{ for (x = c - 1; x <= c + 1; x++)
			if (substr($0, x, 1) ~ g) found = 1 } END { exit !found }'
}

T new-session -d -x 80 -y 24 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color TZ=UTC '$PERFLOG' view '$SET'; echo EXIT=\$?; sleep 60"
ok 'the viewer opens the week' await 'CPU \[%\]'
S=$(screen)
like "$(printf '%s\n' "$S" | head -1)" '\+7\.0d$' 'the 7-day zoom: the whole week in view'
like "$(printf '%s\n' "$S" | head -1)" 'avg of 1h rows, band min\.\.max' \
	'the header says what the points are'
# rows: 1 header, 2 markers, 3 CPU title, 4 the CPU plot's top row
top=$(printf '%s\n' "$S" | sed -n 4p)
like "$top" '^ 100%' 'the band takes the CPU scale to 100%'
F=$(printf '%s\n' "$S" | flat)
col=$(arrow_col "$F" '#')
diag "marker arrow at column $col; top row: $top"
ok 'the peak reaches the top plot row at its column' glyph_near "$F" 4 "$col" '#'
n=$(printf '%s\n' "$F" | sed -n 4p | cut -c7- | tr -cd '#' | wc -c)
ok "and only there ($n cells: the 5% line is at the bottom)" test "$n" -ge 1 -a "$n" -le 2

# the legend, on from the first frame (issue 49): cur/avg/max of the
# window at 80 columns, max the band's; L then hides it for what follows
ok 'legend on' await 'cur .*avg .*max'
like "$(screen | grep 'total' | grep -v CPU | head -1)" 'total +5\.0% +5\.[0-9]+% +100\.0%' \
	'legend: total cur 5%, avg 5%, max 100%'
T send-keys L

# the cursor on the peak (n: its marker) reads the 1-minute row's range
T send-keys n
ok 'cursor on the peak' await 'marker: peak'
like "$(screen | sed -n 3p)" 'total [0-9.]+% \(5\.00%\.\.100%\)' \
	'cursor readout: the consolidated row avg (min..max)'
like "$(screen | tail -1)" '^cursor 20[0-9-]+ [0-9:]+' 'the cursor names the row'

# zoomed in around the cursor, the peak stays on the scale
T send-keys + + + +
sleep 0.8
S=$(screen)
like "$(printf '%s\n' "$S" | head -1)" '\+10\.5h$' 'zoomed in four times: 10.5 hours'
like "$(printf '%s\n' "$S" | sed -n 4p)" '^ 100%' 'zoomed in: still 100% at the top'
like "$(printf '%s\n' "$S" | head -1)" 'avg of 1m rows, band min\.\.max' \
	'zoomed in: the 1-minute rows'
T send-keys q
await 'EXIT='
T kill-server 2>/dev/null
SOCK=$SCRATCH/tmux2.sock

# ASCII, no colour: the band as '.' at the marker's 'v'
T new-session -d -x 80 -y 24 \
	"env LC_ALL=C LANG=C TERM=vt100 TZ=UTC '$PERFLOG' view '$SET'; echo EXIT=\$?; sleep 60"
ok 'ASCII viewer opens' await 'CPU \[%\]'
S=$(screen)
col=$(arrow_col "$S" 'v')
like "$(printf '%s\n' "$S" | sed -n 4p)" '^ 100%' 'ASCII: 100% at the top'
ok "ASCII: the band's '.' in the top row at the marker (column $col)" \
	glyph_near "$S" 4 "$col" '[.]'
T send-keys q
await 'EXIT='
T kill-server 2>/dev/null

# the 7-day PNG: rrd_graph_v's PRINT of the band's MAX is 100
ok 'export --png of the week' "$PERFLOG" export "$SET" --png "$SCRATCH/png"
read pmin pavg pmax points < <(awk -F'\t' '$1 == "cpu.png" && $2 ~ /% Processor Time$/ { print $3, $4, $5, $6 }' "$SCRATCH/png/charts.tsv")
diag "cpu.png total: min $pmin avg $pavg max $pmax ($points)"
is "$pmax" 100 'the PNG legend max (rrd_graph_v PRINT of the MAX) is 100'
is "$pmin" 5 'its min is 5'
near "$pavg" 5 0.01 'its average stays 5'
like "$(awk -F'\t' '$1 == "cpu.png" { print $6; exit }' "$SCRATCH/png/charts.tsv")" \
	'^avg of 1 min rows, band min\.\.max$' 'charts.tsv says what the points are'
sig=$(od -An -tx1 -N8 "$SCRATCH/png/cpu.png" | tr -d ' \n')
is "$sig" 89504e470d0a1a0a 'cpu.png is a PNG'
done_testing

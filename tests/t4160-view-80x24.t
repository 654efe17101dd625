#!/bin/bash
# t4160-view-80x24: the viewer readable at 80x24 (issue 49 item 5),
# driven in tmux: every pane has its current, average and peak as numbers
# beside its plot from the first frame (the legend, `L` hides it), never
# in e-notation, and they are the log set's figures: the newest row, the
# mean and the highest sample of the CSV export over the window.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-tmux.sh"
MK=$TOP/build/tools/mkwaveset
[ -x "$MK" ] || skip_all "build/tools/mkwaveset not built"

SET=$SCRATCH/logs/set1
"$MK" "$SET" -s 20m -i 1 -m 300:mark-A -S nightly:200:900 >/dev/null ||
	{ echo "1..0 # SKIP mkwaveset failed"; exit 0; }

T new-session -d -x 80 -y 24 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color TZ=UTC '$PERFLOG' view '$SET'; echo EXIT=\$?; sleep 60"
ok 'viewer draws its first frame at 80x24' wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q 'CPU \[%\]'"
sleep 0.5
S=$(screen)
printf '%s\n' "$S" | sed 's/^/# | /'
is "$(printf '%s\n' "$S" | wc -l)" 24 '24 rows'
for p in 'CPU \[' 'Disk busy \[' 'Memory, paging \[' 'Network \['; do
	like "$(printf '%s\n' "$S" | grep -E "^ $p")" 'cur +avg +max$' "pane ${p%% *}: cur, avg and max beside it"
done
# each series' row: its mark, label, three numbers
rows=$(printf '%s\n' "$S" | grep -cE '■[a-z0-9 ]+ +[0-9.]+[%A-Za-z/]* +[0-9.]+[%A-Za-z/]* +[0-9.]+[%A-Za-z/]*$')
ok "a row of three numbers for each series ($rows)" test "$rows" -ge 9
ok 'no number in e-notation' sh -c "! printf '%s\n' \"\$1\" | grep -qE '[0-9]e[-+]?[0-9]'" _ "$S"

# the CPU total's figures against the CSV export over the whole log
read cur avg max < <(printf '%s\n' "$S" | grep -oE '■total +[0-9.]+% +[0-9.]+% +[0-9.]+%' | tr -d '■%' | awk '{ print $2, $3, $4 }')
"$PERFLOG" export "$SET" --csv "$SCRATCH/all.csv"
col=$(csv_col "$SCRATCH/all.csv" 'Processor(_Total)\% Processor Time')
read ccur cavg cmax < <(awk -F, -v c="$col" 'NR > 1 && $c != "" { n++; s += $c; if ($c > m) m = $c; last = $c } END { printf "%.4f %.4f %.4f\n", last, s / n, m }' "$SCRATCH/all.csv")
diag "screen: cur $cur avg $avg max $max; CSV: last $ccur mean $cavg max $cmax"
within 'cur is the newest row (one decimal)' "$cur" "$(calc "$ccur - 0.051")" "$(calc "$ccur + 0.051")"
within 'max is the highest sample (the band)' "$max" "$(calc "$cmax - 0.051")" "$(calc "$cmax + 0.051")"
near "$avg" "$cavg" 0.01 'avg is the mean over the window'

# L hides the legend and gives the plot its width back
T send-keys L
sleep 0.5
ok 'L hides the legend' sh -c "! tmux -S '$SOCK' capture-pane -p | grep -qE 'cur +avg +max'"
T send-keys q
ok 'viewer quits' wait_for 5 sh -c "tmux -S '$SOCK' capture-pane -p | grep -q 'EXIT=0'"
done_testing

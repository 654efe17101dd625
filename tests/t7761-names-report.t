#!/bin/bash
# t7761-names-report: a stage named with a newline in the report, and an
# edges file of before names were one field (issue 50 item 5). he<NL>ad
# (head through a symlink: comm is the file's name) feeds cat under
# perflog run: the waits and edges files name it alike (he?ad), and the
# report's stages and seconds show its row. A perflog before 5d077f3
# wrote a comm with a tab as it is, a field of its own in
# edges-LABEL.tsv, and the report dropped that row in silence: such a
# line (the set's own file, a row of s<TAB>h added as that writer wrote
# it) is now said, file and line, at the default level and with -v.
. "$(dirname "$0")/lib.sh"
NL=$(printf '\nx'); NL=${NL%x}
TAB=$(printf '\t')
HEAD="$SCRATCH/he${NL}ad"
ln -s "$(command -v head)" "$HEAD" ||
	skip_all "no symlink named with a newline here"
LS=$SCRATCH/logs

# cat starts reading 1 s late: he<NL>ad waits on its pipe, an edge
"$PERFLOG" run -i 1 -o "$LS" -l nl -- sh -c \
	'"$0" -c 100000000 /dev/zero | (sleep 1; exec cat >/dev/null)' \
	"$HEAD" >/dev/null 2>&1
is "$?" 0 'perflog run of he<NL>ad | cat'
set -- "$LS"/*/markers.tsv
SET=$(dirname "$1")
W=$SET/waits-nl.tsv
E=$SET/edges-nl.tsv
ok 'the waits and edges files are there' test -s "$W" -a -s "$E"
wn=$(awk -F'\t' 'NR > 1 && $2 ~ /^he.ad$/ { print $2 }' "$W" | sort -u)
en=$(awk -F'\t' 'NR > 1 && $2 ~ /^he.ad$/ { print $2 }' "$E" | sort -u)
is "$wn" 'he?ad' 'waits: he<NL>ad written he?ad'
is "$en" "$wn" 'edges: the same name'
pid_w=$(awk -F'\t' 'NR > 1 && $2 == "he?ad" { print $14; exit }' "$W")
pid_e=$(awk -F'\t' 'NR > 1 && $2 == "he?ad" { print $1; exit }' "$E")
is "$pid_e" "$pid_w" 'edges: its row the process the waits file names'

"$PERFLOG" report -v "$SET" >"$SCRATCH/report" 2>&1
is "$?" 0 'the report reads the set'
like "$(sed -n '/^  Stages/,/^  [A-Z]/p' "$SCRATCH/report")" '^    he\?ad ' \
	"the report's stages show he?ad"
like "$(sed -n '/^  Seconds/,/graph verdict/p' "$SCRATCH/report")" '^    he\?ad ' \
	"the report's seconds show he?ad"
ok 'nothing said unread' sh -c "! grep -q 'not read' '$SCRATCH/report'"

# the old writer's row: a shell named s<TAB>h waiting on he?ad's pipe
line=$(awk 'END { print NR + 1 }' "$E")
printf '%s\ts%sh\tin\tpipe\t%s\the?ad\t-\t-\t0.500\t-\n' 1 "$TAB" "$pid_e" >>"$E"
"$PERFLOG" report "$SET" >"$SCRATCH/report2" 2>&1
is "$?" 0 'the report reads the set with an old edges line'
like "$(cat "$SCRATCH/report2")" "not read: 'edges-nl.tsv' line $line: " \
	'the report says the line it did not read (default level)'
"$PERFLOG" report -v "$SET" >"$SCRATCH/report3" 2>&1
like "$(cat "$SCRATCH/report3")" "not read: 'edges-nl.tsv' line $line: .*1 line not read" \
	'... and with -v'
done_testing

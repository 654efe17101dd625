#!/bin/bash
# t7726-waits-names: commands named with a tab or a newline (issue 50
# item 5). A process's comm is the name it was exec'ed through, and a
# symlink can hold any byte but '/' and NUL: `s<TAB>h` (a shell) and
# `he<NL>ad` (head) added a field to edges-LABEL.tsv, whose rows the
# report then dropped in silence, while waits-LABEL.tsv wrote them `s?h`.
# Under perflog run, s<TAB>h runs he<NL>ad into a pipe read late by a
# child of its own: both files are read back whole (every line one row
# of their own fields) and name the commands alike (s?h, he?ad).
. "$(dirname "$0")/lib.sh"
TAB=$(printf '\t')
NL=$(printf '\nx'); NL=${NL%x}
SH="$SCRATCH/s${TAB}h"
HEAD="$SCRATCH/he${NL}ad"
ln -s "$(command -v sh)" "$SH" && ln -s "$(command -v head)" "$HEAD" ||
	skip_all "no symlink named with a tab or a newline here"
LS=$SCRATCH/logs

# head fills the pipe and waits on it until the reader, started 1.5 s
# late, takes its bytes: an edge of he<NL>ad to s<TAB>h; the shell waits
# on both children: edges of s<TAB>h
"$PERFLOG" run -i 1 -o "$LS" -l names -- "$SH" -c \
	'"$0" -c 100000000 /dev/zero | "$1" -c "sleep 1.5; exec cat >/dev/null"' \
	"$HEAD" "$SH" >"$SCRATCH/run.out" 2>"$SCRATCH/run.err"
is "$?" 0 'perflog run of s<TAB>h running he<NL>ad'
set -- "$LS"/*/markers.tsv
SET=$(dirname "$1")
waits=$(grep -hP '\tend\tnames\t' "$SET/markers.tsv" | tr '\t' '\n' | sed -n 's/^waits=//p')
W="$SET/$waits"
E="$SET/edges-${waits#waits-}"
ok 'the waits file is there' test -s "$W"
ok 'the edges file is there' test -s "$E"

# every line one row: its fields as the header's, a pid first
rows_ok() {
	awk -F'\t' 'NR == 1 { n = NF; next }
		NF != n || $1 !~ /^[0-9]+$/ { bad++; print "# bad line " NR ": " $0 }
		END { print bad + 0 }' "$1"
}
is "$(rows_ok "$E" | tail -n 1)" 0 'edges: every line is one row of its 10 fields'
is "$(rows_ok "$W" | tail -n 1)" 0 'waits: every line is one row of its fields'
rows_ok "$E" | grep '^#'

names() {	# the comm column's names, sorted, once each
	awk -F'\t' -v c="$2" 'NR > 1 && $c != "-" { print $c }' "$1" | sort -u | tr '\n' ' '
}
like "$(names "$E" 2)" 's\?h' 'edges: s<TAB>h written s?h'
like "$(names "$E" 2) $(names "$E" 6)" 'he\?ad' 'edges: he<NL>ad written he?ad'
like "$(names "$W" 2)" 'he\?ad' 'waits: he<NL>ad written he?ad'
# the names a tab or a newline was in, alike in both files (he<NL>ad was
# "he" in the edges file, cut at its newline)
w_names=" $(names "$W" 2)"
missing=
for n in $(names "$E" 2) $(names "$E" 6); do
	case "$n" in *'?'*) ;; *) continue ;; esac
	case "$w_names" in *" $n "*) ;; *) missing="$missing $n" ;; esac
done
is "$missing" "" 'the two files name s<TAB>h and he<NL>ad alike'
like "$(awk -F'\t' '$2 == "he?ad" && $4 == "pipe"' "$E")" . \
	'edges: he?ad waited on its pipe, a row of its own'
"$PERFLOG" report -v "$SET" >"$SCRATCH/report" 2>&1
is "$?" 0 'the report reads the set'
done_testing

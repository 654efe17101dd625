#!/bin/bash
# tests/t9000-man.t - the manual pages (man/) are complete and clean:
#  - every command `perflog --help` lists has its page perflog-CMD.1;
#  - every option a command's --help prints appears in its page (and those
#    of `perflog --help` in perflog.1);
#  - every page renders with no warning (groff -ww, man --warnings, and
#    mandoc -T lint when it is installed), names itself in NAME, carries
#    the version of common/util.h, and refers only to pages that exist;
#  - perflog-view.1 lists every key of the viewer's key table.
. "$(dirname "$0")/lib.sh"
MAN=$TOP/man
command -v groff >/dev/null || skip_all "groff is not installed (groff-base)"

# The page as plain text, unhyphenated and on long lines, so an option is
# never split; rendered once a page (the checks below read each page up
# to five times)
mkdir "$SCRATCH/text"
render() {
	_f=$SCRATCH/text/${1##*/}
	[ -f "$_f" ] || groff -man -Tascii -rLL=300n -P-cbou "$1" >"$_f" 2>/dev/null
	cat "$_f"
}

# Options of a --help text: -x and --long-name, preceded by a non-word
# character (so "well-known" and dates do not count).
options_of() {
	grep -oE '(^|[^A-Za-z0-9_-])--?[A-Za-z][A-Za-z0-9-]*' |
		sed 's/^[^-]*//' | sort -u
}

# missing_options PAGE HELP-TEXT: prints the options missing from PAGE
# (an option is on a line of it between non-word characters; one awk for
# all of them, not a grep an option)
missing_options() {
	render "$1" >"$SCRATCH/page"
	printf '%s\n' "$2" | options_of | awk -v page="$SCRATCH/page" '
		BEGIN { while ((getline l < page) > 0) text[++n] = l }
		{ for (i = 1; i <= n; i++)
			if (text[i] ~ ("(^|[^A-Za-z0-9_-])" $0 "([^A-Za-z0-9_-]|$)")) next
		  print }'
}

commands=$("$PERFLOG" --help | awk '/^  [a-z]/ { print $1 }')
ok 'perflog --help lists commands' test -n "$commands"
for c in $commands; do
	page=$MAN/perflog-$c.1
	if [ ! -f "$page" ]; then
		_result 1 "perflog $c has a page"; continue
	fi
	miss=$(missing_options "$page" "$("$PERFLOG" "$c" --help)")
	is "$miss" "" "perflog-$c.1 documents every option of 'perflog $c --help'"
done
miss=$(missing_options "$MAN/perflog.1" "$("$PERFLOG" --help)
--version")
is "$miss" "" 'perflog.1 documents --help and --version'

# each command is in perflog.1's list
text=$(render "$MAN/perflog.1")
for c in $commands; do
	printf '%s\n' "$text" | grep -q "perflog-$c(1)" || echo "perflog-$c(1)"
done >"$SCRATCH/unlisted"
is "$(cat "$SCRATCH/unlisted")" "" 'perflog.1 refers to every command page'

# the viewer's keys: every key of its table (viewer/keys.c, which the ?
# screen shows) is in perflog-view(1)'s KEYS section
page_keys=$(awk '/^\.SH KEYS/ { k = 1; next } /^\.SH/ { k = 0 }
	k && tp { l = $0; sub(/^\.BR? /, "", l); gsub(/" and "|", "/, " ", l)
		gsub(/\\-/, "-", l); n = split(l, t, " ")
		for (i = 1; i <= n; i++) print t[i]; tp = 0; next }
	k && /^\.TP/ { tp = 1 }' "$MAN/perflog-view.1" | sort -u)
table_keys=$(sed -n 's/^[[:space:]]*{ [^,]*, KA_[A-Z_]*, "\([^"]*\)".*/\1/p' "$TOP/viewer/keys.c" | sort -u)
ok 'the key table of viewer/keys.c was read' test "$(printf '%s\n' "$table_keys" | wc -l)" -gt 20
is "$(comm -23 <(printf '%s\n' "$table_keys") <(printf '%s\n' "$page_keys") | tr '\n' ' ')" "" \
	'perflog-view.1 lists every key of the viewer'

version=$(sed -n 's/^#define PERFLOG_VERSION "\(.*\)"/\1/p' "$TOP/common/util.h")
have_mandoc=0
command -v mandoc >/dev/null && have_mandoc=1
for page in "$MAN"/*.[1-8]; do
	name=$(basename "$page")
	out=$(groff -ww -z -man "$page" 2>&1)
	is "$out" "" "$name: groff -ww is silent"
	if command -v man >/dev/null; then
		out=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$page" 2>&1 >/dev/null)
		is "$out" "" "$name: man --warnings -l is silent"
	fi
	if [ $have_mandoc = 1 ]; then
		out=$(mandoc -T lint -W style "$page" 2>&1)
		is "$out" "" "$name: mandoc -T lint is silent"
	fi
	stem=${name%.*}
	like "$(render "$page" | sed -n '/^NAME/{n;p;q}')" "^ +$stem - " "$name: NAME says $stem"
	like "$(grep '^\.TH' "$page")" "\"perflog $version\"" "$name: .TH carries version $version"
	# references to our own pages resolve
	refs=$(render "$page" | grep -oE '(perflog(-[a-z]+)?|perftest\.pml)\([0-9]\)' | sort -u)
	bad=
	for r in $refs; do
		p=${r%(*}; s=${r#*(}; s=${s%)}
		[ -f "$MAN/$p.$s" ] || bad="$bad $r"
	done
	is "$bad" "" "$name: every perflog page it refers to exists"
done
[ $have_mandoc = 1 ] || diag "mandoc not installed: its lint was skipped"

# self-contained (issue 49): a page cites no file of the source tree, which
# is not installed (report/README.md, export/png_export.h); what it cites
# is in it. Nor does a --help.
cited=$(for page in "$MAN"/*.[15]; do
	render "$page" | grep -oE '[a-z_]+/[A-Za-z_.-]+\.(md|h|c)\b' | sed "s|^|$(basename "$page"): |"
done | sort -u)
is "$cited" "" 'no page cites a file of the source tree'
helps=$(for c in $commands; do "$PERFLOG" "$c" --help; done | grep -oE '[a-z_]+/[A-Za-z_.-]+\.(md|h|c)\b' | sort -u)
is "$helps" "" 'no --help cites a file of the source tree'
# every counter of the catalog (perflog counters lists them all) has its
# definition in perflog-counters(1)
render "$MAN/perflog-counters.1" >"$SCRATCH/page"
miss=$("$PERFLOG" counters | awk -F'  +' '/^  [^ ]/ { n = split($2, p, "\\"); c = p[n]
	# a path as long as its column keeps one blank before its unit
	sub(/ (%|B|B\/s|\/s|s)$/, "", c); print c }' | sort -u |
	# each a fixed string on a line of the page (as grep -F)
	awk -v page="$SCRATCH/page" 'BEGIN { while ((getline l < page) > 0) text[++n] = l }
		{ c = $0; sub(/^[ \t]+/, "", c); sub(/[ \t]+$/, "", c)
		  if (c == "") next
		  for (i = 1; i <= n; i++) if (index(text[i], c)) next
		  print c }')
n=$("$PERFLOG" counters | grep -c '^  [^ ]')
ok "perflog counters lists the catalog ($n counters)" test "$n" -ge 80
is "$miss" "" 'perflog-counters(1) defines every counter'
done_testing

#!/bin/sh
# The HTML report a manager reads (issue 49), in a real browser: a real
# log set of two perflog run sessions (one with a name far wider than a
# table cell), `report --html`, then Debian's chromium headless on the
# page at the width of an A4 page (794 px at 96 dpi): the run and the
# sessions table come before the first chart, every session's row links
# to its section, no element reaches past the page's right edge (long
# verdict lines, names and the figures wrap), the images are the files
# beside it, and a screenshot goes to build/screenshots/ to be looked at.
. "$(dirname "$0")/lib.sh"
command -v chromium >/dev/null || skip_all "no chromium (tests/deps.sh installs it)"

set=$("$PERFLOG" start -o "$SCRATCH/logs" -i 1) || { echo "Bail out! perflog start failed"; exit 1; }
long=a-session-name-far-wider-than-any-table-cell-of-the-page-a-session-name-far-wider-than-any
"$PERFLOG" run -l gz -o "$set" -- sh -c 'head -c 30000000 /dev/urandom | gzip -1 >/dev/null' >/dev/null 2>&1
"$PERFLOG" run -l "$long" -o "$set" -- sh -c 'dd if=/dev/zero of=/dev/null bs=1M count=2000 2>/dev/null' >/dev/null 2>&1
"$PERFLOG" stop "$set" >/dev/null
H=$SCRATCH/html
ok 'report --html' "$PERFLOG" report "$set" --html "$H"
page=$(cat "$H/index.html")
ok 'report.txt beside the page' test -s "$H/report.txt"
like "$(cat "$H/report.txt")" '^Sessions:' 'the text report opens with the sessions table'

# the order of the page, from its text: run, sessions table, sections
pos() { printf '%s\n' "$page" | grep -n -m1 -- "$1" | cut -d: -f1; }
t=$(pos '<table class="sessions">'); img=$(pos '<img ')
ok "the sessions table (line $t) before the first chart (line $img)" test "${t:-0}" -gt 0 -a "${t:-0}" -lt "${img:-0}"
like "$page" '<a href="#s1">gz</a>' 'a session row links to its section'
like "$page" '<section id="s2">' 'the second session has its section'
like "$page" '<span class="word" style="background:#[0-9a-f]{6}">(CPU|disk|network|memory|nothing)</span>' "the verdict's word in its colour"

# in the browser: what overflows the page's width, and the order again
cat >"$H/check.js" <<'EOF'
window.addEventListener('load', function () {
	var w = document.documentElement.clientWidth, over = [];
	document.querySelectorAll('body *').forEach(function (e) {
		var r = e.getBoundingClientRect();
		if (r.width > 0 && r.right > w + 1)
			over.push(e.tagName + '.' + e.className + '@' + Math.round(r.right));
	});
	var t = document.querySelector('table.sessions'), i = document.querySelector('img');
	var before = t && i && (t.compareDocumentPosition(i) & Node.DOCUMENT_POSITION_FOLLOWING) ? 1 : 0;
	var bad = 0, split = [];
	document.querySelectorAll('img').forEach(function (e) { if (!e.naturalWidth) bad++; });
	// a header or a verdict's word on two lines ('dura|tion', 'CP|U'):
	// taller than one line of its own text
	document.querySelectorAll('th, .word').forEach(function (e) {
		var cs = getComputedStyle(e), line = parseFloat(cs.fontSize) * 1.6;
		var r = document.createRange();
		r.selectNodeContents(e);
		if (r.getBoundingClientRect().height > line)
			split.push(e.textContent);
	});
	document.body.setAttribute('data-check', 'width=' + w + ' overflow=' + over.length +
		' first=' + (over[0] || '-') + ' before=' + before + ' images=' +
		document.querySelectorAll('img').length + ' broken=' + bad +
		' split=' + split.length + ' (' + split.join('|') + ')');
});
EOF
sed 's#</body>#<script src="check.js"></script></body>#' "$H/index.html" >"$H/checked.html"
dom=$(headless_chromium --dump-dom "file://$H/checked.html")
check=$(printf '%s\n' "$dom" | grep -o 'data-check="[^"]*"' | head -1)
diag "browser: $check"
like "$check" 'before=1' 'in the browser: the sessions table before the first chart'
like "$check" 'overflow=0 ' 'in the browser: nothing reaches past an A4 page width'
like "$check" 'images=[1-9][0-9]* broken=0' 'in the browser: every chart loads'
like "$check" 'split=0 ' "in the browser: no table header or verdict word broken over two lines (a long session name took their width: 'dura tion', 'CP U')"
mkdir -p "$TOP/build/screenshots"
headless_chromium --screenshot="$TOP/build/screenshots/report-html.png" "file://$H/index.html" >/dev/null
ok 'a screenshot of the page (build/screenshots/report-html.png)' test -s "$TOP/build/screenshots/report-html.png"
done_testing

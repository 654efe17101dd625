#!/bin/sh
# t5150-report-night: a night of overlapping sessions (issue 47 item 2):
# the report of a set whose sessions ran at once opens with them ranked,
# then "Shared: WORD on HOST:" with each session's seconds on the
# resource they held each other back on; a session held back by its own
# resource is said to be and is not counted in it.
#   disk   three `perflog run` sessions at once, each writing 2, 6 and
#          12 MiB into the scratch directory (dd oflag=direct,dsync: each
#          write synced, in the writer's own context, so the throttle
#          holds the writer and not the flusher: buffered writes with one
#          fsync at the end all ended together, flushed as one), all
#          three in one blkio/io group whose writes to that disk are
#          throttled to 4 MiB/s (as t3510's thrott): Shared: disk on
#          HOST, all three named; ranked w12 (about 5 s), w6 (3.5 s), w2
#          (1.5 s): the lengths are set by the bytes each wrote through
#          one throttle, clearly apart
#   quota  two writers of 6 MiB in the same group, and beside
#          them a burner (loadgen burn 3) in its own cpu group allowed
#          5 ms of each 100 ms: the burner is held back by its own
#          quota, said in its line and left out of the Shared: disk line.
#          (At 20 ms the quota held it only part of the time on a loaded
#          2-CPU host: the other work beside the suite held it more, and
#          the host's CPUs were its verdict, rightly; at 5 ms a single
#          runnable thread gets less than that from CFS however loaded)
#   apart  two short sessions one after the other: no night, no Shared
#          line, the plain Sessions table
# Then --json's night (the ranking and the shared line's data) and the
# HTML page's ranked table and lanes (the page itself is t5140's to
# open in chromium; its lanes are checked there too when it runs).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-zoo.sh"

dev=$(zoo_disk_dev "$SCRATCH")
[ -n "$dev" ] || skip_all "$SCRATCH is not on a block device"
zoo_cgroup io plnw$$ || skip_all "no blkio/io controller to throttle with"
DISKG=$ZOO_CG
zoo_throttle "$DISKG" "$dev" write 4194304 || skip_all "cannot throttle $dev"

# run CASE PROCS_FILE -- CMD...: perflog run joining the suite's
# collector, in the group, in the background; its pid in RUNPID
run_in() {
	_c=$1 _g=$2
	shift 3
	ZG=$_g sh -c 'echo $$ >"$ZG" || exit 97; exec "$0" "$@"' \
		"$PERFLOG" run -o "$ZOO" -l "$_c" -- "$@" >"$SCRATCH/$_c.out" 2>&1 &
	RUNPID=$!
	track_pid $RUNPID
}

# a night's report: its opening table and Shared line
night() { sed -n '/^Sessions:/,/^Session /p' "$1" | sed '$d'; }
shared() { sed -n 's/^Shared: //p' "$1"; }
ranked() { night "$1" | awk '$1 ~ /^[0-9]+$/ { printf "%s%s", (n++ ? " " : ""), $2 } END { print "" }'; }

# writer NAME MIB: a session writing MIB MiB through the throttled group
# (each write synced), its pid added to PIDS
PIDS=""
writer() {
	run_in "$1" "$DISKG/cgroup.procs" -- dd if=/dev/zero of="$SCRATCH/$1.out" bs=256k count=$(($2 * 4)) oflag=direct,dsync
	PIDS="$PIDS $RUNPID"
}
# finish NAME: the sessions of PIDS ended, the collector stopped, its
# report in NAME.txt (-v: its lines whole, as scripts read them), the
# night printed with the load beside it
finish() {
	wait $PIDS
	load_end
	PIDS=""
	"$PERFLOG" stop "$ZOO_SET" >/dev/null
	"$PERFLOG" report -v "$ZOO_SET" >"$SCRATCH/$1.txt" 2>&1
	diag "$1: $LOAD_FIGS"
	night "$SCRATCH/$1.txt" | sed 's/^/#   /'
}

# ---- disk: three writers through one throttle
zoo_start || { echo "Bail out! perflog start failed"; exit 1; }
load_begin
for mb in 2 6 12; do
	writer w$mb $mb
done
finish disk
"$PERFLOG" report --json "$ZOO_SET" >"$SCRATCH/disk.json" 2>&1
"$PERFLOG" report --html "$SCRATCH/html" "$ZOO_SET" >/dev/null 2>&1
host=$(sed -n '2s/^  host \([^,]*\),.*/\1/p' "$SCRATCH/disk.txt")
like "$(night "$SCRATCH/disk.txt" | head -1)" '^Sessions: a night of 3, ranked by duration' 'disk: the report opens with the night'
is "$(ranked "$SCRATCH/disk.txt")" "w12 w6 w2" 'disk: ranked by duration, the most bytes the longest'
is "$(night "$SCRATCH/disk.txt" | awk '$1 ~ /^[0-9]+$/' | grep -cE '  disk +disk ')" 3 'disk: each one limited by the disk'
like "$(shared "$SCRATCH/disk.txt")" "^disk on $host: " 'disk: Shared: disk on the host'
for c in w2 w6 w12; do
	like "$(shared "$SCRATCH/disk.txt")" "[;,] $c [0-9.]+ s" "disk: $c's seconds on it"
done
# the writer of 12 MB spent the most seconds on the disk beside another
w12=$(shared "$SCRATCH/disk.txt" | sed -E 's/.*[;,] w12 ([0-9.]+) s.*/\1/')
w2=$(shared "$SCRATCH/disk.txt" | sed -E 's/.*[;,] w2 ([0-9.]+) s.*/\1/')
ok "disk: w12's seconds on the disk ($w12) over w2's ($w2)" awk -v a="$w12" -v b="$w2" 'BEGIN { exit !(a > b) }'
ok 'disk: no session on its own' sh -c "grep -q '^Sessions: a night of 3' '$SCRATCH/disk.txt' && ! grep -qE 'held back by its own|\(its own\)' '$SCRATCH/disk.txt'"

# --json: the ranking and the shared line's data
ok 'disk: --json night' python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["report"]["night"]
assert [s["name"] for s in n["ranking"]] == ["w12", "w6", "w2"], n["ranking"]
assert n["shared"]["kind"] == "disk" and n["shared"]["host"] == sys.argv[2], n["shared"]
assert sorted(s["name"] for s in n["shared"]["sessions"]) == ["w12", "w2", "w6"]
assert all(s["seconds"] > 0 for s in n["shared"]["sessions"])
assert n["line"].startswith("disk on " + sys.argv[2] + ":")
' "$SCRATCH/disk.json" "$host"
# the HTML page: the ranked table, the Shared line, a lane a session in
# the disk's colour (one table of colours: the word's)
H=$SCRATCH/html/index.html
is "$(grep -c 'class="lane"><span class="lname">w' "$H")" 3 'disk: the page has a lane a session'
like "$(grep -o 'class="shared"><b>Shared:</b> [a-z]*' "$H")" 'Shared:</b> disk' 'disk: the page says what was shared'
is "$(grep -o 'class="bar"[^>]*background:#[0-9a-f]*' "$H" | sed 's/.*background://' | sort -u)" \
	"$(grep -o 'class="word" style="background:#[0-9a-f]*">disk' "$H" | head -1 | sed 's/.*background:\(#[0-9a-f]*\).*/\1/')" \
	"disk: the lanes in the disk's colour, the word's"

# in the browser (as t5140): the lanes on one axis at an A4 page's
# width, each bar ending where its session ended (w2 first, w12 last),
# each over every other one (they ran together; when each began is
# perflog run's start on a loaded machine, not compared), nothing past
# the right edge (one browser run: a screenshot as t5140's doubled this
# suite's time on a loaded machine)
if command -v chromium >/dev/null; then
	cat >"$SCRATCH/html/check.js" <<'EOF'
window.addEventListener('load', function () {
	var w = document.documentElement.clientWidth, over = 0, bars = [];
	document.querySelectorAll('body *').forEach(function (e) {
		var r = e.getBoundingClientRect();
		if (r.width > 0 && r.right > w + 1) over++;
	});
	document.querySelectorAll('.lane').forEach(function (l) {
		var n = l.querySelector('.lname'), b = l.querySelector('.bar');
		if (b) {
			var r = b.getBoundingClientRect();
			bars.push(n.textContent + ':' + Math.round(r.left) + '-' + Math.round(r.right));
		}
	});
	document.body.setAttribute('data-check', 'overflow=' + over + ' bars=' + bars.join(','));
});
EOF
	sed 's#</body>#<script src="check.js"></script></body>#' "$H" >"$SCRATCH/html/checked.html"
	check=$(headless_chromium --dump-dom "file://$SCRATCH/html/checked.html" | grep -o 'data-check="[^"]*"' | head -1)
	diag "browser: $check"
	like "$check" 'overflow=0 bars=w' 'disk: in the browser, the lanes and nothing past an A4 page width'
	ok 'disk: in the browser, the bars end in the sessions order and overlap' \
		env C="$check" awk 'BEGIN {
			s = ENVIRON["C"]; sub(/.*bars=/, "", s); sub(/".*/, "", s)
			n = split(s, b, ",")
			for (i = 1; i <= n; i++) { split(b[i], x, /[:-]/); l[x[1]] = x[2]; r[x[1]] = x[3] }
			over = 1
			for (a in l) for (c in l) if (l[a] >= r[c]) over = 0
			exit !(n == 3 && r["w2"] < r["w6"] && r["w6"] < r["w12"] && over)
		}'
else
	for i in 1 2; do skip 'no chromium (tests/deps.sh installs it)'; done
fi

# ---- quota: a burner under its own quota beside two writers on the disk
if zoo_cpu_quota plnq$$ 5000; then
	CPUG=$ZOO_CG
	ZOO=$SCRATCH/zoo2
	zoo_start || { echo "Bail out! perflog start failed"; exit 1; }
	load_begin
	run_in burn "$CPUG/cgroup.procs" -- "$LOADGEN" burn 3
	PIDS=$RUNPID
	writer wa 6
	writer wb 6
	finish quota
	like "$(night "$SCRATCH/quota.txt" | awk '$2 == "burn"')" ' CPU +CPU quota .*\(its own\)' 'quota: burn limited by its own CPU quota'
	like "$(grep '^  burn: ' "$SCRATCH/quota.txt")" '^  burn: held back by its own CPU quota .*; not counted in the shared limit' 'quota: its line says so'
	like "$(shared "$SCRATCH/quota.txt")" "^disk on $host: " 'quota: Shared: disk on the host'
	like "$(shared "$SCRATCH/quota.txt")" '[;,] wa [0-9.]+ s' 'quota: wa on the disk'
	like "$(shared "$SCRATCH/quota.txt")" '[;,] wb [0-9.]+ s' 'quota: wb on the disk'
	ok 'quota: burn not counted in the shared disk' sh -c "grep -q '^Shared: disk' '$SCRATCH/quota.txt' && ! grep '^Shared: ' '$SCRATCH/quota.txt' | grep -q burn"
else
	for i in 1 2 3 4 5 6; do skip 'quota: no cpu controller for a quota'; done
fi

# ---- apart: one after the other, no night
ZOO=$SCRATCH/zoo3
zoo_start || { echo "Bail out! perflog start failed"; exit 1; }
"$PERFLOG" run -o "$ZOO" -l one -- sleep 0.3 >/dev/null 2>&1
"$PERFLOG" run -o "$ZOO" -l two -- sleep 0.3 >/dev/null 2>&1
"$PERFLOG" stop "$ZOO_SET" >/dev/null
"$PERFLOG" report "$ZOO_SET" >"$SCRATCH/apart.txt" 2>&1
"$PERFLOG" report --json "$ZOO_SET" >"$SCRATCH/apart.json" 2>&1
ok 'apart: no Shared line' sh -c "! grep -q '^Shared:' '$SCRATCH/apart.txt'"
like "$(grep '^Sessions' "$SCRATCH/apart.txt")" '^Sessions:$' 'apart: the plain Sessions table'
ok 'apart: --json night null' python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["report"]["night"] is None' "$SCRATCH/apart.json"

done_testing

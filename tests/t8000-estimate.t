#!/bin/bash
# t8000-estimate: `perflog estimate` on a generated tree with an exact,
# known distribution (hard links, a symlink loop, a fifo, an unreadable
# directory, another file system), the same table from a find listing,
# CSV, rates from a reference workload's log set, and bad input.
. "$(dirname "$0")/lib.sh"

T=$SCRATCH/tree
mkdir -p "$T"/a "$T"/small "$T"/b/c/d "$T"/d/e "$T"/secret "$T"/mnt
# class 0 (<1024): 300 x 100 bytes + 0 + 1 + 1023 = 303 files, 31024 bytes
for i in $(seq 300); do printf '%100s' '' >"$T/small/f$i"; done
truncate -s 0 "$T/a/f0"; truncate -s 1 "$T/a/f1"; truncate -s 1023 "$T/a/f1023"
# class 1 (1024..10239): 1024 + 5000 + 10239 (+ 5000 in secret/)
truncate -s 1024 "$T/a/f1024"; truncate -s 5000 "$T/b/c/f5000"
truncate -s 10239 "$T/b/f10239"; truncate -s 5000 "$T/secret/f5000"
# class 2 (10240..102399): 10240 + 50000 + 102399 = 162639
truncate -s 10240 "$T/b/c/d/f10240"; truncate -s 50000 "$T/b/f50000"
truncate -s 102399 "$T/a/f102399"
# class 3: 102400 + 1048576 = 1150976
truncate -s 102400 "$T/d/f102400"; truncate -s 1048576 "$T/d/e/f1m"
# second names of files already there: counted once
ln "$T/a/f1023" "$T/a/hardlink-1023"; ln "$T/d/e/f1m" "$T/d/hardlink-1m"
# links are never followed: a loop to the parent, a two-link cycle, a link
# to a file; a fifo is not a file either
ln -s .. "$T/b/loop"; ln -s l2 "$T/b/l1"; ln -s l1 "$T/b/l2"
ln -s ../a/f1024 "$T/b/tofile"; mkfifo "$T/b/fifo"
chmod 000 "$T/secret"

row() {	# the table row of a class: files bytes [bytes/sec time]
	printf '%s\n' "$1" | grep -F -- "$2" | sed "s/^$2 *//" | tr -s ' '
}

out=$("$PERFLOG" estimate "$T" 2>"$SCRATCH/err"); rc=$?
is "$rc" 0 "walk exits 0"
is "$(row "$out" '0..< 1KB')" "303 31024" "class 0..<1KB: 303 files, 31024 bytes"
# as root, chmod 000 does not stop reading: secret/ counts here
if [ "$(id -u)" = 0 ]; then
	is "$(row "$out" '1KB..< 10KB')" "4 21263" "class 1KB..<10KB (secret/ readable by root)"
else
	is "$(row "$out" '1KB..< 10KB')" "3 16263" "class 1KB..<10KB (secret/ unreadable)"
fi
is "$(row "$out" '10KB..< 100KB')" "3 162639" "class 10KB..<100KB"
is "$(row "$out" '100KB and up')" "2 1150976" "class 100KB and up: the hard link to 1m counted once"
like "$out" "Average file size: 4377" "average file size"
is "$(grep -c . "$SCRATCH/err")" 0 "nothing on stderr"

# the seed's arithmetic on this tree (rates 1 2 3 4 KB/sec):
# 31024/1024=30 21263/2048=10 162639/3072=52 1150976/4096=281 -> 373 s;
# the average (4377) is in class 1: 1365902/2048 = 666 s
if [ "$(id -u)" = 0 ]; then
	out=$("$PERFLOG" estimate --rates 1 2 3 4 "$T")
	is "$(row "$out" '0..< 1KB')" "303 31024 1024 30" "rates: class 0 bytes/sec and time"
	is "$(row "$out" '100KB and up')" "2 1150976 4096 281" "rates: class 3 bytes/sec and time"
	like "$out" "Estimated Time: 0 hours 6 mins 13 sec" "estimated time"
	like "$out" "Estimated Time based on average file size: 0 hours 11 mins 6 sec" \
		"estimate from the average file size"
	csv=$("$PERFLOG" estimate --csv --rates 1 2 3 4 "$T")
	is "$(printf '%s\n' "$csv" | head -1)" \
		"range,min_bytes,max_bytes,files,bytes,kb_per_sec,bytes_per_sec,time_sec" "csv header"
	is "$(printf '%s\n' "$csv" | grep '^1KB')" "1KB..< 10KB,1024,10239,4,21263,2,2048.00,10" "csv class row"
	is "$(printf '%s\n' "$csv" | grep '^total')" "total,,,312,1365902,,,373" "csv total row"
	is "$(printf '%s\n' "$csv" | grep '^average')" \
		"average file size,4377,4377,312,1365902,2,2048.00,666" "csv average row"
fi

# an unprivileged user cannot read secret/: counted, reported, not fatal
chmod 755 "$SCRATCH"
if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$PERFLOG"; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PERFLOG" estimate "$T" 2>"$SCRATCH/err"); rc=$?
	is "$rc" 0 "unreadable directory is not fatal"
	is "$(row "$out" '1KB..< 10KB')" "3 16263" "unreadable directory's files not counted"
	is "$(row "$out" '0..< 1KB')" "303 31024" "the rest is counted"
	like "$(cat "$SCRATCH/err")" "1 unreadable directory" "reported at the end"
	like "$(cat "$SCRATCH/err")" "$T/secret: Permission denied" "named with the reason"
else
	diag "setpriv cannot switch to uid 65534: unprivileged checks skipped"
fi
chmod 755 "$T/secret"

# the listing from find gives the same table as the walk: find has no
# notion of hard links, so its second names are dropped on %D:%i first
find "$T" -type f -printf '%D:%i %s %p\n' |
	awk '!seen[$1]++ { sub(/^[^ ]+ /, ""); print }' >"$SCRATCH/list"
walk=$("$PERFLOG" estimate --rates 26 173 406 457 "$T")
list=$("$PERFLOG" estimate --rates 26 173 406 457 --listing "$SCRATCH/list")
is "$list" "$walk" "find listing (hard links dropped) gives the walk's table"
list=$("$PERFLOG" estimate --listing - <"$SCRATCH/list")
is "$(row "$list" '1KB..< 10KB')" "4 21263" "listing from stdin"
# plain find: each name is a file, so the two hard links count again
find "$T" -type f -printf '%s %p\n' >"$SCRATCH/list2"
list=$("$PERFLOG" estimate --listing "$SCRATCH/list2")
is "$(row "$list" '0..< 1KB')" "304 32047" "plain find listing counts hard link names"
is "$(row "$list" '100KB and up')" "3 2199552" "  in every class"

# a bad line in a SIZE PATH listing is fatal and named
{ head -5 "$SCRATCH/list"; echo "12x /bad"; tail -3 "$SCRATCH/list"; } >"$SCRATCH/bad"
"$PERFLOG" estimate --listing "$SCRATCH/bad" >/dev/null 2>"$SCRATCH/err"; rc=$?
is "$rc" 1 "bad listing line: exit 1"
like "$(cat "$SCRATCH/err")" "^perflog estimate: $SCRATCH/bad:6: cannot parse '12x /bad'" \
	"bad listing line named FILE:LINE"
is "$(wc -l <"$SCRATCH/err")" 1 "one line"

# a dir /s listing (the fixture of the unit test, CRLF, NT 4.0 layout)
out=$("$PERFLOG" estimate --listing "$TOP/tests/fixtures/listings/dir-nt4.txt" --rates 26 173 406 457)
is "$(row "$out" '100KB and up')" "2 10588160 467968 22" "dir /s listing"

# --xdev: a tmpfs mounted inside the tree, in a private mount namespace so
# that nothing outlives the test
truncate -s 7000 "$SCRATCH/f7000"
if unshare -m sh -c "mount -t tmpfs tmpfs '$T/mnt' && cp '$SCRATCH/f7000' '$T/mnt/' &&
	'$PERFLOG' estimate '$T' >'$SCRATCH/all' && '$PERFLOG' estimate --xdev '$T' >'$SCRATCH/xdev'" \
	2>"$SCRATCH/err"; then
	is "$(row "$(cat "$SCRATCH/all")" '1KB..< 10KB')" "5 28263" "without --xdev the other file system counts"
	is "$(row "$(cat "$SCRATCH/xdev")" '1KB..< 10KB')" "4 21263" "--xdev stays on one file system"
else
	diag "cannot mount a tmpfs in a private namespace: --xdev skipped ($(head -1 "$SCRATCH/err"))"
fi

# rates from a log set of the reference workload: markers alone suffice
L=$SCRATCH/logset
mkdir -p "$L"
cat >"$L/markers.tsv" <<'EOF'
2026-11-30T04:50:00.000Z	begin	1m1k	1m1k
2026-11-30T04:50:30.000Z	end	1m1k	1m1k	status=0	workload.kb_per_sec=99.00
2026-11-30T04:51:00.000Z	begin	1m1k	1m1k again
2026-11-30T04:51:30.000Z	end	1m1k	1m1k again	workload.kb_per_sec=26.00
2026-11-30T04:52:00.000Z	begin	10m10k	10m10k
2026-11-30T04:52:30.000Z	end	10m10k	10m10k	workload.kb_per_sec=173
2026-11-30T04:53:00.000Z	point		a note
2026-11-30T04:54:00.000Z	begin	25m100k	25m100k
2026-11-30T04:54:30.000Z	end	25m100k	25m100k	workload.kb_per_sec=406.00
2026-11-30T04:55:00.000Z	begin	50m10m	50m10m
2026-11-30T04:56:30.000Z	end	50m10m	50m10m	workload.kb_per_sec=457.0
2026-11-30T04:57:00.000Z	begin	1m1k	left open
EOF
from=$("$PERFLOG" estimate --from "$L" "$T")
is "$from" "$walk" "--from LOGSET: the last complete session's rates"
grep -v 25m100k "$L/markers.tsv" >"$SCRATCH/m" && mv "$SCRATCH/m" "$L/markers.tsv"
"$PERFLOG" estimate --from "$L" "$T" >/dev/null 2>"$SCRATCH/err"; rc=$?
is "$rc" 1 "--from with a set missing: exit 1"
is "$(cat "$SCRATCH/err")" \
	"perflog estimate: log set '$L': no session '25m100k' (the reference workload's 25m100k file set)" \
	"  the error names the log set and the missing set"
sed -i 's/\tworkload.kb_per_sec=173$//' "$L/markers.tsv"
printf '2026-11-30T04:54:00.000Z\tbegin\t25m100k\tx\n2026-11-30T04:54:30.000Z\tend\t25m100k\tx\tworkload.kb_per_sec=406\n' >>"$L/markers.tsv"
"$PERFLOG" estimate --from "$L" "$T" >/dev/null 2>"$SCRATCH/err"; rc=$?
is "$rc" 1 "--from with a rate missing: exit 1"
like "$(cat "$SCRATCH/err")" "session '10m10k' has no workload.kb_per_sec \\(markers.tsv:6\\)" \
	"  the error names the session and the marker's line"
"$PERFLOG" estimate --from "$SCRATCH/nonexistent" "$T" >/dev/null 2>"$SCRATCH/err"; rc=$?
is "$rc" 1 "--from a missing directory: exit 1"
mkdir "$SCRATCH/empty"
"$PERFLOG" estimate --from "$SCRATCH/empty" "$T" >/dev/null 2>"$SCRATCH/err"
like "$(cat "$SCRATCH/err")" "is not a log set: no markers.tsv" "--from a directory without markers"

# progress on a terminal (script gives stderr a pty), none otherwise
if script -qec "'$PERFLOG' estimate '$T' >/dev/null" "$SCRATCH/typescript" >/dev/null 2>&1; then
	like "$(tr '\r' '\n' <"$SCRATCH/typescript")" "perflog estimate: [0-9]+ files, .* so far" \
		"progress on a terminal"
else
	diag "script(1) could not give a terminal: progress check skipped"
fi
"$PERFLOG" estimate "$T" >/dev/null 2>"$SCRATCH/err"
is "$(cat "$SCRATCH/err")" "" "no progress when stderr is not a terminal"

# the command line
ok "--help" "$PERFLOG" estimate --help
fails "three rates" "$PERFLOG" estimate --rates 1 2 3
"$PERFLOG" estimate --rates 1 2 x 4 "$T" >/dev/null 2>"$SCRATCH/err"; rc=$?
is "$rc" 2 "a bad rate: exit 2"
like "$(cat "$SCRATCH/err")" "invalid rate 'x'" "  named"
fails "rates twice" "$PERFLOG" estimate --rates 1 2 3 4 --from "$L" "$T"
fails "PATH and --listing" "$PERFLOG" estimate --listing "$SCRATCH/list" "$T"
fails "unknown option" "$PERFLOG" estimate --bogus
"$PERFLOG" estimate "$SCRATCH/no/such" >/dev/null 2>"$SCRATCH/err"; rc=$?
is "$rc" 1 "a missing PATH: exit 1"
like "$(cat "$SCRATCH/err")" "cannot access '$SCRATCH/no/such': No such file or directory" "  named"
# a symlink given as PATH is not followed, with a note; PATH/ is
ln -s "$T" "$SCRATCH/treelink"
out=$("$PERFLOG" estimate "$SCRATCH/treelink" 2>"$SCRATCH/err")
like "$out" "Total size for all 0 files" "a symlink PATH is not followed"
like "$(cat "$SCRATCH/err")" "symbolic link" "  and says so"
out=$("$PERFLOG" estimate "$SCRATCH/treelink/")
like "$out" "Total size for all 312 files" "PATH/ follows it"
# two overlapping PATHs: each directory once
out=$("$PERFLOG" estimate "$T" "$T/b" "$T/a/f1024")
like "$out" "Total size for all 312 files" "overlapping PATHs count each file once"

done_testing

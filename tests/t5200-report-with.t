#!/bin/bash
# perflog report CLIENT --with SERVER: the verdict across hosts on crafted
# log sets whose answer is known (mklogset: values through the real
# writer, markers with the peer/offset/rtt fields perflog run --server
# writes, wait states of the client and of the server's receiver). Each
# place along the data path (the server's disk behind the client's socket
# wait, the network with both ends named, the client's disk and CPU, the
# server's CPU, nothing); a server whose clock runs 30 s ahead, aligned by
# the offset its markers recorded, or the client's when it has none (an
# imported set), or --shift; --json's host; without --with nothing
# changes; bad input.
. "$(dirname "$0")/lib.sh"
MK=$TOP/build/tools/mklogset
[ -x "$MK" ] || skip_all "build/tools/mklogset not built (make check builds it)"
L=$SCRATCH/sets

verdict() { "$PERFLOG" report -v "$@" | grep '^  Bottleneck:'; }
# mk NAME KIND HOST [options]: a set for session "job"
mk() { $MK "$L" "$1" "$2" --host "$3" --session job "${@:4}"; }
# a client whose markers name the server, and a server 30 s ahead whose
# markers name the client (offset = client - server = -30)
cli() { mk "$1" "$2" cli --extra peer=backup@srv --extra offset=30.000 --extra rtt=0.002 "${@:3}"; }
srv() { mk "$1" "$2" srv --offset 30 --extra peer=cli --extra offset=-30.000 --extra rtt=0.002 "${@:3}"; }

C_sock=$(cli c_sock idle --waits net)
S_disk=$(srv s_disk wdisk --waits disk)
out=$("$PERFLOG" report -v "$C_sock" --with "$S_disk")
like "$(printf '%s\n' "$out" | grep '^  Bottleneck:')" \
	'^  Bottleneck: disk on srv: the stage job \(srv\) waited on the disk sdb [0-9.]+ s of the session.s 60\.0 s .*sdb 9[0-9]% busy.*; job waited [0-9.]+ s of its 60\.0 s' \
	'client on its socket, receiver on its disk: disk on the server'
like "$out" 'clock: -30\.0 s from srv.s markers \(2 offsets recorded\), round trip 0\.002 s' 'the 30 s ahead server aligned by its markers'
like "$out" 'its session, from its markers, from 2023-11-14T22:14:20\.000Z to 2023-11-14T22:15:20\.000Z' 'the server session matched by name'
like "$out" 'receiver wait states, Process\(job\)' "the receiver's wait states shown"
# the server's watched process is the server's, not "client process tree"
srvpart=$(printf '%s\n' "$out" | sed -n '/^  server srv /,/srv alone:/p')
like "$srvpart" 'server process tree CPU' "the server's table names its process tree the server's"
ok "and never the client's" sh -c '! printf "%s\n" "$1" | grep -q "client process tree"' _ "$srvpart"
# one figure: the verdict quotes the wait graph's seconds table (report
# -v: the disk's charged seconds), in seconds of the session
tab=$(printf '%s\n' "$out" | awk '$1 == "disk" && $2 == "sdb" && $3 == "on" && $4 == "srv" { print $5; exit }')
ver=$(printf '%s\n' "$out" | grep '^  Bottleneck:' | sed -n 's/.*waited on the disk sdb \([0-9.]*\) s.*/\1/p')
is "$ver" "${tab:-none}" "the verdict's seconds on the receiver's disk are the graph table's ($tab s)"
like "$out" 'cli alone: Bottleneck: network: the stage job waited on the network' "the client's own verdict kept as evidence"

# JSON: the host the verdict names, the server's side and its shift
# (compacted: one line, no blanks)
json=$("$PERFLOG" report "$C_sock" --with "$S_disk" --json | tr -d ' \n')
like "$json" '"host":"srv","peer":null}}]' '--json: the verdict names host srv'
like "$json" '"seconds":-30,"source":"own-markers"' '--json: the server shift and its source'
like "$json" '"receiver_dominant_wait":"disk"' "--json: the receiver's dominant wait"

# an imported server (no markers) 30 s ahead: the client's own markers
# carry the offset (server - client = +30): read over the client's span
# moved onto the server's clock
S_imp=$(mk s_imp wdisk srv --offset 30 --no-markers)
out=$("$PERFLOG" report -v "$C_sock" --with "$S_imp")
like "$out" 'clock: -30\.0 s from cli.s markers' 'no server markers: aligned by the client markers'
like "$out" "no session of that name: the client's span, from 2023-11-14T22:14:20Z to 2023-11-14T22:15:20Z" "the client's span on the server's clock"
like "$(printf '%s\n' "$out" | grep '^  Bottleneck:')" '^  Bottleneck: disk on srv: LogicalDisk\(sdb\) busy 9[0-9]%' 'imported server aligned: its disk'
# the same unaligned (--shift 0): half the span is idle, the disk rule's
# average is not reached, and the verdict is not the server's disk
out0=$("$PERFLOG" report -v "$C_sock" --with "$S_imp" --shift "$S_imp=0")
like "$out0" 'clock: \+0\.0 s given by --shift' '--shift overrides the recorded offset'
b0=$(printf '%s\n' "$out0" | grep '^  Bottleneck:')
if printf '%s' "$b0" | grep -q 'disk on srv'; then
	_result 1 'unaligned, the server disk is not found'; diag "$b0"
else _result 0 'unaligned, the server disk is not found'; fi
C_plain=$(mk c_plain idle cli --waits net)
like "$("$PERFLOG" report -v "$C_plain" --with "$S_imp")" 'clock: no recorded offset between srv and cli' 'no offset anywhere: says so'

# the network: both links full; both ends named
C_net=$(cli c_net net --waits net)
S_net=$(srv s_net net --waits net)
like "$(verdict "$C_net" --with "$S_net")" '^  Bottleneck: network between cli and srv: the stage job \(cli\) waited on the network eth0 [0-9.]+ s .*: the link is full' 'full links: network between both ends'
# both ends on their sockets, nothing full: the path between them
S_idle=$(srv s_idle idle --waits net)
like "$(verdict "$C_sock" --with "$S_idle")" '^  Bottleneck: network between cli and srv: the stage job \(cli\) waited on the network eth0 .*: a shaper, the path or the receiver' 'both ends on their sockets: network'

# the client's source disk and its CPU come first
C_disk=$(cli c_disk disk --waits disk)
like "$(verdict "$C_disk" --with "$S_idle")" '^  Bottleneck: disk on cli: the stage job \(cli\) waited on the disk sdb [0-9.]+ s' "the client's own disk"
C_cpu=$(cli c_cpu cpu --waits cpu)
like "$(verdict "$C_cpu" --with "$S_disk")" '^  Bottleneck: CPU on cli: ' "the client's CPU before the server's disk"
# the server's CPU
S_cpu=$(srv s_cpu cpu --waits cpu)
like "$(verdict "$C_sock" --with "$S_cpu")" '^  Bottleneck: CPU on srv: the stage job \(srv\) ran on a CPU [0-9.]+ s .*; job waited [0-9.]+ s of its 60\.0 s' "the server's CPU"
# nothing anywhere
C_idle=$(cli c_idle idle)
S_none=$(srv s_none idle)
like "$(verdict "$C_idle" --with "$S_none")" '^  Bottleneck: nothing near saturation on any host: cli: CPU [0-9]+%.*; srv: CPU [0-9]+%' 'nothing on any host'

# the first word stays the contract
words=1
for pair in "$C_sock $S_disk" "$C_net $S_net" "$C_disk $S_idle" "$C_cpu $S_disk" "$C_sock $S_cpu" "$C_idle $S_none"; do
	set -- $pair
	verdict "$1" --with "$2" | grep -Eq '^  Bottleneck: (CPU|disk|network|memory|nothing)([^A-Za-z]|$)' ||
		{ words=0; diag "$(verdict "$1" --with "$2")"; }
done
is "$words" 1 'every verdict across hosts starts with its word'

# two servers: the one whose disk held it
like "$(verdict "$C_sock" --with "$S_idle" --with "$S_disk")" '^  Bottleneck: disk on srv' 'two --with sets'

# without --with: as before (no servers, the verdict names no host)
plain=$("$PERFLOG" report -v "$C_sock")
if printf '%s' "$plain" | grep -q 'server \|alone:'; then _result 1 'without --with: no server lines'
else _result 0 'without --with: no server lines'; fi
like "$("$PERFLOG" report "$C_sock" --json | tr -d ' \n')" '"host":null,"peer":null}}]' 'without --with: the JSON verdict names no host'

# the PNGs: export --png --with draws the server's charts in OUTDIR/srv/
# over the client's session on the client's clock; looked at as PNGs
# (signature and IHDR size) and by the legend figures rrd_graph computed
png_wh() {
	sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || { echo "not-png"; return; }
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}
disk_avg() { awk -F'\t' '$1 == "disk.png" && $2 == "sdb % Disk Time" { print $4 }' "$1/charts.tsv"; }
P=$SCRATCH/png
ok 'export --png --with' "$PERFLOG" export "$C_sock" --png "$P" --session job --with "$S_disk" --width 640 --height 280
is "$(png_wh "$P/disk.png")" 640x280 "the client's disk.png is a 640x280 PNG"
is "$(png_wh "$P/srv/disk.png")" 640x280 "the server's srv/disk.png is a 640x280 PNG"
like "$(cat "$P/hosts.tsv")" "srv	srv	$S_disk	-30	-30.0 s from srv's markers" 'hosts.tsv: the folder, host and shift'
# the session is 60 s of 97% busy within a 70 s axis: aligned, the
# server's disk averages about 84%; on its own clock half the axis is idle
a=$(disk_avg "$P/srv")
ok "aligned: the server's disk busy over the client's session ($a%)" awk -v a="$a" 'BEGIN { exit !(a > 75) }'
ok 'export --png --with --shift' "$PERFLOG" export "$C_sock" --png "$P-0" --session job --with "$S_disk" --shift "$S_disk=0"
a0=$(disk_avg "$P-0/srv")
ok "unaligned: the same chart half idle ($a0%)" awk -v a="$a0" 'BEGIN { exit !(a < 60) }'
err_is 'export --with without --png' '--png' "$PERFLOG" export "$C_sock" --csv - --with "$S_disk"

# the HTML report of report --with: both hosts' charts per session
H=$SCRATCH/html
ok 'report --with --html' "$PERFLOG" report "$C_sock" --with "$S_disk" --html "$H"
like "$(cat "$H/index.html")" '<img src="session-1/srv/disk.png"' "the server's charts in the session"
like "$(cat "$H/index.html")" '<img src="session-1/disk.png"' "the client's charts in the session"
is "$(png_wh "$H/session-1/srv/disk.png")" 1000x400 'the linked server chart is a PNG'
missing=0
for img in $(grep -o '<img src="[^"]*"' "$H/index.html" | sed 's/<img src="//; s/"$//'); do
	[ -f "$H/$img" ] || { missing=$((missing + 1)); diag "missing $img"; }
done
is "$missing" 0 'every linked chart exists'

# a server set logged at another time (issue 32): said, and left out
S_late=$(mk s_late wdisk srv --session other --offset 100000)
out=$("$PERFLOG" report -v "$C_idle" --with "$S_late")
like "$out" "server srv \($S_late\) has no rows for this session \(from .* on its clock\): left out" 'a server with no rows: said'
is "$(printf '%s\n' "$out" | grep -c 'n/a\|alone:')" 0 'a server with no rows: no table of n/a, no "alone" verdicts'
like "$(printf '%s\n' "$out" | grep '^  Bottleneck:')" '^  Bottleneck: nothing near saturation: CPU' "the verdict is the client's own"
like "$(verdict "$C_sock" --with "$S_late" --with "$S_disk")" '^  Bottleneck: disk on srv' 'the server with rows still judged beside it'
rm -rf "$P-late"
err=$("$PERFLOG" export "$C_idle" --png "$P-late" --with "$S_late" 2>&1 >/dev/null); rc=$?
is "$rc" 1 'export --png --with a set with no rows: exit 1'
like "$err" "^perflog export: '$S_late' \(host srv\) has no rows from .* to .*: its charts are left out$" 'export: says the set has no rows, one line'
ok 'export: no -nan charts drawn for it' test ! -e "$P-late/srv"
ok "export: the client's charts drawn" test -s "$P-late/disk.png"

# bad input: one line, non-zero
err_is 'a --with set that is not there' "$SCRATCH/nope" "$PERFLOG" report -v "$C_sock" --with "$SCRATCH/nope"
err_is '--shift of a set that is not --with' 'not a --with set' "$PERFLOG" report -v "$C_sock" --with "$S_disk" --shift "$C_sock=3"
err_is '--shift malformed' 'SET=SECONDS' "$PERFLOG" report -v "$C_sock" --with "$S_disk" --shift "$S_disk=soon"
err_is '--with and a comparison' 'one client log set' "$PERFLOG" report -v "$C_sock" "$C_net" --with "$S_disk"
done_testing

#!/bin/sh
# bench/verdict.sh - the wait graph's verdict on three real backups to a
# second host (issue 46's closing runs), printed for a person to read:
# for each, the Bottleneck line, the graph's heaviest waits in seconds
# and where the session's seconds were charged (`perflog report -v
# CLIENT --with SERVER`: its "Seconds (the wait graph ...)" table).
#
#   rsync   rsync -a over ssh of 600 files of 64 KiB to the second host,
#           whose receiver fsyncs each (--rsync-path='rsync --fsync')
#   zstd    tar -cf - DIR | zstd -19 -T1 | ssh SERVER 'cat > f'
#   restic  restic backup over sftp, the client's end of the link shaped
#           to 8 Mbit/s by tc tbf
#
# The second host is tests/lib-hosts.sh's (a network, UTS, PID and mount
# namespace with its own sshd); its collector watches the receiver
# (--server-watch name=COMM). Needs root, restic, zstd, rsync, tc.
# Figures, not verdicts: nothing here passes or fails.
. "$(dirname "$0")/../tests/lib.sh"
. "$TOP/tests/lib-hosts.sh"
trap 'stop_server_host; _cleanup' EXIT
for t in rsync tar zstd restic tc; do
	command -v $t >/dev/null || { echo "bench/verdict.sh: no $t"; exit 0; }
done
SRV_TIMEOUT=20
start_server_host
export PERFLOG_SSH="$SRV_SSH"
mkdir "$SCRATCH/files" "$SCRATCH/tree"
for i in $(seq 1 600); do head -c 65536 /dev/urandom >"$SCRATCH/files/f$i"; done
# compressible text for zstd -19: the man pages, many times
for i in $(seq 1 12); do cat /usr/share/man/man1/*.gz 2>/dev/null | zcat 2>/dev/null; done |
	head -c 24000000 >"$SCRATCH/tree/text"
head -c 16000000 /dev/urandom >"$SCRATCH/tree/rand"
export RESTIC_PASSWORD=bench
restic -q -r "sftp:root@$SRV_ADDR:$SRV_DIR/restic" \
	-o sftp.command="$SRV_SSH $SRV_ADDR -s sftp" init >/dev/null 2>&1 ||
	{ echo "bench/verdict.sh: restic init over sftp failed"; exit 0; }
srv_collector
CLI_SET=$($PERFLOG start -i 1 -o "$SCRATCH/cli")

one() {
	label=$1 comm=$2
	shift 2
	$PERFLOG run -o "$CLI_SET" -l "$label" --server "$SRV_ADDR:$SRV_DIR/logs" \
		--server-watch "name=$comm" -- sh -c "$*" >"$SCRATCH/$label.out" 2>&1
}

one rsync rsync "rsync -a $(printf "%s" "-e '$SRV_SSH'") --rsync-path='rsync --fsync' $SCRATCH/files/ $SRV_ADDR:$SRV_DIR/rsync/"
one zstd cat "tar -cf - -C $SCRATCH tree | zstd -19 -T1 -q | $SRV_SSH $SRV_ADDR 'cat > $SRV_DIR/tree.tar.zst'"
tc qdisc add dev "$VETH" root tbf rate 8mbit burst 64kbit latency 400ms
one restic sftp-server "restic -q -r sftp:root@$SRV_ADDR:$SRV_DIR/restic -o sftp.command='$SRV_SSH $SRV_ADDR -s sftp' backup $SCRATCH/tree"
tc qdisc del dev "$VETH" root
$PERFLOG stop "$CLI_SET" >/dev/null 2>&1
srv "perflog stop $SRV_SET" >/dev/null 2>&1
sleep 1
$PERFLOG report -v "$CLI_SET" --with "$SRV_SET" >"$SCRATCH/report.txt" 2>&1
for s in rsync zstd restic; do
	echo "== $s"
	awk -v s="$s" '/^Session / { c = $2 } c == s' "$SCRATCH/report.txt" |
		awk '/Bottleneck:/ { print; next }
		     /^  Seconds \(the wait graph/ { on = 1 }
		     on && /^$/ { on = 0 }
		     on { print }
		     /^    [a-z].* waited .* on / { print }'
done
# the heaviest waits and charges, from --json
$PERFLOG report --json "$CLI_SET" --with "$SRV_SET" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for s in d["report"]["sessions"]:
    g = s.get("graph")
    if not g:
        continue
    nodes = {n["id"]: n for n in g["nodes"]}
    def name(i):
        if i is None:
            return "-"
        n = nodes[i]
        if n["type"] == "process":
            return "%s[%d]@%s" % (n["comm"], n["pid"], n["host"])
        return "%s %s@%s" % (n["detail"], n["name"], n["host"])
    print("== %s: graph %.1f s" % (s.get("name"), g["seconds"]))
    for e in sorted(g["edges"], key=lambda e: -e["seconds"])[:6]:
        print("   wait %-28s -> %-28s %-5s %6.1f s" % (name(e["from"]), name(e["to"] if e["to"] is not None else e["via"]), e["kind"], e["seconds"]))
    for c in sorted(s["charges"], key=lambda c: -c["seconds"])[:6]:
        print("   charge %-26s by %-28s %6.1f s (%.0f%%)" % (name(c["resource"]), name(c["process"]) if c["process"] >= 0 else "-", c["seconds"], c["share"]))
'

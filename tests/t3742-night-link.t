#!/bin/sh
# A night at the server with one client's link shaped (issue 47, its
# second case): the four clients of tests/lib-night.sh at once, the tar
# client's uploads (its own address, on this host's end of the veth)
# held to 4 Mbit/s by tc (an htb class of its own, the others' class
# unlimited), so its session lasts longer than its bytes need. Each
# session is found and checked as in t3740 (peer, name, bytes each way,
# begin and end within the client's span, the kernel's figures), and
# the shaped session's delivery rate is the shaped one's.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-hosts.sh"
. "$TOP/tests/lib-night.sh"
trap 'stop_server_host; _cleanup' EXIT

command -v tc >/dev/null || skip_all "no tc (iproute2)"
SRV_TIMEOUT=20
night_start sshd
tc qdisc add dev "$VETH" root handle 1: htb default 10 &&
	tc class add dev "$VETH" parent 1: classid 1:10 htb rate 10gbit quantum 60000 &&
	tc class add dev "$VETH" parent 1: classid 1:20 htb rate 4mbit burst 16k &&
	tc filter add dev "$VETH" parent 1: protocol ip u32 \
		match ip src "$NIGHT_ADDR_tar/32" flowid 1:20 ||
	skip_all "cannot shape the tar client's link on $VETH"
night_data 2
night_clients
night_stop

night_check_all
# 4 Mbit/s is 500,000 bytes a second: the kernel's last delivery rate
# of the shaped session (the server's acks paced by what arrives) and
# its bytes over its span say no more
end=$(_night_end "$NIGHT_ADDR_tar")
d=$(_night_field "$end" conn.duration)
b=$(_night_field "$end" conn.bytes_in)
r=$(calc "$b / $d")
diag "tar: $b bytes in $d s: $r bytes/s"
within "tar: its bytes over its span at most the shaped rate" "$r" "" 525000

# --- the night's report (issue 47 item 2): the four sessions ranked, and
# the shaped tar session held back by its own link: a connection's
# network path in the wait graph is its peer's (the interface and the
# client's address, verdict.h vgraph_net), so tar's link is a resource
# no other session held, and the others are not held by it. (On main
# the path was the interface's, one for every client: tar's seconds
# and the others' on one resource, "Shared: network on srv ... tar".)
# What the report said in a run beside other suites (a load of 16):
#   1 sshd-cli-tar-N ... 6.1 s ... network  network plvNb between srvN
#     and 169.254.X.6 (its own)
#   2 sshd-cli-rsync-N ... network ... and 169.254.X.4 (its own)
#   3 sshd-cli-borg-N ... CPU      CPU on srvN
#   4 sshd-cli-restic-N ... network ... and 169.254.X.5 (its own)
#   Shared: nothing: no resource held two of the sessions while they
#     ran together
#   sshd-cli-tar-N: held back by its own network plvNb between srvN and
#     169.254.X.6, 3.0 s of 6.1 s; not counted in the shared limit
# rsync paces itself (--bwlimit) and restic's client sends as fast as it
# computes: from the server each is its own link too, so nothing of the
# server need be shared; on a loaded host its CPUs may be.
night_report
for c in $NIGHT_CLIENTS; do
	like "$(night_row $c)" "^ +[0-9]+ sshd-cli-$c-[0-9]+ +[0-9:]{8} +[0-9:]{8} +[0-9.]+ s " "report: $c's session ranked"
done
like "$(night_shared)" "^([a-zA-Z]+ on $SRV_NAME|nothing): " 'report: Shared: a limit on the server, or nothing shared'
ok 'report: the Shared line does not count the shaped tar session' sh -c '
	! printf "%s\n" "$1" | grep -qE "[;,] sshd-cli-tar-[0-9]+ "' - "$(night_shared)"
a=$(echo "$NIGHT_ADDR_tar" | sed 's/\./\\./g')
like "$(night_row tar)" " network +network .* and $a \(its own\)\$" 'report: tar limited by the network to its address, its own'
like "$(grep -E '^  sshd-cli-tar-[0-9]+: ' "$SCRATCH/night.txt")" "held back by its own network .* and $a, [0-9.]+ s of [0-9.]+ s; not counted in the shared limit" 'report: tar held back by its own link, said'
# the others not held by it: no other session's resource, nor the shared
# limit, is tar's path
ok "report: no other session held by tar's path" python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["report"]["night"]
keys = ("kind", "detail", "host", "far_host", "name", "peer")
res = lambda r: r and tuple(r.get(k) for k in keys)
tar = [x for x in n["ranking"] if x["name"].startswith("sshd-cli-tar-")][0]
others = [res(x["resource"]) for x in n["ranking"] if x is not tar]
assert tar["resource"]["kind"] == "network", tar
assert res(tar["resource"]) not in others, (tar, others)
assert res(n["shared"]) != res(tar["resource"]), n["shared"]' "$SCRATCH/night.json"
# the edges the verdict read, for the record
sed 's/^/# tar edges: /' "$NIGHT_SET/edges-$(_night_end "$NIGHT_ADDR_tar" | cut -f3).tsv"

done_testing

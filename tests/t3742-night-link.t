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

# --- the night's report (nightrep, issue 47 item 2): its checks go here
# once merged: the tar session's verdict is network, and the others are
# not held by it (not counted in the Shared: line).

done_testing

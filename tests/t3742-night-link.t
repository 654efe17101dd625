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

# --- the night's report (issue 47 item 2): the four sessions ranked and
# the limit they shared named on the server; a TODO today: the shaped tar
# session network, held back by its own link and not counted in the
# Shared line. What the report said in one run beside a make check:
#   3 sshd-cli-tar-N ... 6.9 s ... CPU      CPU on srv (its own)
#   Shared: network on srv: the network through plvNb to the other end;
#     sshd-cli-restic-N 4.3 s, sshd-cli-rsync-N 3.5 s, sshd-cli-borg-N 0.9 s, ...
#     sshd-cli-tar-N: held back by its own CPU on srv, 2.2 s of 6.9 s; not
#     counted in the shared limit
# Two reasons it is not "network (its own)": the session's root, its
# sshd, polls its socket and its pipe to the shell that runs `cat > f`
# at once, and the sampler splits the wait between them (0.7 s on the
# socket, 1.2 s on the pipe): the pipe's side leads to shells of no wait
# states in the log for their first sample (found a sample late),
# not seen, and the rest is sshd's CPU wait on a loaded host. And the
# graph's network resource on the server is its interface (plvNb), one
# for every client's connection: the shaper is on one client's address,
# which no resource of the graph tells apart, so its link can only be
# "its own" when no other session waited on the network at all. The
# checks below that need either are TODO. Another run said:
#   3 sshd-cli-tar-N ... 6.8 s ... nothing  nothing (not-seen) on srv
#   Shared: network on srv: ...; sshd-cli-restic-N 5.3 s, sshd-cli-rsync-N
#     3.7 s, sshd-cli-borg-N 0.9 s, sshd-cli-tar-N 0.8 s, ...
night_report
for c in $NIGHT_CLIENTS; do
	like "$(night_row $c)" "^ +[0-9]+ sshd-cli-$c-[0-9]+ +[0-9:]{8} +[0-9:]{8} +[0-9.]+ s " "report: $c's session ranked"
done
like "$(night_shared)" "^[a-zA-Z]+ on $SRV_NAME: " 'report: Shared: the limit they shared is on the server'
TAP_TODO="its sshd's wait is split between its socket and its pipe to unwatched shells, and the server's network resource is one for every client"
# the shaped session no holder of the shared limit: today it is one
# when its sshd's few seconds on the socket pass 10% of its session (the
# network resource is the others' too), or not when its verdict happens
# to be a resource no other session held (its sshd's CPU wait)
ok 'report: the Shared line counts others, not the shaped tar session' sh -c '
	printf "%s\n" "$1" | grep -qE "[;,] sshd-cli-(rsync|restic|borg)-[0-9]+ [0-9.]+ s" &&
	! printf "%s\n" "$1" | grep -qE "[;,] sshd-cli-tar-[0-9]+ "' - "$(night_shared)"
like "$(night_row tar)" ' network +network .*\(its own\)' 'report: tar limited by the network, its own'
like "$(grep -E '^  sshd-cli-tar-[0-9]+: ' "$SCRATCH/night.txt")" 'held back by its own network .*; not counted in the shared limit' 'report: tar held back by its own link, said'
TAP_TODO=

done_testing

#!/bin/bash
# Network Interface(_Total) counts each byte on the wire once (issue 11,
# "network _Total double-counts"; the rule: counters/README.md). In a
# private network namespace, the collector logging inside it, known bytes
# go out over
#   a bridge    br0 with the port pa1     (bytes on br0 and on pa1)
#   a macvlan   mv0 on pa2                (mv0 and pa2)
#   a VLAN      pa3.100 on pa3            (when the kernel has 8021q)
#   a bond      bond0 over pa4            (when the kernel has bonding)
#   a tunnel    vx0 (VXLAN) over pa5      (vx0, and pa5 with the headers)
#   a bridge    br7, empty when the collector starts, given its port pa7
#               while logging (as docker0 gets a container's veth)
# and every frame leaving pa1 is mirrored to ifb0 (tc mirred). The bytes
# sent must show in _Total once: as much as the bottom devices pa1..pa7
# together, not as much again for br0, mv0, pa3.100, bond0, vx0 and ifb0.
. "$(dirname "$0")/lib.sh"
need_netns
NSA=plta$$ NSB=pltb$$
netns_add $NSA
netns_add $NSB
A="ip -n $NSA" B="ip -n $NSB"
$A link set lo up; $B link set lo up
base=$(( $$ % 40 * 6 + 8 ))
net() { echo "169.254.$((base + $1))"; }	# net K -> a /30 of path K

# pair K: paK here, pbK there
pair() { $A link add pa$1 type veth peer name pb$1 netns $NSB &&
	$A link set pa$1 up && $B link set pb$1 up; }
# address X.1 here on DEV, X.2 there on DEV2
addrs() { $A addr add $(net $1).1/30 dev $2 && $A link set $2 up &&
	$B addr add $(net $1).2/30 dev $3 && $B link set $3 up; }
paths="bridge macvlan"
pair 1 && $A link add br0 type bridge && $A link set pa1 master br0 &&
	addrs 1 br0 pb1 || skip_all "cannot build a bridge"
pair 2 && $A link add link pa2 name mv0 type macvlan mode bridge &&
	addrs 2 mv0 pb2 || skip_all "cannot build a macvlan"
if pair 3 && $A link add link pa3 name pa3.100 type vlan id 100 2>/dev/null &&
	$B link add link pb3 name pb3.100 type vlan id 100 && addrs 3 pa3.100 pb3.100; then
	paths="$paths vlan"
else diag "no VLAN: this kernel has no 8021q (the fixture root8 covers VLANs)"; fi
if pair 4 && $A link add bond0 type bond 2>/dev/null && $A link set pa4 down &&
	$A link set pa4 master bond0 && addrs 4 bond0 pb4; then
	paths="$paths bond"
else diag "no bond: this kernel has no bonding (the fixture root8 covers bonds)"; fi
if pair 5 && addrs 5 pa5 pb5 &&
	$A link add vx0 type vxlan id 42 local $(net 5).1 remote $(net 5).2 dev pa5 dstport 4789 &&
	$B link add vx0 type vxlan id 42 local $(net 5).2 remote $(net 5).1 dev pb5 dstport 4789 &&
	addrs 6 vx0 vx0; then
	paths="$paths vxlan"
else diag "no VXLAN here"; fi
mirror=
if $A link add ifb0 type ifb 2>/dev/null && $A link set ifb0 up &&
	ip netns exec $NSA tc qdisc add dev pa1 clsact 2>/dev/null &&
	ip netns exec $NSA tc filter add dev pa1 egress protocol all u32 match u32 0 0 \
		action mirred egress mirror dev ifb0 2>/dev/null; then
	mirror=1
else diag "no ifb mirror here"; fi
# br7 has no port yet: a bottom device as far as anyone can tell
$A link add br7 type bridge && $A addr add $(net 7).1/30 dev br7 && $A link set br7 up ||
	skip_all "cannot build a second bridge"
paths="$paths late-bridge"
diag "paths: $paths${mirror:+, ifb0 mirrors pa1}"

LOGS=$SCRATCH/logs
printf '[log]\ninterval = 1\n[counters]\n\\Network Interface(*)\\*\n' > $SCRATCH/net.pml
start_fg ip netns exec $NSA $PERFLOG start -f -o $LOGS -i 1 -c $SCRATCH/net.pml
wait_for 10 test -e "$dir/NetworkInterface-_Total.rrd"
ok 'the collector logs _Total inside the namespace' test -e "$dir/NetworkInterface-_Total.rrd"
ip netns exec $NSA $PERFLOG counters > $SCRATCH/counters.out 2>&1
ok 'perflog counters marks the stacked ones' grep -q 'br0(not in _Total)' $SCRATCH/counters.out
sed -n 's/^Network Interface: /# /p' $SCRATCH/counters.out
sleep 1.5
# br7 gets its port while logging
pair 7 && $A link set pa7 master br7 && $B addr add $(net 7).2/30 dev pb7 ||
	diag "cannot give br7 its port"
sleep 1.5

# N bytes over each path: a receiver there, a sender here
N=3000000 port=$(( 46000 + $$ % 1000 )) sent=0
send() { # K: the /30 of the path
	ip netns exec $NSB $LOADGEN recv $(net $1).2 $port > $SCRATCH/recv.out 2>&1 &
	r=$!; track_pid $r
	for _ in $(seq 1 20); do
		ip netns exec $NSA $LOADGEN send $(net $1).2 $port $N >/dev/null 2>&1 && break
		sleep 0.1
	done
	wait $r
	got=$(cat $SCRATCH/recv.out)
	sent=$((sent + ${got:-0}))
	port=$((port + 1))
}
for p in $paths; do
	case $p in bridge) send 1 ;; macvlan) send 2 ;; vlan) send 3 ;;
		bond) send 4 ;; vxlan) send 6 ;; late-bridge) send 7 ;; esac
done
npaths=$(echo $paths | wc -w)
is "$sent" "$((npaths * N))" "$npaths paths each carried $N bytes"
sleep 2.5
kill -TERM $fg
wait $fg
is "$?" 0 'collector exits 0'
ok 'export' $PERFLOG export "$dir" --csv $SCRATCH/a.csv
csv=$SCRATCH/a.csv

# bytes sent over the run: the integral of each Bytes Sent/sec column
bytes_of() { # IF Sent|Received
	c=$(csv_col $csv "Network Interface($1)\\Bytes $2/sec")
	if [ -n "$c" ]; then csv_integral $csv $c 1; else echo 0; fi
}
sent_by() { bytes_of "$1" Sent; }
recv_by() { bytes_of "$1" Received; }
total=$(sent_by _Total)
bottom=0 rbottom=0
for i in 1 2 3 4 5 7; do
	bottom=$((bottom + $(sent_by pa$i))) rbottom=$((rbottom + $(recv_by pa$i)))
done
diag "sent: _Total $total, pa1..pa7 $bottom, generated $sent"
diag "uppers: br0 $(sent_by br0) br7 $(sent_by br7) mv0 $(sent_by mv0) pa3.100 $(sent_by pa3.100) bond0 $(sent_by bond0) vx0 $(sent_by vx0) ifb0 $(sent_by ifb0)"
near "$total" "$bottom" 0.005 '_Total sent = what the bottom devices sent (br7 left out once it had a port)'
ok "_Total sent counts the $sent bytes once: within 1.0x..1.2x ($total)" \
	awk -v t="$total" -v s="$sent" 'BEGIN { exit !(t >= s && t <= 1.2 * s) }'
ok 'the uppers did carry the bytes too (the test would see a double count)' \
	awk -v u="$(sent_by br0)" -v n="$N" 'BEGIN { exit !(u >= n) }'
# (received is only ACKs here: compared within 4 KB, the chatter of the
# first seconds, before every interface's file existed)
rt=$(recv_by _Total)
ok "_Total received = what the bottom devices received ($rt vs $rbottom)" \
	awk -v a="$rt" -v b="$rbottom" 'BEGIN { d = a - b; exit !(d <= 4096 && d >= -4096) }'
if [ -n "$mirror" ]; then
	ok "ifb0 saw the mirrored frames ($(recv_by ifb0) B), not counted again" \
		awk -v u="$(( $(sent_by ifb0) + $(recv_by ifb0) ))" -v n="$N" 'BEGIN { exit !(u >= n) }'
fi
ok 'nothing alarming on stderr' sh -c "! grep -Ei 'unable|error' $SCRATCH/fg.err"
done_testing

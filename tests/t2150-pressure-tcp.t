#!/bin/bash
# Pressure and TCP on the real kernel, under known load (issue 12 items 2
# and 3). The collector logs at 1 s inside a private network namespace, so
# the Tcp MIB it reads counts only this test's segments:
#  - three CPU burners on the machine's CPUs + 1: some task always waits
#    for a CPU, so Pressure(cpu)\% Some Stalled Time is near 100% then;
#  - 6 MB over TCP to a peer namespace: Segments Sent/sec, summed over the
#    run, is the kernel's own OutSegs delta, and at least 6 MB / MSS;
#  - 1 MB through a tbf shaper that drops: Segments Retransmitted/sec,
#    summed, is the kernel's RetransSegs delta (and more than none);
#  - the Pressure(io) and (memory) counters logged, cpu's full unknown.
# And where the kernel offers no PSI (a /proc tree without pressure/), the
# object is not offered and nothing is logged for it, not zeros.
. "$(dirname "$0")/lib.sh"
[ -r /proc/pressure/cpu ] || skip_all "no /proc/pressure (kernel before 4.20 or psi=0)"
need_netns
NSA=plpa$$ NSB=plpb$$
netns_add $NSA
netns_add $NSB
n=$(( $$ % 200 + 20 ))
HERE=169.254.$n.1 PEER=169.254.$n.2
ip -n $NSA link set lo up; ip -n $NSB link set lo up
ip -n $NSA link add pp0 type veth peer name pp1 netns $NSB &&
	ip -n $NSA addr add $HERE/30 dev pp0 && ip -n $NSA link set pp0 up &&
	ip -n $NSB addr add $PEER/30 dev pp1 && ip -n $NSB link set pp1 up ||
	skip_all "cannot create a veth pair"
snmp() { # FIELD: the Tcp value in the collector's namespace
	ip netns exec $NSA awk -v f="$1" '/^Tcp:/ { if (!h) { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 } else print $c[f] }' /proc/net/snmp
}
PORT=$(( 45000 + $$ % 1000 ))
send() { # BYTES
	ip netns exec $NSB $LOADGEN recv $PEER $PORT >/dev/null 2>&1 &
	r=$!; track_pid $r
	for _ in $(seq 1 20); do
		ip netns exec $NSA $LOADGEN send $PEER $PORT "$1" >/dev/null 2>&1 && break
		sleep 0.1
	done
	wait $r
	PORT=$((PORT + 1))
}

LOGS=$SCRATCH/logs
printf '[log]\ninterval = 1\n[counters]\n\\Pressure(*)\\*\n\\TCP\\*\n' > $SCRATCH/p.pml
out0=$(snmp OutSegs) re0=$(snmp RetransSegs)
start_fg ip netns exec $NSA $PERFLOG start -f -o $LOGS -i 1 -c $SCRATCH/p.pml
wait_for 10 test -e "$dir/TCP.rrd"
ok 'Pressure and TCP files' test -e "$dir/Pressure-cpu.rrd" -a -e "$dir/Pressure-io.rrd" -a -e "$dir/Pressure-memory.rrd" -a -e "$dir/TCP.rrd"
sleep 1.5

# CPU: two burners a CPU for 4 s. PSI's system-wide "some" is the mean of
# each CPU's own (weighted by its busy time): nproc+1 burners leave one
# CPU with a single burner that never waits, and read about 50% on two
# CPUs; two a CPU make every CPU's run queue wait.
b0=$(date +%s)
load_begin
burners=
for i in $(seq 1 $((2 * $(nproc)))); do $LOADGEN burn 4 >/dev/null & burners="$burners $!"; track_pid $!; done
wait $burners
load_end
b1=$(date +%s)
sleep 1.2
send 6000000
# loss: a shaper with a tiny queue drops, TCP retransmits
ip netns exec $NSA tc qdisc add dev pp0 root tbf rate 4mbit burst 4kb limit 6kb 2>/dev/null ||
	diag "no tbf: no retransmissions to count"
send 1000000
ip netns exec $NSA tc qdisc del dev pp0 root 2>/dev/null
sleep 2.2
kill -TERM $fg
wait $fg
is "$?" 0 'collector exits 0'
out1=$(snmp OutSegs) re1=$(snmp RetransSegs)
ok 'export' $PERFLOG export "$dir" --csv $SCRATCH/p.csv
csv=$SCRATCH/p.csv

cs=$(csv_col $csv 'Pressure(cpu)\% Some Stalled Time')
cf=$(csv_col $csv 'Pressure(cpu)\% Full Stalled Time')
# the rows wholly inside the burn (a row stamped t covers (t-1, t])
# The kernel's own figure depends on how the scheduler spreads the burners
# (a CPU left with one never waits, and system-wide "some" is the mean of
# the CPUs'): on a loaded 2-core VM single rows were seen from 64% to
# 100%. What must hold: the stall is plainly there, on average.
high=$(awk -F, -v c="$cs" -v a="$b0" -v b="$b1" 'NR > 1 { s = $1; gsub(/"/, "", s)
	cmd = "date -u -d \"" s "\" +%s"; cmd | getline t; close(cmd)
	if (t >= a + 2 && t <= b - 1 && $c != "") { n++; sum += $c; v = v " " $c } }
	END { printf "%d %.1f%s\n", n, n ? sum / n : 0, v }' $csv)
echo "# Pressure(cpu) some in the burn (rows, mean, values): $high" >&2
set -- $high
ok "Pressure(cpu) some averages >= 40% while CPUs were oversubscribed ($2% over $1 rows)" \
	awk -v n="$1" -v m="$2" 'BEGIN { exit !(n >= 1 && m >= 40) }'
# and it is the kernel's own figure over the burn (read beside it from
# /proc/pressure/cpu: load_end), whatever else loaded the machine; the
# rows are the burn's middle, the kernel's window has its edges too
within "Pressure(cpu) some in the burn: logged $2% within 25 of the kernel's ${LOAD_CPU_SOME:-?}%" \
	"$2" "$(calc "${LOAD_CPU_SOME:-1e9} - 25")" "$(calc "${LOAD_CPU_SOME:-1e9} + 25")"
ok 'Pressure(cpu) full is unknown in every row (undefined system-wide)' \
	awk -F, -v c="$cf" 'NR > 1 && $c != "" { bad++ } END { exit bad > 0 }' $csv
for r in io memory; do
	c=$(csv_col $csv "Pressure($r)\\% Full Stalled Time")
	ok "Pressure($r) full logged" awk -F, -v c="$c" 'NR > 1 && $c != "" { n++ } END { exit !(n >= 3) }' $csv
done

sent=$(csv_integral $csv "$(csv_col $csv 'TCP\Segments Sent/sec')" 1)
ret=$(csv_integral $csv "$(csv_col $csv 'TCP\Segments Retransmitted/sec')" 1)
diag "OutSegs: logged $sent, kernel $((out1 - out0)); RetransSegs: logged $ret, kernel $((re1 - re0))"
near "$sent" "$((out1 - out0))" 0.02 'Segments Sent, summed, = the kernel OutSegs delta'
ok "and at least 7 MB / 1448-byte segments ($sent)" test "$sent" -ge $(( 7000000 / 1448 ))
ok 'retransmissions happened behind the shaper' test "$((re1 - re0))" -gt 0
near "$ret" "$((re1 - re0))" 0.05 'Segments Retransmitted, summed, = the kernel RetransSegs delta'

# no PSI: a /proc tree without pressure/ (tests/fixtures/proc/root1)
R=$TOP/tests/fixtures/proc/root1
like "$(PERFLOG_PROC_ROOT=$R $PERFLOG counters | grep '^Pressure:')" 'not available' \
	'perflog counters: Pressure not available without /proc/pressure'
PERFLOG_PROC_ROOT=$R timeout 10 $PERFLOG start -f -o $SCRATCH/nopsi -i 1 > $SCRATCH/np.out 2>&1 &
np=$!; track_pid $np
sleep 3.5
kill -TERM $np; wait $np
d2=$(head -1 $SCRATCH/np.out)
ok 'a log set without PSI' test -f "$d2/perflog.meta"
ok '... has no Pressure file and no Pressure counter in its map, not zeros' \
	sh -c "! ls '$d2' | grep -q Pressure && ! grep -q 'Pressure(' '$d2/perflog.meta'"
ok '... and TCP is there, unknown (no /proc/net/snmp in that tree)' \
	sh -c "$PERFLOG export '$d2' --csv - | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i ~ /TCP/) c = i } NR > 1 && \$c != \"\" { k++ } END { exit !(c && !k) }'"
done_testing

#!/bin/bash
# The collector samples the real kernel while this test generates known
# load; the logged rates must integrate to what was generated:
#   disk:    bytes written with fsync   -> LogicalDisk(DEV)\Disk Write Bytes/sec
#   cpu:     one core burned for 3 s    -> Processor(_Total)\% Processor Time
#   network: bytes sent over a veth pair (or loopback)
#                                       -> Network Interface(IF)\Bytes Sent/sec
# and stock `rrdtool fetch` reads the same values as the CSV export.
. "$(dirname "$0")/lib.sh"
LOGS=$SCRATCH/logs
NCPU=$(nproc)
DEV=$(disk_of $SCRATCH)
WRITE=$((48 * 1024 * 1024))
NET=$((64 * 1024 * 1024))

busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
written_bytes() { awk -v d="$1" '$3 == d { printf "%.0f\n", $10 * 512; exit }' /proc/diskstats; }

if make_veth; then IFACE=$VETH; else IFACE=lo; PEER_ADDR=127.0.0.1; PEER_NS=; fi
diag "disk '$DEV', interface $IFACE, $NCPU CPUs"

load_begin
b0=$(busy_ticks)
w0=$(written_bytes "$DEV")
dir=$($PERFLOG start -o $LOGS -i 1) || { echo "Bail out! start failed"; exit 1; }
sleep 1
# disk
written=$($LOADGEN write $SCRATCH/big $WRITE)
# cpu
burnt=$($LOADGEN burn 3)
# network
port=$((20000 + $$ % 20000))
if [ -n "$PEER_NS" ]; then
	ip netns exec $PEER_NS $LOADGEN recv $PEER_ADDR $port > $SCRATCH/recv &
else
	$LOADGEN recv $PEER_ADDR $port > $SCRATCH/recv &
fi
rp=$!; track_pid $rp
sent=$($LOADGEN send $PEER_ADDR $port $NET)
wait $rp
sleep 2.5
$PERFLOG stop "$dir" > /dev/null
# the span read around the log ends after the log does: the stop closes
# the row it falls in, up to half an interval ahead of its last sample
# (collector.c closing), and perflog.meta's stop is that row's end. The
# collector's exit once waited on a late reap, which hid this; read at
# once, /proc/stat missed the row's unmeasured part (15.95 core-s logged
# against 14.21 in a clean make check, the machine 99.7% busy).
stop=$(awk -F'\t' '$1 == "stop" { print $2 }' "$dir/perflog.meta")
stop_s=$(date -d "$stop" +%s)
ok "the log's stop is in perflog.meta ($stop)" test -n "$stop_s"
past() { [ "$(date +%s)" -gt "$1" ]; }
wait_for 5 past "${stop_s:-0}"
b1=$(busy_ticks)
w1=$(written_bytes "$DEV")
hz=$(getconf CLK_TCK)
# every figure here is checked against the kernel's own count around the
# log (the bytes written and sent, the CPU burnt), so others' load adds
# to both sides alike; printed here and with a failure
load_end "$burnt"
diag "$LOAD_FIGS"

$PERFLOG export "$dir" --csv $SCRATCH/all.csv
ok 'export --csv works' test -s $SCRATCH/all.csv

# disk: all our bytes must be there; more is the file system's metadata
# and whatever else ran, but not more than the kernel counted over a span
# enclosing the whole log, and half of the edge rows (csv_edges: the last
# row can stand for up to half a row not measured; it failed once in CI,
# 61437949 logged against 60256256, when another suite's rrd files were
# written back near the stop). Inside the log the rows tile the samples'
# spans exactly (logs/rows.h); 1% + 64 KiB is left for the kernel's count
# of a request that completed between the collector's read and ours.
if [ -n "$DEV" ]; then
	c=$(csv_col $SCRATCH/all.csv "LogicalDisk($DEV)\\Disk Write Bytes/sec")
	got=$(csv_integral $SCRATCH/all.csv "$c" 1)
	ref=$(awk -v a="$w0" -v b="$w1" 'BEGIN { printf "%.0f\n", b - a }')
	edge=$(csv_edges $SCRATCH/all.csv "$c" 1)
	ok "disk: $got bytes logged >= 98% of $written written" awk -v g=$got -v w=$written 'BEGIN { exit !(g >= 0.98 * w) }'
	within "disk: bytes logged <= the $ref bytes /proc/diskstats saw around it (+1% + 64 KiB + $edge of the edge rows)" \
		"$got" '' "$(calc "1.01 * $ref + 65536 + $edge")" "$ref"
else
	_result 0 "# SKIP no block device under $SCRATCH"
	_result 0 "# SKIP no block device under $SCRATCH"
fi

# cpu: logged busy core-seconds cover the burn, and do not exceed what
# /proc/stat counted over a span enclosing the whole log
c=$(csv_col $SCRATCH/all.csv 'Processor(_Total)\% Processor Time')
busy=$(awk -F, -v c=$c -v n=$NCPU 'NR > 1 && $c != "" { s += $c / 100 * n } END { printf "%.2f\n", s }' $SCRATCH/all.csv)
ref=$(awk -v a=$b0 -v b=$b1 -v hz=$hz 'BEGIN { printf "%.2f\n", (b - a) / hz }')
ok "cpu: $busy core-s logged >= 92% of the $burnt s burnt" awk -v g=$busy -v w=$burnt 'BEGIN { exit !(g >= 0.92 * w) }'
ok "cpu: $busy core-s logged <= $ref core-s /proc/stat saw around it (+3%)" awk -v g=$busy -v r=$ref 'BEGIN { exit !(g <= 1.03 * r + 0.05) }'

# network: payload plus TCP/IP headers; on a private veth nothing else
c=$(csv_col $SCRATCH/all.csv "Network Interface($IFACE)\\Bytes Sent/sec")
got=$(csv_integral $SCRATCH/all.csv "$c" 1)
ok "net: $got bytes logged >= $sent sent" awk -v g=$got -v w=$sent 'BEGIN { exit !(g >= w) }'
if [ "$IFACE" = lo ]; then slack=1.10; else slack=1.05; fi
ok "net: $got bytes logged <= $slack x $sent (headers)" awk -v g=$got -v w=$sent -v s=$slack 'BEGIN { exit !(g <= s * w + 65536) }'
c2=$(csv_col $SCRATCH/all.csv "Network Interface($IFACE)\\Bytes Total/sec")
tot=$(csv_integral $SCRATCH/all.csv "$c2" 1)
ok "net: Bytes Total >= Bytes Sent" awk -v t=$tot -v g=$got 'BEGIN { exit !(t >= g) }'

# stock rrdtool reads the same values as the export
first=$(sed -n 2p $SCRATCH/all.csv | cut -d, -f1)
last=$(tail -1 $SCRATCH/all.csv | cut -d, -f1)
s=$(date -d "$first" +%s); e=$(date -d "$last" +%s)
c=$(csv_col $SCRATCH/all.csv 'Memory\Available Bytes')
rrdtool fetch "$dir/Memory.rrd" AVERAGE -s $((s - 1)) -e $e > $SCRATCH/fetch.txt
hdr=$(head -1 $SCRATCH/fetch.txt)
dsavail=$(awk '/^counter/ && /Available Bytes/ { print $NF }' "$dir/perflog.meta")
pos=$(echo $hdr | tr ' ' '\n' | grep -nx "$dsavail" | cut -d: -f1)
awk -v p=$pos '/^[0-9]+:/ { v = $(p + 1); if (v !~ /nan/) printf "%d %.0f\n", $1, v }' $SCRATCH/fetch.txt > $SCRATCH/rrd.txt
awk -F, -v c=$c 'NR > 1 && $c != "" { cmd = "date -u -d \"" $1 "\" +%s"; cmd | getline t; close(cmd); printf "%d %.0f\n", t, $c }' $SCRATCH/all.csv > $SCRATCH/csv.txt
ok 'rrdtool fetch and the CSV export agree (Available Bytes)' sh -c "test -s $SCRATCH/rrd.txt && join $SCRATCH/rrd.txt $SCRATCH/csv.txt | awk '\$2 != \$3 { bad = 1 } END { exit bad }' && test \$(join $SCRATCH/rrd.txt $SCRATCH/csv.txt | wc -l) -ge 5"
done_testing

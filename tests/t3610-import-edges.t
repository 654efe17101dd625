#!/bin/bash
# t3610-import-edges: perflog import at the edges of its input (issue 31):
# a day no month has (31-NOV) is an error naming the line, not a set whose
# later rows moved on by a day; an nmon file cut inside its last ZZZZ
# line (copied while nmon writes) gives the snapshots before it, with a
# note; a perfmon CSV through the start of summer time placed by its
# zone's rules; a perfmon CSV of two hosts as one set each, a host with
# no value in a counter perflog has as none (issue 50);
# SIGINT, SIGTERM and SIGHUP during an import leave no
# hidden .import-PID-HOST/ set behind. No nmon needed: the files are
# made here from tests/fixtures/import/.
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/fixtures/import
OUT=$SCRATCH/out

# 1. 31-NOV: one line naming the file and line, exit 1, no set
sed 's/^ZZZZ,T0002,04:50:20,30-NOV-2026$/ZZZZ,T0002,04:50:20,31-NOV-2026/' \
	$FIX/linux.nmon > $SCRATCH/nov31.nmon
line=$(grep -n '31-NOV-2026' $SCRATCH/nov31.nmon | cut -d: -f1)
"$PERFLOG" import --tz UTC -o $OUT $SCRATCH/nov31.nmon >$SCRATCH/o 2>$SCRATCH/e; st=$?
is "$st" 1 '31-NOV-2026: exit 1'
is "$(cat $SCRATCH/e)" "perflog import: $SCRATCH/nov31.nmon:$line: bad ZZZZ date '31-NOV-2026' (NOV 2026 has 30 days)" \
	'31-NOV-2026: the error names the file and line'
is "$(ls -A $OUT 2>/dev/null | wc -l)" 0 '31-NOV-2026: no log set, no hidden one'

# 4. cut inside the last ZZZZ line: the three snapshots before it
sed '/^ZZZZ,T0004/,$d' $FIX/linux.nmon > $SCRATCH/cut.nmon
printf 'ZZZZ,T0004,04:5' >> $SCRATCH/cut.nmon
set=$("$PERFLOG" import --tz UTC -o $OUT $SCRATCH/cut.nmon 2>$SCRATCH/e); st=$?
is "$st" 0 'cut in its last ZZZZ line: imported'
like "$(cat $SCRATCH/e)" "cut.nmon:[0-9]*: the last ZZZZ line is cut short \('ZZZZ,T0004,04:5'\): its snapshot dropped" \
	'cut: a note says the last snapshot was dropped'
rows=$("$PERFLOG" export "$set" --csv - 2>/dev/null | awk -F, 'NR > 1 && $2 != ""' | wc -l)
is "$rows" 3 'cut: the three whole snapshots are in the set'
rm -rf $OUT

# 2. a perfmon CSV through the start of summer time in Berlin
printf '%s\r\n' '"(PDH-CSV 4.0) (W. Europe Standard Time)(-60)","\\fs01\Memory\Pages/sec"' \
	'"03/29/2026 01:59:30.000","1"' '"03/29/2026 01:59:45.000","2"' \
	'"03/29/2026 03:00:00.000","3"' > $SCRATCH/dst.csv
set=$("$PERFLOG" import -o $OUT $SCRATCH/dst.csv 2>$SCRATCH/e)
is "$("$PERFLOG" export "$set" --csv - | awk -F, '$2 == 3 { print $1 }')" '2026-03-29 01:00:00' \
	'DST: 03:00 CEST is 01:00Z (the bias alone put it at 02:00Z)'
is "$("$PERFLOG" export "$set" --csv - | awk 'END { print NR - 1 }')" 3 'DST: no hour of empty rows'
rm -rf $OUT

# 6. a perfmon CSV of two servers (issue 50 item 3): one set a host,
# named for it, each with its own values (SRV2's were logged as SRV1's);
# the next file of both continues each host's set
# import_sets ARG...: perflog import -o $OUT, the sets' paths in
# $SCRATCH/o, the notes in $SCRATCH/e, the status in st; set_hosts: the
# hosts the sets are named for, in order
import_sets() { "$PERFLOG" import -o $OUT "$@" >$SCRATCH/o 2>$SCRATCH/e; st=$?; }
set_hosts() { sed 's|.*/||; s|-[0-9T]*$||' $SCRATCH/o | tr '\n' ' '; }
sed 's/10:00:/10:01:/' $FIX/twohosts.csv > $SCRATCH/twohosts-b.csv
import_sets $FIX/twohosts.csv $SCRATCH/twohosts-b.csv
is "$st" 0 'two hosts: imported'
is "$(set_hosts)" 'SRV1 SRV2 ' \
	'two hosts: one set each, named for its host'
like "$(cat $SCRATCH/e)" 'twohosts.csv:1: counters of 2 hosts \(SRV1, SRV2\): one log set each' \
	'two hosts: a note says the file was split'
cpu_of() { "$PERFLOG" export "$1" --csv - | awk -F, -v h="$2" 'NR == 1 {
	for (i = 2; i <= NF; i++) if ($i == "\\\\" h "\\Processor(_Total)\\% Processor Time") c = i }
	NR > 1 && $c != "" { printf "%s ", $c }'; }
is "$(cpu_of "$(sed -n 1p $SCRATCH/o)" SRV1)" '10 20 30 10 20 30 ' 'two hosts: SRV1 has its own values, both files'
is "$(cpu_of "$(sed -n 2p $SCRATCH/o)" SRV2)" '90 80 70 90 80 70 ' 'two hosts: SRV2 has its own values, both files'
is "$(grep -h '^host' $(sed 's|$|/perflog.meta|' $SCRATCH/o) | cut -f2 | tr '\n' ' ')" 'SRV1 SRV2 ' \
	'two hosts: each meta names its host'
ok 'two hosts: SRV2 keeps its unmapped counter' grep -q 'Page life expectancy' "$(sed -n 2p $SCRATCH/o)/imported-other.csv"
ok 'two hosts: SRV1 has none' test ! -e "$(sed -n 1p $SCRATCH/o)/imported-other.csv"
rm -rf $OUT
import_sets --host srv $FIX/twohosts.csv
is "$st" 2 'two hosts with --host: refused'
is "$(wc -l < $SCRATCH/e)" 1 'two hosts with --host: one line'
like "$(cat $SCRATCH/e)" "^perflog import: --host srv: .*twohosts.csv holds the counters of several hosts \(SRV1, SRV2" \
	'two hosts with --host: the line names the option, the file and its hosts'
is "$(ls -A $OUT 2>/dev/null | wc -l)" 0 'two hosts with --host: no set'
rm -rf $OUT

# 7. a host with no value in a counter perflog has (SRV0: an SQL Server
# counter only; SRV2: blank cells, perfmon could not reach it) has no set
# of its own, its other columns kept with the first set's (the writer
# failed on it with "out of memory", nothing imported); the next day's
# file spells the hosts in lower case and continues each set; a file of
# no counter perflog has is one line of error
sed 's/10:00:/10:01:/; s/\\\\SRV/\\\\srv/g' $FIX/hostsnovalue.csv > $SCRATCH/hostsnovalue-b.csv
import_sets $FIX/hostsnovalue.csv $SCRATCH/hostsnovalue-b.csv
is "$st" 0 'hosts with no value: imported'
is "$(set_hosts)" 'SRV1 SRV3 ' \
	'hosts with no value: a set for SRV1 and SRV3, both files in each'
like "$(cat $SCRATCH/e)" 'hostsnovalue.csv:1: SRV0 has no value in a counter perflog has: no log set of its own, its other columns kept in SRV1.s imported-other.csv' \
	'hosts with no value: a note says where SRV0 went'
is "$(cpu_of "$(sed -n 1p $SCRATCH/o)" SRV1)" '10 20 30 10 20 30 ' 'hosts with no value: SRV1 has its values, both files'
is "$(head -n 1 "$(sed -n 1p $SCRATCH/o)/imported-other.csv")" \
	'time,"\\SRV0\SQLServer:Buffer Manager\Page life expectancy","\\SRV2\SQLServer:Locks(_Total)\Lock Waits/sec"' \
	'hosts with no value: their other columns in SRV1'"'"'s imported-other.csv'
ok 'hosts with no value: their cells there' grep -q ',"320","7"' "$(sed -n 1p $SCRATCH/o)/imported-other.csv"
rm -rf $OUT
sed 's/\\\\SRV[13]\\[^"]*/\\\\SRV1\\SQLServer:X\\Y/g' $FIX/hostsnovalue.csv > $SCRATCH/novalue.csv
import_sets $SCRATCH/novalue.csv
is "$st" 1 'no value at all: exit 1'
is "$(grep -v ': kept as they are in imported-other.csv$' $SCRATCH/e)" \
	"perflog import: $SCRATCH/novalue.csv: no value in a counter perflog has: nothing to import" \
	'no value at all: one line naming the file'
is "$(ls -A $OUT 2>/dev/null | wc -l)" 0 'no value at all: no set, no hidden one'
rm -rf $OUT

# 5. a signal during an import: the hidden set removed, the exit by it.
# 30,000 snapshots at 1 s (8 h), so the writing lasts seconds; the
# signal comes once the hidden set is there.
awk 'BEGIN {
	print "AAA,host,big"
	print "CPU_ALL,CPU Total big,User%,Sys%,Wait%,Idle%"
	print "DISKWRITE,Disk Write KB/s big,sda,sdb"
	for (i = 1; i <= 30000; i++) {
		printf "ZZZZ,T%05d,%02d:%02d:%02d,01-DEC-2026\n", i, int((i - 1) / 3600), int((i - 1) / 60) % 60, (i - 1) % 60
		printf "CPU_ALL,T%05d,%d,1,1,%d\n", i, i % 50, 97 - i % 50
		printf "DISKWRITE,T%05d,%d,%d\n", i, i % 1000, i % 700
	}
}' > $SCRATCH/big.nmon
for sig in INT TERM HUP; do
	mkdir -p $OUT
	env --default-signal=INT,TERM,HUP "$PERFLOG" import --tz UTC -o $OUT $SCRATCH/big.nmon \
		>$SCRATCH/o 2>$SCRATCH/e &
	pid=$!; track_pid $pid
	# the rows are written in the last seconds of the import: signal as
	# soon as the hidden set is there (a poll of 0.2 s and a pause of
	# 0.3 s missed that window once beside other suites)
	n=0
	while [ $n -lt 2400 ] && kill -0 $pid 2>/dev/null &&
		! ls -A $OUT | grep -q '^\.import-'; do
		sleep 0.05; n=$((n + 1))
	done
	if ls -A $OUT | grep -q '^\.import-'; then
		size=$(du -sk $OUT | cut -f1)
		t0=$(date +%s.%N)
		kill -$sig $pid
		wait $pid 2>/dev/null; st=$?
		diag "SIG$sig: the import ended $(calc "$(date +%s.%N) - $t0") s after it"
		is "$st" $((128 + $(kill -l $sig))) "SIG$sig during the write: the import ends by it"
		is "$(ls -A $OUT | tr '\n' ' ')" "" "SIG$sig: the hidden set ($size KB when signalled) removed"
	else
		wait $pid
		ok "SIG$sig: the hidden set appeared (the import may have ended first)" false
		skip "SIG$sig: no set to remove"
	fi
	rm -rf $OUT
done
done_testing

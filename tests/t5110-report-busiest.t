#!/bin/bash
# perflog report names the disk and the interface that did the work
# (issue 11, item 5): a loop device whose busy time ticks without I/O, or
# lo carrying 300 MB/s of local chatter, must not stand for sdb and eth0
# (10 MB/s) that moved the backup. Crafted log set (mklogset KIND lo),
# loop0 and lo listed first.
. "$(dirname "$0")/lib.sh"
MK=$TOP/build/tools/mklogset
[ -x "$MK" ] || skip_all "build/tools/mklogset not built (make check builds it)"
D=$($MK $SCRATCH/sets lo lo)
ok 'crafted log set' test -d "$D"
out=$("$PERFLOG" report -v "$D")
like "$out" 'LogicalDisk\(sdb\) % Disk Time' 'busiest disk: sdb, not the idle loop0'
like "$out" 'Network Interface\(eth0\) bytes/sec +9\.5 MiB/s' 'busiest interface: eth0, not lo'
like "$(printf '%s\n' "$out" | grep '^  Bottleneck:')" 'sdb .*eth0' 'the verdict names them too'

# with eth0 at 500 B/s of chatter (client and server on one host, as in
# make demo), lo carried the backup and is named
D2=$($MK $SCRATCH/sets lolocal lolocal)
like "$("$PERFLOG" report -v "$D2")" 'Network Interface\(lo\) bytes/sec +286\.1 MiB/s' \
	'eth0 with only chatter does not hide lo'
done_testing

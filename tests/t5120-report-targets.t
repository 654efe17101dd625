#!/bin/bash
# The verdict on where backups land (issue 26), on crafted log sets
# (tests/tools/mktargetset.c says what each holds): a client blocked in
# the RPC layer while its NFS mount's writes take 200 ms is disk on the
# NFS server of the mount, or the network when the round trip carries
# the time and requests are retransmitted; fast writes leave the
# system's verdict; a tape drive 45% busy waits for data, one 98% busy
# is the bottleneck.
. "$(dirname "$0")/lib.sh"
MK=$TOP/build/tools/mktargetset
[ -x "$MK" ] || skip_all "build/tools/mktargetset not built (make check builds it)"
verdict() { # KIND: the Bottleneck line of a fresh crafted set
	d=$($MK $SCRATCH "$1" "$1") && $PERFLOG report -v "$d" | sed -n 's/^ *Bottleneck: //p'
}
v=$(verdict nfsdisk)
like "$v" '^disk on the NFS server of /mnt/backup: writes took 200\.[0-9] ms each' 'NFS, slow writes, short round trip: disk on the server, named with the mount'
like "$v" 'waited on the network or other 8[0-9]%' '... the client waits as evidence'
v=$(verdict nfsnet)
like "$v" '^network to the NFS server of /mnt/backup: .*180\.0 ms of it the round trip, with 3\.00 retransmissions/s' 'NFS, the round trip carries it and requests are sent again: network'
v=$(verdict nfsfast)
like "$v" '^network: the stage [^ ]+ waited on the network' 'NFS writes of 4 ms: not the server; the client side verdict stays'
v=$(verdict tapeslow)
is "$v" 'nothing: Tape(st0) busy 45% at 35.0 MiB/s: the tape waits for data: it is not the bottleneck' 'a tape 45% busy at 35 MiB/s waits for data'
v=$(verdict tapefull)
like "$v" '^disk: Tape\(st0\) busy 98% \(p95 99%\) at 80\.0 MiB/s: the tape drive is the bottleneck' 'a tape 98% busy is named'
d=$($MK $SCRATCH json tapefull)
ok 'report --json: the same verdict' sh -c "$PERFLOG report --json '$d' | grep -q 'the tape drive is the bottleneck'"
done_testing

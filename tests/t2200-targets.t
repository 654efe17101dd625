#!/bin/bash
# Where backups land (issue 26): NFS Client, CIFS Share, Tape, FC Port.
#  - perflog counters lists them from a fixture root
#    (tests/fixtures/targets, PERFLOG_PROC_ROOT), and nothing where the
#    root has none;
#  - a collector logging that root while its files move from t1 to t2
#    (the fixtures' README has the deltas) writes one RRD file per mount,
#    share, drive and port, the perfmon paths in its map (\\server\share
#    included), and the NFS write rate it computed;
#  - on the real kernel, where it has an NFS client with mounts or tape
#    drives (/proc/fs/nfsfs, /sys/class/scsi_tape), perflog counters lists
#    every NFS mount of /proc/self/mountstats and every stN; otherwise
#    those checks skip, saying why.
. "$(dirname "$0")/lib.sh"
F=$TOP/tests/fixtures/targets

out=$(PERFLOG_PROC_ROOT=$F/t1 $PERFLOG counters)
is "$(printf '%s\n' "$out" | grep '^NFS Client:')" \
	'NFS Client: /mnt/backup /srv/repo /mnt/my share' 'perflog counters: the three NFS mounts of t1'
is "$(printf '%s\n' "$out" | grep '^CIFS Share:')" \
	'CIFS Share: \\fs1\backup \\fs1\scratch \\oldnas\tsm' '... the three SMB shares'
like "$(printf '%s\n' "$out" | grep '^Tape:')" '^Tape:( st[01]){2}$' '... st0 and st1, not their mode devices'
like "$(printf '%s\n' "$out" | grep '^FC Port:')" '^FC Port:( host[34]){2}$' '... host3 and host4'
is "$(printf '%s\n' "$out" | grep -c '^  NFS Client(\*)\\')" 12 '... the twelve NFS Client counters'
paths=$(PERFLOG_PROC_ROOT=$F/t1 $PERFLOG counters --paths)
ok '--paths: a share path with its backslashes' \
	sh -c "printf '%s\n' \"\$1\" | grep -qxF 'CIFS Share(\\\\fs1\\backup)\\Bytes Read/sec'" _ "$paths"
ok '--paths: a mount point with a space' \
	sh -c "printf '%s\n' \"\$1\" | grep -qxF 'NFS Client(/mnt/my share)\\Avg. Execute ms/Write'" _ "$paths"
printf '[counters]\n\\CIFS Share(\\\\fs1\\backup)\\Bytes Read/sec\n\\Tape(st0)\\%% Busy Time\n\\NFS Client(/mnt/gone)\\Write Ops/sec\n' > $SCRATCH/t.pml
sel=$(PERFLOG_PROC_ROOT=$F/t1 $PERFLOG counters -c $SCRATCH/t.pml)
like "$sel" 'CIFS Share\(\\\\fs1\\backup\)\\Bytes Read/sec +$' '-c: a share named in a settings file is here'
like "$sel" 'NFS Client\(/mnt/gone\)\\Write Ops/sec +\(no such instance' '-c: a mount not mounted is said to be missing'
none=$(PERFLOG_PROC_ROOT=$TOP/tests/fixtures/proc/root1 $PERFLOG counters)
like "$(printf '%s\n' "$none" | grep '^NFS Client:')" 'none now: no NFS mounts' \
	'a root without NFS: none, said so'
like "$(printf '%s\n' "$none" | grep '^Tape:')" 'none now: no tape drives' '... and no tape drives'

# a collector over a copy of t1, whose files become t2's while it runs
R=$SCRATCH/root
cp -r $F/t1 $R
start_fg env PERFLOG_PROC_ROOT=$R $PERFLOG start -f -o $SCRATCH/logs -i 1
ok 'a collector logs the fixture root' test -n "$dir"
sleep 2.5
# in place: the collector keeps proc/self/mountstats open. Without
# truncating (every t2 file is as long as its t1 or longer) and in one
# write each: `cat > file` truncated it as the shell opened it, then
# exec'd cat, and a sample that read the empty file in between (a make
# check beside the other suites: "peak 0 B/s") lost the mounts, so the
# step came as the first read of mounts new again, with no rate
for f in $(cd $F/t2 && find . -type f); do
	dd if=$F/t2/$f of=$R/$f bs=1M conv=notrunc status=none
done
sleep 2.5
$PERFLOG stop "$dir" >/dev/null 2>&1
wait $fg
ok 'one RRD file per mount, share, drive and port' \
	test -f "$dir/NFSClient-_mnt_backup.rrd" -a -f "$dir/NFSClient-_mnt_my_share.rrd" \
	-a -f "$dir/CIFSShare-__fs1_backup.rrd" -a -f "$dir/Tape-st0.rrd" -a -f "$dir/FCPort-host3.rrd"
ok 'the map holds \\server\share paths' grep -qF 'CIFS Share(\\fs1\backup)\SMBs/sec' "$dir/perflog.meta"
$PERFLOG export "$dir" --csv $SCRATCH/t.csv 2>/dev/null
c=$(csv_col $SCRATCH/t.csv 'NFS Client(/mnt/backup)\Write Bytes/sec')
peak=$(awk -F, -v c="$c" 'NR > 1 && $c != "" && $c > m { m = $c } END { printf "%.0f", m }' $SCRATCH/t.csv)
# +10^7 bytes in the one interval: about a second, longer when the
# collector was late on a loaded machine (its rate is then spread over
# the rows it covers), never more than 10^7 B/s plus rounding
ok "NFS write: the t1 -> t2 step was logged (peak $peak B/s)" \
	awk -v p="$peak" 'BEGIN { exit !(p >= 1000000 && p <= 10500000) }'
c=$(csv_col $SCRATCH/t.csv 'Tape(st0)\% Busy Time')
zero=$(awk -F, -v c="$c" 'NR > 1 && $c != "" && $c + 0 == 0 { k++ } END { print k + 0 }' $SCRATCH/t.csv)
ok "Tape % Busy logged, 0 while the files stood still ($zero rows)" test "$zero" -ge 1

# the real kernel
if [ -d /proc/fs/nfsfs ] && grep -q ' with fstype nfs4\? statvers=' /proc/self/mountstats 2>/dev/null; then
	want=$(awk '$1 == "device" && $6 == "with" && ($8 == "nfs" || $8 == "nfs4") { print $5 }' /proc/self/mountstats | sort -u | tr '\n' ' ')
	got=$($PERFLOG counters | sed -n 's/^NFS Client: //p' | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
	is "$got" "$want" 'the real kernel: every NFS mount of /proc/self/mountstats is listed'
else
	skip 'the real kernel: no NFS client mounts here (/proc/fs/nfsfs, nfs in /proc/self/mountstats)'
fi
if [ -d /sys/class/scsi_tape ] && ls /sys/class/scsi_tape | grep -qx 'st[0-9]*'; then
	want=$(ls /sys/class/scsi_tape | grep -x 'st[0-9]*' | sort | tr '\n' ' ')
	got=$($PERFLOG counters | sed -n 's/^Tape: //p' | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
	is "$got" "$want" 'the real kernel: every tape drive is listed'
else
	skip 'the real kernel: no tape drives here (/sys/class/scsi_tape)'
fi
done_testing

#!/bin/sh
# The disk of the verdict is the one the session's processes waited on,
# not the host's busiest (issue 46: "loop2 25% busy at 0 B/s" while the
# throttled source was loop1). Two loop devices over files in the
# scratch directory, an ext4 on each: dd writes 1 MiB direct to the
# first under `perflog run`, in a cgroup whose writes to it are
# throttled to 8 MiB/s (lib-zoo.sh zoo_throttle, as t3510's thrott),
# while another dd, outside the run and unthrottled, keeps the second
# busier. The run's session: its dd has an edge of kind disk to the
# first device in the edges file, and its Bottleneck line names the
# first device, not the second.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-zoo.sh"
command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null ||
	skip_all "no losetup or mkfs.ext4 (e2fsprogs, tests/deps.sh)"

SECS=6
_loops=""
_mnts=""
# the mounts and loop devices go before lib.sh's cleanup removes the
# scratch directory they are in; the busy writer first, by its pid
_disk_cleanup() {
	touch "$SCRATCH/busy.stop"
	stop_pids $_pids
	_pids=""
	for m in $_mnts; do umount "$m" 2>/dev/null || umount -l "$m"; done
	for l in $_loops; do losetup -d "$l" 2>/dev/null; done
	_cleanup
}
trap _disk_cleanup EXIT

# A loop device over a 96 MB file, an ext4 on it mounted at DIR: its
# /dev path in LOOP, or fail.
make_disk() {
	truncate -s 96M "$SCRATCH/$1.img" &&
		LOOP=$(losetup -f --show "$SCRATCH/$1.img") || return 1
	_loops="$_loops $LOOP"
	mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1 && mkdir -p "$SCRATCH/$1" &&
		mount "$LOOP" "$SCRATCH/$1" || return 1
	_mnts="$SCRATCH/$1 $_mnts"
}

make_disk used || skip_all "no loop device to make"
used=$LOOP
make_disk busy || skip_all "no second loop device to make"
busy=$LOOP
uname=$(basename "$used") bname=$(basename "$busy")
dev=$(cat "/sys/block/$uname/dev")
diag "the session's disk $uname ($dev), the busier one $bname"

zoo_cgroup io pldu$$ && zoo_throttle "$ZOO_CG" "$dev" write 8388608 ||
	skip_all "no blkio/io controller to throttle with"
thr=$ZOO_CG
zoo_start || { echo "Bail out! perflog start failed"; exit 1; }

# the busier disk: rewrites of 32 MB, direct, unthrottled, not watched,
# until told to stop (its dd then ends: nothing left holding the mount)
sh -c 'while ! [ -e "$1.stop" ]; do dd if=/dev/zero of="$1/w" bs=1M count=32 oflag=direct conv=notrunc 2>/dev/null; done' \
	sh "$SCRATCH/busy" &
busy_pid=$!
track_pid $busy_pid
sleep 2
zoo_run disk "$thr/cgroup.procs" -- dd if=/dev/zero of="$SCRATCH/used/thr.out" bs=1M count=$((SECS * 8)) oflag=direct
is "$?" 0 'disk: dd ran inside the throttled group'
touch "$SCRATCH/busy.stop"
wait $busy_pid
zoo_stop

edges=$(ls "$ZOO_SET"/edges-*.tsv 2>/dev/null | head -1)
diag "$(grep -P '\tdisk\t' "$edges" 2>/dev/null | head -4 | tr '\t' ' ' | tr '\n' ';')"
ok "disk: dd's edge of kind disk names $uname" \
	awk -F'\t' -v d="$uname" '$2 == "dd" && $4 == "disk" && $6 == d && $9 > 0 { f = 1 } END { exit !f }' "$edges"
ok "disk: no edge of dd names $bname" \
	awk -F'\t' -v d="$bname" '$2 == "dd" && $6 == d { f = 1 } END { exit f }' "$edges"
# (the disk busiest over the session, as the figures rank them)
diag "busy: $(grep -E "^ *(Disk|disk)" "$SCRATCH/report.txt" | head -3 | tr '\n' ';')"
zoo_check disk disk disk
line=$(zoo_line disk)
like "$line" "$uname" "disk: the Bottleneck line names $uname, the disk dd waited on"
ok "disk: and not $bname, the busier one" sh -c 'case "$1" in *"$2"*) exit 1;; esac' sh "$line" "$bname"
done_testing

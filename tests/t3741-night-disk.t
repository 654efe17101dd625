#!/bin/sh
# A night at the server whose disk is slow (issue 47, its first case):
# the four clients of tests/lib-night.sh at once, their receivers on the
# server writing through to the disk (rsync --fsync, borg's own fsyncs,
# tar's `cat > f && sync f`), the server's sshd and so every session's
# processes in a cgroup whose writes to the disk under the scratch
# directory are throttled to 1 MB/s (v1 blkio or v2 io.max, lib-zoo.sh).
# Each session is found and checked as in t3740 (peer, name, bytes each
# way, begin and end within the client's span, the kernel's figures).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-hosts.sh"
. "$TOP/tests/lib-night.sh"
. "$TOP/tests/lib-zoo.sh"
trap 'stop_server_host; _cleanup' EXIT

SRV_TIMEOUT=20
dev=$(zoo_disk_dev "$SCRATCH")
[ -n "$dev" ] || skip_all "$SCRATCH is not on a block device"
zoo_cgroup io plnd$$ || skip_all "no blkio/io controller"
zoo_throttle "$ZOO_CG" "$dev" write 1048576 || skip_all "cannot throttle $dev"
night_start sshd
pid=$(night_sshd_pid)
[ -n "$pid" ] && echo "$pid" >"$ZOO_CG/cgroup.procs" ||
	skip_all "cannot move the server's sshd into $ZOO_CG"
night_data 1
NIGHT_RSYNC_PATH="rsync --fsync"
night_clients "&& sync $SRV_DIR/tar.tar"
night_stop

night_check_all

# --- the night's report (nightrep, issue 47 item 2): its checks go here
# once merged: `perflog report $NIGHT_SET` ranks the four sessions and
# says "Shared: disk on $SRV_NAME:" with each session's seconds on it.

done_testing

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

# --- the night's report (issue 47 item 2): the four sessions ranked by
# duration and the limit they shared named on the server. What the
# report says today (a run beside a make check):
#   Shared: network on srv: the network through plvNb to the other end;
#     sshd-cli-rsync-N 3.1 s, sshd-cli-restic-N 3.0 s, sshd-cli-tar-N 2.0 s,
#     sshd-cli-borg-N 1.7 s, while they ran together 9.4 s
# with rsync, tar and borg "nothing (not-seen)". Read from the log set
# (beside others' load, the host 100% busy): this host's
# ~/.bashrc, which Debian's bash reads for a command sshd runs, ran
# pyenv's init for 3-4 s of each session (bash, pyenv-init, the
# subshells it forks: "not seen"); sshd's poll on its connection for
# input and its command's pipe for output went half to the network, its
# own end of that pipe was its far end for 5 s, and a gone subshell
# stayed its far end while it did not run (the three fixed in waits/:
# rsync's sshd now waits 2.1 s on rsync, none on the network). Left: the connection's tree is watched up to
# a sample late (tar's sshd read from 1.3 s into its 2.5 s session, the
# `sync` it waited on never read), the privilege-separated sshd's wait
# on the connection during the key exchange (1.2 s of each session on a
# loaded host) is network, a poll on inputs alone (sshd waiting for its
# command's output or its client's data) is split between them, and the
# server's network is one resource for every client (its interface).
# "Shared: disk" stays a TODO until those go: asserting the line as it
# is would assert the gap.
night_report
for c in $NIGHT_CLIENTS; do
	like "$(night_row $c)" "^ +[0-9]+ sshd-cli-$c-[0-9]+ +[0-9:]{8} +[0-9:]{8} +[0-9.]+ s " "report: $c's session ranked"
	# its bytes: the kernel's count of what the server received
	# (conn.bytes_in of its end marker; no perflog ran on the client)
	like "$(night_row $c)" " [0-9.]+ s +[0-9.]+ ?[KMG]?i?B +[0-9.]+ ?[KMG]?i?B/s " "report: $c's session has its bytes and rate"
done
ok 'report: the night ranked by duration, longest first' python3 -c '
import json, sys
d = [s["duration"] for s in json.load(open(sys.argv[1]))["report"]["night"]["ranking"]]
assert len(d) >= 4 and d == sorted(d, reverse=True), d' "$SCRATCH/night.json"
like "$(night_shared)" "^[a-zA-Z]+ on $SRV_NAME: " 'report: Shared: the limit they shared is on the server'
TAP_TODO="the connection's tree is watched a sample late, sshd's poll on inputs alone is split between its client and its command, and the server's network is one resource for every client: the network takes their seconds"
like "$(night_shared)" "^disk on $SRV_NAME: " 'report: Shared: disk on the server'
for c in rsync tar borg; do
	like "$(night_shared)" "^disk on $SRV_NAME: .*[;,] sshd-cli-$c-[0-9]+ [0-9.]+ s" "report: $c's seconds on the shared disk"
done
TAP_TODO=

done_testing

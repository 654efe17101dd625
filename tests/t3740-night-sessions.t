#!/bin/sh
# A night at the server (issue 47 item 1): four backup clients at once
# (rsync over ssh, restic over sftp, tar | ssh 'cat > f', borg over ssh),
# no perflog on them, each from an address of its own, to the second
# host of lib-hosts.sh, whose collector watches its sshd (`[server]
# daemons = sshd`, tests/lib-night.sh). The server's set has one session
# a client: its peer's address and name (the server's /etc/hosts), the
# bytes each way against what the client says it sent (rsync's and
# tar's exact stream; restic's and borg's data added, their indexes and
# ssh's framing on top), begin and end within the client's command span
# widened by two samples, the kernel's tcp figures from its final
# record, its commands (rsync, borg serve under sshd), its waits and
# edges files.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-hosts.sh"
. "$TOP/tests/lib-night.sh"
trap 'stop_server_host; _cleanup' EXIT

# logins over the veth take seconds on a loaded 2-core machine
SRV_TIMEOUT=20
night_start sshd
night_data 2
night_clients
night_stop

night_check_all
# the commands a session's tree ran are those its samples saw (in a
# network namespace the kernel's exit records are not read): the
# receivers that live through the session (rsync paced to 1 MiB/s,
# lib-night.sh; borg serve), not tar's cat (2 MB in a few ms once the
# remote shell's start-up is done); the most seen first, so a login's
# start-up commands (root's .bashrc: pyenv init's 23) do not crowd them
# out
like "$(_night_field "$(_night_end "$NIGHT_ADDR_rsync")" conn.cmds)" "rsync" "rsync: its tree ran rsync"
like "$(_night_field "$(_night_end "$NIGHT_ADDR_borg")" conn.cmds)" "borg" "borg: its tree ran borg serve"
# The night's report (nightrep, issue 47 item 2) is checked here once it
# is merged: `perflog report $NIGHT_SET` ranks the four sessions.

done_testing

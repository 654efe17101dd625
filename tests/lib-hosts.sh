# tests/lib-hosts.sh - a second host on this machine, for suites that need
# a server (perflog run --server, report --with). Source it after lib.sh.
#
#   start_server_host [NAME]   a network namespace joined to this host by a
#                              veth pair (lib.sh make_veth), with its own UTS
#                              namespace (host name NAME, default srvPID), PID
#                              namespace (its own /proc) and mount namespace
#                              whose /run is a tmpfs (sshd wants /run/sshd;
#                              nothing outside is touched),
#                              running Debian's sshd on the veth address with
#                              a host key and a client key made in
#                              $SCRATCH/hosts. Sets:
#       SRV_ADDR   its address           SRV_NAME  its host name
#       SRV_DIR    its scratch dir (keys, sshd_config, sshd.log, run/, logs/)
#       SRV_SSH    the ssh command line that logs in there without a prompt
#                  (as PERFLOG_SSH; ConnectTimeout=$SRV_TIMEOUT, default 3)
#       SRV_PID    sshd's pid (tracked)
#     Skips the whole suite, with the reason, when it cannot be done (not
#     root, no ip/unshare/sshd, no namespaces). SRV_CGROUPS=1: this
#     host's cgroup hierarchies are mounted there too (a quota's figures)
#   srv CMD...                 run a shell command line on the server (ssh)
#   srv_collector [ARGS]       start the server's collector there
#                              (perflog start -i 1 -o $SRV_DIR/logs ARGS);
#                              sets SRV_SET, its log set
#   stop_sshd                  the server goes down: sshd and every
#                              process of its PID namespace (its
#                              collectors) are gone, its address stays
#                              (connections are refused)
#   stop_server_host           the same, and the namespace (also at exit)
#
# sshd_config SetEnv gives every session the server's own PATH (this
# tree's perflog first), PERFLOG_RUNTIME_DIR=$SRV_DIR/run and
# PERFLOG_TEST_CLOCK_OFFSET_FILE=$SRV_DIR/clock: write seconds into that
# file before srv_collector to run the server's collector's clock ahead.

SRV_TIMEOUT=${SRV_TIMEOUT:-3}

start_server_host() {
	[ "$(id -u)" = 0 ] || skip_all "needs root (network, UTS and mount namespaces)"
	for t in ip unshare ssh ssh-keygen /usr/sbin/sshd; do
		command -v "$t" >/dev/null || skip_all "no $t (openssh-server, iproute2, util-linux)"
	done
	make_veth || skip_all "cannot make a network namespace and veth pair"
	SRV_ADDR=$PEER_ADDR
	SRV_NAME=${1:-srv$$}
	SRV_DIR=$SCRATCH/hosts
	mkdir -p "$SRV_DIR/run" "$SRV_DIR/logs"
	chmod 700 "$SRV_DIR/run"
	ssh-keygen -q -t ed25519 -N '' -f "$SRV_DIR/host_key" || skip_all "ssh-keygen failed"
	ssh-keygen -q -t ed25519 -N '' -f "$SRV_DIR/client_key" || skip_all "ssh-keygen failed"
	cp "$SRV_DIR/client_key.pub" "$SRV_DIR/authorized_keys"
	cat > "$SRV_DIR/sshd_config" <<-CONF
	ListenAddress $SRV_ADDR
	Port 22
	HostKey $SRV_DIR/host_key
	PidFile $SRV_DIR/sshd.pid
	AuthorizedKeysFile $SRV_DIR/authorized_keys
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	StrictModes no
	UsePAM no
	PrintMotd no
	Subsystem sftp internal-sftp
	SetEnv PATH=$TOP:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin PERFLOG_RUNTIME_DIR=$SRV_DIR/run PERFLOG_TEST_CLOCK_OFFSET_FILE=$SRV_DIR/clock PERFLOG_BATCH=1 TZ=UTC LC_ALL=C
	CONF
	echo "$SRV_ADDR $(cat "$SRV_DIR/host_key.pub")" > "$SRV_DIR/known_hosts"
	SRV_SSH="ssh -F /dev/null -i $SRV_DIR/client_key -o UserKnownHostsFile=$SRV_DIR/known_hosts -o StrictHostKeyChecking=yes -o BatchMode=yes -o ConnectTimeout=$SRV_TIMEOUT -o LogLevel=ERROR -l root"
	# its own host name, /run and processes (a PID namespace with its own
	# /proc: name=COMM on the server must not see the client's rsync);
	# exec keeps one pid from ip to unshare, which SIGKILLs the namespace's
	# init (sshd) when it goes
	# with SRV_CGROUPS=1, this host's cgroup hierarchies mounted there
	# again (ip netns exec gives it a /sys without them): its collector
	# reads its watched processes' cgroups (a CPU quota's throttling) as
	# a real host's does
	_cgm=:
	[ -z "${SRV_CGROUPS:-}" ] || _cgm=$(_srv_cgroup_mounts)
	ip netns exec "$PEER_NS" unshare -m -u -p -f --mount-proc --kill-child sh -c '
		mount -t tmpfs -o mode=755 perflog-test-run /run &&
		mkdir -m 755 /run/sshd && hostname "$1" && eval "$4" &&
		exec /usr/sbin/sshd -D -f "$2" -E "$3"' sh \
		"$SRV_NAME" "$SRV_DIR/sshd_config" "$SRV_DIR/sshd.log" "$_cgm" &
	SRV_PID=$!
	track_pid $SRV_PID
	wait_for 10 $SRV_SSH "$SRV_ADDR" true ||
		{ sed 's/^/# sshd: /' "$SRV_DIR/sshd.log" >&2
		  skip_all "sshd in the namespace did not come up"; }
	_srv_up=1
}

# The shell commands that mount this host's cgroup hierarchies (v1 by
# their controllers, v2) at the same places under a tmpfs
# /sys/fs/cgroup.
_srv_cgroup_mounts() {
	printf 'mount -t tmpfs -o mode=755 perflog-test-cg /sys/fs/cgroup'
	awk '$2 ~ "^/sys/fs/cgroup/" && ($3 == "cgroup" || $3 == "cgroup2") {
		n = split($4, o, ","); opts = ""
		for (i = 1; i <= n; i++)
			if (o[i] != "rw" && o[i] != "relatime" && o[i] != "nosuid" &&
			    o[i] != "nodev" && o[i] != "noexec")
				opts = opts (opts == "" ? "" : ",") o[i]
		printf " && mkdir -p %s && mount -t %s%s %s %s", $2, $3,
			(opts == "" ? "" : " -o " opts), $3, $2
	}' /proc/mounts
}

srv() {
	$SRV_SSH "$SRV_ADDR" "$@"
}

srv_collector() {
	SRV_SET=$(srv "perflog start -i 1 -o $SRV_DIR/logs $*" </dev/null)
}

# unshare -f ignores SIGTERM while it waits: KILL it, and --kill-child
# takes the namespace's init with it, and the kernel the rest
stop_sshd() {
	kill -KILL "$SRV_PID" 2>/dev/null
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$SRV_PID" 2>/dev/null || break
		sleep 0.2
	done
}

# The server's collectors are asked to stop while sshd is up (the pids
# in its runtime dir are its PID namespace's, not ours: never killed from
# here); then the namespace goes, and with its init everything in it.
stop_server_host() {
	[ -n "${_srv_up:-}" ] || return 0
	if kill -0 "$SRV_PID" 2>/dev/null; then
		for s in $(srv 'perflog status' 2>/dev/null </dev/null | awk 'NR > 1 { print $NF }'); do
			srv "perflog stop $s" >/dev/null 2>&1 </dev/null
		done
	fi
	stop_sshd
	kill -KILL "$SRV_PID" 2>/dev/null
	_srv_up=
}

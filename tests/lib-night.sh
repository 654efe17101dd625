# tests/lib-night.sh - a night at the server (issue 47): one server (the
# second host of lib-hosts.sh, its sshd watched by its collector through
# `[server] daemons = sshd`) and four backup clients at once from this
# host, with no perflog on them, each from an address of its own:
#   rsync   rsync -a --stats --bwlimit=1024 over ssh (2 s or more for
#           night_data 2: the server's rsync lives across two samples
#           or more, so its session's commands have it; unpaced it
#           moved 2 MB in a fraction of a second after a login of 2-3 s,
#           between two samples of an idle host: conn.cmds=sshd,bash,sleep)
#   restic  restic backup over sftp (its repository made before the
#           server's collector starts)
#   tar     tar -cf - DIR | ssh SERVER 'cat > f'
#   borg    borg create over ssh (borg serve there; initialised before)
# Source it after lib.sh and lib-hosts.sh.
#
#   night_start [DAEMONS]   the server, the clients' addresses (the four
#                           on this host's end of the veth, a route to
#                           them there) and their names in the server's
#                           own /etc/hosts (cli-rsync ...: its mount
#                           namespace's), the repositories, the server's
#                           collector at 1 s with `[server] daemons =
#                           DAEMONS` (sshd); sets NIGHT_ADDR_x, NIGHT_HOST_x
#   night_data MB           MB of random bytes in 4 files a client
#   night_clients [SUFFIX]  the four at once, each one's span (this
#                           host's clock, the server's too: no offset) in
#                           $SCRATCH/span.x, what it says it sent in
#                           $SCRATCH/sent.x, its status in $SCRATCH/rc.x;
#                           SUFFIX goes after tar's remote cat (e.g.
#                           "&& sync f": its bytes on the disk);
#                           NIGHT_RSYNC_PATH: rsync's --rsync-path
#   night_sshd_pid          the server's sshd listener, by this host's pid
#                           (its cgroup is its sessions')
#   night_stop              the server's collector stopped: NIGHT_SET
#   night_check CLIENT LO HI  the checks of one client's session in
#                           NIGHT_SET: one session from its address, its
#                           peer and host name, bytes in within
#                           [sent * LO, sent * HI + 256 KiB], bytes out
#                           some, begin and end within the client's span
#                           widened by NIGHT_SLACK (2 s: two samples),
#                           the kernel's tcp figures, its commands, its
#                           waits file
#   night_check_all         night_check of the four, each with its
#                           tolerance
#   night_report            perflog report of NIGHT_SET, its lines whole
#                           (-v) in $SCRATCH/night.txt and --json in
#                           $SCRATCH/night.json; the night's opening
#                           printed; night_row CLIENT its ranked row,
#                           night_shared the Shared line after "Shared: "
NIGHT_CLIENTS="rsync restic tar borg"
NIGHT_SLACK=${NIGHT_SLACK:-2}
export RESTIC_PASSWORD=night BORG_PASSPHRASE="" BORG_RELOCATED_REPO_ACCESS_IS_OK=yes
export BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK=yes BORG_BASE_DIR=$SCRATCH/borgbase

night_start() {
	for t in rsync restic borg tar; do
		command -v $t >/dev/null || skip_all "no $t (tests/deps.sh)"
	done
	start_server_host
	_nn=$(( $$ % 200 + 20 ))
	_i=4
	: >"$SCRATCH/etc-hosts"
	echo "127.0.0.1 localhost" >>"$SCRATCH/etc-hosts"
	for x in $NIGHT_CLIENTS; do
		_a=169.254.$_nn.$_i
		ip addr add "$_a/32" dev "$VETH" || skip_all "cannot add $_a to $VETH"
		eval "NIGHT_ADDR_$x=$_a NIGHT_HOST_$x=cli-$x"
		echo "$_a cli-$x" >>"$SCRATCH/etc-hosts"
		_i=$((_i + 1))
	done
	ip -n "$PEER_NS" route add "169.254.$_nn.4/30" dev "plv$$b" ||
		skip_all "cannot route the clients' addresses in $PEER_NS"
	cp "$SCRATCH/etc-hosts" "$SRV_DIR/hosts"
	srv "mount --bind $SRV_DIR/hosts /etc/hosts" </dev/null ||
		skip_all "cannot give the server its own /etc/hosts"
	# the shell sshd runs each client's command in starts as a server's
	# does, not through this host's ~/.bashrc (Debian's bash reads it for
	# a command sshd runs): one that runs pyenv's init took 4 s of tar's
	# 5.6 s session on a loaded host, its sshd waiting on that shell and
	# the subshells it forked, not on its client's shaped link (t3742)
	_rc=$(getent passwd root | cut -d: -f6)/.bashrc
	if [ -f "$_rc" ]; then
		echo "# the night's server: no rc of this host's" >"$SRV_DIR/bashrc"
		srv "mount --bind $SRV_DIR/bashrc $_rc" </dev/null ||
			skip_all "cannot give the server its own $_rc"
	fi
	# the repositories, before the server's collector starts
	restic -q -r "sftp:root@$SRV_ADDR:$SRV_DIR/restic" \
		-o sftp.command="$SRV_SSH $SRV_ADDR -s sftp" init >/dev/null 2>&1 ||
		skip_all "restic init over sftp failed"
	BORG_RSH="$SRV_SSH" borg init -e none "ssh://root@$SRV_ADDR$SRV_DIR/borg" \
		>/dev/null 2>&1 || skip_all "borg init over ssh failed"
	mkdir -p "$SRV_DIR/rsync"
	printf '[log]\ninterval = 1\n[server]\ndaemons = %s\n' "${1:-sshd}" \
		>"$SRV_DIR/night.conf"
	srv_collector "-c $SRV_DIR/night.conf"
	[ -d "$SRV_SET" ] || skip_all "the server's collector did not start"
}

night_data() {
	for x in $NIGHT_CLIENTS; do
		rm -rf "$SCRATCH/d-$x"
		mkdir -p "$SCRATCH/d-$x"
		for f in 1 2 3 4; do
			head -c $(( $1 * 262144 )) /dev/urandom >"$SCRATCH/d-$x/f$f"
		done
	done
}

# one client: its span around it, its status, what it says it sent
_night_one() {
	x=$1 sfx=$2
	eval "a=\$NIGHT_ADDR_$x"
	ssh_b="$SRV_SSH -b $a"
	date +%s.%N >"$SCRATCH/span.$x"
	case $x in
	rsync)
		set --
		[ -z "${NIGHT_RSYNC_PATH:-}" ] || set -- --rsync-path="$NIGHT_RSYNC_PATH"
		rsync -a --stats --bwlimit=1024 -e "$ssh_b" "$@" "$SCRATCH/d-$x/" \
			"$SRV_ADDR:$SRV_DIR/rsync/" >"$SCRATCH/out.$x" 2>&1
		echo $? >"$SCRATCH/rc.$x"
		# its own count of what went over its ssh
		sed -n 's/^Total bytes sent: //p' "$SCRATCH/out.$x" | tr -d , >"$SCRATCH/sent.$x" ;;
	restic)
		restic -r "sftp:root@$SRV_ADDR:$SRV_DIR/restic" \
			-o sftp.command="$ssh_b $SRV_ADDR -s sftp" backup --json \
			"$SCRATCH/d-$x" >"$SCRATCH/out.$x" 2>&1
		echo $? >"$SCRATCH/rc.$x"
		# data_added: what it stored anew (its packs, before the
		# index and the snapshot)
		grep '"message_type":"summary"' "$SCRATCH/out.$x" |
			sed 's/.*"data_added":\([0-9]*\).*/\1/' >"$SCRATCH/sent.$x" ;;
	tar)
		tar -cf - -C "$SCRATCH" "d-$x" | $ssh_b "$SRV_ADDR" \
			"cat > $SRV_DIR/tar.tar $sfx" >"$SCRATCH/out.$x" 2>&1
		echo $? >"$SCRATCH/rc.$x"
		tar -cf - -C "$SCRATCH" "d-$x" | wc -c >"$SCRATCH/sent.$x" ;;
	borg)
		BORG_RSH="$ssh_b" borg create --json -C none \
			"ssh://root@$SRV_ADDR$SRV_DIR/borg::a$$" \
			"$SCRATCH/d-$x" >"$SCRATCH/out.$x" 2>&1
		echo $? >"$SCRATCH/rc.$x"
		# deduplicated_size: what this archive stored anew
		tr -d ' \n' <"$SCRATCH/out.$x" |
			sed 's/.*"deduplicated_size":\([0-9]*\).*/\1/' >"$SCRATCH/sent.$x" ;;
	esac
	date +%s.%N >>"$SCRATCH/span.$x"
}

night_clients() {
	_w=""
	for x in $NIGHT_CLIENTS; do
		_night_one "$x" "${1:-}" &
		_w="$_w $!"
		track_pid $!
	done
	for p in $_w; do wait "$p"; done
}

night_sshd_pid() { pgrep -P "$SRV_PID" -x sshd | head -n 1; }

night_stop() {
	# two samples after the last client: its end is seen
	sleep 2.5
	srv "perflog stop $SRV_SET" >/dev/null </dev/null
	NIGHT_SET=$SRV_SET
}

# the field KEY of the end marker of the session from address A
_night_end() { grep -P "\tend\t[^\t]*\t.*\tconn\.peer=$1\t" "$NIGHT_SET/markers.tsv" | tail -n 1; }
_night_field() { echo "$1" | tr '\t' '\n' | sed -n "s/^$2=//p" | head -n 1; }
_night_rel() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a - b }'; }
_night_time() { date -u -d "$(echo "$1" | cut -f1 | sed 's/Z$//')" +%s.%N; }

night_check() {
	x=$1 lo=$2 hi=$3
	eval "a=\$NIGHT_ADDR_$x h=\$NIGHT_HOST_$x"
	is "$(cat "$SCRATCH/rc.$x")" 0 "$x: the client succeeds"
	n=$(grep -cP "\tend\t[^\t]*\t.*\tconn\.peer=$a\t" "$NIGHT_SET/markers.tsv")
	is "$n" 1 "$x: one session from its address $a"
	end=$(_night_end "$a")
	label=$(echo "$end" | cut -f3)
	begin=$(grep -P "\tbegin\t\Q$label\E\t" "$NIGHT_SET/markers.tsv" | tail -n 1)
	is "$(_night_field "$end" conn.host)" "$h" "$x: the peer's name from the server's /etc/hosts"
	like "$label" "^sshd-$h-[0-9]+\$" "$x: its label DAEMON-HOST-PORT"
	sent=$(cat "$SCRATCH/sent.$x")
	bin=$(_night_field "$end" conn.bytes_in)
	bout=$(_night_field "$end" conn.bytes_out)
	diag "$x: sent $sent (its own count), the server's kernel received $bin, sent $bout"
	within "$x: bytes in against what it sent" "$bin" "$(calc "$sent * $lo")" \
		"$(calc "$sent * $hi + 262144")"
	within "$x: bytes out, some and less than in" "$bout" 1 "$bin"
	# times in seconds after the client's start (awk's numbers print
	# with 6 digits)
	s0=$(head -n 1 "$SCRATCH/span.$x")
	s1=$(_night_rel "$(tail -n 1 "$SCRATCH/span.$x")" "$s0")
	tb=$(_night_rel "$(_night_time "$begin")" "$s0")
	te=$(_night_rel "$(_night_time "$end")" "$s0")
	diag "$x: the client ran 0 .. $s1 s, its session $tb .. $te s"
	within "$x: begin in the client's span" "$tb" "-$NIGHT_SLACK" "$s1"
	within "$x: end in the client's span" "$te" "$tb" "$(calc "$s1 + $NIGHT_SLACK")"
	for k in tcp.rtt_ms tcp.retrans tcp.delivery_rate tcp.busy_s \
		tcp.rwnd_limited_s tcp.sndbuf_limited_s; do
		ok "$x: $k=$(_night_field "$end" $k)" test -n "$(_night_field "$end" $k)"
	done
	is "$(_night_field "$end" conn.figures)" final "$x: the kernel's final record"
	w=$(_night_field "$end" waits)
	if [ -z "$w" ] && [ "$(_night_field "$end" conn.between)" = 1 ]; then
		# a session that began and ended between two samples (a
		# client fast beside a load): no process of it was read, and
		# its end marker says so
		like "$(_night_field "$end" waits.error)" 'between two samples' \
			"$x: no waits file, said: it began and ended between two samples"
		ok "$x: its duration under two samples' ($(_night_field "$end" conn.duration) s)" \
			awk -v d="$(_night_field "$end" conn.duration)" 'BEGIN { exit !(d != "" && d < 2) }'
		return
	fi
	ok "$x: its waits file ($w)" test -n "$w" -a -s "$NIGHT_SET/$w"
	# named after its waits file (man/perflog-logset.5), a failure to
	# write it said in the end marker
	ok "$x: its edges file$(_night_field "$end" waits.edges_error | sed 's/^./ (&/; s/.$/&)/')" \
		test -e "$NIGHT_SET/edges-${w#waits-}"
}

# rsync's "Total bytes sent" and tar's stream are what went into ssh:
# ssh adds its framing (a MAC and padding a packet) and its key exchange;
# restic's and borg's counts are the data they stored anew, their
# indexes, snapshot, locks and protocol on top
night_check_all() {
	night_check rsync 1.0 1.10
	night_check tar 1.0 1.10
	night_check restic 1.0 1.25
	night_check borg 1.0 1.25
}

night_report() {
	"$PERFLOG" report -v "$NIGHT_SET" >"$SCRATCH/night.txt" 2>&1
	"$PERFLOG" report --json "$NIGHT_SET" >"$SCRATCH/night.json" 2>&1
	sed -n '/^Sessions:/,/^Session /p' "$SCRATCH/night.txt" | sed '$d' |
		sed 's/^/#   /'
}
night_row() { sed -n '/^Sessions:/,/^Session /p' "$SCRATCH/night.txt" | grep -E "^ +[0-9]+ sshd-cli-$1-[0-9]+ " | head -n 1; }
night_shared() { sed -n 's/^Shared: //p' "$SCRATCH/night.txt"; }

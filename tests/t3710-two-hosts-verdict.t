#!/bin/sh
# tests/t3710-two-hosts-verdict.t - the verdict follows the data across
# hosts, on limits induced for real on both ends (issue "Both ends of the
# backup"): a second host in a network namespace with its own host name
# and sshd (tests/lib-hosts.sh), its collector started over ssh; each case
# is a perflog run --server session whose command streams bytes to a
# receiver on the server, watched there by --server-watch name=COMM, and
# `perflog report CLIENT --with SERVER` must name the resource and the
# host:
#   sdisk  the receiver writes with O_DIRECT in a cgroup whose writes are
#          throttled to 8 MiB/s: disk on the server
#   net    the client's end of the veth shaped to 40 Mbit/s by tc tbf:
#          network, naming both ends
#   cdisk  the client reads its source with O_DIRECT through a read
#          throttle of 8 MiB/s: disk on the client
#   skew   the server's collector runs 30 s ahead: the report aligns it by
#          the markers' recorded offset and matches the session
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib-hosts.sh"
. "$TOP/tests/lib-zoo.sh"
trap 'stop_server_host; _cleanup' EXIT

SRV_TIMEOUT=5
start_server_host
CLI_NAME=$(hostname)
export PERFLOG_SSH="$SRV_SSH"
dev=$(zoo_disk_dev "$SCRATCH") ||
	skip_all "$SCRATCH is not on a block device: no disk to throttle"

# the receiver: a dd of its own name on the server (one filesystem, but
# the server has its own PID namespace: name= sees only its processes)
COMM=plrcv$$
cp "$(command -v dd)" "$SRV_DIR/$COMM"
MB=48
BS=65536
# dd in the client's command reads a pipe: full blocks, or O_DIRECT
# refuses a short one
RECV="$SRV_DIR/$COMM bs=$BS iflag=fullblock status=none"

# run_case LABEL CGROUP_PROCS_OR_- SENDER RECEIVER_OUTPUT [SERVER_CG]:
# the session, the sender's bytes piped through ssh into the receiver
run_case() {
	_l=$1 _cg=$2 _send=$3 _out=$4 _scg=${5:-}
	# the server's /sys is its network namespace's own (ip netns exec
	# mounts one), without the cgroup mounts: its receiver is put in the
	# throttled group from here, by the pid this host sees, as it starts.
	# Up to 30 s: the receiver starts after two ssh handshakes (run's
	# begin marker on the server, then the command's own ssh), and 4 s
	# (200 polls, as before) may pass first on a loaded machine: the
	# receiver then wrote unthrottled, and sdisk's verdict was not the
	# server's disk (CI, the round's first stop)
	if [ -n "$_scg" ]; then
		( end=$(($(date +%s) + 30))
		  while [ "$(date +%s)" -lt $end ]; do
			_p=$(pgrep -x "$COMM" | head -1)
			[ -n "$_p" ] && { echo "$_p" > "$_scg/cgroup.procs"; exit 0; }
			sleep 0.02
		  done ) &
		track_pid $!
	fi
	load_begin
	sh -c '[ "$0" = - ] || echo $$ > "$0" || exit 97; shift; exec "$@"' "$_cg" _ \
		$PERFLOG run -o "$CLI_SET" -l "$_l" --server "$SRV_ADDR:$SRV_DIR/logs" \
		--server-watch "name=$COMM" -- \
		sh -c "$_send | $SRV_SSH $SRV_ADDR \"exec $RECV $_out\"" \
		>"$SCRATCH/$_l.out" 2>"$SCRATCH/$_l.err"
	_st=$?
	load_end
	echo "$LOAD_FIGS" >"$SCRATCH/$_l.load"
	return $_st
}

srv_collector
[ -n "$SRV_SET" ] || skip_all "the server's collector did not start"
CLI_SET=$($PERFLOG start -i 1 -o "$SCRATCH/cli")
[ -d "$CLI_SET" ] || skip_all "the client's collector did not start"

# --- sdisk: the server's disk is throttled ---
if zoo_cgroup io plsd$$; then
	g=$ZOO_CG
	zoo_throttle "$g" "$dev" write 8388608
	run_case sdisk - "dd if=/dev/zero bs=$BS count=$((MB * 16)) status=none" \
		"of=$SRV_DIR/sdisk.out oflag=direct" "$g"
	is "$?" 0 'sdisk: the run succeeds'
	# what the throttled group wrote (v1 blkio, v2 io.stat): 0 would say
	# the receiver was not in it in time
	diag "sdisk: the throttled group wrote: $( (grep -h Total "$g/blkio.throttle.io_service_bytes" ||
		grep -ho 'wbytes=[0-9]*' "$g/io.stat") 2>/dev/null | tr '\n' ' ')"
	SDISK=1
else
	skip 'sdisk: no blkio/io controller to throttle with'
fi

# --- net: the link is shaped on the client's end ---
if command -v tc >/dev/null &&
   tc qdisc add dev "$VETH" root tbf rate 40mbit burst 32kbit latency 400ms; then
	run_case net - "dd if=/dev/zero bs=$BS count=$((MB * 16 / 3)) status=none" "of=/dev/null"
	is "$?" 0 'net: the run succeeds'
	tc qdisc del dev "$VETH" root
	NET=1
else
	skip 'net: tc could not shape the veth'
fi

# --- cdisk: the client's source is read through a throttle ---
dd if=/dev/zero of="$SCRATCH/src" bs=1M count=$MB conv=fsync status=none
if zoo_cgroup io plcd$$; then
	g=$ZOO_CG
	zoo_throttle "$g" "$dev" read 8388608
	run_case cdisk "$g/cgroup.procs" "dd if=$SCRATCH/src bs=$BS iflag=direct status=none" "of=/dev/null"
	is "$?" 0 'cdisk: the run succeeds'
	CDISK=1
else
	skip 'cdisk: no blkio/io controller to throttle with'
fi

srv "perflog stop $SRV_SET" >/dev/null </dev/null
$PERFLOG stop "$CLI_SET" >/dev/null
$PERFLOG report -v "$CLI_SET" --with "$SRV_SET" >"$SCRATCH/report.txt" 2>"$SCRATCH/report.err"
is "$?" 0 'report --with succeeds'
$PERFLOG report "$CLI_SET" --with "$SRV_SET" --json >"$SCRATCH/report.json" 2>&1

# the verdict of session S, and its first word and host
line_of() { awk -v s="$1" '/^Session / { c = $2 } c == s' "$SCRATCH/report.txt" |
	sed -n 's/^  \(Bottleneck: .*\)/\1/p' | tail -n 1; }
check() {
	_c=$1 _re=$2
	LOAD_FIGS=$(cat "$SCRATCH/$_c.load" 2>/dev/null)
	_line=$(line_of "$_c")
	diag "$_c: $_line"
	diag "$_c: $LOAD_FIGS"
	like "$_line" "$_re" "$_c: $_re"
}
# the receiver's stage (its tree's edges: fed by sshd) when the stages
# judge (issue 29: one wording, the stage named), the tree's otherwise
[ -n "${SDISK:-}" ] && check sdisk "^Bottleneck: disk on $SRV_NAME: the (receiver|stage [^ ]+ \\($SRV_NAME\\)) waited on the disk"
[ -n "${NET:-}" ] && check net "^Bottleneck: network between $CLI_NAME and $SRV_NAME"
[ -n "${CDISK:-}" ] && check cdisk "^Bottleneck: disk on $CLI_NAME"
# each server side was matched to its session (not read over the span)
for c in ${SDISK:+sdisk} ${NET:+net} ${CDISK:+cdisk}; do
	ok "$c: the server's side was its own session" \
		grep -q "\"name\": *\"$c\"" "$SCRATCH/report.json"
done
ok 'the JSON names the server as the host of sdisk' \
	sh -c "[ -z '${SDISK:-}' ] || grep -q '\"host\": *\"$SRV_NAME\"' $SCRATCH/report.json"

# --- skew: the server's collector 30 s ahead; the report aligns it ---
echo 30 > "$SRV_DIR/clock"
srv_collector
SKEW_SET=$SRV_SET
CLI2=$($PERFLOG start -i 1 -o "$SCRATCH/cli2")
CLI_SET=$CLI2
run_case skew - "dd if=/dev/zero bs=$BS count=160 status=none" "of=/dev/null"
is "$?" 0 'skew: the run succeeds'
srv "perflog stop $SKEW_SET" >/dev/null </dev/null
$PERFLOG stop "$CLI2" >/dev/null
$PERFLOG report -v "$CLI2" --with "$SKEW_SET" >"$SCRATCH/skew.txt" 2>&1
shift_line=$(grep -m1 'clock:' "$SCRATCH/skew.txt")
diag "skew: $shift_line"
like "$shift_line" 'clock: -(29\.[0-9]|30\.[0-9]) s from .*markers' \
	"skew: the server is moved back by its markers' offset (-30 s within 1 s)"
ok 'skew: the server side matched the session by name and time' \
	sh -c "awk '/^Session / { c = \$2 } c == \"skew\"' $SCRATCH/skew.txt | grep -q '$SRV_NAME'"
done_testing

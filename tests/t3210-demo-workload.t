#!/bin/sh
# make demo's workload (tests/demo.sh): perflog run -i 1 -l reference --
# perflog workload --seconds 11. Every set's session has >= 10 known rows;
# the client's own process tree (Process(SET)) read what the client says
# it read, within 10%, in the report's check and in the CSV; the server,
# a process of its own, is logged as Process(SET-server) and carries the
# bytes written. Then --target HOST:DIR through ssh: to an sshd of the
# suite's own on 127.0.0.1 (keys and config in the scratch dir, nothing
# of the machine's ssh setup read or written), and to a port where none
# listens (one error naming the host, exit 1).
. "$(dirname "$0")/lib.sh"
LOGS=$SCRATCH/logs
SECONDS_PER_SET=${SECONDS_PER_SET:-11}

$PERFLOG run -i 1 -o $LOGS -l reference -- \
	$PERFLOG workload --seconds $SECONDS_PER_SET >$SCRATCH/out 2>$SCRATCH/err
is "$?" 0 'the demo workload ran under perflog run'
is "$(grep -v "^perflog run: log set $LOGS/" $SCRATCH/err)" "" "nothing on stderr but the log set run names"
LS=$(ls -d $LOGS/*/ | head -1)
M=$LS/markers.tsv
$PERFLOG export $LS --csv $SCRATCH/all.csv
$PERFLOG report -v $LS >$SCRATCH/report 2>&1
is "$?" 0 'report'

# a field of the end marker of session $1
end_field() {
	grep -P "\tend\t$1\t" $M | tr '\t' '\n' | sed -n "s/^$2=//p"
}
# the known rows of a column, and its integral (1 s rows)
known_rows() {
	c=$(csv_col $SCRATCH/all.csv "$1")
	[ -n "$c" ] && awk -F, -v c="$c" 'NR > 1 && $c != "" { n++ } END { print n + 0 }' $SCRATCH/all.csv
}
integral() {
	c=$(csv_col $SCRATCH/all.csv "$1")
	[ -n "$c" ] && csv_integral $SCRATCH/all.csv "$c" 1
}

ok 'the sets are created before the first session' \
	grep -q '^perflog workload: the sets created in' $SCRATCH/out
for s in 1m1k 10m10k 25m100k 50m10m; do
	bytes=$(end_field $s workload.bytes)
	scale=$(end_field $s workload.scale)
	diag "$s: $(end_field $s workload.files) files, scale $scale, $bytes bytes, $(end_field $s workload.kb_per_sec) KB/s"
	ok "$s: the end marker says the scale ($scale)" test -n "$scale"
	like "$(grep -P "\tbegin\t$s\t" $M)" "workload\.client=Process\($s\).*workload\.server=Process\($s-server\)" \
		"$s: the begin marker names the client's and the server's instance"
	rows=$(known_rows "Process($s)\\IO Read Bytes/sec")
	ok "$s: >= 10 known rows ($rows)" test "${rows:-0}" -ge 10
	# the report's check: the client's read figure against its tree
	line=$(grep "client read [0-9]* bytes, process tree $s read" $SCRATCH/report)
	like "$line" ': agree$' "$s: the report's check agrees: $line"
	# and the same from the CSV, independent of the report's code
	rd=$(integral "Process($s)\\IO Read Bytes/sec")
	near "$rd" "$bytes" 0.10 "$s: Process($s) read the set's bytes"
	wr=$(integral "Process($s-server)\\IO Write Bytes/sec")
	near "$wr" "$bytes" 0.10 "$s: Process($s-server) wrote them"
	srd=$(integral "Process($s-server)\\IO Read Bytes/sec")
	near "$srd" "$bytes" 0.10 "$s: Process($s-server) received them"
done
# (an interface carrying more than the client sent is other traffic, a
# suite beside this one: report_client_agree says so, not "disagree")
ok 'no disagreement in the whole report' sh -c "! grep disagree $SCRATCH/report"
is "$(grep -c '^Total number of bytes transferred:' $LS/workload-perfdata.txt)" 4 'the perfdata file: 4 summaries'

# ---- --target HOST:DIR over ssh ----
sshd=$(command -v sshd || echo /usr/sbin/sshd)
home_ssh="$(getent passwd "$(id -un)" | cut -d: -f6)/.ssh"
had_ssh=$(test -e "$home_ssh" && echo yes || echo no)
if [ "$(id -u)" != 0 ] || [ ! -x "$sshd" ] || ! command -v unshare >/dev/null ||
	! command -v ssh-keygen >/dev/null; then
	skip 'ssh: needs root, sshd, unshare and ssh-keygen'
else
	K=$SCRATCH/ssh
	mkdir -p $K && chmod 700 $K
	ssh-keygen -q -t ed25519 -N '' -f $K/host -C host >/dev/null
	ssh-keygen -q -t ed25519 -N '' -f $K/id -C client >/dev/null
	cp $K/id.pub $K/authorized_keys
	port=$(awk 'BEGIN { srand(); print 20000 + int(rand() * 20000) }')
	cat >$K/sshd_config <<-EOF
		ListenAddress 127.0.0.1:$port
		HostKey $K/host
		AuthorizedKeysFile $K/authorized_keys
		PidFile $K/sshd.pid
		PermitRootLogin prohibit-password
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		UsePAM no
		StrictModes no
	EOF
	# sshd wants its privilege separation directory, /run/sshd: a /run
	# of its own in a mount namespace of its own, so the host's is
	# neither needed nor touched
	unshare -m --propagation private sh -c \
		"mount -t tmpfs tmpfs /run && mkdir -m 755 /run/sshd && exec $sshd -D -e -f $K/sshd_config" \
		2>$K/sshd.log &
	track_pid $!
	export PERFLOG_SSH="ssh -F /dev/null -p $port -i $K/id -o UserKnownHostsFile=$K/known -o StrictHostKeyChecking=accept-new -o BatchMode=yes -o ConnectTimeout=10"
	wait_for 10 sh -c "$PERFLOG_SSH 127.0.0.1 true" ||
		sed 's/^/# sshd: /' $K/sshd.log >&2
	LS2=$($PERFLOG start -o $SCRATCH/logs2 -i 1)
	PERFLOG_LOGSET=$LS2 $PERFLOG workload --scale 0.05 --seconds 3 --remote-perflog $PERFLOG \
		--target 127.0.0.1:$SCRATCH/remote >$SCRATCH/out3 2>$SCRATCH/err3
	is "$?" 0 'workload --target 127.0.0.1:DIR through ssh'
	is "$(cat $SCRATCH/err3)" "" 'nothing on stderr'
	is "$(ls $SCRATCH/remote/1m1k | wc -l)" 52 'the receiver on the far side wrote set 1m1k'
	is "$(stat -c %s $SCRATCH/remote/50m10m/*)" 10485760 'and the 10 MB file'
	like "$(grep -P '\tbegin\t1m1k\t' $LS2/markers.tsv)" "workload\.server=127\.0\.0\.1:$SCRATCH/remote" \
		'the begin marker names the remote target'
	$PERFLOG stop $LS2 >/dev/null
	$PERFLOG report -v $LS2 >$SCRATCH/report2 2>&1
	line=$(grep "client read [0-9]* bytes, process tree 25m100k read" $SCRATCH/report2)
	like "$line" ': agree$' "through ssh, the client's tree is still the client's: $line"
	is "$(test -e "$home_ssh" && echo yes || echo no)" $had_ssh "$home_ssh left as it was"
fi

# an ssh that cannot connect: exit 1 before anything is created, the host named
mkdir $SCRATCH/tmp4
PERFLOG_SSH="ssh -F /dev/null -p 1 -o BatchMode=yes -o ConnectTimeout=5" TMPDIR=$SCRATCH/tmp4 \
	$PERFLOG workload --scale 0.01 --target 127.0.0.1:/nowhere >$SCRATCH/out4 2>$SCRATCH/err4
is "$?" 1 'no ssh server: exit 1'
like "$(grep '^perflog workload:' $SCRATCH/err4)" '^perflog workload: no receiver on 127\.0\.0\.1 through .ssh -F /dev/null -p 1 .*\(ssh exited with 255\)$' \
	'one line of ours naming the host and why'
is "$(grep -c '^perflog workload:' $SCRATCH/err4)" 1 'and only one'
is "$(ls -A $SCRATCH/tmp4)" "" 'temporary files removed'
done_testing

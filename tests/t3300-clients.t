#!/bin/bash
# The backup clients for real under perflog run (client/, issue 15):
# restic (text and --json), borg (--stats and --json), rsync --stats and
# GNU tar --totals back up one small tree; each end marker names its
# client, and the report's normalised figures (read, sent or stored,
# files) are checked against what the client itself printed in its
# output. Then: the client found from the output of a script, --client
# forcing one (and none, and an unknown name), --help listing them, and
# `report A B` comparing a restic run with a borg run of the same tree.
. "$(dirname "$0")/lib.sh"
export RESTIC_PASSWORD=perflog BORG_PASSPHRASE= BORG_BASE_DIR=$SCRATCH/borgbase
export XDG_CACHE_HOME=$SCRATCH/cache

# the tree: 20 random files of 5..100 KB and 10 compressible ones
T=$SCRATCH/tree
mkdir -p $T/a $T/b
for i in $(seq 1 20); do head -c $((i * 5000)) /dev/urandom > $T/a/r$i.bin; done
for i in $(seq 1 10); do yes "line $i" | head -c 200000 > $T/b/t$i.txt; done

# run NAME CMD...: perflog run in a log set of its own; LS is that set
run() {
	local name=$1; shift
	LS=
	$PERFLOG run -i 1 -o $SCRATCH/logs-$name -l $name -- "$@" >$SCRATCH/$name.out 2>&1
	RC=$?
	LS=$(ls -d $SCRATCH/logs-$name/*/ 2>/dev/null | head -n 1); LS=${LS%/}
	$PERFLOG report -v "$LS" > $SCRATCH/$name.report 2>&1
}
# extra S KEY: the value of KEY in session S's end marker
extra() { grep -P "\tend\t$1\t" "$LS/markers.tsv" | tail -n 1 | tr '\t' '\n' | sed -n "s/^$2=//p"; }
# report FIGURE: the bytes (or the count) the report shows for it
figure() { sed -n "s/^    $1  *[^ ]* [^ ]*  \([0-9]*\) bytes.*/\1/p; s/^    $1  *\([0-9]*\)\$/\1/p" "$SCRATCH/$NAME.report" | head -n 1; }
# bytes "2.909 MiB" | "3.05 MB" | "3,050,012": as a whole number of bytes
bytes() {
	echo "$1" | tr -d , | awk '{ u = $2; f = 1
		if (u == "KiB") f = 1024; else if (u == "MiB") f = 1048576; else if (u == "GiB") f = 1073741824
		else if (u == "kB") f = 1e3; else if (u == "MB") f = 1e6; else if (u == "GB") f = 1e9
		printf "%.0f\n", $1 * f }'
}
# check NAME FIGURE WANT: the report's figure against the client's own
check() { NAME=$1; is "$(figure "$2")" "$3" "$1: report's $2 is what the client printed ($3)"; }
have() { command -v "$1" >/dev/null; }

if have restic; then
	restic init -r $SCRATCH/rr >/dev/null 2>&1
	run restic restic -r $SCRATCH/rr backup $T
	is "$RC" 0 'restic ran under perflog run'
	is "$(extra restic client)" restic 'restic: recognised from the command name'
	out=$(cat $LS/output-restic.log)
	p=$(echo "$out" | sed -n 's/^processed \([0-9]*\) files, \(.*\) in .*/\1 \2/p')
	check restic read "$(bytes "${p#* }")"
	check restic files "${p%% *}"
	stored=$(echo "$out" | sed -n 's/^Added to the repository: .* (\(.*\) stored)/\1/p')
	check restic 'sent or stored' "$(bytes "$stored")"
	like "$(cat $SCRATCH/restic.report)" 'client read [0-9]+ bytes, process tree restic read [0-9]+ bytes \([-+][0-9.]+%\): (agree|disagree|more: its own temporary files)' \
		'restic: the client read checked against the process tree'
	like "$(cat $SCRATCH/restic.report)" "restic's own figures:" 'restic: its own figures follow'
	RESTIC_LS=$LS

	echo changed >> $T/b/t1.txt
	run resticjson restic -r $SCRATCH/rr backup --json $T
	sum=$(grep '"message_type":"summary"' $LS/output-resticjson.log)
	num() { echo "$sum" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
	check resticjson read "$(num total_bytes_processed)"
	check resticjson files "$(num total_files_processed)"
	check resticjson 'sent or stored' "$(num data_added)"

	# the client found in the output when the command is a script
	run script sh -c "restic -r $SCRATCH/rr backup $T"
	is "$(extra script client)" restic 'a script: restic recognised from its output'
	# --client forces one; a client that printed nothing of its own: none
	$PERFLOG run -i 1 -o $SCRATCH/logs-forced -l forced --client borg -- \
		restic -r $SCRATCH/rr backup $T >$SCRATCH/forced.out 2>&1
	like "$(cat $SCRATCH/forced.out)" 'perflog run: no borg summary in the output' '--client borg on restic output: says so'
	LS=$(ls -d $SCRATCH/logs-forced/*/ | head -n 1); LS=${LS%/}
	is "$(extra forced client)" '' '--client borg: no restic figures taken'
	$PERFLOG run -i 1 -o $SCRATCH/logs-none -l none --client none -- \
		restic -r $SCRATCH/rr backup $T >/dev/null 2>&1
	LS=$(ls -d $SCRATCH/logs-none/*/ | head -n 1); LS=${LS%/}
	is "$(extra none client)" '' '--client none: no client figures'
else
	diag 'restic not installed: its part skipped'
fi

if have borg; then
	borg init -e none $SCRATCH/br >/dev/null 2>&1
	run borg borg create --stats $SCRATCH/br::first $T
	is "$RC" 0 'borg ran under perflog run'
	is "$(extra borg client)" borg 'borg: recognised from the command name'
	row=$(sed -n 's/^This archive: *//p' $LS/output-borg.log)
	set -- $row
	check borg read "$(bytes "$1 $2")"
	check borg 'sent or stored' "$(bytes "$5 $6")"
	check borg files "$(sed -n 's/^Number of files: //p' $LS/output-borg.log)"
	BORG_LS=$LS

	run borgjson borg create --json $SCRATCH/br::second $T
	check borgjson read "$(sed -n 's/.*"original_size": \([0-9]*\).*/\1/p' $LS/output-borgjson.log)"
	check borgjson 'sent or stored' "$(sed -n 's/.*"deduplicated_size": \([0-9]*\).*/\1/p' $LS/output-borgjson.log)"
	check borgjson files "$(sed -n 's/.*"nfiles": \([0-9]*\).*/\1/p' $LS/output-borgjson.log)"
else
	diag 'borg not installed: its part skipped'
fi

if have rsync; then
	run rsync rsync -a --stats $T/ $SCRATCH/copy/
	is "$RC" 0 'rsync ran under perflog run'
	is "$(extra rsync client)" rsync 'rsync: recognised from the command name'
	o=$LS/output-rsync.log
	check rsync read "$(sed -n 's/^Total transferred file size: \([0-9,]*\) bytes/\1/p' $o | tr -d ,)"
	check rsync 'sent or stored' "$(sed -n 's/^Total bytes sent: //p' $o | tr -d ,)"
	check rsync files "$(sed -n 's/^Number of regular files transferred: //p' $o | tr -d ,)"
	like "$(cat $SCRATCH/rsync.report)" 'rate +<?[0-9.]+ MiB/s' 'rsync: its rate shown, in MiB/s'
fi

if have tar; then
	run tar tar --totals -cf $SCRATCH/t.tar $T
	is "$RC" 0 'tar ran under perflog run'
	is "$(extra tar client)" tar 'tar: recognised from the command name'
	check tar 'sent or stored' "$(sed -n 's/^Total bytes written: \([0-9]*\) .*/\1/p' $LS/output-tar.log)"
	like "$(cat $SCRATCH/tar.report)" '    files +n/a' 'tar: files not printed, n/a'
fi

# the check against the logged bytes: a "client" that reads 30 MiB over
# ~3 s (after and before a quiet second, so no partial row counts) and
# says so agrees with its process tree's IO Read Bytes/sec; one that
# claims ten times as much disagrees. The loop counts in the shell, with
# no $(seq) whose pipe to sh the report would see: beside a make check's
# load seq was seen writing it, and a tree with a pipe of its own has no
# byte count to compare (report_client_paths), so the liar's line was
# not printed (stop 54's last check)
fake='sleep 1.2; i=0; while [ $i -lt 30 ]; do head -c 1048576 /dev/zero > /dev/null; sleep 0.1; i=$((i + 1)); done; sleep 1.2'
run honest sh -c "$fake; echo 'Total bytes read: 31457280 (30MiB, 10MiB/s)' >&2"
is "$(extra honest client)" tar 'a script printing tar totals: tar from its output'
like "$(cat $SCRATCH/honest.report)" 'client read 31457280 bytes, process tree honest read [0-9]+ bytes \([-+][0-9.]+%\): agree$' \
	'30 MiB read and said: agree within 10%'
run liar sh -c "$fake; echo 'Total bytes read: 314572800 (300MiB, 100MiB/s)' >&2"
like "$(cat $SCRATCH/liar.report)" 'client read 314572800 bytes, process tree liar read [0-9]+ bytes \(-[0-9.]+%\): disagree by more than 10%' \
	'30 MiB read, 300 MiB said: disagree'

like "$($PERFLOG run --help | tr '\n' ' ')" 'restic.*borg.*rsync.*tar.*bacula' '--help lists the known clients'
$PERFLOG run --client veeam -- true 2>$SCRATCH/bad.err
is "$?" 2 '--client with an unknown name: exit 2'
like "$(cat $SCRATCH/bad.err)" "unknown client 'veeam'" 'and says which'

if [ -n "${RESTIC_LS:-}" ] && [ -n "${BORG_LS:-}" ]; then
	$PERFLOG report -v "$RESTIC_LS" "$BORG_LS" > $SCRATCH/ab.report 2>&1
	is "$?" 0 'report A B: restic against borg'
	like "$(cat $SCRATCH/ab.report)" 'backup client +restic +borg' 'report A B: both clients named'
	like "$(cat $SCRATCH/ab.report)" 'client read +[0-9.]+ +[0-9.]+ ' 'report A B: the read figures side by side'
	diag "$(cat $SCRATCH/ab.report)"
fi
done_testing

#!/bin/bash
# perflog report: the stages of a session's data path (issue 29) on
# crafted log sets (mklogset) with crafted totals and edges files beside
# the end marker: a local rsync --fsync (three processes on socketpairs:
# the receiver's disk, not "network"), an old set without edges or pid
# column (today's verdict, no table), the demo's client and its watched
# local server (the server's disk), rsync over ssh with the server's
# side (--with: "disk on srv"), --json's stages[], damaged files.
. "$(dirname "$0")/lib.sh"
MK=$TOP/build/tools/mklogset
[ -x "$MK" ] || skip_all "build/tools/mklogset not built (make check builds it)"
L=$SCRATCH/sets

WH='tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet\tother\tsleep\tio_bytes\tworking\tthreads\tpid\n'
EH='pid\tcomm\tdir\tkind\tpeer_pid\tpeer_comm\tlocal\tremote\tseconds\tbytes\n'
verdict() { "$PERFLOG" report -v "$@" | grep '^  Bottleneck:'; }
# the stages' names (and hosts) in the table's order, on one line
order() { printf '%s\n' "$1" | sed -n '/Stages (data path):/,/Bottleneck/p' |
	sed -n 's/^    \([^ ]*\) *(\([^)]*\)).*/\1@\2/p' | tr '\n' ' '; }
unlike() {
	if printf '%s' "$1" | grep -Eq -- "$2"; then
		_result 1 "$3"; echo "#   '$1' matches '$2'" >&2
	else _result 0 "$3"; fi
}

# local rsync -a --fsync: generator -> sender -> receiver, the receiver
# fsync'ing; the tree's split alone is no one thing
RS=$($MK "$L" rs wdisk --session job --waits disk --extra waits=waits-job.tsv)
printf "$WH"'100\trsync\t1\t60.000\t4.800\t0.600\t0.000\t0.000\t54.600\t0.000\t9000000\t1\t1\t100\n101\trsync\t1\t60.000\t1.800\t0.000\t1.200\t0.000\t57.000\t0.000\t90000\t1\t1\t101\n102\trsync\t1\t60.000\t3.000\t0.000\t54.600\t0.000\t2.400\t0.000\t9000000\t1\t1\t102\n' >"$RS/waits-job.tsv"
printf "$EH"'100\trsync\tout\tunix\t102\trsync\t-\t-\t51.000\t0\n101\trsync\tout\tunix\t100\trsync\t-\t-\t54.000\t0\n102\trsync\tin\tunix\t100\trsync\t-\t-\t2.400\t0\n' >"$RS/edges-job.tsv"
out=$("$PERFLOG" report -v "$RS")
is "$?" 0 'local rsync: report'
like "$out" 'Stages \(data path\): +alive +session +run +cpuw +disk +net +other +waits on' 'local rsync: the stages table, in seconds'
like "$(order "$out")" '^rsync\[101\]@[^ ]* rsync\[100\]@[^ ]* rsync\[102\]@[^ ]* $' 'local rsync: in the data order'
like "$out" 'rsync\[102\] +\([^)]*\) +60\.0 s +100% +3\.0 +0\.0 +54\.6 +0\.0 +2\.4  disk sdb' "local rsync: the receiver's seconds and its disk"
like "$(verdict "$RS")" '^  Bottleneck: disk: the stage rsync\[102\] waited on the disk sdb 46\.8 s of the session.s 60\.0 s.*rsync\[101\] waited 54\.0 s of its 60\.0 s, 46\.8 s of those on it' \
	"local rsync: the receiver's disk, the sender's wait its evidence"
unlike "$(verdict "$RS")" 'network' 'local rsync: no network'
json=$("$PERFLOG" report "$RS" --json | tr -d ' \n')
like "$json" '"stages":\[\{"name":"rsync\[101\]","comm":"rsync","pid":101,"host":"[^"]*","tree":"job","alive":60,"session_share":100,' '--json: stages[] in the data order'
like "$json" '"waits_on":"disksdb","waits_on_stage":null\}\]' '--json: the receiver last'
like "$json" '"verdict":\{"kind":"disk","detail":"disk","line":"Bottleneck:disk:thestagersync\[102\]' '--json: the verdict'"'"'s first word and the wait graph'"'"'s detail'

# the same set without edges nor pid column (before issue 29): today's
# verdict, no table
OLD=$($MK "$L" old wdisk --session job --waits disk --extra waits=waits-job.tsv)
printf 'tid\tcomm\tstart\talive\tcpu\tcpu_wait\tdisk\tnet\tother\tsleep\tio_bytes\tworking\tthreads\n100\trsync\t1\t60.000\t3.000\t0.000\t54.600\t0.000\t2.400\t0.000\t9000000\t1\t1\n' >"$OLD/waits-job.tsv"
out=$("$PERFLOG" report -v "$OLD")
unlike "$out" 'Stages \(data path\)' 'old set: no stages table'
like "$(verdict "$OLD")" '^  Bottleneck: disk: the stage job waited on the disk' "old set: one process, the disk"

# the demo: the client waits on its loopback socket to the server it
# runs, watched too (its own totals named by the end marker), fsync'ing
DEMO=$($MK "$L" demo wdisk --session job --waits net --extra waits=waits-job.tsv --extra workload.server.waits=waits-job-server.tsv)
printf "$WH"'200\tperflog\t1\t60.000\t6.000\t0.000\t0.000\t0.000\t54.000\t0.000\t9000000\t1\t1\t200\n' >"$DEMO/waits-job.tsv"
printf "$EH"'200\tperflog\tout\ttcp\t300\tperflog\t127.0.0.1:40000\t127.0.0.1:5001\t50.000\t0\n' >"$DEMO/edges-job.tsv"
printf "$WH"'300\tperflog\t1\t60.000\t9.000\t0.000\t45.000\t0.000\t6.000\t0.000\t9000000\t1\t1\t300\n' >"$DEMO/waits-job-server.tsv"
out=$("$PERFLOG" report -v "$DEMO")
like "$(order "$out")" '^job@[^ ]* job-server@[^ ]* $' "demo: the client, then its server"
like "$out" 'job-server +\([^)]*\) +60\.0 s +100% +9\.0 +0\.0 +45\.0 ' "demo: the server on the disk 45 s"
like "$(verdict "$DEMO")" '^  Bottleneck: disk: the stage job-server waited on the disk .*; job waited 50\.0 s of its 60\.0 s' \
	"demo: where the data waited (the server's disk), not the client's socket"

# rsync over ssh: the client's rsync and ssh, the server's rsync fed by
# sshd (not watched) and fsync'ing; --with puts them on one path
cli=$($MK "$L" cli idle --host cli --session job --waits net --extra waits=waits-job.tsv)
printf "$WH"'10\trsync\t1\t60.000\t4.800\t0.000\t0.600\t0.000\t54.600\t0.000\t9000000\t1\t1\t10\n11\tssh\t1\t60.000\t3.000\t0.000\t0.000\t7.000\t50.000\t0.000\t9000000\t1\t1\t11\n' >"$cli/waits-job.tsv"
printf "$EH"'10\trsync\tout\tpipe\t11\tssh\t-\t-\t52.000\t0\n11\tssh\tout\tnet\t0\teth0\t10.0.0.1:40000\t10.0.0.2:22\t7.000\t0\n11\tssh\tin\tpipe\t10\trsync\t-\t-\t50.000\t0\n' >"$cli/edges-job.tsv"
srv=$($MK "$L" srv wdisk --host srv --session job --waits disk --extra waits=waits-job.tsv)
printf "$WH"'20\trsync\t1\t60.000\t3.000\t0.000\t54.600\t0.000\t2.400\t0.000\t9000000\t1\t1\t20\n' >"$srv/waits-job.tsv"
printf "$EH"'20\trsync\tin\tpipe\t19\tsshd\t-\t-\t2.400\t0\n' >"$srv/edges-job.tsv"
out=$("$PERFLOG" report -v "$cli" --with "$srv")
is "$(order "$out")" 'rsync@cli ssh@cli rsync@srv ' 'over ssh: rsync, ssh, the server'"'"'s rsync'
like "$out" 'rsync +\(srv\) +60\.0 s +100% +3\.0 +0\.0 +54\.6 ' "over ssh: the server's rsync on the disk 54.6 s"
like "$(printf '%s\n' "$out" | grep '^  Bottleneck:')" '^  Bottleneck: disk on srv: the stage rsync \(srv\) waited on the disk.*sdb 9[0-9]% busy' \
	"over ssh: the server's disk"
json=$("$PERFLOG" report "$cli" --with "$srv" --json | tr -d ' \n')
like "$json" '"host":"srv","peer":null}}]' '--json: the verdict names host srv'

# the client's figures against the right evidence (item 5): borg to a
# local repository (edges recorded, none to another host) is checked
# against no interface; a client whose connection used eth0 against it;
# rsync's processes passing the data to each other: not compared
BORG=$($MK "$L" borg idle --session job --waits disk --extra waits=waits-job.tsv --extra client=borg --extra client.sent=329000000)
printf "$WH"'50\tborg\t1\t60.000\t9.000\t0.000\t48.000\t0.000\t3.000\t0.000\t9000000\t1\t1\t50\n' >"$BORG/waits-job.tsv"
printf "$EH" >"$BORG/edges-job.tsv"
out=$("$PERFLOG" report -v "$BORG")
like "$out" 'client sent 329000000 bytes to no other host \(a local repository or target\): no interface checked' 'borg to a local repository: no interface checked'
unlike "$out" 'Network Interface\(eth0\) carried' 'borg to a local repository: not checked against eth0'
unlike "$out" 'disagree' 'borg to a local repository: no disagree'
REM=$($MK "$L" rem idle --session job --waits net --extra waits=waits-job.tsv --extra client=restic --extra client.sent=6000000)
printf "$WH"'60\trestic\t1\t60.000\t9.000\t0.000\t0.000\t48.000\t3.000\t0.000\t9000000\t1\t1\t60\n' >"$REM/waits-job.tsv"
printf "$EH"'60\trestic\tout\tnet\t0\teth0\t10.0.0.1:40000\t10.0.0.2:8000\t48.000\t0\n' >"$REM/edges-job.tsv"
like "$("$PERFLOG" report -v "$REM")" 'client sent 6000000 bytes, Network Interface\(eth0\) carried 6000000 bytes \(\+0\.0%\): agree' 'a remote repository: checked against the interface of its connection'
PIPE=$($MK "$L" pipe wdisk --session job --waits disk --extra waits=waits-job.tsv --extra client=rsync --extra client.sent=6000000)
cp "$RS/waits-job.tsv" "$RS/edges-job.tsv" "$PIPE/"
like "$("$PERFLOG" report -v "$PIPE")" "the process tree's bytes count what its processes pass each other through pipes and local sockets: not checked" 'local rsync: its socketpair bytes not compared'

# the interfaces of the session (item 6): lo carried 300 MB/s of other
# programs' traffic, the client's connection went out on eth0: the report,
# the verdict and the session's network chart name eth0 alone
LOL=$($MK "$L" lol lolocal --session job --waits net --extra waits=waits-job.tsv)
printf "$WH"'60\trestic\t1\t60.000\t9.000\t0.000\t0.000\t48.000\t3.000\t0.000\t9000000\t1\t1\t60\n' >"$LOL/waits-job.tsv"
like "$(verdict "$LOL")" 'lo carried' 'no edges (an old set): the busiest interface, lo, as before'
"$PERFLOG" report "$LOL" --html "$SCRATCH/h0" >/dev/null 2>&1
like "$(cut -f1,2 "$SCRATCH/h0/session-1/charts.tsv" | grep '^network.png')" 'lo ' 'no edges: the network chart draws every interface'
printf "$EH"'60\trestic\tout\tnet\t0\teth0\t10.0.0.1:40000\t10.0.0.2:8000\t48.000\t0\n' >"$LOL/edges-job.tsv"
out=$("$PERFLOG" report -v "$LOL")
like "$out" 'Network Interface\(eth0\) bytes/sec' "the report's network line: eth0, its connection's"
like "$(verdict "$LOL")" 'eth0 carried <0\.001 MiB/s' 'the verdict names eth0'
unlike "$(verdict "$LOL")" 'lo carried' 'the verdict does not name lo'
"$PERFLOG" report "$LOL" --html "$SCRATCH/h1" >/dev/null 2>&1
nets=$(grep '^network.png' "$SCRATCH/h1/session-1/charts.tsv" | cut -f2 | sed 's/ .*//' | sort -u | tr '\n' ' ')
is "$nets" 'eth0 ' "the session's network chart: eth0 alone"

# damaged files: lines skipped, edges ignored, no crash
BAD=$($MK "$L" bad wdisk --session job --waits disk --extra waits=waits-job.tsv)
printf "$WH"'x\ty\n100\trsync\t1\tnan\n' >"$BAD/waits-job.tsv"
printf 'garbage\n1\t2\n' >"$BAD/edges-job.tsv"
"$PERFLOG" report -v "$BAD" >/dev/null 2>&1
is "$?" 0 'damaged totals and edges: the report still runs'

done_testing

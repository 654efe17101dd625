#!/bin/bash
# Symlinks in the log directory (issue 11, item 13), the attack run for
# real: another user (nobody) who can write the log directory prepares
# the set root's collector is about to create, with .lock, markers.tsv and
# perflog.meta as symlinks to a file of root's; or plants symlinks in a set
# that root then reads. Root's perflog must refuse, and the victim file
# must be untouched. Before the fix, `perflog start` wrote its pid into
# the victim through .lock and left it truncated.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
[ "$(id -u)" = 0 ] || skip_all "needs root (acts as nobody)"
command -v setpriv >/dev/null || skip_all "setpriv missing"
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
as_nobody true 2>/dev/null || as_nobody() { setpriv --reuid=nobody --regid=nobody --clear-groups "$@"; }
as_nobody true 2>/dev/null || skip_all "cannot run as nobody"
chmod 755 $SCRATCH
printf 'precious\n' > $SCRATCH/victim
chmod 644 $SCRATCH/victim
mkdir $SCRATCH/victimdir
pml() { printf '[log]\ninterval = 1\nname = %s\n' "$1" > $SCRATCH/$1.pml; echo $SCRATCH/$1.pml; }
plant() { # DIR: a set directory of nobody's, its files symlinks to the victim
	as_nobody mkdir "$1" &&
	for f in .lock markers.tsv perflog.meta perflog.meta.tmp.1 collector.log Memory.rrd; do
		as_nobody ln -s $SCRATCH/victim "$1/$f" || return 1
	done
}
victim_ok() { [ "$(cat $SCRATCH/victim)" = precious ] && [ -z "$(ls -A $SCRATCH/victimdir)" ]; }

# 1. a log directory that belongs to nobody
mkdir $SCRATCH/theirs && chown nobody $SCRATCH/theirs
ok 'nobody prepares theirs/backup1 with symlinks' plant $SCRATCH/theirs/backup1
err_is 'start in a directory of another user is refused' "belongs to another user" \
	$PERFLOG start -c $(pml backup1) -o $SCRATCH/theirs
ok 'the victim is untouched' victim_ok

# 2. a world-writable, sticky log directory (as /tmp)
mkdir $SCRATCH/shared && chmod 1777 $SCRATCH/shared
ok 'nobody prepares shared/backup1 with symlinks' plant $SCRATCH/shared/backup1
err_is 'start on a set directory that exists is refused' "already exists" \
	$PERFLOG start -c $(pml backup1) -o $SCRATCH/shared
ok 'the victim is untouched' victim_ok
ok 'nobody makes shared/backup2 a symlink to a directory of root' \
	as_nobody ln -s $SCRATCH/victimdir $SCRATCH/shared/backup2
err_is 'start on it is refused' "already exists" \
	$PERFLOG start -c $(pml backup2) -o $SCRATCH/shared
ok 'nothing was created in the directory it points to' victim_ok

# a set of its own there works, is root's, and nobody cannot plant in it
dir=$($PERFLOG start -c $(pml backup3) -o $SCRATCH/shared)
ok 'a fresh set in the sticky directory starts' test -d "$dir"
is "$(stat -c '%U %a' "$dir")" "root 755" 'the set directory is root'"'"'s, 0755'
ok 'every file in it is root'"'"'s' sh -c "! find '$dir' ! -user root | grep -q ."
fails 'nobody cannot plant a symlink in it' as_nobody ln -s $SCRATCH/victim "$dir/x.rrd"
# rows for the readers below to read: start returns before the first
# sample since issue 48, and a set stopped at once has none (its export
# then opens no file, the symlinked one neither)
wait_for 15 sh -c "$PERFLOG status | grep -F '$dir' | awk '{ exit \$3 < 2 }'"
ok 'stop' $PERFLOG stop "$dir"

# 3. world-writable without the sticky bit: anyone could swap the set
mkdir $SCRATCH/open && chmod 777 $SCRATCH/open
err_is 'a log directory others can write, not sticky, is refused' "writable by other users" \
	$PERFLOG start -c $(pml backup4) -o $SCRATCH/open

# 4. readers: nobody copies a real set and swaps its files for symlinks
# to a file of root's (a secret marker line, a root-only RRD file)
printf '2026-11-30T00:00:00.000Z\tpoint\t\tsecret of root\n' > $SCRATCH/secret
chmod 600 $SCRATCH/secret
cp "$dir/Memory.rrd" $SCRATCH/root-only.rrd && chmod 600 $SCRATCH/root-only.rrd
bait=$SCRATCH/shared/bait
as_nobody mkdir $bait
for f in "$dir"/*; do as_nobody cp "$f" $bait/ 2>/dev/null || cat "$f" | as_nobody sh -c "cat > $bait/$(basename "$f")"; done
as_nobody rm -f $bait/Memory.rrd $bait/markers.tsv
as_nobody ln -s $SCRATCH/root-only.rrd $bait/Memory.rrd
as_nobody ln -s $SCRATCH/secret $bait/markers.tsv
out=$($PERFLOG export $bait --csv $SCRATCH/bait.csv 2>&1); st=$?
ok "export refuses an RRD file that is a symlink ($out)" test $st -ne 0
like "$out" 'Memory.rrd.*symbolic link' 'and says which file'
out=$($PERFLOG report -v $bait 2>&1)
ok 'report never shows the marker read through a symlink' sh -c "! printf '%s' '$out' | grep -q 'secret of root'"
as_nobody rm -f $bait/markers.tsv $bait/perflog.meta
as_nobody ln -s $SCRATCH/secret $bait/perflog.meta
out=$($PERFLOG export $bait --csv $SCRATCH/bait2.csv 2>&1); st=$?
ok "a perflog.meta that is a symlink is refused ($out)" test $st -ne 0
like "$out" 'perflog.meta is a symbolic link' 'and says so'
ok 'the victim is still untouched' victim_ok
done_testing

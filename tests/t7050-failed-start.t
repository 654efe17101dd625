#!/bin/bash
# A start that fails leaves nothing behind (issue 50 item 6). The log
# directory is a real full file system: a 2 MiB tmpfs of our own, filled
# to the last block, or to all but a few hundred KiB (a set's files need
# more). perflog start and perflog run there fail with one line and leave
# no set; what was there before stays. perflog run of a command that
# cannot be run (not found, not executable, a directory) says so in one
# line and exits 127 without starting a collector, so it makes nothing,
# not even -o's directory, and on a full disk it is the command that is
# named, not the disk; one whose exec fails only later (a file busy
# being written) has the set its collector made removed again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
[ "$(id -u)" = 0 ] || skip_all "needs root (mount tmpfs)"
FULL=$SCRATCH/full
mkdir -p $FULL
mount -t tmpfs -o size=2m,mode=0755 perflog-full$$ $FULL 2>/dev/null || skip_all "cannot mount a tmpfs here"
trap 'umount_scratch $FULL; _cleanup' EXIT
avail() { df -k --output=avail $FULL | tail -1 | tr -d ' '; }
# fill the disk to all but $1 KiB
fill() { rm -f $FULL/filler; dd if=/dev/zero of=$FULL/filler bs=1k count=$(( $(avail) - $1 )) 2>/dev/null; }
nlines() { printf '%s\n' "$1" | grep -c .; }
running() { ls $PERFLOG_RUNTIME_DIR/*.info 2>/dev/null | wc -l; }
# a directory that was there before, with a file of its own
mkdir $FULL/logs
echo mine > $FULL/logs/keep

# --- a full disk ---
fill 0
is "$(avail)" 0 'the disk is full'
out=$($PERFLOG start -i 1 -o $FULL/logs 2>&1); st=$?
is "$st" 1 'start on a full disk fails'
like "$out" "^perflog start: unable to .*No space left on device" 'saying why'
is "$(nlines "$out")" 1 'in one line'
is "$(ls -A $FULL/logs)" keep 'no set left; the file that was there stays'
out=$($PERFLOG run -i 1 -o $FULL/logs -- true 2>&1); st=$?
is "$st" 1 'run on a full disk fails'
is "$(ls -A $FULL/logs)" keep 'and leaves no set'
is "$(running)" 0 'no collector left running'
out=$($PERFLOG start -i 1 -o $FULL/made/for/it 2>&1); st=$?
is "$st" 1 'start -o NEW/DIR on a full disk fails'
ok 'and takes back the directories it made for -o' test ! -e $FULL/made
mkdir $FULL/made
out=$($PERFLOG start -i 1 -o $FULL/made/for/it 2>&1); st=$?
is "$st:$(ls -A $FULL/made)" 1: 'those below one that was there, and not that one'
rmdir $FULL/made

# a command that cannot be run, on the full disk: the command is named
# (the old code started a collector first and said the disk, exit 1)
out=$($PERFLOG run -i 1 -o $FULL/new/logs -- nosuchcmd 2>&1); st=$?
is "$st" 127 'nosuchcmd on a full disk: 127'
is "$out" "perflog run: cannot run 'nosuchcmd': No such file or directory" 'one line naming the command'
ok 'nothing made on the disk, not even the -o directory' test ! -e $FULL/new

# nearly full: the set's files do not fit; what it took is freed
fill 300
free0=$(avail)
out=$($PERFLOG start -i 1 -o $FULL/logs 2>&1); st=$?
is "$st:$(nlines "$out")" 1:1 'start on a nearly full disk fails in one line'
like "$out" "No space left on device" 'saying why'
is "$(ls -A $FULL/logs)" keep 'no set left'
is "$(avail)" "$free0" 'the space it took is free again'
out=$($PERFLOG run -i 1 -o $FULL/logs -- true 2>&1); st=$?
is "$st:$(ls -A $FULL/logs)" 1:keep 'run on a nearly full disk: fails, no set left'
is "$(cat $FULL/logs/keep)" mine 'the file that was there is untouched'
rm -f $FULL/filler

# --- commands that cannot be run: nothing is started, nothing made ---
out=$($PERFLOG run -i 1 -o $SCRATCH/never/logs -- nosuchcmd 2>&1); st=$?
is "$st" 127 'nosuchcmd: 127'
is "$out" "perflog run: cannot run 'nosuchcmd': No such file or directory" 'one line'
ok 'no directory made (the old code left -o DIR behind)' test ! -e $SCRATCH/never
is "$(running)" 0 'no collector running'
mkdir $SCRATCH/dir
printf '#!/bin/sh\nexit 0\n' > $SCRATCH/plain
out=$($PERFLOG run -i 1 -o $SCRATCH/never/logs -- $SCRATCH/dir 2>&1); st=$?
is "$st:$out" "127:perflog run: cannot run '$SCRATCH/dir': Permission denied" 'a directory: 127, one line'
out=$($PERFLOG run -i 1 -o $SCRATCH/never/logs -- $SCRATCH/plain 2>&1); st=$?
is "$st:$out" "127:perflog run: cannot run '$SCRATCH/plain': Permission denied" 'a file without x: 127, one line'
ok 'neither made anything' test ! -e $SCRATCH/never

# what execvp would run still runs: a directory of the name earlier in
# PATH than the program, a program in the current directory
mkdir -p $SCRATCH/p1/tool $SCRATCH/p2
printf '#!/bin/sh\nexit 3\n' > $SCRATCH/p2/tool
chmod +x $SCRATCH/p2/tool
PATH=$SCRATCH/p1:$SCRATCH/p2:$PATH $PERFLOG run -i 1 -o $SCRATCH/ran -- tool >/dev/null 2>&1
is "$?" 3 'a program found further down PATH runs (its status)'
(cd $SCRATCH/p2 && $PERFLOG run -i 1 -o $SCRATCH/ran -- ./tool >/dev/null 2>&1)
is "$?" 3 'and ./tool'
is "$(ls $SCRATCH/ran | wc -l)" 2 'each with its set'

# an exec that fails only when the command starts (a program busy being
# written: ETXTBSY): the collector started for it goes, and its set
cp /bin/true $SCRATCH/busy
chmod +x $SCRATCH/busy
sleep 600 3>>$SCRATCH/busy &
track_pid $!
out=$($PERFLOG run -i 1 -o $SCRATCH/late -- $SCRATCH/busy 2>&1); st=$?
is "$st:$out" "127:perflog run: cannot run '$SCRATCH/busy': Text file busy" 'exec failing later: 127, one line'
is "$(ls -A $SCRATCH/late)" '' 'the set it started is removed'
is "$(running)" 0 'and its collector stopped'
done_testing

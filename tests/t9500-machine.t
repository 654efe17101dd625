#!/bin/bash
# tests/t9500-machine.t - output for scripts, and colour where it is not
# wanted:
#  - perflog report --json (one log set, two compared) and perflog status
#    --json are valid JSON (perl's JSON::PP decodes them) and say what the
#    text output says: same sessions, same verdict lines, same figures, the
#    client's summary, even with bytes that are not UTF-8 in a marker;
#    status --json has the collector's cost table (cost_us), and a stopped
#    daemon's collector.log ends with it, its parts adding up to the read;
#  - perflog export --csv --counters LIST writes only the columns its
#    patterns pick, in their order, with the values of the full export; a
#    pattern matching nothing is one line of error and the file untouched;
#  - NO_COLOR: the viewer draws without colour; TERM=dumb: it refuses with
#    one line (it cannot move the cursor).
. "$(dirname "$0")/lib.sh"
MK=$TOP/build/tools/mkwaveset
[ -x "$MK" ] || skip_all "build/tools/mkwaveset not built"
perl -MJSON::PP -e 1 2>/dev/null || skip_all "perl JSON::PP missing"

# jget FILE EXPR: evaluate a perl expression on the decoded JSON ($j);
# fails (and prints the parser's complaint) when FILE is not valid JSON
jget() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die "$!\n";
		my $j = JSON::PP->new->decode(<$f>); my $v = eval $ARGV[1]; die $@ if $@;
		print defined $v ? (ref $v eq "ARRAY" ? join("\n", @$v) : $v) : "null", "\n"' "$1" "$2"
}
valid() { jget "$1" 1 >/dev/null; }

SET=$SCRATCH/logs/wave
"$MK" "$SET" -s 1h -i 5 -m 300:mark-A -S full:600:1800 -S incr:2400:3000 >/dev/null ||
	{ echo "1..0 # SKIP mkwaveset failed"; exit 0; }
SET2=$SCRATCH/logs/wave2
"$MK" "$SET2" -s 1h -i 5 -S incr:600:1200 -S other:1500:1800 -S full:2000:3000 >/dev/null

# ---- report --json ----
"$PERFLOG" report -v "$SET" >"$SCRATCH/r.txt"
"$PERFLOG" report "$SET" --json >"$SCRATCH/r.json"; st=$?
is "$st" 0 'report --json exits 0'
ok 'report --json is valid JSON' valid "$SCRATCH/r.json"
is "$(jget "$SCRATCH/r.json" '$j->{format}')" 1 'format 1'
is "$(jget "$SCRATCH/r.json" '[map { $_->{name} } @{$j->{report}{sessions}}]')" "full
incr" 'the sessions, in order'
is "$(jget "$SCRATCH/r.json" '[map { $_->{verdict}{line} } @{$j->{report}{sessions}}]')" \
	"$(sed -n 's/^  \(Bottleneck:.*\)/\1/p' "$SCRATCH/r.txt")" 'the verdict lines are the text report'"'"'s'
is "$(jget "$SCRATCH/r.json" '[map { sprintf "%.1f%% %.1f%%", $_->{resources}{cpu}{total}{avg}, $_->{resources}{cpu}{total}{p95} } @{$j->{report}{sessions}}]')" \
	"$(awk '/CPU total/ { print $(NF-3), $(NF-2) }' "$SCRATCH/r.txt")" 'CPU total avg and p95 as the text shows them'
is "$(jget "$SCRATCH/r.json" '$j->{report}{sessions}[0]{resources}{disk}{instance}')" \
	"$(sed -n 's/.*LogicalDisk(\([^)]*\)) % Disk Time.*/\1/p' "$SCRATCH/r.txt" | head -1)" 'the busiest disk as the text names it'
is "$(jget "$SCRATCH/r.json" '$j->{report}{sessions}[0]{duration}')" 1200 'a session'"'"'s duration in seconds'
kind=$(jget "$SCRATCH/r.json" '$j->{report}{sessions}[0]{verdict}{kind}')
like "$kind" '^(CPU|disk|network|memory|nothing)$' \
	"verdict kind is one of the documented words ($kind)"
is "$(jget "$SCRATCH/r.json" '$j->{report}{host}')" "$(sed -n 's/^host\t//p' "$SET/perflog.meta")" 'the host of perflog.meta'

"$PERFLOG" report "$SET" "$SET2" --json >"$SCRATCH/c.json"
ok 'report A B --json is valid JSON' valid "$SCRATCH/c.json"
is "$(jget "$SCRATCH/c.json" '[map { (defined $_->{a} ? $j->{a}{sessions}[$_->{a}]{name} : "-") . "=" . (defined $_->{b} ? $j->{b}{sessions}[$_->{b}]{name} : "-") } @{$j->{pairs}}]')" \
	"full=full
incr=incr
-=other" 'pairs: by name, and B'"'"'s session without a partner'

# a real run: the client's summary, the command, its status; a marker
# whose bytes are not UTF-8
run=$SCRATCH/logs/run
"$PERFLOG" run -i 1 -o "$run" -l 'sp' -- cat "$TOP/tests/fixtures/clients/sp-full.txt" >/dev/null
rset=$(ls -d "$run"/*/ | head -1); rset=${rset%/}
"$PERFLOG" report "$rset" --json >"$SCRATCH/run.json"
ok 'report --json of a perflog run log set is valid' valid "$SCRATCH/run.json"
s0='$j->{report}{sessions}[0]'
is "$(jget "$SCRATCH/run.json" "$s0"'{client}{name}')" dsmc 'the client found'
is "$(jget "$SCRATCH/run.json" "$s0"'{client}{duration}')" 256 'its normalised figures (duration in seconds)'
is "$(jget "$SCRATCH/run.json" "$s0"'{client}{errors}')" 2 '(errors)'
is "$(jget "$SCRATCH/run.json" "$s0"'{client_figures}{bytes_transferred}{printed}')" "7.31 GB" 'its own figure as printed'
is "$(jget "$SCRATCH/run.json" "$s0"'{client_figures}{elapsed}{value}')" 256 'and in base units (seconds)'
"$PERFLOG" report -v "$rset" >"$SCRATCH/run.txt"
# (a surplus or a shortfall the report explains is neither: other traffic,
# temporary files read back, other files, whole pages, no block device)
is "$(jget "$SCRATCH/run.json" '[map { ($_->{agree} ? "agree" : (grep { $_ } @$_{qw(other_traffic reads_back other_files whole_pages no_block_device)}) ? "explained" : "disagree") } @{'"$s0"'{client_check}}]')" \
	"$(sed -n -e 's/^    client \(read\|sent\) .*: \(agree\|disagree\)[^:]*$/\2/p' \
		-e 's/^    client \(read\|sent\) .*: \(more\|next to none\|carried other\).*/explained/p' "$SCRATCH/run.txt")" \
	'the checks against the logged bytes say what the text says'
is "$(jget "$SCRATCH/run.json" "$s0"'{exit_status}')" 0 'the exit status, a number'
like "$(jget "$SCRATCH/run.json" "$s0"'{command}')" '^cat .*sp-full\.txt$' 'the command line'
is "$(jget "$SCRATCH/run.json" "$s0"'{end_fields}{output}')" "output-sp.log" 'every end-marker field is kept'
set3=$("$PERFLOG" start -i 1 -o "$SCRATCH/logs/bytes")
"$PERFLOG" mark --begin -s "$(printf 'caf\351')" "$(printf 'bad \377 byte\ttab')"
sleep 1
"$PERFLOG" mark --end -s "$(printf 'caf\351')" done
"$PERFLOG" stop "$set3" >/dev/null
"$PERFLOG" report "$set3" --json >"$SCRATCH/bytes.json"
ok 'bytes that are not UTF-8 still give valid JSON' valid "$SCRATCH/bytes.json"
is "$(jget "$SCRATCH/bytes.json" 'my $n = $j->{report}{sessions}[0]{name}; $n eq "caf\x{fffd}" ? "U+FFFD" : $n')" U+FFFD \
	'an invalid byte becomes U+FFFD'

# ---- status --json ----
"$PERFLOG" status --json >"$SCRATCH/s0.json"
ok 'status --json with nothing running is valid' valid "$SCRATCH/s0.json"
is "$(jget "$SCRATCH/s0.json" 'scalar @{$j->{collectors}}')" 0 'and lists no collector'
live=$("$PERFLOG" start -i 1 -o "$SCRATCH/logs/live")
sleep 1.2
"$PERFLOG" status --json >"$SCRATCH/s1.json"
ok 'status --json with one running is valid' valid "$SCRATCH/s1.json"
c0='$j->{collectors}[0]'
is "$(jget "$SCRATCH/s1.json" "$c0"'{logset}')" "$live" 'its log set'
is "$(jget "$SCRATCH/s1.json" "$c0"'{interval}')" 1 'its interval'
is "$(jget "$SCRATCH/s1.json" "$c0"'{pid}')" "$("$PERFLOG" status | awk 'NR == 2 { print $1 }')" 'its pid, as the text says'
is "$(jget "$SCRATCH/s1.json" "$c0"'{answered} ? "yes" : "no"')" yes 'it answered'
is "$(jget "$SCRATCH/s1.json" "$c0"'{samples} >= 1 && '"$c0"'{last_sample} =~ /Z$/ ? 1 : 0')" 1 \
	'samples written and the last sample'"'"'s time are known'
# the cost table (collector/cost.c, issue 30): totals since the start
cost="$c0"'{cost_us}'
is "$(jget "$SCRATCH/s1.json" "$cost"'{samples} == '"$c0"'{samples} ? 1 : 0')" 1 \
	'cost_us: as many samples timed as written'
is "$(jget "$SCRATCH/s1.json" 'join " ", grep { !defined '"$cost"'->{$_} } qw(read rates watch select write stat diskstats meminfo vmstat netdev snmp psi nfs cifs tape fc journal rrd cut)')" "" \
	'cost_us: every stage, every part of the source and of the writer'
is "$(jget "$SCRATCH/s1.json" "$cost"'{read} > 0 && '"$cost"'{write} > 0 && '"$cost"'{stat} > 0 ? 1 : 0')" 1 \
	'cost_us: the read, the write and proc/stat took time'
# the parts are of the same reads as the read (issue 50 item 11: the
# baseline's read, the first and dearest, was in the parts only): they
# add up to the read, less the read's own bookkeeping between them
parts='qw(stat diskstats meminfo vmstat netdev snmp psi nfs cifs tape fc)'
is "$(jget "$SCRATCH/s1.json" 'my $s = 0; $s += '"$cost"'->{$_} for '"$parts"'; $s <= '"$cost"'{read} + 6 ? 1 : "parts $s us > read " . '"$cost"'{read}')" 1 \
	'cost_us: the parts add up to no more than the read'
# the writer's parts likewise over the write (logs/logset.h logset_cost):
# each sample's record went to the journal
wparts='qw(journal rrd cut)'
is "$(jget "$SCRATCH/s1.json" 'my $s = 0; $s += '"$cost"'->{$_} for '"$wparts"'; $s <= '"$cost"'{write} + 6 && '"$cost"'{journal} > 0 ? 1 : "journal " . '"$cost"'{journal} . " us, parts $s us, write " . '"$cost"'{write}')" 1 \
	'cost_us: the journal took time, and the writer'"'"'s parts add up to no more than the write'
"$PERFLOG" stop "$live" >/dev/null
like "$(tail -n 1 "$live/collector.log")" '^perflog: cost per sample over [0-9]+ samples, in microseconds: read [0-9.]+ rates [0-9.]+ watch [0-9.]+ select [0-9.]+ write [0-9.]+; of the read: stat [0-9.]+ .* fc [0-9.]+; of the write: journal [0-9.]+ rrd [0-9.]+ cut [0-9.]+$' \
	'on stop, the last line of collector.log is the cost table'
is "$(tail -n 1 "$live/collector.log" | awk '{ for (i = 1; i < NF; i++) if ($i == "read") { read = $(i + 1); break }
	sub(/.*of the read: /, ""); sub(/; of the write:.*/, ""); for (i = 2; i <= NF; i += 2) s += $i
	print ((s <= read + 0.6 && s >= read / 2) ? 1 : "parts " s " us, read " read " us") }')" 1 \
	'collector.log: the means of the parts add up to the read'"'"'s (over the same reads)'
is "$(tail -n 1 "$live/collector.log" | awk '{ for (i = 1; i < NF; i++) if ($i == "write") { w = $(i + 1); sub(/;$/, "", w); break }
	sub(/.*of the write: /, ""); for (i = 2; i <= NF; i += 2) s += $i
	print (s <= w + 0.6 ? 1 : "parts " s " us, write " w " us") }')" 1 \
	'collector.log: the means of the writer'"'"'s parts add up to no more than the write'"'"'s'
# $PERFLOG_COST_CLOCK=cpu (bench/overhead.sh's CPU table): the stages
# are the loop thread's CPU time, so over any span they add up to no
# more than that thread's CPU (schedstat, exact): on the wall's clock
# the write's fdatasync and a loaded machine's preemptions are in them
live=$(PERFLOG_COST_CLOCK=cpu "$PERFLOG" start -i 1 -o "$SCRATCH/logs/cpu")
pid=$("$PERFLOG" status | awk -v s="$live" '$0 ~ s { print $1 }')
sleep 1.5
cpu0=$(awk '{ print $1 }' "/proc/$pid/schedstat")
"$PERFLOG" status --json >"$SCRATCH/c0.json"
sleep 5.3	# a journal sync (every 5 s) inside
"$PERFLOG" status --json >"$SCRATCH/c1.json"
cpu1=$(awk '{ print $1 }' "/proc/$pid/schedstat")
stages() { jget "$1" 'my ($c) = grep { $_->{logset} eq "'"$live"'" } @{$j->{collectors}}; my $s = 0; $s += $c->{cost_us}{$_} for qw(read rates watch select write); "$c->{cost_us}{samples} $s"'; }
is "$(echo "$(stages "$SCRATCH/c0.json") $(stages "$SCRATCH/c1.json") $cpu0 $cpu1" |
	awk '{ d = $4 - $2; cpu = ($6 - $5) / 1000
		print ($3 > $1 && d > 0 && d <= cpu) ? 1 : "stages " d " us over " $3 - $1 " samples, the thread " cpu " us of CPU" }')" 1 \
	'PERFLOG_COST_CLOCK=cpu: the stages add up to no more than the loop thread'"'"'s CPU'
"$PERFLOG" stop "$live" >/dev/null
err_is 'status: an unknown option is one line of error' "--bogus" "$PERFLOG" status --bogus

# ---- export --csv --counters ----
"$PERFLOG" export "$SET" --csv "$SCRATCH/all.csv"
host=$(sed -n 's/^host\t//p' "$SET/perflog.meta")
"$PERFLOG" export "$SET" --csv "$SCRATCH/pick.csv" --counters 'Memory\Available Bytes,LogicalDisk(*)\Disk * Bytes/sec'
want=$(head -1 "$SCRATCH/all.csv" | tr ',' '\n' | grep -F -e '\Memory\Available Bytes' | tr '\n' ,;
	head -1 "$SCRATCH/all.csv" | tr ',' '\n' | grep -E '\\LogicalDisk\([^)]*\)\\Disk (Read|Write) Bytes/sec$' | tr '\n' ,)
is "$(head -1 "$SCRATCH/pick.csv")" "time,${want%,}" 'the header: the patterns'"'"' columns, in their order'
# every picked column holds the full export's values, row for row
bad=0
for name in $(head -1 "$SCRATCH/pick.csv" | tr ',' '\n' | tail -n +2 | tr ' ' '~'); do
	n=${name//\~/ }
	a=$(csv_col "$SCRATCH/all.csv" "$n"); p=$(csv_col "$SCRATCH/pick.csv" "$n")
	cmp -s <(cut -d, -f1,"$a" "$SCRATCH/all.csv" | tail -n +2) <(cut -d, -f1,"$p" "$SCRATCH/pick.csv" | tail -n +2) ||
		{ bad=1; diag "column $n differs"; }
done
is "$bad" 0 'the picked columns hold the values of the full export'
is "$(wc -l <"$SCRATCH/pick.csv")" "$(wc -l <"$SCRATCH/all.csv")" 'and as many rows'
is "$("$PERFLOG" export "$SET" --csv - --counters "\\\\$host\\PROCESSOR(_TOTAL)\\% processor time" 2>/dev/null | head -1)" \
	"time,\\\\$host\\Processor(_Total)\\% Processor Time" 'case and a \\HOST\ prefix do not matter'
echo keep >"$SCRATCH/keep.csv"
err_is 'a pattern that matches nothing: one line naming it' "matches 'System\\Nope'" \
	"$PERFLOG" export "$SET" --csv "$SCRATCH/keep.csv" --counters 'Memory\*,System\Nope'
is "$(cat "$SCRATCH/keep.csv")" keep 'and the file is left alone'

# ---- NO_COLOR and TERM=dumb in the viewer ----
if command -v tmux >/dev/null; then
	# a tmux server of its own for each viewer run (a server just killed
	# may still hold its socket)
	nv=0
	T() { tmux -S "$SCRATCH/tmux$nv.sock" "$@"; }
	trap 'for s in "$SCRATCH"/tmux*.sock; do tmux -S "$s" kill-server 2>/dev/null; done; _cleanup' EXIT
	# colour escapes in the pane: SGR with 3x/4x/38;/48; parameters
	colours() { T capture-pane -p -e | grep -cE $'\e\\[[0-9;]*(3[0-7]|4[0-7]|38;|48;)[0-9;]*m'; }
	view() {
		T kill-server 2>/dev/null
		nv=$((nv + 1))
		T new-session -d -x 80 -y 24 "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC $1 '$PERFLOG' view '$SET'; echo EXIT=\$?; sleep 30"
	}
	view "TERM=xterm-256color"
	ok 'the viewer draws' wait_for 10 sh -c "tmux -S '$SCRATCH/tmux$nv.sock' capture-pane -p | grep -q 'CPU \\['"
	n=$(colours)
	ok "without NO_COLOR the viewer uses colour ($n lines)" test "$n" -gt 0
	view "TERM=xterm-256color NO_COLOR=1"
	ok 'NO_COLOR=1: the viewer draws' wait_for 10 sh -c "tmux -S '$SCRATCH/tmux$nv.sock' capture-pane -p | grep -q 'CPU \\['"
	is "$(colours)" 0 'NO_COLOR=1: no colour at all'
	like "$(T capture-pane -p)" 'Disk busy' 'and it still draws the panes'
	T send-keys q
	view "TERM=dumb"
	ok 'TERM=dumb: the viewer ends' wait_for 10 sh -c "tmux -S '$SCRATCH/tmux$nv.sock' capture-pane -p | grep -q EXIT="
	out=$(T capture-pane -p | grep -v '^$')
	like "$out" "perflog view: TERM=dumb cannot move the cursor" 'TERM=dumb: refused, saying why'
	like "$out" 'EXIT=1' 'with exit status 1'
	is "$(printf '%s\n' "$out" | grep -c 'perflog view')" 1 'in one line'
	T kill-server 2>/dev/null
else
	echo "ok $((_tap_n + 1)) # SKIP tmux not installed"; _tap_n=$((_tap_n + 1))
fi
done_testing

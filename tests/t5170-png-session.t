#!/bin/bash
# t5170-png-session: a session's charts as a report shows them (issue 49
# item 3), on a real `perflog run` with a session nested in it whose
# command has ten sleeping threads and one working: every chart a PNG
# (signature, IHDR: the asked width, the asked height or more when the
# legend needs it); only the series that moved are in the legends
# (charts.tsv: the figures rrd_graph_v computed and drew), checked
# against the CSV export (a device idle all along, loop0.., is not
# there; one that moved inside the session is); waits.png is the
# threads' time split into states, as the report's "all threads"
# column: shares that add up to 100%, not 100 a thread stacked to 1000%.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "python3 not installed"

png_wh() {
	sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || { echo "not-png"; return; }
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%d %d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}

cat > "$SCRATCH/threads.py" <<'EOF'
import threading, time
def work():
    end = time.time() + 1.5
    while time.time() < end:
        pass
ts = [threading.Thread(target=time.sleep, args=(2.5,)) for _ in range(10)]
ts.append(threading.Thread(target=work))
for t in ts: t.start()
for t in ts: t.join()
EOF
cat > "$SCRATCH/outer.sh" <<EOF
sleep 1
'$PERFLOG' run -o '$SCRATCH/logs' -l inner -- python3 '$SCRATCH/threads.py'
dd if=/dev/zero of='$SCRATCH/zero' bs=1M count=64 conv=fsync 2>/dev/null
sleep 1
EOF
ok 'perflog run with a session nested in it' "$PERFLOG" run -i 1 -o "$SCRATCH/logs" -l outer -- sh "$SCRATCH/outer.sh"
SET=$(ls -d "$SCRATCH"/logs/*/ | head -1)
SET=${SET%/}
rm -f "$SCRATCH/zero"

ok 'export --png --session outer' "$PERFLOG" export "$SET" --png "$SCRATCH/png" --session outer
n=0 bad=
for f in "$SCRATCH"/png/*.png; do
	set -- $(png_wh "$f")
	n=$((n + 1))
	[ "$1" = 1000 ] && [ "${2:-0}" -ge 400 ] || bad="$bad $(basename "$f")=$1x${2:-}"
done
ok "every chart a PNG 1000 wide, 400 high or more ($n charts)" test -z "$bad" -a "$n" -ge 8
[ -z "$bad" ] || diag "not so:$bad"

# the session's span, the CSV's rows inside it (the core: its first and
# last second left out, the charts' rows at the edges are half in)
b=$(awk -F'\t' '$2 == "begin" && $3 == "outer" { print $1 }' "$SET/markers.tsv")
e=$(awk -F'\t' '$2 == "end" && $3 == "outer" { print $1 }' "$SET/markers.tsv")
bs=$(date -u -d "$b" +%s) es=$(date -u -d "$e" +%s)
"$PERFLOG" export "$SET" --csv "$SCRATCH/all.csv"
# the disks whose % Disk Time moved (a value above 0) over rows in
# [from, to], one a line
moved_disks() {
	awk -F, -v from="$1" -v to="$2" '
	NR == 1 { for (i = 2; i <= NF; i++) if ($i ~ /LogicalDisk\(.*\)\\% Disk Time$/ && $i !~ /_Total/) { d = $i; sub(/.*LogicalDisk\(/, "", d); sub(/\).*/, "", d); col[i] = d } ; next }
	{ cmd = "date -u -d \"" $1 "\" +%s"; cmd | getline t; close(cmd)
	  if (t < from || t > to) next
	  for (i in col) if ($i != "" && $i + 0 > 0) m[col[i]] = 1 }
	END { for (d in m) print d }' "$SCRATCH/all.csv" | sort
}
listed=$(awk -F'\t' '$1 == "disk.png" { sub(/ % Disk Time$/, "", $2); print $2 }' "$SCRATCH/png/charts.tsv" | sort)
core=$(moved_disks $((bs + 1)) $((es - 1)))
wide=$(moved_disks $((bs - 6)) $((es + 6)))
all=$(awk -F, 'NR == 1 { for (i = 2; i <= NF; i++) if ($i ~ /LogicalDisk\(.*\)\\% Disk Time$/ && $i !~ /_Total/) { d = $i; sub(/.*LogicalDisk\(/, "", d); sub(/\).*/, "", d); print d } }' "$SCRATCH/all.csv" | sort)
diag "disks: logged [$(echo $all)], moved in the session [$(echo $core)], in its charts' span [$(echo $wide)], in disk.png's legend [$(echo $listed)]"
missing= extra=
for d in $core; do printf '%s\n' $listed | grep -qx "$d" || missing="$missing $d"; done
for d in $listed; do printf '%s\n' $wide | grep -qx "$d" || extra="$extra $d"; done
ok "disk.png lists every disk that moved in the session (missing:${missing:- none})" test -z "$missing" -a -n "$core"
ok "disk.png lists no disk that stayed idle over its span (extra:${extra:- none})" test -z "$extra"
idle=$(for d in $all; do printf '%s\n' $wide | grep -qx "$d" || echo "$d"; done)
if [ -n "$idle" ]; then
	diag "idle disks on this host: $(echo $idle)"
	ok 'an idle device is in no legend' sh -c "! cut -f2 '$SCRATCH/png/charts.tsv' | grep -qE '^($(echo $idle | tr ' ' '|')) '"
else
	skip 'no idle block device on this host'
fi
# every series in any chart moved: a known value, not all zeros (a chart
# where nothing moved keeps its series: it says so)
still=$(awk -F'\t' 'NR > 1 { n[$1]++; if ($3 == "-nan" || $3 == "nan" || ($3 + 0 == 0 && $5 + 0 == 0)) z[$1]++ }
	END { for (c in n) if (z[c] && z[c] < n[c]) print c }' "$SCRATCH/png/charts.tsv")
ok "no chart keeps a series that did not move beside one that did (${still:-none})" test -z "$still"

# waits.png of the inner session: its Process's states as shares
ok 'export --png --session inner' "$PERFLOG" export "$SET" --png "$SCRATCH/inner" --session inner
awk -F'\t' '$1 == "waits.png"' "$SCRATCH/inner/charts.tsv" | while IFS="$(printf '\t')" read -r c s mn av mx pt; do diag "waits.png: $s avg $av max $mx"; done
sum=$(awk -F'\t' '$1 == "waits.png" { s += $4 } END { printf "%.2f", s }' "$SCRATCH/inner/charts.tsv")
top=$(awk -F'\t' '$1 == "waits.png" && $5 + 0 > m { m = $5 + 0 } END { printf "%.2f", m }' "$SCRATCH/inner/charts.tsv")
within "waits.png's states add up to 100% of the threads' time (sum of averages $sum)" "$sum" 98.5 101.5
within "no state above 100% ($top)" "$top" 0 100.001
# the report's split is of the same whole (its per-thread totals, over
# the session alone): its "all threads" column adds up to 100% too
rsum=$("$PERFLOG" report -v "$SET" 2>/dev/null | awk '/wait states, Process\(inner\)/ { on = 1; next }
	on && /^    (running|CPU wait|disk wait|network wait|other wait|sleep) / { v = $NF; sub(/%/, "", v); s += v }
	on && /dominant wait state/ { on = 0 } END { printf "%.1f", s }')
within "the report's all-threads split adds up to 100% too ($rsum)" "$rsum" 99.5 100.5
done_testing

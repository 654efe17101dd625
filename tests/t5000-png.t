#!/bin/bash
# perflog export --png: PNG files of the asked size (signature and IHDR),
# the legend figures rrd_graph_v computed (charts.tsv) against the CSV
# export's min/avg/max, --session covering the session, --counters groups,
# bad input. Log set: crafted values through the real writer (mklogset).
. "$(dirname "$0")/lib.sh"
MK=$TOP/build/tools/mklogset
[ -x "$MK" ] || skip_all "build/tools/mklogset not built (make check builds it)"
D=$($MK $SCRATCH/sets cpu1 cpu1)

# width and height from the IHDR chunk, after checking the signature
png_wh() {
	sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || { echo "not-png"; return; }
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}

ok 'export --png' "$PERFLOG" export $D --png $SCRATCH/png --width 640 --height 280
for c in cpu cpus disk diskio memory paging network; do
	is "$(png_wh $SCRATCH/png/$c.png)" 640x280 "$c.png is a 640x280 PNG"
done
ok 'export --png, another size' "$PERFLOG" export $D --png $SCRATCH/big --width 1400 --height 600
is "$(png_wh $SCRATCH/big/cpu.png)" 1400x600 'cpu.png at 1400x600'

# legend figures against the CSV export over the same rows
"$PERFLOG" export $D --csv $SCRATCH/all.csv
col=$(csv_col $SCRATCH/all.csv 'Processor(0)\% Processor Time')
read cmin cavg cmax < <(awk -F, -v c=$col 'NR > 1 && $c != "" { n++; s += $c; if (n == 1 || $c < mn) mn = $c; if (n == 1 || $c > mx) mx = $c } END { printf "%.6f %.6f %.6f\n", mn, s / n, mx }' $SCRATCH/all.csv)
read gmin gavg gmax < <(awk -F'\t' '$1 == "cpus.png" && $2 == "0 % Processor Time" { print $3, $4, $5 }' $SCRATCH/png/charts.tsv)
near "$gmin" "$cmin" 0.001 'legend min = CSV min'
near "$gmax" "$cmax" 0.001 'legend max = CSV max'
near "$gavg" "$cavg" 0.02 'legend avg = CSV avg (within 2%: graph edges)'

# --session: the charts cover the session (busy) plus a small margin
ok 'export --session' "$PERFLOG" export $D --png $SCRATCH/sess --session cpu1 --width 640 --height 280
savg=$(awk -F'\t' '$1 == "cpus.png" && $2 == "0 % Processor Time" { print $4 }' $SCRATCH/sess/charts.tsv)
ok "session avg $savg% > 80% (whole log $gavg%)" awk -v s=$savg 'BEGIN { exit !(s > 80) }'
ok "session avg above the whole log's" awk -v s=$savg -v g=$gavg 'BEGIN { exit !(s > g + 20) }'
fails 'unknown session' "$PERFLOG" export $D --png $SCRATCH/x --session nosuch
like "$("$PERFLOG" export $D --png $SCRATCH/x --session nosuch 2>&1)" "no session 'nosuch'" 'error names the session'

# --counters: one chart per group
ok 'export --counters' "$PERFLOG" export $D --png $SCRATCH/grp --counters 'Network Interface(*)\Current Bandwidth,LogicalDisk(sdb)\Disk Reads/sec+LogicalDisk(sdb)\Disk Writes/sec'
is "$(png_wh "$SCRATCH/grp/Network_Interface_Current_Bandwidth.png")" 1000x400 'group chart, default size'
ok "second group chart (name cut at 60 characters)" sh -c "test -s $SCRATCH/grp/LogicalDisk_sdb_Disk_Reads_sec_LogicalDisk_sdb_Disk_Writes_s.png"
fails 'unknown counter' "$PERFLOG" export $D --png $SCRATCH/y --counters 'Memory\Nonsense'
# one message naming the counter (was "--counters: '...': --counters:
# '...': bject 'Memory'": the message formatted over itself)
is "$("$PERFLOG" export $D --png $SCRATCH/y --counters 'Memory\Availble Bytes' 2>&1)" \
	"perflog export: --counters: 'Memory\Availble Bytes': unknown counter 'Availble Bytes' of object 'Memory'" \
	'a misspelt counter: one message naming it'
fails 'bad size' "$PERFLOG" export $D --png $SCRATCH/y --width 10x
fails 'too small' "$PERFLOG" export $D --png $SCRATCH/y --width 20 --height 20
done_testing

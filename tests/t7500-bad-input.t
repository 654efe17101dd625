#!/bin/bash
# Bad input never crashes: garbage settings files, markers.tsv garbage,
# corrupt and truncated RRD files, a log set missing perflog.meta or an RRD
# file, huge or negative values in perflog.meta. Each gets a one-line error
# naming the file (and line where there is one), a non-zero exit status and
# never a signal.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"
LOGS=$SCRATCH/logs

# bad NAME WANT CMD...: exit 1..127 (no crash), one line on stderr with WANT
bad() {
	what=$1 want=$2; shift 2
	out=$("$@" 2>&1 >/dev/null); st=$?
	lines=$(printf '%s\n' "$out" | grep -c .)
	if [ $st -ge 1 ] && [ $st -lt 128 ] && [ "$lines" = 1 ] && printf '%s' "$out" | grep -qF -- "$want"; then
		_result 0 "$what"
	else
		_result 1 "$what"; echo "#   status $st, stderr: $out"
	fi
}

# ---- settings files ----
S=$SCRATCH/s
mkdir -p $S
head -c 4000 /dev/urandom > $S/random.pml
bad 'random bytes as settings' "$S/random.pml:" $PERFLOG counters -c $S/random.pml
printf '[log]\ninterval = 99999999999999999999999\n' > $S/huge.pml
bad 'huge interval' "$S/huge.pml:2:" $PERFLOG start -c $S/huge.pml -o $LOGS
printf '[log]\ninterval = -5\n' > $S/neg.pml
bad 'negative interval' "$S/neg.pml:2:" $PERFLOG start -c $S/neg.pml -o $LOGS
printf '[log]\nretention = -2d\n' > $S/negret.pml
bad 'negative retention' "$S/negret.pml:2:" $PERFLOG start -c $S/negret.pml -o $LOGS
printf '[log]\nretention = 99999999999w\n' > $S/hugeret.pml
bad 'huge retention' "$S/hugeret.pml:2:" $PERFLOG start -c $S/hugeret.pml -o $LOGS
printf '[log\ninterval = 5\n' > $S/sect.pml
bad 'unclosed section' "$S/sect.pml:1:" $PERFLOG counters -c $S/sect.pml
printf '[log]\ninterval = 5\0\n' > $S/nul.pml
bad 'a NUL byte in settings' "$S/nul.pml" $PERFLOG counters -c $S/nul.pml
{ printf '[counters]\n'; head -c 100000 /dev/zero | tr '\0' 'x'; echo; } > $S/long.pml
bad 'a 100 kB line' "$S/long.pml:2:" $PERFLOG counters -c $S/long.pml
printf '[counters]\n\\Processor(%s)\\%% Processor Time\n' "$(head -c 300 /dev/zero | tr '\0' 'y')" > $S/inst.pml
bad 'a 300-character instance name' "$S/inst.pml:2:" $PERFLOG counters -c $S/inst.pml
ok 'no log set was created by any of these' test ! -e $LOGS

# ---- a real log set to damage ----
$PERFLOG start -f -o $LOGS -i 1 --samples 3 > $SCRATCH/fg.out 2>&1
good=$(head -1 $SCRATCH/fg.out)
ok 'a log set to damage' test -f "$good/perflog.meta"
copy() { rm -rf "$SCRATCH/$1"; cp -a "$good" "$SCRATCH/$1"; echo "$SCRATCH/$1"; }
# the readers run under ASan+UBSan when that build is there (make check
# builds it): a memory error is then a failure, not luck
EXPORTER=$PERFLOG
[ -x "$TOP/build/asan/perflog" ] && EXPORTER=$TOP/build/asan/perflog
export ASAN_OPTIONS=detect_leaks=1:exitcode=99 UBSAN_OPTIONS=halt_on_error=1
export_to_null() { $EXPORTER export "$1" --csv /dev/null; }

d=$(copy nometa); rm "$d/perflog.meta"
bad 'missing perflog.meta' "perflog.meta: missing" export_to_null "$d"
bad 'not a directory' "$SCRATCH/none" export_to_null "$SCRATCH/none"
d=$(copy norrd); rm "$d/Memory.rrd"
bad 'an RRD file missing' "Memory.rrd" export_to_null "$d"
d=$(copy trunc); f=$d/Processor-_Total.rrd; truncate -s $(( $(stat -c %s $f) / 2 )) $f
bad 'a truncated RRD file' "Processor-_Total.rrd" export_to_null "$d"
d=$(copy trunc0); : > "$d/Memory.rrd"
bad 'an empty RRD file' "Memory.rrd" export_to_null "$d"
d=$(copy garbage); head -c 4096 /dev/urandom | dd of="$d/Memory.rrd" conv=notrunc 2>/dev/null
bad 'an RRD file with a garbage header' "Memory.rrd" export_to_null "$d"
d=$(copy dirrrd); rm "$d/Memory.rrd"; mkdir "$d/Memory.rrd"
bad 'an RRD file that is a directory' "Memory.rrd" export_to_null "$d"

meta_edit() { # NAME SED-EXPR: a copy with perflog.meta edited
	_d=$(copy "$1"); sed -i "$2" "$_d/perflog.meta"; echo "$_d"
}
line_of() { grep -n "^$2" "$1/perflog.meta" | head -1 | cut -d: -f1; }
d=$(meta_edit m1 's/^interval\t.*/interval\t-5/'); bad 'negative interval in perflog.meta' "perflog.meta:$(line_of $d interval):" export_to_null "$d"
d=$(meta_edit m2 's/^interval\t.*/interval\t99999999999999999999/'); bad 'huge interval in perflog.meta' "perflog.meta:$(line_of $d interval):" export_to_null "$d"
d=$(meta_edit m3 's/^interval\t.*/interval\t0/'); bad 'zero interval in perflog.meta' "perflog.meta:$(line_of $d interval):" export_to_null "$d"
d=$(meta_edit m4 's/^retention\t.*/retention\t-1/'); bad 'negative retention in perflog.meta' "perflog.meta:$(line_of $d retention):" export_to_null "$d"
d=$(meta_edit m5 's/^start\t.*/start\t-1/'); bad 'garbage start in perflog.meta' "perflog.meta:$(line_of $d start):" export_to_null "$d"
d=$(meta_edit m6 's/^format\t.*/format\t99/'); bad 'a newer format' "has format 99" export_to_null "$d"
d=$(meta_edit m7 's/^start\t.*/start\t9999-12-31T23:59:59Z/'); bad 'start after stop' "perflog.meta" export_to_null "$d"
d=$(meta_edit m8 '/^counter/s/\t[^\t]*\.rrd\t/\t..\/..\/etc\/passwd\t/'); bad 'a counter file outside the log set' "perflog.meta" export_to_null "$d"
d=$(copy m9); head -c 3000 /dev/urandom > "$d/perflog.meta"
bad 'random bytes as perflog.meta' "perflog.meta" export_to_null "$d"
d=$(copy m10); head -c 20 "$good/perflog.meta" > "$d/perflog.meta"
bad 'a truncated perflog.meta' "perflog.meta" export_to_null "$d"
d=$(meta_edit m11 '/^stop/d'); ok 'no stop line (killed collector): export works' export_to_null "$d"

# the report and the PNG export read the same damaged sets: a one-line
# error or a report, never a crash
report_to_null() { $EXPORTER report "$1" > /dev/null; }
# (librrd's rrd_graph leaks in its own error path, fontconfig included:
# leak checking is off for the PNG export, memory errors still count)
png_to_tmp() { rm -rf $SCRATCH/png; ASAN_OPTIONS=detect_leaks=0:exitcode=99 $EXPORTER export "$1" --png $SCRATCH/png > /dev/null; }
for c in nometa norrd trunc trunc0 garbage dirrrd m1 m2 m3 m4 m5 m6 m7 m8 m9 m10; do
	for r in report_to_null png_to_tmp; do
		out=$($r "$SCRATCH/$c" 2>&1); st=$?
		lines=$(printf '%s\n' "$out" | grep -c .)
		if [ $st -ge 128 ] || [ $st -eq 99 ] || { [ $st -ne 0 ] && [ "$lines" != 1 ]; }; then
			echo "$c $r: status $st: $out"
		fi
	done
done > $SCRATCH/readers 2>&1
ok 'report and PNG export of every damaged set: a one-line error or a result, never a crash' test ! -s $SCRATCH/readers
sed 's/^/#   /' $SCRATCH/readers | head -20
d=$(copy mk); head -c 2000 /dev/urandom > "$d/markers.tsv"; printf '\nnot\ta\tmarker\n\0\t\t\n' >> "$d/markers.tsv"
ok 'garbage markers.tsv: export still works' export_to_null "$d"
ok 'the undamaged set still exports' export_to_null "$good"
done_testing

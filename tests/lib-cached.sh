# tests/lib-cached.sh - rrdcached over TCP from another host, shared by
# t6120 (the daemon on a second host) and t6130 (the collector on one).
# Source after lib.sh.
#
#   cached_need                skip the suite unless rrdcached, rrdtool,
#                              util-linux's namespaces and a veth pair
#                              (make_veth) are there
#   cached_pml FILE ADDR       settings: 1 s, three objects, rrdcached=ADDR
#   cached_set_whole RUN SET   after the stop of a collector whose set SET
#                              had a `perflog run -l tcp` session: the set
#                              on the daemon's host ($BASE/SET), read with
#                              RUN (a command prefix: "there", or "env"
#                              when this is the daemon's host), whole:
#                              9 tests. Sets rows (the rows exported).

cached_need() {
	command -v rrdcached >/dev/null || skip_all "rrdcached not installed"
	command -v rrdtool >/dev/null || skip_all "rrdtool not installed"
	for t in unshare nsenter mount; do
		command -v $t >/dev/null || skip_all "no $t (util-linux)"
	done
	make_veth || skip_all "cannot make a network namespace and veth pair (root, ip)"
	unset RRDCACHED_ADDRESS
}

cached_pml() {
	cat > "$1" <<PML
[log]
interval = 1
retention = 1h
rrdcached = $2
[counters]
\\Processor(_Total)\\*
\\Memory\\*
\\System\\*
PML
}

cached_set_whole() {
	local run=$1 set=$2 created start stop col known
	created=$(grep -o "rrdcreate request for [^ ]*" $SCRATCH/rrdcached.log |
		awk '{ print $4 }' | sort | tr '\n' ' ')
	is "$created" "$BASE/$set/Memory.rrd $BASE/$set/Process-tcp.rrd $BASE/$set/Processor-_Total.rrd $BASE/$set/System.rrd " \
		'the daemon created every RRD file, under its own base directory'
	is "$($run ls -A "$BASE/$set/" | grep -v '\.rrd$' | sort | tr '\n' ' ')" \
		".lock collector.log edges-tcp.tsv markers.tsv output-tcp.log perflog.meta waits-tcp.rows.tsv waits-tcp.tsv " \
		'perflog receive holds its other files, and no leftover (journal, probe, temporary)'
	$run $PERFLOG report -v "$BASE/$set" > $SCRATCH/report 2>&1
	is "$?" 0 'perflog report opens the set on the daemon'"'"'s host'
	ok 'and finds its session' grep -q '^Session tcp' $SCRATCH/report
	ok 'with its command and wait states' \
		sh -c "grep -q 'exit status: 0' $SCRATCH/report && grep -q 'wait states, Process(tcp)' $SCRATCH/report"
	$run $PERFLOG export "$BASE/$set" --csv - > $SCRATCH/there.csv 2>$SCRATCH/export.err
	is "$?" 0 "perflog export there ($(head -c 300 $SCRATCH/export.err))"
	start=$(date -u -d "$($run awk -F'\t' '$1 == "start" { print $2 }' $BASE/$set/perflog.meta)" +%s)
	stop=$(date -u -d "$($run awk -F'\t' '$1 == "stop" { print $2 }' $BASE/$set/perflog.meta)" +%s)
	ok "the stop time is recorded ($((stop - start)) s)" test $((stop - start)) -ge 4
	# every row from the second to the stop holds the collector's values
	col=$(csv_col $SCRATCH/there.csv 'System\Processes')
	known=$(awk -F, -v c="$col" 'NR > 2 && $c != "" { k++ } END { print k + 0 }' $SCRATCH/there.csv)
	rows=$(tail -n +2 $SCRATCH/there.csv | wc -l)
	ok "export there has a row for every second logged ($rows)" \
		test "$rows" -ge 4 -a "$rows" = "$((stop - start))"
	is "$known" "$((rows - 1))" 'and every one after the first holds what the collector sampled'
}

#!/bin/sh
# Many network namespaces (issue 50 item 9): the wait-edge resolver keeps
# the socket tables of MAX_NS (8) namespaces (waits/waitpeer_int.h), a
# least-recently-used cache whose eviction takes the evicted namespace's
# sockets with it. On a host of many containers a tree's waits reach
# more namespaces than that. Here one perflog run watches 12 namespaces
# at once, two rounds of them, each round's namespaces deleted before
# the next round's start (containers coming and going): in each, a
# receiver on 127.0.0.1:5001 (the same address and port in every one)
# waits on a paced sender. Every receiver's TCP edge must name its own
# namespace's sender, none another's, in every round: a namespace past
# the eighth, or one made after others went away (the kernel may give it
# a gone one's inode number), is resolved like the first. The
# collector's RSS after each round is printed (a table per namespace
# seen, never freed, would grow it round by round); the figures of a
# long churn are in waits/README.md.
. "$(dirname "$0")/lib.sh"
need_netns
K=12 ROUNDS=2
r=1
while [ $r -le $ROUNDS ]; do
	i=1
	while [ $i -le $K ]; do
		netns_add "pl$$-$r-$i"
		ip -n "pl$$-$r-$i" link set lo up || skip_all "no loopback in a namespace"
		i=$((i + 1))
	done
	r=$((r + 1))
done
plan 6

# the watched command: each round, in each namespace, a receiver and a
# sender of 5 MB over 5 s (each "ROUND NS r|s PID" into pids); then the
# round's namespaces deleted and the collector's RSS noted (rss)
cat >"$SCRATCH/rounds.sh" <<EOF
col=\$(basename "\$(ls "\$PERFLOG_RUNTIME_DIR"/*.info | head -n 1)" .info)
r=1
while [ \$r -le $ROUNDS ]; do
	i=1
	while [ \$i -le $K ]; do
		ip netns exec pl$$-\$r-\$i "$LOADGEN" recv 127.0.0.1 5001 >/dev/null &
		echo "\$r \$i r \$!" >>"$SCRATCH/pids"
		ip netns exec pl$$-\$r-\$i "$LOADGEN" send 127.0.0.1 5001 5000000 5 >/dev/null &
		echo "\$r \$i s \$!" >>"$SCRATCH/pids"
		i=\$((i + 1))
	done
	wait
	i=1
	while [ \$i -le $K ]; do ip netns del pl$$-\$r-\$i; i=\$((i + 1)); done
	echo "\$r \$(awk '\$1 == "VmRSS:" { print \$2 }' /proc/\$col/status)" >>"$SCRATCH/rss"
	r=\$((r + 1))
done
EOF
"$PERFLOG" run -i 1 -o "$SCRATCH/logs" -l many -- sh "$SCRATCH/rounds.sh" \
	>"$SCRATCH/run.out" 2>"$SCRATCH/run.err"
is "$?" 0 "perflog run of $ROUNDS rounds of $K namespaces"
set -- "$SCRATCH"/logs/*/edges-many.tsv
E=$1
ok 'the edges file is there' test -s "$E"
is "$(wc -l <"$SCRATCH/pids")" $((ROUNDS * K * 2)) "a receiver and a sender in each namespace of each round"

# each namespace's receiver's seconds on a TCP edge to its own sender,
# to another namespace's sender, and with no process named
awk -F'\t' 'NR == FNR { split($0, f, " "); pid[f[1] " " f[2] " " f[3]] = f[4]; ns[f[4]] = 1; next }
	FNR > 1 && $4 == "tcp" && ($1 in ns) { got[$1 " " $5] += $9 }
	END {
		for (k in pid) {
			split(k, f, " ")
			if (f[3] != "r")
				continue
			rp = pid[k]; sp = pid[f[1] " " f[2] " s"]
			other = 0
			for (g in got) {
				split(g, h, " ")
				if (h[1] == rp && h[2] != sp && h[2] != 0)
					other += got[g]
			}
			printf "%s %s %.1f %.1f %.1f\n", f[1], f[2], got[rp " " sp] + 0, other, got[rp " 0"] + 0
		}
	}' "$SCRATCH/pids" "$E" | sort -n -k1,1 -k2,2 >"$SCRATCH/found"
sed 's/^/# round ns own other unknown: /' "$SCRATCH/found"
# (some seconds at least: the sampler reads a loaded machine's threads a
# few times a second or less, waits.hz, and the first answers may come
# before the accept is in the fd tables, whose scans are spaced,
# waitpeer_fds.c: "unknown")
is "$(awk '$3 <= 0 { printf " %s/%s", $1, $2 }' "$SCRATCH/found")" "" \
	'every namespace of every round: its receiver waited on its own sender (missing: round/ns)'
is "$(awk '$4 > 0 { printf " %s/%s", $1, $2 }' "$SCRATCH/found")" "" \
	'no receiver waited on another namespace'"'"'s sender (same address and port in each)'
diag "collector RSS (kB) after each round: $(awk '{ printf "%s ", $2 }' "$SCRATCH/rss")"
is "$(wc -l <"$SCRATCH/rss")" "$ROUNDS" 'the collector'"'"'s RSS read after each round'

#!/bin/sh
# tests/t9200-systemd.t - perflog.service (dist/perflog.service.in):
#  - the unit as make installs it passes `systemd-analyze verify` (its
#    Documentation= pages included) and keeps the sandbox it promises;
#  - its collector works inside such a sandbox: the command line of the
#    unit, run as an unprivileged user (setpriv, no new privileges) in a
#    mount namespace of its own where everything but the state and runtime
#    directories is read-only (ProtectSystem=strict), /sys read-only
#    (ProtectKernelTunables) and /root, /home hidden (ProtectHome), logs
#    the host's counters from /proc and /sys;
#  - root's perflog status, mark and stop find that collector in the
#    service's runtime directory (PERFLOG_SERVICE_RUNTIME_DIR stands in for
#    /run/perflog), and a runtime directory others may write is not trusted.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-robust.sh"

unit=$SCRATCH/perflog.service
bindir=$(cd "$(dirname "$PERFLOG")" && pwd)
(unset MAKEFLAGS MFLAGS MAKELEVEL; make -s -C "$TOP" service SERVICE="$unit" BINDIR="$bindir" SYSCONFDIR=/etc) ||
	{ echo "not ok 1 - make service"; exit 1; }
ok 'make service wrote the unit' test -s "$unit"

# key = value of the [Service] section (all values of a repeated key)
key() { sed -n "s/^$1=//p" "$unit"; }
like "$(key ExecStart)" "^$bindir/perflog start -f -c /etc/perflog/perftest.pml -o /var/lib/perflog\$" \
	'ExecStart: perflog start -f, settings from /etc/perflog, log sets in /var/lib/perflog'
is "$(key Environment)" "PERFLOG_RUNTIME_DIR=/run/perflog" 'the control socket goes to the RuntimeDirectory'
is "$(key RuntimeDirectory)" perflog 'RuntimeDirectory=perflog (/run/perflog)'
is "$(key RuntimeDirectoryMode)" 0700 'the runtime directory is private, as the collector demands'
is "$(key StateDirectory)" perflog 'StateDirectory=perflog (/var/lib/perflog)'
is "$(key DynamicUser)" yes 'a dedicated user (DynamicUser)'
is "$(key ProtectSystem)" strict ProtectSystem=strict
is "$(key ProtectHome)" yes ProtectHome=yes
is "$(key NoNewPrivileges)" yes NoNewPrivileges=yes
is "$(key CapabilityBoundingSet)" "" 'no capabilities'
is "$(key PrivateNetwork)" "" 'no PrivateNetwork: the host'"'"'s interfaces are the counters'
ok 'no ProcSubset=pid: /proc/stat and friends are the counters' sh -c "! grep -q '^ProcSubset=pid' '$unit'"

if ! command -v systemd-analyze >/dev/null; then
	echo "ok $((_tap_n + 1)) # SKIP systemd-analyze is not installed"; _tap_n=$((_tap_n + 1))
else
	# man pages for Documentation=, where man finds them
	mkdir -p "$SCRATCH/man/man1" "$SCRATCH/man/man5"
	ln -s "$TOP"/man/*.1 "$SCRATCH/man/man1/"; ln -s "$TOP"/man/*.5 "$SCRATCH/man/man5/"
	out=$(MANPATH=$SCRATCH/man systemd-analyze verify "$unit" 2>&1); st=$?
	is "$st:$out" "0:" 'systemd-analyze verify: no complaint'
	exposure=$(systemd-analyze security --offline=yes "$unit" 2>/dev/null |
		sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	if [ -n "$exposure" ]; then
		diag "systemd-analyze security: exposure $exposure (0 safest, 10 unsafe)"
		ok "exposure $exposure is below 2" awk -v x="$exposure" 'BEGIN { exit !(x < 2) }'
	fi
fi

# ---- the unit's command line in a sandbox like the unit's ----
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || ! command -v setpriv >/dev/null ||
	! id nobody >/dev/null 2>&1 || ! unshare --mount --propagation private true 2>/dev/null; then
	echo "ok $((_tap_n + 1)) # SKIP needs root, unshare, setpriv and the user nobody"
	_tap_n=$((_tap_n + 1))
	done_testing
	exit
fi
group=$(id -gn nobody)
# nobody must reach the files: a directory of its own under /tmp
pub=$(mktemp -d /tmp/perflog-svc.XXXXXX)
trap '_cleanup; rm -rf "$pub"' EXIT
chmod 0755 "$pub"
mkdir -p "$pub/state" "$pub/run" "$pub/etc"
chown nobody "$pub/state" "$pub/run"
chmod 0700 "$pub/run"
cp "$PERFLOG" "$pub/perflog"
# the unit's settings, with a 1 s interval and every sample written
sed -e 's/^interval = .*/interval = 1/' -e 's/^flush = .*/flush = 0/' "$TOP/perftest.pml.sample" >"$pub/etc/perftest.pml"
cmdline=$(key ExecStart | sed -e "s|^$bindir/perflog|$pub/perflog|" \
	-e "s|/etc/perflog/perftest.pml|$pub/etc/perftest.pml|" -e "s|/var/lib/perflog|$pub/state|")
cat >"$pub/sandbox.sh" <<SH
set -eu
# refuse to touch the mounts of the machine itself
[ "\$(readlink /proc/self/ns/mnt)" != "$(readlink /proc/self/ns/mnt)" ] || exit 99
mount --bind "$pub/state" "$pub/state"
mount --bind "$pub/run" "$pub/run"
mount -o remount,bind,ro /
mount -o remount,bind,ro /sys
mount -t tmpfs -o ro,mode=0 tmpfs /root
[ ! -d /home ] || mount -t tmpfs -o ro,mode=0 tmpfs /home
exec setpriv --reuid=nobody --regid=$group --clear-groups --no-new-privs \
	env -i PATH=/usr/bin:/bin PERFLOG_RUNTIME_DIR="$pub/run" $cmdline
SH
unshare --mount --propagation private -- sh "$pub/sandbox.sh" >"$SCRATCH/svc.out" 2>"$SCRATCH/svc.err" &
svc=$!
track_pid $svc
wait_for 15 test -s "$SCRATCH/svc.out"
set=$(cat "$SCRATCH/svc.out")
like "$set" "^$pub/state/" "the sandboxed collector started a log set under the state directory ($(head -c 300 "$SCRATCH/svc.err"))"
ok 'it runs as nobody' sh -c "test \"\$(stat -c %U '$set/perflog.meta' 2>/dev/null)\" = nobody"

# root, its own runtime directory ($PERFLOG_RUNTIME_DIR of lib.sh) empty
export PERFLOG_SERVICE_RUNTIME_DIR="$pub/run"
out=$("$PERFLOG" status 2>&1)
like "$out" "^$svc +1 .* $set\$" "root's perflog status lists the service's collector"
ok "root's perflog mark reaches it" "$PERFLOG" mark -d "$set" "marked by root"
sleep 2
ok "root's perflog stop stops it" "$PERFLOG" stop "$set"
# a watchdog, should the stop not reach it (KILL: a clean exit would pass)
# (it ends as soon as the collector is reaped, so it never hits a reused pid)
(for _ in $(seq 1 200); do kill -0 $svc || exit 0; sleep 0.1; done
	kill -KILL $svc) >/dev/null 2>&1 &
dog=$!
wait $svc; st=$?
kill $dog 2>/dev/null
is "$st" 0 'the collector exited 0 (systemd sees a clean stop)'
ok 'the marker is in the log set' grep -q "marked by root" "$set/markers.tsv"
ok 'the log set is closed (stop line)' grep -q '^stop' "$set/perflog.meta"
"$PERFLOG" export "$set" --csv "$SCRATCH/svc.csv"
# counters read from /proc and /sys inside the sandbox: known values
for c in 'Processor(_Total)\% Processor Time' 'Memory\Available Bytes' 'System\Context Switches/sec'; do
	col=$(csv_col "$SCRATCH/svc.csv" "$c")
	known=$(awk -F, -v c="${col:-0}" 'NR > 1 && $c != "" { n++ } END { print n + 0 }' "$SCRATCH/svc.csv")
	ok "$c logged in the sandbox ($known rows)" test "$known" -ge 1
done
ok 'nothing but the state and runtime directories was written' \
	sh -c "test -z \"\$(find '$pub' -newer '$pub/sandbox.sh' ! -path '$pub/state*' ! -path '$pub/run*' | head -1)\""

# not trusted: a service directory others may write, and anyone but root
chmod 0777 "$pub/run"
out=$("$PERFLOG" status 2>&1)
is "$out" "no collector is running" 'a service runtime directory others may write is ignored'
chmod 0700 "$pub/run"
mkdir "$pub/nobody-run" && chown nobody "$pub/nobody-run" && chmod 0700 "$pub/nobody-run"
out=$(setpriv --reuid=nobody --regid="$group" --clear-groups env PERFLOG_RUNTIME_DIR="$pub/nobody-run" \
	PERFLOG_SERVICE_RUNTIME_DIR="$pub/run" "$pub/perflog" status 2>&1)
is "$out" "no collector is running" 'only root looks into the service directory'
done_testing

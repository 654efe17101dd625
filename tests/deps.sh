#!/bin/sh
# tests/deps.sh [build|check] - install the Debian packages perflog needs
# and are missing: "build" what `make` needs (make demo), "check" also
# what the test suites use (make check, .ci/run). The one list of them, so
# `make demo` and `make check` each work on a fresh machine, in either
# order. Root installs with apt-get, others through sudo; without dpkg (not
# Debian) nothing is installed and the build says what is missing.
# `tests/deps.sh list [build|check]` prints the list: .ci/run installs it
# all with apt-get, asking dpkg nothing.
set -eu
what=${1:-check}

BUILD="build-essential pkg-config librrd-dev rrdtool libstatgrab-dev libncurses-dev libpng-dev"
# rrdcached (t6100), cmocka and clang with its fuzzer runtime (unit, fuzz,
# check-clang), lld (links them: sanitize.mk), sysstat (accuracy against sar), tmux (the viewer's suites),
# iproute2 (network namespaces), valgrind (t7600), groff, man-db and
# mandoc (the manual pages), bash-completion, systemd (systemd-analyze),
# debhelper, fakeroot and lintian (the Debian package), the backup clients
# run for real under perflog run (t3300, and the real-client zoo of
# t3520 and t3720: restic, borgbackup, rsync, tar, and xz-utils for
# t3720's receiver under a CPU quota), sshd and ssh (the second host of
# t3700, tests/lib-hosts.sh), libfuse3 (t7710's hung mount), stress-ng
# (make check-stress), nmon (t3600 imports its files: skipped without
# it), fio (a real disk load for trying the collector beside one),
# chromium (t5140: the HTML report in a real browser), time (bench/report.sh),
# libreoffice-calc-nogui (t5010 opens the plain CSV as a spreadsheet and
# reads its time back as a date: the smallest Calc that converts headless)
CHECK="$BUILD rrdcached libcmocka-dev clang libclang-rt-14-dev lld sysstat tmux
	iproute2 procps util-linux perl valgrind groff-base man-db mandoc
	bash-completion systemd debhelper fakeroot lintian dpkg-dev
	restic borgbackup rsync tar xz-utils openssh-server openssh-client
	libfuse3-dev fuse3 stress-ng nmon fio chromium time
	libreoffice-calc-nogui"

case $what in
build) pkgs=$BUILD ;;
check) pkgs=$CHECK ;;
list) # list [build|check]: the names only, for .ci/run's apt-get
	case ${2:-check} in
	build) echo $BUILD ;;
	check) echo $CHECK ;;
	*) echo "usage: tests/deps.sh list [build|check]" >&2; exit 2 ;;
	esac
	exit 0 ;;
*) echo "usage: tests/deps.sh [build|check|list [build|check]]" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "tests/deps.sh: not a Debian system; make sure these (or your system's equivalents) are installed: $pkgs" >&2
	exit 0
fi
# one dpkg-query for the whole list (one a package took 2 s of every
# make check, 43 of them, before its build)
# shellcheck disable=SC2086
installed=" $(dpkg-query -W -f='${Package} ${Status}\n' $pkgs 2>/dev/null |
	awk '/ ok installed$/ { print $1 }' | tr '\n' ' ')"
missing=
for p in $pkgs; do
	case $installed in *" $p "*) ;; *) missing="$missing $p" ;; esac
done
[ -n "$missing" ] || exit 0

echo "== installing:$missing"
if [ "$(id -u)" = 0 ]; then
	SUDO=
elif command -v sudo >/dev/null 2>&1; then
	SUDO=sudo
else
	echo "tests/deps.sh: missing Debian packages:$missing (install them as root: apt-get install$missing)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null

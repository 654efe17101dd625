#!/bin/sh
# tests/t9400-deb.t - the Debian package (debian/, make deb): built with
# debhelper in a scratch copy (about 20 s), then checked with dpkg-deb
# (fields, dependencies found by dpkg-shlibdeps, the file list, the
# conffile, the unit not enabled by default), run from the extracted tree,
# and checked by lintian: no error, no warning but those accepted below.
. "$(dirname "$0")/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL
for t in dpkg-buildpackage dh dpkg-deb; do
	command -v $t >/dev/null || skip_all "$t is not installed (dpkg-dev, debhelper)"
done
(cd "$TOP" && dpkg-checkbuilddeps) >/dev/null 2>&1 || skip_all "build dependencies missing: $(cd "$TOP" && dpkg-checkbuilddeps 2>&1)"

# Lintian tags accepted, and why:
#   package-supports-alternative-init-but-no-init.d-script (info): the
#     service is systemd's; elsewhere `perflog start` runs it by hand
#   spelling-error-in-binary, only for a word that is no string of the
#     program (not in its .rodata): lintian reads every run of printable
#     bytes, machine code's too ("IiF If", stop 43: 4 bytes of .text at
#     0x7bded); a misspelt message is still refused
accepted='package-supports-alternative-init-but-no-init.d-script'

version=$(sed -n 's/^#define PERFLOG_VERSION "\(.*\)"/\1/p' "$TOP/common/util.h")
# the build at the lowest priority: the suites beside it judge their
# collectors' timeliness (t0150-fuzz.t says why)
deb=$(DEB_OUT=$SCRATCH/deb nice -n 19 sh "$TOP/dist/deb.sh" 2>"$SCRATCH/deb.err" | tail -1)
ok "make deb built $(basename "${deb:-nothing}")" test -f "$deb"
[ -f "$deb" ] || { sed 's/^/# /' "$SCRATCH/deb.err"; done_testing; exit 1; }

field() { dpkg-deb -f "$deb" "$1"; }
is "$(field Package)" perflog 'Package: perflog'
is "$(field Version)" "$version" "Version: $version, as common/util.h"
is "$(field Architecture)" "$(dpkg --print-architecture)" 'Architecture: this machine'
deps=$(field Depends)
for lib in librrd libstatgrab libncursesw libc6; do
	like "$deps" "(^|, )$lib[0-9]* " "Depends names $lib (from \${shlibs:Depends})"
done
ok 'debian/control leaves the libraries to dpkg-shlibdeps' sh -c "! grep -q 'librrd[0-9]' '$TOP/debian/control'"

dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' | sort >"$SCRATCH/files"
want=$( (echo /usr/bin/perflog
	for p in $(cd "$TOP/man" && ls *.1 *.5); do echo "/usr/share/man/man${p##*.}/$p.gz"; done
	echo /usr/share/bash-completion/completions/perflog
	echo /lib/systemd/system/perflog.service
	echo /usr/share/perflog/perftest.pml.sample
	echo /etc/perflog/perftest.pml
	echo /usr/share/doc/perflog/changelog.gz
	echo /usr/share/doc/perflog/copyright) | sort)
is "$(cat "$SCRATCH/files")" "$want" 'the package holds exactly the installed files'

dpkg-deb -e "$deb" "$SCRATCH/control"
is "$(cat "$SCRATCH/control/conffiles")" /etc/perflog/perftest.pml 'the settings are a conffile'
ok 'the unit is registered by dh_installsystemd' grep -q "deb-systemd-helper update-state 'perflog.service'" "$SCRATCH/control/postinst"
ok 'not started on install' sh -c "! grep -q deb-systemd-invoke '$SCRATCH/control/postinst'"
ok 'enabled only where it was enabled before (an upgrade)' sh -c \
	"grep -B3 \"deb-systemd-helper enable 'perflog.service'\" '$SCRATCH/control/postinst' | grep -q was-enabled"

ok 'purge removes the service'"'"'s log sets' grep -q 'rm -rf /var/lib/private/perflog' "$SCRATCH/control/postrm"
ok 'and only on purge' sh -c "grep -B3 'rm -rf /var/lib/private/perflog' '$SCRATCH/control/postrm' | grep -q '\"\$1\" = purge'"

dpkg-deb -x "$deb" "$SCRATCH/root"
is "$("$SCRATCH/root/usr/bin/perflog" --version)" "perflog $version" 'the packaged program runs'
ok 'its libraries resolve' sh -c "! ldd '$SCRATCH/root/usr/bin/perflog' | grep -q 'not found'"
like "$(grep '^ExecStart=' "$SCRATCH/root/lib/systemd/system/perflog.service")" '^ExecStart=/usr/bin/perflog start -f ' \
	'the packaged unit runs /usr/bin/perflog'
if command -v man >/dev/null; then
	like "$(MANWIDTH=80 man -l "$SCRATCH/root/usr/share/man/man1/perflog.1.gz" 2>&1 | head -1)" '^PERFLOG\(1\)' \
		'the compressed page reads with man -l'
fi
ok 'hardened: relro and now' sh -c "readelf -d '$SCRATCH/root/usr/bin/perflog' | grep -q BIND_NOW"

if command -v lintian >/dev/null; then
	changes=$(ls "$SCRATCH"/deb/*.changes 2>/dev/null | head -1)
	lintian --pedantic -I "$deb" ${changes:+"$changes"} >"$SCRATCH/lintian" 2>/dev/null
	sed 's/^/# lintian: /' "$SCRATCH/lintian"
	is "$(grep '^E:' "$SCRATCH/lintian")" "" 'lintian: no error'
	readelf -p .rodata "$SCRATCH/root/usr/bin/perflog" >"$SCRATCH/rodata" 2>/dev/null
	bad=$(grep -E '^[WIP]:' "$SCRATCH/lintian" |
		while read -r level pkg tag word rest; do
			[ "$tag" = spelling-error-in-binary ] &&
				! grep -qw -- "$word" "$SCRATCH/rodata" && continue
			echo "$level $pkg $tag"
		done | awk '{ print $3 }' | sort -u |
		while read -r tag; do
			case " $accepted " in *" $tag "*) ;; *) echo "$tag" ;; esac
		done)
	is "$bad" "" 'lintian: no warning, info or pedantic tag but the accepted ones'
else
	echo "ok $((_tap_n + 1)) # SKIP lintian is not installed"; _tap_n=$((_tap_n + 1))
fi
done_testing

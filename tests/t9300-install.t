#!/bin/sh
# tests/t9300-install.t - make install puts exactly the program, its manual
# pages, the bash completion, perflog.service and the settings where they
# belong under DESTDIR/PREFIX; make uninstall removes exactly that. The
# settings in /etc/perflog are the admin's: install never overwrites them,
# uninstall removes them only when unchanged.
. "$(dirname "$0")/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL
D=$SCRATCH/root

files() { (cd "$D" && find . \( -type f -o -type l \) | sed 's|^\./|/|' | sort); }
inst() { make -s -C "$TOP" install DESTDIR="$D" "$@" >"$SCRATCH/make.out" 2>&1; }
uninst() { make -s -C "$TOP" uninstall DESTDIR="$D" "$@" >"$SCRATCH/make.out" 2>&1; }

pages=$(cd "$TOP/man" && ls *.1 *.5 | sort)
compdir=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null ||
	echo /usr/share/bash-completion/completions)
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || echo /lib/systemd/system)

# PREFIX=/usr, as the Debian package installs
ok 'make install PREFIX=/usr DESTDIR=...' inst PREFIX=/usr
want=$( (echo /usr/bin/perflog
	for p in $pages; do echo "/usr/share/man/man${p##*.}/$p"; done
	echo "$compdir/perflog"
	echo "$unitdir/perflog.service"
	echo /usr/share/perflog/perftest.pml.sample
	echo /etc/perflog/perftest.pml) | sort)
is "$(files)" "$want" 'exactly the expected files'
ok 'the completion is where bash-completion looks (its completionsdir)' test -f "$D$compdir/perflog"
ok 'the program runs' "$D/usr/bin/perflog" --version
like "$(grep '^ExecStart=' "$D$unitdir/perflog.service")" '^ExecStart=/usr/bin/perflog start -f -c /etc/perflog/perftest.pml ' \
	'the unit runs the installed program with the installed settings'
ok 'no placeholder left in the unit' sh -c "! grep -qE '@[A-Z]+@' '$D$unitdir/perflog.service'"
ok 'the pages are readable (0644)' sh -c "test \"\$(stat -c %a '$D/usr/share/man/man1/perflog.1')\" = 644"
if command -v man >/dev/null; then
	like "$(MANPATH=$D/usr/share/man MANWIDTH=80 man perflog-run 2>/dev/null | head -1)" 'PERFLOG-RUN\(1\)' \
		'man finds perflog-run(1) in the installed tree'
fi
if command -v bash >/dev/null; then
	out=$(bash -c ". '$D$compdir/perflog' && COMP_WORDS=('$D/usr/bin/perflog' rep) COMP_CWORD=1 && _perflog && echo \"\${COMPREPLY[*]}\"")
	is "$out" report 'the installed completion completes'
fi

# the admin's settings survive a reinstall and the uninstall
echo '# changed by the admin' >>"$D/etc/perflog/perftest.pml"
ok 'make install again' inst PREFIX=/usr
ok 'install kept the changed settings' grep -q 'changed by the admin' "$D/etc/perflog/perftest.pml"
ok 'make uninstall' uninst PREFIX=/usr
is "$(files)" "/etc/perflog/perftest.pml" 'uninstall removed everything but the changed settings'
like "$(cat "$SCRATCH/make.out")" 'kept .*perftest.pml' 'and said it kept them'
rm -f "$D/etc/perflog/perftest.pml"

# an unchanged installation goes away entirely; PREFIX=/usr/local
ok 'make install (PREFIX=/usr/local)' inst
ok 'the unit of a /usr/local installation runs /usr/local/bin/perflog' \
	grep -q '^ExecStart=/usr/local/bin/perflog ' "$D/usr/local/lib/systemd/system/perflog.service"
ok 'its completion goes under /usr/local/share' test -f "$D/usr/local/share/bash-completion/completions/perflog"
n=$(files | wc -l)
is "$n" "$(echo "$want" | wc -l)" 'as many files as with PREFIX=/usr'
ok 'make uninstall' uninst
is "$(files)" "" 'nothing left'
ok 'the directories of its own are gone' sh -c "test ! -e '$D/usr/local/share/perflog' && test ! -e '$D/etc/perflog'"
done_testing

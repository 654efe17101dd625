#!/bin/sh
# make deb: the Debian package, built with debhelper (debian/) from a copy
# of the source in build/deb/perflog-VERSION, so nothing is written beside
# the source tree (dpkg-buildpackage puts its results in the parent of the
# tree it builds). Result: build/deb/perflog_VERSION_ARCH.deb (or under
# $DEB_OUT), its path printed last. Needs dpkg-dev, debhelper and the build dependencies of
# debian/control (tests/deps.sh check installs them).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
version=$(sed -n 's/^#define PERFLOG_VERSION "\(.*\)"/\1/p' common/util.h)
deb_version=$(dpkg-parsechangelog -S Version)
if [ "$version" != "$deb_version" ]; then
	echo "make deb: debian/changelog is at $deb_version, the program at $version" >&2
	exit 1
fi
out=${DEB_OUT:-$top/build/deb}
src=$out/perflog-$version
rm -rf "$out"
mkdir -p "$src"
# the sources as they are now (tracked and new files, not what .gitignore
# leaves out: build output, log sets)
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\n" "$f"; done' sh >"$out/files"
else
	find . -path ./build -prune -o -path ./logs -prune -o -type f -print | sed 's|^\./||' >"$out/files"
	find logs -maxdepth 1 -type f >>"$out/files"
fi
tar -cf - -T "$out/files" | tar -xf - -C "$src"
cd "$src"
DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=2}" \
	dpkg-buildpackage -us -uc -b >"$out/build.log" 2>&1 || {
	tail -30 "$out/build.log" >&2
	echo "make deb: dpkg-buildpackage failed; see $out/build.log" >&2
	exit 1
}
ls "$out"/perflog_"$version"_*.deb

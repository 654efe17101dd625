#!/bin/sh
# tests/t9310-deps.t - `make check` and `make demo` each install what is
# missing before they build (issue: make check alone on a fresh machine
# failed to build), through the one list in tests/deps.sh. A fake
# dpkg-query says which packages are missing and a fake apt-get records
# what it was asked; nothing is installed for real.
. "$(dirname "$0")/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL
[ "$(id -u)" = 0 ] || skip_all "the fake apt-get path is root's (non-root goes through sudo)"
F=$SCRATCH/fakebin
mkdir -p "$F"
cat >"$F/dpkg-query" <<'SH'
#!/bin/sh
# dpkg-query -W -f='${Package} ${Status}\n' PKG...: each PKG "installed"
# unless it is in $FAKE_MISSING, which is not found, as dpkg-query says
# of a package it does not know (deps.sh asks for the whole list at once)
st=0
for p; do
	case $p in -*) continue ;; esac
	case " $FAKE_MISSING " in
	*" $p "*) echo "dpkg-query: no packages found matching $p" >&2; st=1 ;;
	*) printf '%s install ok installed\n' "$p" ;;
	esac
done
exit $st
SH
cat >"$F/apt-get" <<'SH'
#!/bin/sh
echo "$*" >>"$APT_LOG"
SH
chmod +x "$F/dpkg-query" "$F/apt-get"
export APT_LOG=$SCRATCH/apt.log

: >"$APT_LOG"
ok 'nothing missing: deps.sh succeeds' env PATH="$F:$PATH" FAKE_MISSING= sh "$TOP/tests/deps.sh" check
is "$(cat "$APT_LOG")" "" 'nothing missing: apt-get is not called'

: >"$APT_LOG"
ok 'librrd-dev and tmux missing: deps.sh check succeeds' \
	env PATH="$F:$PATH" FAKE_MISSING="librrd-dev tmux" sh "$TOP/tests/deps.sh" check
is "$(cat "$APT_LOG")" "update -qq
install -y -qq --no-install-recommends librrd-dev tmux" 'apt-get update, then install exactly what is missing'

: >"$APT_LOG"
env PATH="$F:$PATH" FAKE_MISSING="librrd-dev tmux" sh "$TOP/tests/deps.sh" build >/dev/null
like "$(cat "$APT_LOG")" 'install .* librrd-dev$' 'deps.sh build: only the build packages (tmux is for the tests)'

mkdir -p "$SCRATCH/nodpkg"
ln -s "$(command -v echo)" "$SCRATCH/nodpkg/echo" 2>/dev/null
out=$(PATH=$SCRATCH/nodpkg /bin/sh "$TOP/tests/deps.sh" check 2>&1); st=$?
is "$st" 0 'not Debian: deps.sh does not fail'
like "$out" 'not a Debian system' 'and says what to install'

# make check: the packages first, the build after
first=$(cd "$TOP" && make -n check 2>/dev/null | grep -nE 'deps\.sh|^(cc|gcc|clang) ' | head -1)
like "$first" 'tests/deps\.sh check' 'make check runs tests/deps.sh before it compiles anything'
ok 'make demo goes through tests/deps.sh build' grep -q '^sh tests/deps.sh build' "$TOP/tests/demo.sh"
ok 'CI installs the same list' grep -q 'apt-get install .*tests/deps.sh list check' "$TOP/.ci/run"
done_testing

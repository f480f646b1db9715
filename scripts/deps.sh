#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deps: install what the build and the guest need, once.  Not root and
# something missing: name the packages and fail.
#
# The kernel source is Debian's linux-source-7.3 from trixie-backports.  It
# is fetched with a private apt state (lists, cache and source list under
# build/debian), so the system's own package sources are not touched, and
# unpacked there with dpkg-deb.  KSRC=TARBALL skips all of this.

set -euo pipefail
. "$(dirname "$0")/common.sh"

pkgs="qemu-system-x86 busybox-static flex bison bc libelf-dev libssl-dev
      cpio ccache perl xz-utils gcc make file kmod rsync sparse python3-ply"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "[pm-async] error: missing packages:$missing" >&2
		echo "[pm-async] install them as root: apt-get install --no-install-recommends$missing" >&2
		exit 1
	fi
	say "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# A first run needs about 8 GB under build/ (the kernel source, both trees
# and two kernels: 6.7 GB after a clean clone's make check); later runs
# rebuild in place.  Too little space fails here, with the numbers, rather
# than as a half-written git object or kernel image further on.
mkdir -p "$BUILD"
need=2
[ -d "$BUILD/patched/src" ] || need=8
free=$(df -Pk "$BUILD" | awk 'NR == 2 { print int($4 / 1048576) }')
[ "${free:-0}" -ge $need ] ||
	die "$free GB free on the file system of $BUILD, $need GB needed (a first build: kernel source, two trees, two kernels); free some space"

if [ -n "${KSRC:-}" ]; then
	[ -f "$KSRC" ] || die "KSRC=$KSRC: no such file"
	exit 0
fi
[ -f "$KTAR" ] && exit 0

# The Debian archive the machine already uses (its first deb.debian.org-like
# "debian" URI), else the default mirror.
mirror=$(grep -hsoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list \
	 /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources |
	 head -n 1 | tr -d ' ' || true)
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$DEBDIR/lists/partial" "$DEBDIR/cache/archives/partial"
echo "deb ${mirror%/} $KSUITE main" >"$DEBDIR/sources.list"
apt=(-o "Dir::State::Lists=$DEBDIR/lists" -o "Dir::Etc::SourceList=$DEBDIR/sources.list"
     -o Dir::Etc::SourceParts=/dev/null -o "Dir::Cache=$DEBDIR/cache"
     -o APT::Sandbox::User=root)
say "fetching the package lists of $KSUITE (${mirror%/}, private apt state in $DEBDIR)"
apt-get "${apt[@]}" update -qq >"$DEBDIR/update.log" 2>&1 ||
	{ cat "$DEBDIR/update.log" >&2; die "apt-get update for $KSUITE failed"; }
avail=$(apt-cache "${apt[@]}" madison "$KPKG" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}')
[ -n "$avail" ] || die "the archive serves no $KPKG in $KSUITE: take a 7.3.y tarball and run with KSRC=/path/to/linux-7.3.y.tar.xz"
ver=$KDEBVER
if ! grep -qxF -- "$ver" <<<"$avail"; then
	ver=$(head -n 1 <<<"$avail")
	say "warning: $KPKG $KDEBVER is no longer served; taking the newest, $ver"
	say "  (the series may need refreshing for it; PMA_KERNEL_DEBVER=VERSION picks another,"
	say "   KSRC=/path/to/linux-7.3.y.tar.xz uses a tarball instead)"
fi
say "downloading $KPKG $ver (about 170 MB)"
(cd "$DEBDIR" && apt-get "${apt[@]}" download -qq "$KPKG=$ver") ||
	die "download of $KPKG $ver failed"
deb=$(ls "$DEBDIR"/"${KPKG}"_*.deb | head -n 1)
rm -rf "$DEBDIR/pkg"
dpkg-deb -x "$deb" "$DEBDIR/pkg"
[ -f "$KTAR" ] || die "$deb holds no $KTAR"
dpkg-deb -f "$deb" Version >"$DEBDIR/pkg.version"
rm -f "$deb"
say "kernel source: $KTAR ($ver)"

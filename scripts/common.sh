# SPDX-License-Identifier: GPL-2.0
# Shared settings for the pm-async harness scripts.  Sourced, not run.

TOP=${PMA_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
HARNESS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=${PMA_BUILD:-$TOP/build}
# Both trees sit at the same depth as their object directories, so the
# compiler sees the same relative paths and ccache (CCACHE_BASEDIR=$BUILD)
# shares objects between stock and patched, and between clones.
SRC=$BUILD/patched/src		# patched tree (git, branch pm-async)
SRC_STOCK=$BUILD/stock/src	# worktree at the end of the lab part
# The kernel source: Debian's linux-source-7.3 from trixie-backports,
# fetched by "make deps" with a private apt state (the system's package
# sources stay as they are) and unpacked under build/debian.  KSRC=TARBALL
# takes a kernel tarball instead (its version is then its file name).
KPKG=linux-source-7.3
KSUITE=trixie-backports
# The Debian version the series is made for; "make deps" takes the newest
# 7.3.y the archive serves when this one is gone, and says so.
KDEBVER=${PMA_KERNEL_DEBVER:-7.3.4-1~bpo13+1}
DEBDIR=$BUILD/debian
KTAR=${KSRC:-${PMA_KERNEL_TAR:-$DEBDIR/pkg/usr/src/$KPKG.tar.xz}}

# The line the lab's watchdog prints on a hung transition (pr_emerg, so
# also without CONFIG_BUG): qemu-run.sh stops the guest on it,
# guest-checks.sh names it.
WATCHDOG_HUNG='pm_async_test: watchdog: hung system transition'

# check_cmd ENV STREAM...: the guest command that runs each STREAM with
# /pma/check.sh, one call per stream (busybox ash once went astray in a
# loop over the streams: guest/check.sh), as one KTAP document: its header
# here, each call numbered by PMA_STREAM_NR.  ENV (VAR=VALUE words, or
# empty) is exported first.  The command exits 1 if a stream failed.
check_cmd()
{
	local env=$1 n=0 s cmd

	shift
	cmd="echo 'KTAP version 1'; echo 1..$#; rc=0; ${env:+export $env; }"
	for s; do
		n=$((n + 1))
		cmd+="PMA_STREAM_NR=$n sh /pma/check.sh $s || rc=1; "
	done
	echo "${cmd}exit \$rc"
}

say() { printf '[pm-async] %s\n' "$*" >&2; }
die() { printf '[pm-async] error: %s\n' "$*" >&2; exit 1; }

# each_kernel PARALLEL FN KERNEL...: FN KERNEL for every kernel, side by
# side when PARALLEL is 1, else one after the other; returns when all did.
each_kernel()
{
	local par=$1 fn=$2 k p pids=()

	shift 2
	for k; do
		if [ "$par" = 1 ]; then
			"$fn" "$k" &
			pids+=($!)
		else
			"$fn" "$k"
		fi
	done
	for p in "${pids[@]}"; do wait "$p"; done
}

# Debian source version, e.g. 7.3.4-1~bpo13+1.
debian_version()
{
	if [ -f "$BUILD/VERSION" ]; then
		cat "$BUILD/VERSION"
	else
		package_version
	fi
}

package_version()
{
	[ -z "${PMA_KERNEL_VERSION:-}" ] || { echo "$PMA_KERNEL_VERSION"; return; }
	if [ -n "${KSRC:-}" ]; then
		# linux-7.3.4.tar.xz -> 7.3.4-1 (a revision, so localversion works)
		local b=${KSRC##*/}

		b=${b%.tar*}
		echo "${b#linux-}-1"
		return
	fi
	cat "$DEBDIR/pkg.version" 2>/dev/null || echo unknown
}

# Kernel release suffix: the Debian revision plus our label, "~" is not
# welcome in a release string.
localversion()
{
	local rev=${1#*-}

	printf -- '-%s-pmasync' "${rev//\~/.}"
}

# The groups of the kselftest's cases (and of the churn's) that fail on
# the stock kernel, mainline 7.3 with the lab: the series' fixes it lacks
# (make check's and series-check's stock boots; scripts/guest/check.sh).
STOCK_XFAIL="no_pm add_during move_order dc_link link_during link_del skip_resume_abort move_during no_pm_below no_pm_late"

# Source, object directory and image of kernel $1 (stock|patched) in
# flavour $2 (test|bench).
srcdir() { echo "$BUILD/$1/src"; }
objdir() { echo "$BUILD/$1/obj-$2"; }
bzimage() { echo "$BUILD/$1/obj-$2/arch/x86/boot/bzImage"; }

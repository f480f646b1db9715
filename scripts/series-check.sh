#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series-check: apply the postings of out/series (make series), in
# order, with git am onto a fresh Debian 7.3 tree, one patch at a time;
# then, unless SERIES_CHECK_BOOT=0 (and only with the builds), run the
# kselftest at the end of each posting that has it, on a test kernel of
# that tree (it must pass: no failure), and on the stock kernel with the
# harness's expected failures (STOCK_XFAIL, see scripts/guest/check.sh);
# after each patch run
# checkpatch --strict and kernel-doc on what it touches and, unless
# SERIES_CHECK_BUILD=0, build the kernel (bisectability).  After the last
# patch drivers/base/power is built with W=1 (and sparse, C=1, when
# installed) and, with sphinx-build installed, the HTML docs of
# Documentation/power.  Any problem fails the run.

set -uo pipefail
. "$(dirname "$0")/common.sh"

build=${SERIES_CHECK_BUILD:-1}
dir=$BUILD/series-check
src=$dir/src
obj=$dir/obj-test
series=$TOP/out/series
[ -d "$series" ] || die "no $series: run 'make series' first"
"$HARNESS/tree.sh" || exit 1

# A fresh tree: a worktree of the unpacked Debian source at "base".
if [ -e "$src/.git" ]; then
	git -C "$src" am --abort >/dev/null 2>&1
	git -C "$src" checkout -q -f --detach base || die "cannot reset $src"
	git -C "$src" clean -q -f -d -x
else
	mkdir -p "$dir"
	git -C "$SRC" worktree add -q --detach "$src" base || die "cannot create $src"
fi

cc=gcc
command -v ccache >/dev/null && cc="ccache gcc" && export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1
kmake() { make -s -C "$src" O="$obj" CC="$cc" LOCALVERSION=-series-check "$@"; }

problems=0
bad() { say "FAIL: $*"; problems=$((problems + 1)); }
# scripts/kernel-doc is Perl up to 6.15 and Python from 6.16 on.
kdoc()
{
	if head -n 1 scripts/kernel-doc | grep -q python; then
		python3 scripts/kernel-doc "$@"
	else
		perl scripts/kernel-doc "$@"
	fi
}

# The postings in order, each one's patches in order.
patches_in_order()
{
	local d

	for d in $(ls -d "$series"/[0-9]*-*/ 2>/dev/null | sort -V); do
		ls "$d"0*.patch | grep -v '/0000-cover-letter\.patch$'
	done
}

# The commit at the end of each posting, "NAME COMMIT" per line.
ends=$dir/posting-ends
: >"$ends"

n=0
for p in $(patches_in_order); do
	n=$((n + 1))
	[ "$p" = "$(ls "$(dirname "$p")"/0*.patch | tail -n 1)" ] && last=1 || last=0
	name=$(basename "$(dirname "$p")")/$(basename "$p")
	say "== $name"
	if ! git -C "$src" am -q --whitespace=error-all "$p"; then
		git -C "$src" am --abort >/dev/null 2>&1
		bad "$name does not apply with git am"
		break
	fi
	[ "$last" = 0 ] || echo "$(basename "$(dirname "$p")") $(git -C "$src" rev-parse HEAD)" >>"$ends"
	# The Debian tree has no upstream history, so the commit ids that
	# changelogs cite (Fixes:, "commit ... (...)") cannot be looked up
	# here; they were checked against the linux-pm list archive.
	out=$("$src/scripts/checkpatch.pl" --strict -q --no-summary \
		--ignore UNKNOWN_COMMIT_ID "$p" 2>&1 |
		grep -v 'spdxcheck.py\|from ply import\|ModuleNotFoundError\|Traceback\|File ".*spdxcheck' || true)
	[ -z "$out" ] || { echo "$out" | sed 's/^/    /'; bad "$name: checkpatch --strict"; }
	# kernel-doc: only warnings the patch adds count (main.c, device.h
	# and others already have some); file names and line numbers are left
	# out to compare ("FILE:LINE: warning: ..." in Perl's kernel-doc,
	# "Warning: FILE:LINE ..." in the Python one of 6.16 and later).
	files=$(git -C "$src" diff-tree -r --no-commit-id --name-only --diff-filter=AM HEAD -- '*.c' '*.h')
	for f in $files; do
		git -C "$src" show "HEAD~1:$f" >"$dir/kd.old" 2>/dev/null || : >"$dir/kd.old"
		(cd "$src" && kdoc -none -Wall "$dir/kd.old" 2>&1) |
			sed -E 's/^([A-Za-z]+: )?[^ ]*:[0-9]+:? /\1/' | sort -u >"$dir/kd.before"
		(cd "$src" && kdoc -none -Wall "$f" 2>&1) |
			sed -E 's/^([A-Za-z]+: )?[^ ]*:[0-9]+:? /\1/' | sort -u >"$dir/kd.after"
		kd=$(comm -13 "$dir/kd.before" "$dir/kd.after")
		[ -z "$kd" ] || { echo "$kd" | sed 's/^/    /'; bad "$name: new kernel-doc warnings in $f"; }
	done
	[ "$build" = 1 ] || continue
	if [ ! -f "$obj/.config" ]; then
		mkdir -p "$obj"
		kmake tinyconfig >/dev/null
	fi
	# The fragments again after each patch: an option a later patch adds
	# (CONFIG_TEST_PM_ASYNC, with the lab posting) is dropped while the
	# tree lacks it and set once the patch that adds it is in.
	cat "$TOP/configs/base.config" "$TOP/configs/test.config" >"$obj/frag.config"
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$obj/frag.config" >/dev/null 2>&1
	kmake olddefconfig >/dev/null 2>&1
	say "   building after $name"
	kmake -j"$(nproc)" bzImage modules 2>"$dir/build.err" ||
		{ tail -n 20 "$dir/build.err" | sed 's/^/    /'; bad "$name: kernel does not build"; }
	grep -q 'warning:' "$dir/build.err" &&
		{ grep -A3 'warning:' "$dir/build.err" | head -n 20 | sed 's/^/    /'; bad "$name: new build warnings"; }
done

[ "$n" -gt 0 ] || bad "no patches in $series"
# Warnings count in the files the series touches; the ones already in
# the tree (runtime.c, wakeup.c) are not ours to judge.
ours=$(git -C "$src" diff --name-only base..HEAD -- drivers/base/power | sed 's|^|/|' | paste -sd'|')
if [ "$problems" = 0 ] && [ "$build" = 1 ]; then
	say "== W=1 on drivers/base/power"
	touch "$src"/drivers/base/power/*.c
	kmake W=1 drivers/base/power/ 2>"$dir/w1.err" || bad "W=1 build failed"
	grep -E "($ours):[0-9]+.*warning:" "$dir/w1.err" | head -n 30 | sed 's/^/    /' | grep . &&
		bad "W=1 warnings in the series' files"
	if command -v sphinx-build >/dev/null; then
		# The documents the series adds; the rest of
		# Documentation/power is not ours.
		say "== htmldocs of Documentation/power (Sphinx)"
		# From scratch: Sphinx only warns about the pages it rebuilds.
		rm -rf "$obj/Documentation/output"
		kmake SPHINXDIRS=power htmldocs >"$dir/docs.log" 2>&1 ||
			{ tail -n 20 "$dir/docs.log" | sed 's/^/    /'; bad "htmldocs failed"; }
		grep -E "pm-async[a-z-]*\.rst.*(WARNING|ERROR)" "$dir/docs.log" |
			head -n 30 | sed 's/^/    /' | grep . &&
			bad "Sphinx warnings in the series' documents"
		for f in pm-async-lab; do
			[ -s "$obj/Documentation/output/power/$f.html" ] ||
				bad "htmldocs wrote no power/$f.html"
		done
	fi
	if command -v sparse >/dev/null; then
		say "== sparse (C=1) on drivers/base/power"
		touch "$src"/drivers/base/power/*.c
		kmake C=1 drivers/base/power/ 2>"$dir/sparse.err" || bad "C=1 build failed"
		grep -E "($ours):[0-9]+.*(warning|error):" "$dir/sparse.err" | head -n 30 | sed 's/^/    /' | grep . &&
			bad "sparse warnings in the series' files"
	fi
fi

# ksft_boot KERNEL NAME [XFAIL]: the kselftest stream (scripts/guest/
# check.sh) on KERNEL's test flavour; with XFAIL, the groups of cases that
# must fail there.  Passes when the stream ran to its end with no failure.
ksft_boot()
{
	local k=$1 name=$2 xf=${3:-} o=$dir/boot-$2 cmd rc p f sk

	say "== the kselftest on the $k test kernel ($name)"
	if ! "$HARNESS/build-kernel.sh" "$k" test >"$dir/build-$k.log" 2>&1 ||
	   ! "$HARNESS/mkinitramfs.sh" "$k" test >>"$dir/build-$k.log" 2>&1; then
		tail -n 20 "$dir/build-$k.log" | sed 's/^/    /'
		bad "$name: the $k test kernel does not build"
		return
	fi
	cmd="sh /pma/check.sh kselftest"
	[ -z "$xf" ] || cmd="PM_ASYNC_XFAIL='$xf' $cmd"
	rm -rf "$o"
	mkdir -p "$o"
	"$HARNESS/qemu-run.sh" -k "$k" -f test -t "${SERIES_CHECK_TIMEOUT:-1500}" -q \
		-a no_console_suspend -o "$o" -- "$cmd" >/dev/null 2>&1
	rc=$?
	TAP_TOTALS=$o/totals "$HARNESS/tap-summary.sh" -e kselftest "$name" \
		"$o/results.log" >"$o/summary" 2>&1
	read -r p f sk <"$o/totals" || { p=0 f=1 sk=0; }
	sed 's/^/    /' "$o/summary"
	if [ "$rc" != 0 ] || [ "$f" != 0 ] || [ "$p" = 0 ]; then
		bad "$name: the kselftest on $k: $p passed, $f failed, $sk skipped (guest exit $rc, $o)"
	else
		say "   $name: $p passed, $sk skipped"
	fi
}

if [ "$problems" = 0 ] && [ "$build" = 1 ] && [ "${SERIES_CHECK_BOOT:-1}" = 1 ]; then
	final=$(git -C "$SRC" rev-parse "pm-async^{tree}")
	booted=0
	while read -r pname c; do
		git -C "$src" cat-file -e "$c:tools/testing/selftests/pm_async/pm_async.sh" 2>/dev/null ||
			continue
		if [ "$(git -C "$src" rev-parse "$c^{tree}")" = "$final" ]; then
			k=patched
		else
			# A test kernel of the tree at the end of this posting.
			k=posting-${pname#*-}
			if [ -e "$BUILD/$k/src/.git" ]; then
				git -C "$BUILD/$k/src" checkout -q -f --detach "$c"
			else
				mkdir -p "$BUILD/$k"
				git -C "$SRC" worktree add -q --detach "$BUILD/$k/src" "$c"
			fi
		fi
		ksft_boot "$k" "$pname"
		booted=$((booted + 1))
	done <"$ends"
	ksft_boot stock stock "$STOCK_XFAIL"
fi

if [ "$problems" = 0 ]; then
	extra=""
	if [ "$build" = 1 ]; then
		extra=", each builds, W=1 clean"
		command -v sparse >/dev/null && extra="$extra, sparse clean"
		command -v sphinx-build >/dev/null && extra="$extra, docs build clean"
		[ "${SERIES_CHECK_BOOT:-1}" = 1 ] &&
			extra="$extra, the kselftest passes at the end of the $booted posting(s) that have it and fails as expected on stock"
	fi
	say "series-check: $n patches in $(ls -d "$series"/[0-9]*-*/ | wc -l) postings apply with git am, checkpatch --strict and kernel-doc clean$extra"
else
	say "series-check: $problems problem(s)"
fi
[ "$problems" = 0 ]

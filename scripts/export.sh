#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make export: regenerate patches/ and the overlay files from the commits
# in build/src (base..pm-async).  This is the only way edits travel from the
# tree back to the repository, so nothing is copied in two directions.
#
# Rules: a file a commit adds is an overlay file and is kept whole in the
# repository at its kernel path; a later commit must not modify it (squash
# the fix into the commit that adds it).  Everything else a commit changes
# goes into its patch.  The "stock" tag marks the end of the lab part.

set -euo pipefail
. "$(dirname "$0")/common.sh"

# Another worktree of the same repository may be exported too (for example
# one where a change was prepared while build/patched was busy):
#   PMA_EXPORT_SRC=DIR      the tree to export instead of build/patched/src
#   PMA_EXPORT_STOCK=REV    the end of the lab part there (default: tag stock)
#   PMA_EXPORT_OVERLAY=0    leave the overlay files of the repository alone
SRC=${PMA_EXPORT_SRC:-$SRC}
stock_rev=${PMA_EXPORT_STOCK:-stock}
copy_overlay=${PMA_EXPORT_OVERLAY:-1}

[ -e "$SRC/.git" ] || die "no tree in $SRC: run 'make tree' first"
if [ -n "$(git -C "$SRC" status --porcelain --untracked-files=no)" ]; then
	die "$SRC has uncommitted changes: commit them first"
fi
git -C "$SRC" merge-base --is-ancestor "$stock_rev" HEAD ||
	die "'$stock_rev' (end of the lab part) is not an ancestor of HEAD in $SRC"

# The series claims a file the commit adds, or the highest directory of it
# that the series creates, so that new files there need no series edit.
claim()
{
	local f=$1 d=$1 top=""

	while d=$(dirname "$d") && [ "$d" != . ]; do
		git -C "$SRC" cat-file -e "base:$d" 2>/dev/null && break
		top=$d
	done
	if [ -n "$top" ]; then echo "#+ $top/"; else echo "#+ $f"; fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/patches"
declare -A owner=()
n=0
stock=$(git -C "$SRC" rev-parse "$stock_rev")
[ "$stock" = "$(git -C "$SRC" rev-parse base)" ] && echo "#stock" >>"$tmp/series.body"

for c in $(git -C "$SRC" rev-list --reverse base..HEAD); do
	n=$((n + 1))
	subj=$(git -C "$SRC" log -1 --format=%f "$c" | cut -c1-52)
	name=$(printf '%04d-%s.patch' "$n" "$subj")
	added=$(git -C "$SRC" diff-tree -r --no-commit-id --diff-filter=A --name-only "$c")
	changed=$(git -C "$SRC" diff-tree -r --no-commit-id --diff-filter=a --name-only "$c")
	for f in $changed; do
		[ -z "${owner[$f]:-}" ] ||
			die "commit $(git -C "$SRC" log -1 --format='%h ("%s")' "$c") modifies $f, which ${owner[$f]} adds: squash it into that commit"
	done
	excl=()
	for f in $added; do
		owner[$f]=$name
		excl+=(":(exclude)$f")
	done
	# A range, not "-1": with a pathspec "-1" would pick the last commit
	# that touches the paths, not this one.
	git -C "$SRC" format-patch --stdout --zero-commit --no-signature \
		"$c^..$c" -- . "${excl[@]}" >"$tmp/patches/$name"
	if [ ! -s "$tmp/patches/$name" ]; then
		# Only overlay files: keep the changelog, with an empty diff.
		git -C "$SRC" format-patch -1 --stdout --zero-commit \
			--no-signature "$c" | sed '/^---$/q' >"$tmp/patches/$name"
	fi
	{
		echo "$name"
		for f in $added; do claim "$f"; done | awk '!seen[$0]++'
	} >>"$tmp/series.body"
	[ "$c" = "$stock" ] && echo "#stock" >>"$tmp/series.body"
	say "  $name${added:+ (+$(echo "$added" | wc -l) overlay files)}"
done

# Replace patches/ and the overlay files in one go.
rm -f "$TOP"/patches/*.patch
cp "$tmp"/patches/*.patch "$TOP/patches/" 2>/dev/null || true
{
	# Keep the comment block that opens the series.
	sed -n '1,/^$/p' "$TOP/patches/series" 2>/dev/null | grep -v '^#stock' | grep '^#' || true
	echo
	cat "$tmp/series.body"
} >"$tmp/series"
mv "$tmp/series" "$TOP/patches/series"
[ "$copy_overlay" = 1 ] || {
	say "exported $n patches to patches/ (overlay files left alone)"
	exit 0
}
for f in "${!owner[@]}"; do
	mkdir -p "$(dirname "$TOP/$f")"
	git -C "$SRC" show "HEAD:$f" >"$TOP/$f"
done
say "exported $n patches to patches/; review with 'git -C $TOP diff'"
# The tree now matches the repository: record it so 'make tree' is a no-op.
"$HARNESS/tree.sh"

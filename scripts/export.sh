#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make export: regenerate patches/ and the overlay files from the commits
# in build/src (base..pm-async).  This is the only way edits travel from the
# tree back to the repository, so nothing is copied in two directions.
#
# Rules: a file a commit adds is an overlay file and is kept whole, in its
# last version, in the repository at its kernel path; a later commit that
# modifies it carries that change as a diff in its patch (a fix brings its
# kselftest cases along; tree.sh undoes those diffs to find the version the
# adding commit had).  Everything else a commit changes goes into its
# patch.  The postings ("#posting" lines) and the end of the
# stock kernel's part ("#stock") stay where patches/series has them: a
# "#posting" line before the patch it preceded, "#stock" after the patch it
# followed (patches are matched by subject, without their numbers).

set -euo pipefail
. "$(dirname "$0")/common.sh"

# Another worktree of the same repository may be exported too (for example
# one where a change was prepared while build/patched was busy):
#   PMA_EXPORT_SRC=DIR      the tree to export instead of build/patched/src
#   PMA_EXPORT_OVERLAY=0    leave the overlay files of the repository alone
SRC=${PMA_EXPORT_SRC:-$SRC}
copy_overlay=${PMA_EXPORT_OVERLAY:-1}

[ -e "$SRC/.git" ] || die "no tree in $SRC: run 'make tree' first"
if [ -n "$(git -C "$SRC" status --porcelain --untracked-files=no)" ]; then
	die "$SRC has uncommitted changes: commit them first"
fi

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
declare -A owner=() before=() after=()
n=0

# The structure lines of patches/series, keyed by the patch they precede
# ("#posting") or follow ("#stock"), its name without the number.
key() { local k=${1#[0-9][0-9][0-9][0-9]-}; echo "${k%.patch}"; }
prev="" pend=""
while IFS= read -r line; do
	case $line in
	"#posting"*) pend="$pend$line"$'\n' ;;
	"#stock") after[${prev:-^}]="${after[${prev:-^}]:-}#stock"$'\n' ;;
	"#"* | "") ;;
	*)
		prev=$(key "${line%%[ 	]*}")
		[ -z "$pend" ] || before[$prev]=$pend
		pend=""
		;;
	esac
done < <(sed -n '/^$/,$p' "$TOP/patches/series" 2>/dev/null)
[ -z "$pend" ] || die "patches/series ends with a #posting line"
placed=0
printf '%s' "${after[^]:-}" >>"$tmp/series.body"
[ -z "${after[^]:-}" ] || placed=$((placed + 1))

for c in $(git -C "$SRC" rev-list --reverse base..HEAD); do
	n=$((n + 1))
	subj=$(git -C "$SRC" log -1 --format=%f "$c" | cut -c1-52)
	name=$(printf '%04d-%s.patch' "$n" "$subj")
	added=$(git -C "$SRC" diff-tree -r --no-commit-id --diff-filter=A --name-only "$c")
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
	k=$(key "$name")
	{
		[ -z "${before[$k]:-}" ] || { printf '%s' "${before[$k]}"; placed=$((placed + 1)); }
		echo "$name"
		for f in $added; do claim "$f"; done | awk '!seen[$0]++'
		[ -z "${after[$k]:-}" ] || { printf '%s' "${after[$k]}"; placed=$((placed + 1)); }
	} >>"$tmp/series.body"
	say "  $name${added:+ (+$(echo "$added" | wc -l) overlay files)}"
done

[ "$placed" = $((${#before[@]} + ${#after[@]})) ] ||
	die "a #posting or #stock line of patches/series lost the patch it was next to (renamed or dropped): put it back by hand"

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

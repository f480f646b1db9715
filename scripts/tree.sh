#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make tree: lay Debian's 7.3 source out as a git repository under build/
# and bring it up to date with the series (patches/series + overlay files).
#
# build/patched/src  the patched tree, branch "pm-async"
# build/stock/src    a worktree of the same repository: the base with the
#                    lab alone (tag "stock")
#
# The series is a list of postings ("#posting NAME" lines; a series without
# one is a single posting), each applying on top of the ones before it.
# "#stock" ends the stock kernel's part: the patches of its posting up to
# that line.  When that posting is the first, the stock commits are the
# first commits of the patched branch; otherwise they are a chain of their
# own on the base (the lab applies to a pristine tree as well).
#
# The commits are built with git plumbing in a private index, so the work
# trees are only touched by the final checkout, which rewrites just the
# files that changed: an incremental kernel build stays incremental.
# A tree with uncommitted changes or with commits that patches/ does not
# hold is never overwritten (see "make export").

set -euo pipefail
. "$(dirname "$0")/common.sh"

SERIES=$TOP/patches/series
STAMP=$BUILD/tree.stamp

[ -f "$KTAR" ] || die "$KTAR not found: run 'make deps' (package $KPKG)"
mkdir -p "$BUILD/patched" "$BUILD/stock"

unpack_base()
{
	local ver

	ver=$(package_version)
	say "unpacking $KPKG $ver into $SRC (once)"
	rm -rf "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -C "$SRC.tmp" --strip-components=1 -xf "$KTAR"
	say "recording the base commit"
	git -C "$SRC.tmp" init -q -b base-branch
	git -C "$SRC.tmp" config core.autocrlf false
	git -C "$SRC.tmp" config gc.auto 0
	# Debian's .gitignore ignores every top-level entry: add with -f.
	git -C "$SRC.tmp" add -A -f .
	git -C "$SRC.tmp" commit -q -m "Debian $KPKG $ver" --no-verify
	git -C "$SRC.tmp" tag base
	mv "$SRC.tmp" "$SRC"
	echo "$ver" >"$BUILD/VERSION"
}

# Emit "patch<TAB>overlay paths", "#posting NAME" and "#stock" lines from
# the series file.
parse_series()
{
	awk '
		/^[ \t]*$/ { next }
		/^#stock[ \t]*$/ { flush(); print "#stock"; next }
		/^#posting[ \t]+[^ \t]/ { flush(); print "#posting " $2; next }
		/^#\+/ {
			if (cur == "") { print "error: overlay line " NR " before any patch" > "/dev/stderr"; exit 1 }
			sub(/^#\+[ \t]*/, ""); ov = ov " " $0; next
		}
		/^#/ { next }
		{ flush(); cur = $1 }
		function flush() { if (cur != "") print cur "\t" ov; cur = ""; ov = "" }
		END { flush() }
	' "$SERIES"
}

# Every file under the overlay roots must be claimed by exactly one patch.
# tools/power/pm-async is not overlay: the project's user tools live there
# and stay out of the kernel series.
overlay_files()
{
	local roots="drivers include Documentation tools kernel lib"
	local own=tools/power/pm-async

	cd "$TOP" || return
	if env -u GIT_INDEX_FILE git rev-parse --git-dir >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		env -u GIT_INDEX_FILE git ls-files -co --exclude-standard -- $roots ":!$own"
	else
		# shellcheck disable=SC2086
		find $roots -path "$own" -prune -o -type f -print 2>/dev/null || true
	fi | sort -u
}

# Expand the overlay paths of one patch (directories end in "/").
expand_overlay()
{
	local p

	for p in "$@"; do
		if [ -d "$TOP/$p" ]; then
			overlay_files | grep -F -- "${p%/}/" || true
		elif [ -f "$TOP/$p" ]; then
			echo "$p"
		else
			die "series: overlay path '$p' does not exist in the repository"
		fi
	done
}

stamp_now()
{
	{
		cat "$SERIES" "$HARNESS/tree.sh"
		cat "$TOP"/patches/*.patch 2>/dev/null || true
		overlay_files | while read -r f; do
			[ -f "$TOP/$f" ] && { echo "$f"; cat "$TOP/$f"; }
		done
	} | sha1sum | cut -d' ' -f1
}

# overlay_blob FILE PATCH: the blob of the overlay file FILE as PATCH adds
# it.  The repository keeps FILE's last version; a later patch may change
# it with a diff of its own (the kselftest grows with the fixes), so those
# diffs are undone, the last one first.
overlay_blob()
{
	local f=$1 patch=$2 later q d

	later=$(awk -v p="$patch" 'found { print } $0 == p { found = 1 }' "$order" |
		while read -r q; do
			grep -qxF "diff --git a/$f b/$f" "$TOP/patches/$q" && echo "$q"
		done)
	if [ -z "$later" ]; then
		git -C "$SRC" hash-object -w "$TOP/$f"
		return
	fi
	d=$(mktemp -d)
	mkdir -p "$d/$(dirname "$f")"
	cp "$TOP/$f" "$d/$f"
	for q in $(echo "$later" | tac); do
		if ! (cd "$d" && git apply -R --include="$f" "$TOP/patches/$q") >&2; then
			rm -rf "$d"
			die "overlay file $f: the diff of $q does not undo on its last version"
		fi
	done
	git -C "$SRC" hash-object -w "$d/$f"
	rm -rf "$d"
}

# commit_patch PARENT LINE: apply one "patch<TAB>overlay" line of the
# series to the index in GIT_INDEX_FILE (which holds PARENT's tree), commit
# it on PARENT and print the commit.  Overlay files it adds are listed in
# $claimed when CLAIM=1 (the patched chain, where they come as this patch
# adds them); the stock chain (CLAIM=0) takes their last versions, so that
# the stock kernel has every test of the series.
commit_patch()
{
	local parent=$1 line=$2 patch ov files f tree name email date blob

	patch=${line%%$'\t'*}
	ov=${line#*$'\t'}
	[ -f "$TOP/patches/$patch" ] || die "series: $patch: no such file in patches/"
	git mailinfo "$msg" "$msg.patch" <"$TOP/patches/$patch" >"$info"
	if grep -q '^diff --git' "$msg.patch"; then
		if ! git -C "$SRC" apply --cached "$msg.patch" 2>"$msg.err"; then
			sed 's/^/    /' "$msg.err" >&2
			f=$(sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p; s/^error: \([^:]*\): \(does not exist in index\|already exists in index\|patch does not apply\)$/\1/p' "$msg.err" | head -n 1)
			rm -f "$msg.err"
			die "patch $patch does not apply (rejected file: ${f:-unknown})"
		fi
		rm -f "$msg.err"
	fi
	# shellcheck disable=SC2086
	files=$(expand_overlay $ov)
	for f in $files; do
		if [ "$CLAIM" = 1 ]; then
			blob=$(overlay_blob "$f" "$patch") || exit 1
			echo "$f" >>"$claimed"
		else
			blob=$(git -C "$SRC" hash-object -w "$TOP/$f")
		fi
		git -C "$SRC" update-index --add --cacheinfo "100644,$blob,$f"
	done
	name=$(sed -n 's/^Author: //p' "$info")
	email=$(sed -n 's/^Email: //p' "$info")
	date=$(sed -n 's/^Date: //p' "$info")
	{
		sed -n 's/^Subject: //p' "$info"
		echo
		cat "$msg"
	} >"$msg.full"
	tree=$(git -C "$SRC" write-tree)
	GIT_AUTHOR_NAME=${name:-pm-async} \
		GIT_AUTHOR_EMAIL=${email:-pm-async@localhost} \
		GIT_AUTHOR_DATE=${date:-now} \
		git -C "$SRC" commit-tree "$tree" -p "$parent" -F "$msg.full"
	rm -f "$msg.full"
	say "  applied $patch${files:+ (+$(echo "$files" | wc -l) overlay files)}"
}

build_commits()
{
	# Not local: the EXIT trap below runs after the function returned.
	local parent line f stock="" n=0 first=1 post_first=1 l
	local -a post=()

	idx=$(mktemp "$BUILD/index.XXXXXX")
	msg=$(mktemp)
	info=$(mktemp)
	claimed=$(mktemp)
	# build_commits runs in a subshell: clean up when it exits.
	order=$(mktemp)
	trap 'rm -f "$idx" "$idx.stock" "$msg" "$info" "$claimed" "$msg.patch" "$order"' EXIT
	parse_series | grep -v '^#' | cut -f1 >"$order"
	export GIT_INDEX_FILE=$idx
	git -C "$SRC" read-tree base
	parent=$(git -C "$SRC" rev-parse base)

	while IFS= read -r line; do
		case $line in
		"#posting "*)
			post=()
			post_first=$first
			continue
			;;
		"#stock")
			[ -z "$stock" ] || die "series: a second #stock line"
			if [ "$post_first" = 1 ]; then
				stock=$parent
			else
				# The stock posting applied to the base alone.
				say "  stock: ${#post[@]} patch(es) of its posting on the base"
				export GIT_INDEX_FILE=$idx.stock
				git -C "$SRC" read-tree base
				stock=$(git -C "$SRC" rev-parse base)
				for l in "${post[@]}"; do
					stock=$(CLAIM=0 commit_patch "$stock" "$l") || exit 1
				done
				export GIT_INDEX_FILE=$idx
			fi
			continue
			;;
		esac
		n=$((n + 1))
		first=0
		post+=("$line")
		parent=$(CLAIM=1 commit_patch "$parent" "$line") || exit 1
	done < <(parse_series)

	# Overlay files no patch claims would silently never reach a kernel.
	f=$(overlay_files | grep -vxF -f "$claimed" || true)
	[ -z "$f" ] || die "overlay files not claimed by any patch in the series (add '#+ PATH' lines):
$f"
	f=$(sort "$claimed" | uniq -d)
	[ -z "$f" ] || die "overlay files claimed by two patches: $f"
	# The later patches' diffs must bring each one back to its last version.
	while read -r f; do
		[ "$(git -C "$SRC" ls-files -s -- "$f" | cut -d' ' -f2)" = \
		  "$(git -C "$SRC" hash-object "$TOP/$f")" ] ||
			die "overlay file $f: the series' patches do not end at its version in the repository"
	done <"$claimed"

	unset GIT_INDEX_FILE
	echo "${stock:-$parent} $parent $n"
}

# Refuse to drop work done in a tree.
check_clean()
{
	local dir=$1 want=$2 head

	head=$(git -C "$dir" rev-parse HEAD)
	if [ -n "$(git -C "$dir" status --porcelain --untracked-files=no)" ]; then
		die "$dir has uncommitted changes: commit them and run 'make export', or discard them (git -C $dir checkout -- .)"
	fi
	if [ -n "$want" ] && [ "$head" != "$want" ]; then
		die "$dir has commits that patches/ does not hold (HEAD $head): run 'make export' first, or 'make tree FORCE=1' to drop them"
	fi
}

[ -d "$SRC/.git" ] || unpack_base

now=$(stamp_now)
old_stamp="" old_head="" old_stock=""
[ -f "$STAMP" ] && read -r old_stamp old_stock old_head <"$STAMP" || true

if [ "$now" = "$old_stamp" ] && [ -d "$SRC_STOCK" ] &&
   [ "$(git -C "$SRC" rev-parse HEAD)" = "$old_head" ]; then
	say "tree up to date ($(debian_version), $(git -C "$SRC" rev-list --count base..HEAD) patches)"
	exit 0
fi

say "applying patches/series to $(debian_version)"
read -r stock head count < <(build_commits)

# A tree whose content is exactly what the series produces loses nothing
# by moving to the new commits (e.g. right after 'make export').
if [ "${FORCE:-0}" != 1 ]; then
	same() { [ "$(git -C "$1" rev-parse "HEAD^{tree}")" = "$(git -C "$SRC" rev-parse "$2^{tree}")" ]; }
	same "$SRC" "$head" || check_clean "$SRC" "$old_head"
	if [ -d "$SRC_STOCK" ]; then
		same "$SRC_STOCK" "$stock" || check_clean "$SRC_STOCK" "$old_stock"
	fi
fi

if [ "${FORCE:-0}" = 1 ]; then
	git -C "$SRC" checkout -q -f -B pm-async "$head"
else
	git -C "$SRC" checkout -q -B pm-async "$head"
fi
if [ -d "$SRC_STOCK" ]; then
	git -C "$SRC_STOCK" checkout -q $([ "${FORCE:-0}" = 1 ] && echo -f) --detach "$stock"
else
	say "creating the stock worktree $SRC_STOCK"
	git -C "$SRC" worktree add -q --detach "$SRC_STOCK" "$stock"
fi
git -C "$SRC" tag -f stock "$stock" >/dev/null
echo "$now $stock $head" >"$STAMP"
say "tree ready: $count patches, stock = $(git -C "$SRC" rev-list --count base..stock) patches"

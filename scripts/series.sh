#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series: the whole series as git format-patch output in out/series/,
# numbered, with a cover letter.  The cover letter's results table is the
# newest "make bench" table (out/bench/*/table.txt), or says there is none.
#
#   SERIES_VERSION  patch version for the subject prefix (default 1)

set -euo pipefail
. "$(dirname "$0")/common.sh"

version=${SERIES_VERSION:-1}
out=$TOP/out/series
"$HARNESS/tree.sh"

rm -rf "$out"
mkdir -p "$out"
prefix=PATCH
[ "$version" = 1 ] || prefix="PATCH v$version"
git -C "$SRC" format-patch -q --cover-letter --zero-commit --no-signature \
	--subject-prefix="$prefix" -o "$out" base..pm-async

bench=$(ls -t "$TOP"/out/bench/*/table.txt 2>/dev/null | head -n 1 || true)
count=$(git -C "$SRC" rev-list --count base..pm-async)
cover=$(ls "$out"/0000-cover-letter.patch)
body=$(mktemp)
trap 'rm -f "$body"' EXIT

{
	cat "$TOP/patches/cover-letter.txt"
	echo
	echo "Measured results"
	echo "================"
	echo
	if [ -n "$bench" ]; then
		echo "From 'make bench' ($(basename "$(dirname "$bench")")), Debian $(debian_version),"
		echo "QEMU TCG, 2 vCPUs, stock and patched kernels built with the same"
		echo "configuration without lock debugging; times in ms, mean (+/- sd):"
		echo
		sed 's/^/  /' "$bench"
	else
		echo "No benchmark has been run in this checkout: run 'make bench'."
	fi
	echo
	echo "Base: Debian $KPKG $(debian_version)"
} >"$body"

# Replace the template's subject and blurb placeholders.
subject=$(sed -n '1s/^Subject: //p' "$TOP/patches/cover-letter.txt")
awk -v subject="$subject" -v bodyfile="$body" '
	/^Subject: / { print "Subject: [" p "0/" n "] " subject; next }
	/^\*\*\* BLURB HERE \*\*\*$/ {
		skip = 1
		while ((getline line < bodyfile) > 0)
			if (line !~ /^Subject: /) print line
		next
	}
	{ print }
' p="$prefix " n="$count" "$cover" >"$cover.new"
mv "$cover.new" "$cover"
say "series written to $out ($count patches + cover letter)"
ls "$out"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series: the series as git format-patch output, one directory per
# posting of patches/series ("#posting NAME [PREFIX...]"), in order:
# out/series/N-NAME/, each numbered from 1 with a cover letter of its own
# (patches/cover-NAME.txt: a "Subject: " line, then the text).  Each
# posting applies with git am on top of the ones before it.  The cover
# letter of a posting whose text holds the line "@BENCH@" gets there the
# newest "make bench" table (out/bench/*/table.txt) of a run that compared
# stock with patched (runs of other kernels only, such as one patch
# against another, are left out), or says there is none.
#
#   SERIES_VERSION  patch version for the subject prefix (default 1)

set -euo pipefail
. "$(dirname "$0")/common.sh"

version=${SERIES_VERSION:-1}
out=$TOP/out/series
"$HARNESS/tree.sh"

# "NAME COUNT PREFIX..." per posting, in order.
postings()
{
	awk '
		/^#posting[ \t]/ {
			if (name != "") print name, n, prefix
			name = $2; n = 0; prefix = ""
			for (i = 3; i <= NF; i++) prefix = prefix (prefix == "" ? "" : " ") $i
			next
		}
		/^#/ || /^[ \t]*$/ { next }
		{ if (name == "") name = "series"; n++ }
		END { if (name != "") print name, n, prefix }
	' "$TOP/patches/series"
}

bench_table()
{
	local t bench=""

	for t in $(ls -t "$TOP"/out/bench/*/table.txt 2>/dev/null); do
		if grep -q '^async stock ' "$t" && grep -q '^async pm-async ' "$t"; then
			bench=$t
			break
		fi
	done
	if [ -n "$bench" ]; then
		echo "From 'make bench' ($(basename "$(dirname "$bench")")), Debian $(debian_version),"
		echo "QEMU TCG, 2 vCPUs, stock and patched kernels built with the same"
		echo "configuration without lock debugging; times in ms, mean (+/- sd):"
		echo
		sed 's/^/  /' "$bench"
	else
		echo "No 'make bench' run against stock in this checkout: run 'make bench'."
	fi
}

rm -rf "$out"
mkdir -p "$out"
total=$(git -C "$SRC" rev-list --count base..pm-async)
body=$(mktemp)
trap 'rm -f "$body"' EXIT
from=base
done_n=0
k=0
while read -r name n prefix; do
	k=$((k + 1))
	[ "$n" -gt 0 ] || die "series: posting '$name' has no patches"
	text=$TOP/patches/cover-$name.txt
	[ -f "$text" ] || die "series: no cover letter $text for posting '$name'"
	done_n=$((done_n + n))
	to=$(git -C "$SRC" rev-list --reverse base..pm-async | sed -n "${done_n}p")
	[ -n "$to" ] || die "series: patches/series lists more patches than the tree has"
	prefix=${prefix:-PATCH}
	[ "$version" = 1 ] || prefix="$prefix v$version"
	dir=$out/$k-$name
	git -C "$SRC" format-patch -q --cover-letter --zero-commit --no-signature \
		--subject-prefix="$prefix" -o "$dir" "$from..$to"
	from=$to

	{
		sed '1{/^Subject: /d}' "$text" | while IFS= read -r line; do
			if [ "$line" = "@BENCH@" ]; then bench_table; else printf '%s\n' "$line"; fi
		done
		echo
		echo "Base: Debian $KPKG $(debian_version)"
	} >"$body"
	subject=$(sed -n '1s/^Subject: //p' "$text")
	[ -n "$subject" ] || die "series: $text does not start with a Subject: line"
	cover=$dir/0000-cover-letter.patch
	awk -v subject="$subject" -v bodyfile="$body" '
		/^Subject: / { print "Subject: [" p "0/" n "] " subject; next }
		/^\*\*\* BLURB HERE \*\*\*$/ {
			while ((getline line < bodyfile) > 0) print line
			next
		}
		{ print }
	' p="$prefix " n="$n" "$cover" >"$cover.new"
	mv "$cover.new" "$cover"
	say "posting $k ($name): $n patch(es) in $dir"
done < <(postings)

[ "$done_n" = "$total" ] ||
	die "series: patches/series has $done_n patches, the tree $total"
say "series written to $out ($total patches in $k posting(s))"

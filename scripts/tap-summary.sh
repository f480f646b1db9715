#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tap-summary.sh LABEL FILE [LABEL FILE...]: count TAP/KTAP results.
#
# A FILE is either plain TAP or a guest results log where streams are framed
# by "@@TAP NAME" / "@@TAPEND NAME rc=N".  Only leaf results count (KTAP
# prints a parent's result after its subtests, so a result is a leaf unless
# the result before it is indented deeper).  A stream that ends without all
# the results its plan announced, or exits non-zero with no failed result,
# counts as one failure.  Prints one line per stream and writes
# "PASS FAIL SKIP" to $TAP_TOTALS if set.

set -euo pipefail

summarise()
{
	local framed=0

	grep -q '^@@TAP ' "$2" && framed=1
	awk -v label="$1" -v framed=$framed '
	function flush(rc,   st) {
		if (name == "") return
		if (plan >= 0 && top < plan) { fail++; note = note " (died after " top " of " plan ")" }
		else if (rc != 0 && failed_here == 0) { fail++; note = note " (exit status " rc ")" }
		st = (fail > f0) ? "FAIL" : "ok  "
		printf "  %s %-28s %4d passed, %d failed, %d skipped%s\n", st, label "/" name, pass - p0, fail - f0, skip - s0, note
		name = ""
	}
	function start(n) {
		name = n; plan = -1; top = 0; prev = -1; note = ""; failed_here = 0
		p0 = pass; f0 = fail; s0 = skip
	}
	BEGIN { pass = fail = skip = 0 }
	{ sub(/\r$/, "") }
	/^@@TAP / { flush(0); start($2); next }
	/^@@TAPEND / { r = $3; sub(/rc=/, "", r); flush(r + 0); next }
	/^@@PMA-END / && name != "" { flush(1); next }
	{
		if (!framed && name == "") start("tap")
		if (name == "") next
		line = $0
		if (match(line, /^ *1\.\.[0-9]+/) && line ~ /^1\./) { plan = substr(line, 4) + 0; next }
		if (!match(line, /^ *(not )?ok [0-9]+/)) next
		ind = match(line, /[^ ]/) - 1
		if (ind == 0) top++
		isleaf = !(prev > ind)
		prev = ind
		if (!isleaf) next
		if (line ~ /^ *not ok/) {
			if (line ~ /# *(SKIP|skip)/) skip++; else { fail++; failed_here++; print "    not ok: " label "/" name ": " substr(line, ind + 1) }
		} else if (line ~ /# *(SKIP|skip)/) skip++
		else pass++
	}
	END { flush(0); printf "@@TOTALS %d %d %d\n", pass, fail, skip }
	' "$2"
}

tp=0 tf=0 ts=0
while [ $# -ge 2 ]; do
	[ -f "$2" ] || { echo "  FAIL $1: no output ($2 missing)"; tf=$((tf + 1)); shift 2; continue; }
	while IFS= read -r line; do
		case $line in
		"@@TOTALS "*)
			read -r _ p f s <<<"$line"
			tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s))
			;;
		*) echo "$line" ;;
		esac
	done < <(summarise "$1" "$2")
	shift 2
done
[ -z "${TAP_TOTALS:-}" ] || echo "$tp $tf $ts" >"$TAP_TOTALS"

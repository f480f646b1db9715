#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tap-summary.sh [-e STREAMS] LABEL FILE [[-e STREAMS] LABEL FILE...]:
# count TAP/KTAP results.
#
# A FILE is either plain TAP or a KTAP document whose subtests are streams
# (a guest's results.log, the host suites' log: scripts/guest/tap.sh's
# tap_stream), each from its "    # Subtest: NAME" line, its lines indented
# by 4, to its result "ok K NAME" or "not ok K NAME" (a "# NAME: exit
# status RC" line before it gives the status); a file with a line
# "    # Subtest: NAME" is read so.  Only leaf results count (KTAP prints a
# parent's result after its subtests, so a result is a leaf unless the
# result before it is indented deeper).  Any of these counts as one more
# failure of a stream (one, however many apply), because each means that
# results were lost:
#  - no top-level plan ("1..N"), or more than one;
#  - fewer or more top-level results than its plan announced;
#  - a stream without its result line (the guest stopped in it, or the
#    run's end marker "@@PMA-END" came first);
#  - a non-zero exit status (a "not ok" stream) with no failed result;
#  - "Bail out!".
# -e STREAMS names the streams the next FILE must frame (the ones the guest
# or the host was asked to run): each one missing is a failure of its own,
# "never started".  Prints one line per stream and writes "PASS FAIL SKIP"
# to $TAP_TOTALS if set.

set -euo pipefail

summarise()
{
	local framed=0

	grep -q '^    # Subtest: ' "$2" && framed=1
	awk -v label="$1" -v framed=$framed -v expect="$3" '
	function bad(why) { lost = 1; note = note " (" why ")" }
	function flush(rc, why,   st) {
		if (name == "") return
		if (why != "") bad(why)
		if (plans == 0) bad("no plan")
		else if (plans > 1) bad(plans " plans")
		else if (top < plan) bad("died after " top " of " plan)
		else if (top > plan) bad(top " results for a plan of " plan)
		if (bail) bad("bailed out")
		if (rc != 0 && failed_here == 0) bad("exit status " rc)
		if (lost) fail++
		st = (fail > f0) ? "FAIL" : "ok  "
		printf "  %s %-28s %4d passed, %d failed, %d skipped%s\n", st, label "/" name, pass - p0, fail - f0, skip - s0, note
		seen[name] = 1
		name = ""
	}
	function start(n) {
		name = n; plan = -1; plans = 0; top = 0; prev = -1; note = ""; failed_here = 0; bail = 0; lost = 0
		rc = 1
		p0 = pass; f0 = fail; s0 = skip
	}
	BEGIN {
		pass = fail = skip = 0
		if (!framed) start("tap")
	}
	{ sub(/\r$/, "") }
	framed && /^    # Subtest: / {
		flush(0, name == "" ? "" : "no result line, the next stream began")
		start(substr($0, 16))
		next
	}
	framed && name != "" && $0 == "# " name ": exit status " $NF { rc = $NF + 0; next }
	framed && name != "" && /^(not )?ok [0-9]+ / {
		r = $0
		sub(/^(not )?ok [0-9]+ /, "", r)
		sub(/ .*/, "", r)
		if (r == name) { flush($1 == "not" ? rc : 0, ""); next }
	}
	/^@@PMA-END / && name != "" { flush(0, "no result line: the run ended in this stream"); next }
	{
		if (name == "") next
		if (framed && substr($0, 1, 4) != "    ") next
		line = framed ? substr($0, 5) : $0
		if (line ~ /^Bail out!/) { bail = 1; print "    not ok: " label "/" name ": " line; next }
		if (line ~ /^1\.\.[0-9]+/) { plan = substr(line, 4) + 0; plans++; next }
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
	END {
		flush(0, framed ? "no result line: the output stops in this stream" : "")
		n = split(expect, e, " ")
		for (i = 1; i <= n; i++) {
			if (e[i] in seen) continue
			fail++
			printf "  FAIL %-28s %4d passed, 1 failed, 0 skipped (never started)\n", label "/" e[i], 0
		}
		printf "@@TOTALS %d %d %d\n", pass, fail, skip
	}
	' "$2"
}

tp=0 tf=0 ts=0
expect=""
while [ $# -ge 2 ]; do
	if [ "$1" = -e ]; then
		expect=$2
		shift 2
		continue
	fi
	if [ ! -f "$2" ]; then
		echo "  FAIL $1: no output ($2 missing)"
		tf=$((tf + 1))
		# shellcheck disable=SC2086 # one failure per stream expected
		for s in $expect; do
			echo "  FAIL $1/$s: never started"
			tf=$((tf + 1))
		done
		expect=""
		shift 2
		continue
	fi
	while IFS= read -r line; do
		case $line in
		"@@TOTALS "*)
			read -r _ p f s <<<"$line"
			tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s))
			;;
		*) echo "$line" ;;
		esac
	done < <(summarise "$1" "$2" "$expect")
	expect=""
	shift 2
done
[ -z "${TAP_TOTALS:-}" ] || echo "$tp $tf $ts" >"$TAP_TOTALS"

# SPDX-License-Identifier: GPL-2.0
#
# tap.sh (sourced): the one TAP emitter of the guest scripts (rlib.sh's
# campaigns, measure.sh, bisect.sh, drvmeasure.sh, floor.sh --test,
# drivers.sh, kmemleak.sh, check.sh) and of the host's framed logs
# (scripts/check.sh's host suites, guest-checks.sh, kernel-log.sh).  N_TEST
# counts the results, BAD the "not ok", SKIPS the skips.
#   tap_result ERR DESC   "ok N DESC" if ERR is 0, else "not ok N DESC"
#   tap_skip DESC REASON  a case that did not test what it should, for a
#                         reason that is not a failure of the kernel:
#                         counted as skipped, with the reason, never a
#                         silent comment
#   ok DESC, nok DESC     tap_result 0 DESC, tap_result 1 DESC
#   check DESC CONDITION [FILE]
#                         CONDITION is a shell command line (eval); when
#                         it fails, the last 40 lines of FILE are shown as
#                         comments
#   tap_reset             the counters back to 0 (a new stream)
#   tap_missing WHAT      the plan and the one failed result of a stream
#                         that cannot run; returns 1
#
# The one framing of a log of several streams (a guest's results.log, the
# host suites' log) is a KTAP document whose subtests are the streams:
#   tap_doc N             its header: "KTAP version 1", "1..N"
#   tap_stream NR NAME CMD...
#                         CMD's output and error output as subtest NR, NAME:
#                         "    # Subtest: NAME", CMD's lines indented by 4,
#                         then "ok NR NAME", or, when CMD exits with RC > 0,
#                         "# NAME: exit status RC" and "not ok NR NAME";
#                         returns RC.  CMD runs in a subshell, its counters
#                         from 0.  The lines reach the output as CMD
#                         prints them (a stream cut short shows where).
#   tap_indent            standard input to standard output, indented by 4
# scripts/tap-summary.sh reads it; scripts/kernel-log.sh finds the streams
# in the kernel log by the same "# Subtest: NAME" line (check.sh writes it
# to /dev/kmsg).

tap_reset() { N_TEST=0 BAD=0 SKIPS=0; }
tap_reset
tap_result()
{
	N_TEST=$((N_TEST + 1))
	if [ "$1" = 0 ]; then
		echo "ok $N_TEST $2"
	else
		BAD=$((BAD + 1))
		echo "not ok $N_TEST $2"
	fi
}
tap_skip()
{
	N_TEST=$((N_TEST + 1))
	SKIPS=$((SKIPS + 1))
	echo "ok $N_TEST $1 # SKIP $2"
}
ok() { tap_result 0 "$*"; }
nok() { tap_result 1 "$*"; }
tap_missing()
{
	echo "1..1"
	nok "$*"
	return 1
}
check()
{
	if eval "$2"; then ok "$1"; else nok "$1"; [ -z "${3:-}" ] || sed 's/^/# /' "$3" | tail -n 40; fi
}
tap_doc()
{
	echo "KTAP version 1"
	echo "1..$1"
}
tap_indent()
{
	while IFS= read -r tap_line || [ -n "$tap_line" ]; do
		printf '    %s\n' "$tap_line"
	done
}
tap_stream()
{
	tap_nr=$1 tap_name=$2
	shift 2
	echo "    # Subtest: $tap_name"
	tap_rcf=${TMPDIR:-/tmp}/tap-stream-rc.$$
	{
		(tap_reset && "$@") 2>&1
		echo $? >"$tap_rcf"
	} | tap_indent
	tap_rc=$(cat "$tap_rcf" 2>/dev/null)
	rm -f "$tap_rcf"
	: "${tap_rc:=1}"
	if [ "$tap_rc" = 0 ]; then
		echo "ok $tap_nr $tap_name"
	else
		echo "# $tap_name: exit status $tap_rc"
		echo "not ok $tap_nr $tap_name"
	fi
	return "$tap_rc"
}

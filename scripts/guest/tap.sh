# SPDX-License-Identifier: GPL-2.0
#
# tap.sh (in the guest, sourced): the one TAP emitter of the guest scripts
# (rlib.sh's campaigns, measure.sh, bisect.sh, drvmeasure.sh, floor.sh
# --test, drivers.sh, kmemleak.sh).  N_TEST counts the results, BAD the
# "not ok", SKIPS the skips.
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
check()
{
	if eval "$2"; then ok "$1"; else nok "$1"; [ -z "${3:-}" ] || sed 's/^/# /' "$3" | tail -n 40; fi
}

# SPDX-License-Identifier: GPL-2.0
#
# tap.sh (in the guest, sourced): numbered TAP results for measure.sh and
# bisect.sh.  ok DESC, nok DESC, check DESC CONDITION [FILE]: CONDITION is
# a shell command line (eval); when it fails, the last 40 lines of FILE
# are shown as comments.

n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
check()
{
	if eval "$2"; then ok "$1"; else nok "$1"; [ -z "${3:-}" ] || sed 's/^/# /' "$3" | tail -n 40; fi
}

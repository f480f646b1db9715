#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak.sh [required]: the TAP of two kmemleak scans (in the guest),
# check.sh's "kmemleak" stream (PMA_KMEMLEAK=required), for the kernels that
# have kmemleak (the KASAN flavour): run it after the other streams of a
# boot, so their allocations (lab devices created and removed, churn,
# faults) are checked.  Without /sys/kernel/debug/kmemleak it is skipped, or
# fails with "required" (the caller built the kernel with kmemleak).  A scan
# that fails (kmemleak disabled itself, e.g. out of its early log, or
# kmemleak=off) fails: it does not mean "no leak".

. /pma/rlib.sh

echo "1..1"
if [ ! -e $RL_KML ]; then
	if [ "${1:-}" = required ]; then
		nok "kmemleak: /sys/kernel/debug/kmemleak missing in a kernel built with it"
	else
		tap_skip "kmemleak" "not in this kernel"
	fi
else
	# Let the lab's devices go first: what is still allocated then and
	# unreferenced is a leak.
	[ -w $LAB/topology ] && echo clear >$LAB/topology
	if ! rl_kmemleak_scan; then
		nok "kmemleak: the scan failed (kmemleak disabled?), no verdict"
	elif [ "$KML_N" = 0 ]; then
		ok "kmemleak: no unreferenced object"
	else
		nok "kmemleak: $KML_N unreferenced objects"
	fi
fi
exit $((BAD > 0))

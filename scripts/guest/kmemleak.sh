#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak.sh [required]: one framed TAP stream ("@@TAP kmemleak") with the
# result of two kmemleak scans (in the guest), for the kernels that have
# kmemleak (the KASAN flavour): run it after the other streams of a boot, so
# their allocations (lab devices created and removed, churn, faults) are
# checked.  Without /sys/kernel/debug/kmemleak it is skipped, or fails with
# "required" (the caller built the kernel with kmemleak).  A scan that fails
# (kmemleak disabled itself, e.g. out of its early log, or kmemleak=off)
# fails: it does not mean "no leak".

. /pma/rlib.sh

echo "@@TAP kmemleak" 2>/dev/null >/dev/kmsg
echo "@@TAP kmemleak"
echo "1..1"
rc=0
if [ ! -e $RL_KML ]; then
	if [ "${1:-}" = required ]; then
		echo "not ok 1 kmemleak: /sys/kernel/debug/kmemleak missing in a kernel built with it"
		rc=1
	else
		echo "ok 1 kmemleak # SKIP not in this kernel"
	fi
else
	# Let the lab's devices go first: what is still allocated then and
	# unreferenced is a leak.
	[ -w $LAB/topology ] && echo clear >$LAB/topology
	if ! rl_kmemleak_scan; then
		echo "not ok 1 kmemleak: the scan failed (kmemleak disabled?), no verdict"
		rc=1
	elif [ "$KML_N" = 0 ]; then
		echo "ok 1 kmemleak: no unreferenced object"
	else
		echo "not ok 1 kmemleak: $KML_N unreferenced objects"
		rc=1
	fi
fi
echo "@@TAPEND kmemleak rc=$rc"
echo "@@TAPEND kmemleak rc=$rc" 2>/dev/null >/dev/kmsg
exit $rc

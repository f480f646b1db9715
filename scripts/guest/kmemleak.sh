#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak.sh: one framed TAP stream ("@@TAP kmemleak") with the result of
# two kmemleak scans (in the guest), for the kernels that have kmemleak
# (the KASAN flavour): run it after the other streams of a boot, so their
# allocations (lab devices created and removed, churn, faults) are checked.
# Skipped without /sys/kernel/debug/kmemleak.

. /pma/rlib.sh

echo "@@TAP kmemleak"
echo "1..1"
if [ ! -w $RL_KML ]; then
	echo "ok 1 kmemleak # SKIP not in this kernel"
else
	# Let the lab's devices go first: what is still allocated then and
	# unreferenced is a leak.
	[ -w $LAB/topology ] && echo clear >$LAB/topology
	rl_kmemleak_scan
	if [ "$KML_N" = 0 ]; then
		echo "ok 1 kmemleak: no unreferenced object"
	else
		echo "not ok 1 kmemleak: $KML_N unreferenced objects"
	fi
fi
echo "@@TAPEND kmemleak rc=0"

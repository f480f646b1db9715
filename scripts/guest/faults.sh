#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# faults.sh PROFILE...: the fault matrix (in the guest).
#
# For every device of each PROFILE (a name in profiles/, a file, or
# gen:SEED:NDEV for a pm_async_gen topology) and every suspend-side phase,
# arm a one-shot -EIO and run a transition.  Then check: the state write
# returned an error, the lab saw no ordering violation, every device is
# back active with runtime PM as before, no device was resumed that had not
# been suspended (and none left down), and the next full cycle succeeds.
# The same for FAULT_PAIRS pairs of devices failing in the same phase.
#
#   FAULT_MODES   pm_async values to run the matrix with (default "1 0")
#   FAULT_PHASES  default "suspend suspend_late suspend_noirq"
#   FAULT_PAIRS   two-device failures per phase and mode (default 4)
#   FAULT_MAX     at most this many devices per profile (0: all, default)
#   RL_SCALE      callback times in percent of the profile's (default 100)
#   RL_SEED       picks the pairs and, with FAULT_MAX, the devices (1)
#
# One TAP line per fault; "# SUMMARY ..." at the end (rlib.sh).

. /pma/rlib.sh

modes=${FAULT_MODES:-1 0}
phases=${FAULT_PHASES:-suspend suspend_late suspend_noirq}
pairs=${FAULT_PAIRS:-4}
max=${FAULT_MAX:-0}
seed=${RL_SEED:-1}

# fault_check DESC DEV...: the transition with DEV's failures armed.
fault_check()
{
	desc=$1
	shift
	err=0
	KERNEL_BAD=0
	rl_cycle freeze
	rc=$?
	case $rc in
	0) echo "# the transition succeeded despite the failure"; err=1 ;;
	2) err=1 ;;
	esac
	rl_check_report fail || err=1
	rl_check_state || err=1
	for d in "$@"; do
		# A failure whose callback never ran stays armed: disarm it.
		echo "$d none" >$LAB/fail
	done
	[ $KERNEL_BAD = 0 ] || err=1
	if ! rl_good_cycle; then
		echo "# the next cycle did not succeed"
		err=1
	fi
	[ $err = 0 ] || { echo "# topology:"; sed 's/^/#   /' "$T/topo"; }
	tap_result $err "$desc"
}

rl_init
for prof in "$@"; do
	name=$(basename "$prof" .topo)
	if ! rl_topo "$prof" "$T/in.topo" || ! rl_load "$T/in.topo"; then
		tap_result 1 "faults: load $name"
		continue
	fi
	devs=$(awk '{ print $1 }' "$T/topo")
	if [ "$max" != 0 ]; then
		devs=$(echo "$devs" | awk -v s="$seed" -v m="$max" 'BEGIN { srand(s) } { print rand(), $1 }' |
			sort -n | head -n "$max" | awk '{ print $2 }')
	fi
	ndev=$(echo "$devs" | wc -w)
	echo "# [faults] $name: $ndev devices x $(echo $phases | wc -w) phases, pm_async in: $modes"
	first=1
	for mode in $modes; do
		echo "$mode" >/sys/power/pm_async
		for d in $devs; do
			for ph in $phases; do
				[ $first = 1 ] && POINTS=$((POINTS + 1))
				FAULTS=$((FAULTS + 1))
				echo "$d $ph" >$LAB/fail
				fault_check "faults: $name pm_async=$mode: $ph of $d fails" "$d"
			done
		done
		first=0
		echo "# [faults] $name pm_async=$mode: single faults done, $BAD bad so far"
		i=0
		while [ $i -lt "$pairs" ] && [ "$ndev" -ge 2 ]; do
			i=$((i + 1))
			for ph in $phases; do
				set -- $(echo "$devs" | awk -v s="$seed$i$mode" -v p="$ph" 'BEGIN { srand(s + length(p)) } { print rand(), $1 }' |
					sort -n | head -n 2 | awk '{ print $2 }')
				FAULTS=$((FAULTS + 2))
				echo "$1 $ph" >$LAB/fail
				echo "$2 $ph" >$LAB/fail
				fault_check "faults: $name pm_async=$mode: $ph of $1 and $2 fail" "$1" "$2"
			done
		done
	done
done
rl_summary faults
rl_fini

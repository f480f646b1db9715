#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# floor.sh KERNEL ROUNDS ITEMS US  (in the guest)
#
# The workqueue floor of make bench: ROUNDS runs of the bench's own module
# pma_wqfloor (bench/wqfloor, not part of the series: ITEMS work items
# sleeping US microseconds each, per-CPU workqueue over all CPUs, the same
# without the writer's CPU, async framework), one
# "=== floor kernel=K round=N WAY key=value..." line per way and run.
#
# floor.sh --test: the module's own checks, as TAP (make check's "floor"
# stream): it loads, refuses bad input, and 20 sleeping items run side by
# side in each of the three ways.

F=/sys/kernel/debug/pma_wqfloor

# floor_ok FILE: three ways of 20 items of 2000 us, plausible times, the
# items side by side (less elapsed than slept in all).
floor_ok()
{
	awk '
	{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		ways[$1] = 1
		if (f["items"] != 20 || f["us"] != 2000 ||
		    f["longest_ns"] < 2000000 || f["sum_ns"] < 20 * 2000000 ||
		    f["elapsed_ns"] < f["longest_ns"]) {
			print "# implausible: " $0; bad = 1
		}
		if (f["elapsed_ns"] >= f["sum_ns"]) {
			print "# not in parallel: " $0; bad = 1
		}
	}
	END {
		if (NR != 3 || !ways["percpu"] || !ways["percpu-other"] || !ways["async"]) {
			print "# expected the three ways, got " NR " lines"; bad = 1
		}
		exit bad
	}' "$1"
}

if [ "$1" = --test ]; then
	. /pma/tap.sh
	echo "TAP version 13"
	echo "1..3"
	check "floor: pma_wqfloor loads and makes $F" "modprobe pma_wqfloor && [ -f $F ]"
	bad=""
	for b in "0 10" "10001 10" "5 0" "5 100001" "5" "x 5"; do
		echo "$b" >$F 2>/dev/null && bad="$bad '$b'"
	done
	[ -z "$bad" ] || echo "# accepted:$bad"
	check "floor: bad input refused" '[ -f $F ] && [ -z "$bad" ]'
	: >/tmp/floor.out
	echo "20 2000" >$F && cat $F >/tmp/floor.out
	check "floor: 20 sleeping work items in each of three ways run side by side" \
		"floor_ok /tmp/floor.out" /tmp/floor.out
	rmmod pma_wqfloor
	exit $((BAD > 0))
fi

kernel=$1 rounds=$2 items=$3 us=$4

modprobe pma_wqfloor || { echo "# cannot load pma_wqfloor"; exit 1; }
# One untimed run first: the workers it leaves are there for the others,
# as they are for the measured cycles after the warm-up ones.
echo "$items $us" >$F || exit 1
i=1
while [ $i -le "$rounds" ]; do
	echo "# [$kernel] workqueue floor $i/$rounds"
	echo "$items $us" >$F || exit 1
	sed "s/^/=== floor kernel=$kernel round=$i /" $F
	i=$((i + 1))
done

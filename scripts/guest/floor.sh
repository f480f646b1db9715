#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# floor.sh KERNEL ROUNDS ITEMS US  (in the guest)
#
# The workqueue floor of make bench: ROUNDS runs of the lab's wqfloor file
# (ITEMS work items sleeping US microseconds each, per-CPU workqueue over
# all CPUs, the same without the writer's CPU, async framework), one
# "=== floor kernel=K round=N WAY key=value..." line per way and run.

kernel=$1 rounds=$2 items=$3 us=$4
F=/sys/kernel/debug/pm_async_test/wqfloor

modprobe pm_async_test || { echo "# cannot load pm_async_test"; exit 1; }
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

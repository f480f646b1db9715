#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cycles.sh KERNEL VERSION CYCLES WARMUP PROFILE...  (in the guest)
#
# For each lab profile (a file of /kselftest/pm_async/profiles or a path):
# load it, run WARMUP untimed cycles, then CYCLES cycles alternating sync
# (pm_async=0) and async (pm_async=1) transitions with pm_test=platform,
# and print each cycle as a block that pm-async-report reads:
#
#   === cycle kernel=K profile=P mode=M cycle=N version=V transition=suspend
#   --- topology / --- report / --- pm sections
#   === end
#
# Progress goes to the same stream as "# ..." lines, which the report
# tool ignores.  Exit status: number of failed transitions (capped).

kernel=$1 version=$2 cycles=$3 warmup=$4
shift 4
D=/sys/kernel/debug/pm_async_test
fails=0

modprobe pm_async_test || { echo "# cannot load pm_async_test"; exit 1; }
echo platform >/sys/power/pm_test
echo 1 >/sys/power/pm_debug_messages
[ -w /sys/module/suspend/parameters/pm_test_delay ] &&
	echo 0 >/sys/module/suspend/parameters/pm_test_delay

transition()
{
	dmesg -c >/dev/null
	if ! echo freeze >/sys/power/state; then
		fails=$((fails + 1))
		echo "# transition failed:"
		dmesg | tail -n 20 | sed 's/^/#   /'
		return 1
	fi
}

for prof in "$@"; do
	case $prof in
	*/*) file=$prof ;;
	*)
		file=/kselftest/pm_async/profiles/$prof.topo
		# The regular profiles (chain, wide, zero) come from the
		# generator.
		if [ ! -f "$file" ]; then
			file=/tmp/$prof.topo
			/kselftest/pm_async/pm_async_gen profile "$prof" >"$file" ||
				file=/nonexistent/$prof.topo
		fi
		;;
	esac
	name=$(basename "$prof" .topo)
	echo clear >$D/topology
	if ! dd if="$file" of=$D/topology bs=4M 2>/dev/null; then
		echo "# cannot load profile $file:"
		dmesg | tail -n 5 | sed 's/^/#   /'
		fails=$((fails + 1))
		continue
	fi
	i=0
	while [ $i -lt "$warmup" ]; do
		echo "# [$kernel] $name warm-up $((i + 1))/$warmup"
		transition
		i=$((i + 1))
	done
	i=1
	while [ $i -le "$cycles" ]; do
		for mode in sync async; do
			if [ $mode = sync ]; then
				echo 0 >/sys/power/pm_async
			else
				echo 1 >/sys/power/pm_async
			fi
			echo "# [$kernel] $name $mode cycle $i/$cycles"
			transition || continue
			echo "=== cycle kernel=$kernel profile=$name mode=$mode cycle=$i version=$version transition=suspend"
			echo "--- topology"
			cat $D/topology
			echo "--- report"
			# prepare/complete are not measured: leave them out.
			grep -v -e ' phase=prepare ' -e ' phase=complete ' $D/report
			echo "--- pm"
			dmesg | grep 'PM: .* of devices \(complete\|aborted\) after'
			echo "=== end"
		done
		i=$((i + 1))
	done
done
echo 1 >/sys/power/pm_async
echo none >/sys/power/pm_test
[ $fails -gt 100 ] && fails=100
exit $fails

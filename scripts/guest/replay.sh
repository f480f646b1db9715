#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# replay.sh (in the guest): a real machine's suspend log replayed in the
# lab, the path of "pm-async advise --profile" into "make bench
# BENCH_PROFILES=FILE".  The advisor rebuilds the skynet laptop's device
# graph from its kernel log (/pma/data, a copy of the advisor's test
# sample) and writes it in the lab's topology format, callback times
# scaled by REPLAY_SCALE (default 0.01: the 839 ms disk becomes 8.4 ms).
# TAP:
#  - the profile has a line per device the advisor found (141);
#  - the lab loads it whole;
#  - REPLAY_CYCLES cycles (default 2, pm_async on, then off) succeed with
#    no violation, one line per device and callback in the lab's report,
#    every device back active (rl_good_cycle);
#  - the devices the log shows as sync ran in the PM task, and the slowest
#    device's callback took at least its scaled time.

. /pma/rlib.sh

LOG=/pma/data/skynet_freeze_dmesg.txt
scale=${REPLAY_SCALE:-0.01}
cycles=${REPLAY_CYCLES:-2}

echo "TAP version 13"
# The plan first: a hang (the lab's watchdog warns, the host stops the guest) leaves the
# stream short of it.
rl_plan $((2 + cycles))
rl_init

pm-async-advise --profile "$T/sky.topo" --scale "$scale" $LOG >"$T/advise.txt" 2>&1
rc=$?
ndev=$(grep -c '^[^#]' "$T/sky.topo" 2>/dev/null)
ok=1
[ $rc = 0 ] && [ "$ndev" = 141 ] && ok=0
[ $ok = 0 ] || sed 's/^/# /' "$T/advise.txt" | tail -n 20
tap_result $ok "advise --profile --scale $scale: 141 devices from the skynet log (got ${ndev:-none})"

rl_load "$T/sky.topo"
tap_result $? "the lab loads the profile ($(grep -c . $LAB/state) devices)"

# The slowest suspend callback of the profile and its time (us).
set -- $(awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^suspend=/) {
		t = substr($i, 9) + 0; if (t > max) { max = t; d = $1 } } }
	END { print d, max + 0 }' "$T/topo")
slow=$1 slow_us=$2
echo "# slowest suspend callback: $slow, $slow_us us"

# replay_check MODE: the sync devices of the profile ran in the PM task and
# the slowest callback took its time.
replay_check()
{
	bad=0
	# With pm_async=1 only the sync devices must run in the PM task.
	"$CHECK" "$RPT" select ctx!=task : name phase |
		awk -v all="$([ "$1" = 0 ] && echo 1)" '
		NR == FNR { if (/ async=0/) sync[$1] = 1; next }
		all || sync[$1]' "$T/topo" - >"$T/notask"
	if [ -s "$T/notask" ]; then
		bad=1
		head -n 5 "$T/notask" | sed 's/^/# not in the PM task: /'
	fi
	set -- $("$CHECK" "$RPT" select name="$slow" phase=suspend : dur)
	if [ $# = 0 ]; then
		bad=1
		echo "# no suspend line of $slow"
	elif [ $(($1 / 1000)) -lt "$slow_us" ]; then
		bad=1
		echo "# $slow suspend took $(($1 / 1000)) us < $slow_us us"
	fi
	[ $bad = 0 ]
}

c=0
while [ $c -lt "$cycles" ]; do
	c=$((c + 1))
	mode=$((c % 2))
	echo $mode >/sys/power/pm_async
	err=0
	rl_good_cycle || err=1
	[ $err = 0 ] && { replay_check $mode || err=1; }
	tap_result $err "replay cycle $c (pm_async=$mode): no violation, every device and callback, all active again, sync devices in the PM task, $slow's suspend >= $slow_us us"
done

rl_summary replay
rl_fini

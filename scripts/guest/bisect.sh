#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bisect.sh (in the guest): pm-async-measure --bisect on lab topologies with
# hidden dependencies (hidden=), one and two, deterministic and
# intermittent, in pm_test=devices cycles (TAP).  Per topology:
#
#  - the tool exits 0 and names exactly the culprit set (both devices of
#    each hidden pair: one of them sync alone does not keep their order)
#    within a bounded number of cycles, and writes a udev rule for each;
#  - every knob is back afterwards (pm_async, pm_print_times,
#    pm_debug_messages, pm_test, each lab device's power/async);
#  - a TAP comment gives the cycles used, the set found and the suspend +
#    resume time of pm_async=0, all async and the set sync, from that run.
#
# Sourced by measure.sh (which prints the plan, BISECT_TESTS more results),
# or run alone: sh /pma/bisect.sh.  Sourced with BISECT_LIB=1 (by
# drvmeasure.sh), it only defines bisect_topo, bknobs and bisect_case.

LAB=/sys/kernel/debug/pm_async_test
BISECT_TESTS=8

if [ -z "${N_TEST:-}" ] && [ -z "${BISECT_LIB:-}" ]; then
	. /pma/tap.sh
	echo "TAP version 13"
	echo "1..$BISECT_TESTS"
	bisect_alone=1
fi

# Eight fillers first in the list (the PM task's suspend walk reaches
# them last, so that a sync filler never delays it), then the hidden
# suppliers and the devices that need them, all async leaves: every
# callback starts upfront.  In list order dsp, codec, gpio0, ts: the walk
# meets ts, gpio0, codec, dsp.  ts (50 ms) outlasts the walk to gpio0 when
# only one of the two is sync; codec (150 ms) outlasts ts run sync before
# dsp; so each pair must be sync as a whole.  The margins are wide for a
# loaded host: a starved vCPU may start gpio0's async callback late, and
# then ts does not fail in that cycle (the caps allow for some of that).
bisect_topo()
{
	# bisect_topo P1 [P2]: chances in percent of the hidden dependencies
	for i in 1 2 3 4 5 6 7 8; do echo "f$i suspend=$((i * 500)) resume=500"; done
	if [ -n "${2:-}" ]; then
		echo "dsp suspend=500"
		echo "codec suspend=150000 resume=1000 hidden=suspend:dsp@$2"
	fi
	echo "gpio0 suspend=500"
	echo "ts suspend=50000 resume=1000 hidden=suspend:gpio0@$1"
}

bknobs()
{
	for f in pm_async pm_print_times pm_debug_messages pm_test; do
		printf '%s=%s\n' $f "$(cat /sys/power/$f 2>/dev/null)"
	done
	for d in gpio0 dsp f1 f2 f3 f4 f5 f6 f7 f8 ts codec; do
		[ -e /sys/devices/$d/power/async ] && printf '%s=%s\n' $d "$(cat /sys/devices/$d/power/async)"
	done
}

# bisect_case NAME CONFIRM MAXCYCLES "EXPECTED SET" P1 [P2]
bisect_case()
{
	b_name=$1 b_n=$2 b_max=$3 b_want=$4
	shift 4
	modprobe pm_async_test 2>/dev/null
	echo clear >$LAB/topology 2>/dev/null
	bisect_topo "$@" >/tmp/bisect-$b_name.topo
	if ! dd if=/tmp/bisect-$b_name.topo of=$LAB/topology bs=4M 2>/dev/null; then
		nok "bisect $b_name: lab topology loaded"
		nok "bisect $b_name: knobs restored"
		return
	fi
	b_before=$(bknobs)
	rm -rf /tmp/bisect-$b_name
	b_t0=$(date +%s)
	pm-async-measure --bisect -n "$b_n" --max-cycles "$b_max" --state freeze --pm-test devices \
		--settle 0 -o /tmp/bisect-$b_name >/tmp/bisect-$b_name.txt 2>&1
	b_rc=$?
	b_secs=$(($(date +%s) - b_t0))
	b_found=$(sed -n 's/^found //p' /tmp/bisect-$b_name/bisect.txt 2>/dev/null | tr ' ' '\n' | sort | tr '\n' ' ')
	b_cyc=$(sed -n 's/^cycles //p' /tmp/bisect-$b_name/bisect.txt 2>/dev/null)
	b_time=$(sed -n 's/^time_ms //p' /tmp/bisect-$b_name/bisect.txt 2>/dev/null)
	b_kept=$(grep -o 'saves .*' /tmp/bisect-$b_name.txt | head -n 1)
	echo "# [bisect] $b_name: cycles ${b_cyc:-?} (cap $b_max, ${b_secs}s), found: ${b_found:-none}; time ms: ${b_time:-?}; ${b_kept:-}"
	sed -n '/^step /,$p' /tmp/bisect-$b_name/bisect.txt 2>/dev/null | sed 's/^/#   /'
	b_rules=$(grep -c '^ACTION=="add", DEVPATH=="/devices/[a-z0-9]*", ATTR{power/async}="disabled"$' \
		/tmp/bisect-$b_name/99-pm-async-sync.rules 2>/dev/null)
	check "bisect $b_name: exit 0, names exactly the set '$b_want' in at most $b_max cycles, one udev rule per device" \
		'[ $b_rc = 0 ] && [ "$b_found" = "$b_want " ] && [ "${b_cyc:-999999}" -le "$b_max" ] &&
			[ "${b_rules:-0}" = "$(echo $b_want | wc -w)" ]' /tmp/bisect-$b_name.txt
	b_after=$(bknobs)
	check "bisect $b_name: every knob and power/async restored, lab devices active" \
		'[ "$b_after" = "$b_before" ] && ! grep -v "state=active" $LAB/state | grep -q .'
	[ "$b_after" = "$b_before" ] || { echo "$b_before" | sed 's/^/# before: /'; echo "$b_after" | sed 's/^/# after:  /'; }
	echo clear >$LAB/topology
}

[ -z "${BISECT_LIB:-}" ] || return 0

echo "# [bisect] pm-async-measure --bisect on lab topologies with hidden dependencies (pm_test=devices)"
bisect_case one 3 120 "gpio0 ts" 100
bisect_case one-50pct 10 250 "gpio0 ts" 50
bisect_case two 3 160 "codec dsp gpio0 ts" 100 100
bisect_case two-60pct 10 400 "codec dsp gpio0 ts" 60 60
rmmod pm_async_test 2>/dev/null

[ -z "${bisect_alone:-}" ] || [ $N_TEST = $BISECT_TESTS ] || echo "# $N_TEST results for a plan of $BISECT_TESTS"

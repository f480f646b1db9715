#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# diff.sh SEED...: the guest half of the differential campaign against
# mainline ("make diff", scripts/campaign.sh; "diff" stream of make check).
# The same script runs on the stock kernel (mainline 7.3 + the lab) and on
# the patched one; the host compares the two (scripts/diff-compare.sh).
#
# Each SEED gives a topology, "pm_async_gen SEED NDEV diff" (or "hazards"
# when the generator has no "diff" mode: said once, "# [diff] generator:
# ..."), with its callback times scaled to DIFF_SCALE percent (default 10,
# so that a transition stays short under TCG), and a plan of DIFF_CYCLES
# transitions (default 6, at least 5 is useful: the plan always holds one
# suspend (freeze or mem), one hibernation (disk) and one injected
# failure), each one of
#   freeze or mem with pm_test=devices (prepare, suspend and back) or
#   pm_test=platform (every suspend and resume phase),
#   disk with pm_test=devices (freeze, then restore) or platform (freeze,
#   freeze_late, freeze_noirq and back with restore or thaw),
# pm_async=1 in most cycles, 0 in about one in six; in about one cycle in
# four a one-shot failure (the lab's "fail" file, "NAME PHASE") of a device
# that takes part in PM and that the PM core may not skip, in a suspend-side
# phase that the cycle runs; in about one of the other cycles in three, the
# lab's churn thread deletes a stateless link during the transition
# (DIFF_CHURN=unlink, the default; DIFF_CHURN=none: never).  The plan
# depends on the seed and the topology only (busybox awk's srand()), so it
# is the same on both kernels; it is printed ("# [diff] plan seed=S: ...").
# So are the lab's draws (jitter=, wait=...@P, hidden=...@P): the seed
# goes to the lab's draws file, so a callback draws the same time and the
# same chances on both kernels, whatever order they run the callbacks in.
#
# Every cycle is checked: a cycle with a failure must fail (-EIO in the
# report, nothing resumed that did not suspend), any other must succeed with
# one line per device for each callback of the cycle's phases; both: no
# violation, no kernel report, every device back active with runtime PM as
# before.  Per cycle one line for the host:
#   @@DIFF-CYCLE seed=S cycle=C rc=R expect=ok|fail outcome=ok|bad
#     viol=N full=0|1 dev_ns=NS
# dev_ns: the device-phase time, for each device phase of the report (all
# but prepare and complete, which run in the PM task on every kernel) the
# span from its earliest start to its latest end, summed; full=1 for
# a cycle that ran fully (no failure injected, succeeded, checked good).
# Per seed "@@DIFF-SEED seed=S ndev=N topo=MD5 full=N median_ns=NS
# viol=N bad=N" (median of dev_ns over the full cycles), one TAP result
# (no violation, every outcome as expected) and "@@SEED-DONE S".  A hang is
# caught by the lab's watchdog (RL_TIMEOUT), whose warning makes the host
# stop the guest (qemu-run.sh).
#
#   DIFF_CYCLES  transitions per seed (default 6)
#   DIFF_MAXDEV  largest topology (default 120)
#   DIFF_SCALE   callback times in percent of the generated ones (10)
#   DIFF_CHURN   unlink (default) or none
#   DIFF_REPORTS 1: the lab's report of every cycle after its @@DIFF-CYCLE
#                line, each line behind "#R " (to see where a seed's time
#                goes)
#   DIFF_GEN_MODE  the generator's mode, instead of "diff" or its fallback
#                (make check pins "hazards": its seeds were checked with it)
# topo= is the start of the md5sum of the topology as loaded: the host
# checks that both kernels ran the same one.  The parts that need no kernel are in difflib.sh (tested on the host).

. /pma/rlib.sh
. /pma/difflib.sh

cycles=${DIFF_CYCLES:-6}
maxdev=${DIFF_MAXDEV:-120}
scale=${DIFF_SCALE:-10}
churn=${DIFF_CHURN:-unlink}

# diff_churn SEED CYCLE: arm the deletion, during the next transition, of
# the first stateless link (suppliers=) of a device drawn from the seed
# among those that have one now; prints what it armed.
diff_churn()
{
	set -- $(awk -v s="$1" -v c="$2" '
	/ suppliers=/ {
		l = $0
		sub(/.* suppliers=/, "", l)
		sub(/[ ,].*/, "", l)
		v[++n] = $1 " " l
	}
	END {
		if (!n) exit
		srand(s * 7919 + c * 104729 + 31)
		printf "%s %d\n", v[1 + int(rand() * n)], int(rand() * 40000)
	}' $LAB/topology)
	[ $# = 3 ] || return 0
	echo "$3 $1 unlink=$2" 2>/dev/null >$LAB/churn && echo "$3 $1 unlink=$2"
}

# The generator's mode: "diff" once it has one, "hazards" until then.
if [ -n "${DIFF_GEN_MODE:-}" ]; then
	gmode=$DIFF_GEN_MODE
else
	$GEN 1 4 diff >/dev/null 2>&1
	grc=$?
	if [ $grc = 0 ]; then
		gmode="diff"
	else
		gmode=hazards
		echo "# [diff] generator: pm_async_gen refuses mode 'diff' (exit status $grc); using 'hazards'"
	fi
fi
echo "# [diff] generator mode $gmode, times at $scale%, $cycles cycles per seed, churn $churn"

states=""
for s in freeze mem disk; do
	grep -qw "$s" /sys/power/state && states="$states $s"
done
case $states in
*mem*) ;;
*) echo "# [diff] no 'mem' in /sys/power/state: those cycles are freeze" ;;
esac
case $states in
*disk*) ;;
*) echo "# [diff] no 'disk' in /sys/power/state: those cycles are freeze" ;;
esac

rl_init
CHURNS=0
rl_plan $#
[ -w /sys/module/suspend/parameters/pm_test_delay ] ||
	echo "# [diff] no pm_test_delay parameter: pm_test waits its default delay"
for seed in "$@"; do
	ndev=$(diff_ndev "$seed" "$maxdev")
	HAZ_MODE=$gmode RL_SCALE=$scale rl_topo "haz:$seed:$ndev" "$T/in.topo"
	cks=$(md5sum <"$T/in.topo" | cut -c1-12)
	desc="diff: seed=$seed ndev=$ndev scale=$scale% cycles=$cycles mode=$gmode topo=$cks"
	echo "# [diff] $desc"
	err=0 viol=0 bad=0 times=""
	# The devices a failure may be armed on: on the PM core's list, with
	# callbacks it may not skip.
	awk '!/^[ \t]*#/ && NF && !/ pm=0( |$)/ && !/ (direct_complete|smart_suspend|may_skip_resume)=1( |$)/ { print $1 }' \
		"$T/in.topo" >"$T/eligible"
	diff_plan "$seed" "$cycles" "$states" "$T/eligible" >"$T/plan"
	echo "# [diff] plan seed=$seed: $(awk '{ printf "%s%d:%s/%s/async=%d%s%s", (NR > 1 ? " " : ""), $1, $2, $3, $4, ($5 == "-" ? "" : "/fail=" $5 ":" $6), ($7 ? "/churn" : "") }' "$T/plan")"
	if ! rl_load "$T/in.topo"; then
		tap_result 1 "$desc: load"
		echo "@@DIFF-SEED seed=$seed ndev=$ndev topo=$cks full=0 median_ns=- viol=0 bad=1"
		echo "@@SEED-DONE $seed"
		continue
	fi
	# The lab's chances and jitter from the seed (its draws file), so
	# that both kernels run the same callback times and waits.
	echo "$seed" >$LAB/draws
	while read -r c st te as fd fp ch; do
		echo "$as" >/sys/power/pm_async
		echo "$te" >/sys/power/pm_test
		armed=""
		[ "$ch" = 1 ] && [ "$churn" != none ] && armed=$(diff_churn "$seed" "$c")
		expect=ok
		if [ "$fd" != - ]; then
			expect=fail
			echo "$fd $fp" >$LAB/fail
		fi
		KERNEL_BAD=0
		rc=0
		rl_cycle "$st" || rc=$?
		[ "$fd" != - ] && echo "$fd none" >$LAB/fail
		v=$("$CHECK" "$RPT" violations)
		[ "${v:--1}" -ge 0 ] || v=0
		outcome=ok full=0
		if [ $expect = fail ]; then
			if [ $rc = 0 ]; then
				echo "# seed $seed: cycle $c ($st, pm_test=$te, pm_async=$as): succeeded despite the failure of $fd $fp"
				outcome=bad
			elif [ $rc -ge 2 ]; then
				outcome=bad
			fi
			SUSPEND_ALL=$(diff_phases "$st" "$te") rl_check_report fail || outcome=bad
			FAULTS=$((FAULTS + 1))
		else
			if [ $rc != 0 ]; then
				echo "# seed $seed: cycle $c ($st, pm_test=$te, pm_async=$as${armed:+, churn $armed}) failed:"
				sed 's/^/#   /' "$T/err"
				"$CHECK" "$RPT" select 'result<0' : line | head -n 5 | sed 's/^/#   /'
				outcome=bad
				SUSPEND_ALL=$(diff_phases "$st" "$te") rl_check_report good >/dev/null
			else
				SUSPEND_ALL=$(diff_phases "$st" "$te") rl_check_report good || outcome=bad
			fi
		fi
		rl_check_state || outcome=bad
		[ $KERNEL_BAD = 0 ] || outcome=bad
		if [ -n "$armed" ]; then
			CHURNS=$((CHURNS + 1))
			set -- $(cat $LAB/churn)
			[ "$1" = done ] ||
				{ echo "# seed $seed: cycle $c: churn $armed did not run: $*"; outcome=bad; }
			cat $LAB/topology >"$T/topo"
			cat $LAB/state >"$T/state.base"
		fi
		t=$(diff_devtime "$RPT")
		if [ $outcome = ok ] && [ $expect = ok ]; then
			full=1
			times="$times $t"
		fi
		[ "$v" = 0 ] || viol=$((viol + v))
		[ $outcome = ok ] || { bad=$((bad + 1)); err=1; }
		[ "$v" = 0 ] || [ "$(rl_viol_unexpected "$RPT")" = 0 ] || err=1
		echo "@@DIFF-CYCLE seed=$seed cycle=$c rc=$rc expect=$expect outcome=$outcome viol=$v full=$full dev_ns=$t"
		[ "${DIFF_REPORTS:-0}" = 1 ] && sed 's/^/#R /' "$RPT"
	done <"$T/plan"
	echo none >$LAB/churn
	echo 1 >/sys/power/pm_async
	echo platform >/sys/power/pm_test
	med=$(median $times)
	echo "@@DIFF-SEED seed=$seed ndev=$ndev topo=$cks full=$(echo $times | wc -w) median_ns=$med viol=$viol bad=$bad"
	if [ $err != 0 ]; then
		echo "# replay: DIFF_MAXDEV=$maxdev DIFF_CYCLES=$cycles DIFF_SCALE=$scale diff.sh $seed; the topology:"
		sed 's/^/#T /' "$T/topo"
	fi
	tap_result $err "$desc median_ns=$med violations=$viol bad_cycles=$bad"
	echo "@@SEED-DONE $seed"
done
echo 0 >$LAB/draws
echo "# [diff] $CHURNS cycles with churn ($churn) during the transition"
rl_summary diff
rl_fini

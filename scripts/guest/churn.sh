#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# churn.sh ROUNDS: devices come and go while transitions run (in the guest).
#
# On a pm_async_gen topology (seed RL_SEED, CHURN_NDEV devices), each round
#  - flips power/async of about one device in ten and pm_async (1 in 3
#    rounds sync), with two busy readers of sysfs running in the background
#    between transitions ("under load");
#  - arms the lab's churn: a leaf device is deleted (its links first) from a
#    kernel thread after a random delay within the transition, and a new
#    device is registered (sometimes under the same name, sometimes with a
#    parent);
#  - checks that the transition succeeds with no violation, that every
#    other device ran every callback once and is back active with runtime
#    PM as before, and that the next cycle, with the new device, succeeds.
# Then two fixed cases: a sync supplier whose consumer is deleted during
# the consumer's suspend callback (pm_async=0), and a device added under
# a parent that has been prepared, which then waits for it in each of the
# remaining suspend phases.
# Where the removal landed (which device phase, or between phases) is
# counted and printed with the summary.  The two warm-up cycles are results
# of their own; a fixed case whose removal came too early is a counted skip.
#
#   CHURN_NDEV   devices in the topology (default 60)
#   CHURN_FIXED  0 leaves the fixed cases out (default 1)
#   RL_SEED      topology and choices (default 1)
#   PM_ASYNC_XFAIL  with "add_during" (a kernel without "PM: sleep: Let
#                every waiter through for devices added during a
#                transition", such as mainline 7.3, where a parent then
#                hangs): the rounds add their new device at the top level
#                and the second fixed case is a counted skip

. /pma/rlib.sh

rounds=${1:-20}
ndev=${CHURN_NDEV:-60}
seed=${RL_SEED:-1}
LOADERS=""

rnd() { rl_rand "$seed" "$1" "$2"; }

# churn_where DEL_NS: the device phase (or gap) of $T/report it fell in.
churn_where()
{
	"$CHECK" "$RPT" phases | awk -v t="$1" '
	BEGIN { w = "before_suspend" }
	!found && t >= $2 && t <= $3 { w = $1; found = 1 }
	!found && t > $3 { w = "after_" $1 }
	END { print w }'
}

rl_init
RL_SCALE=100 rl_topo "gen:$seed:$ndev" "$T/in.topo" && rl_load "$T/in.topo" ||
	{ echo "Bail out! cannot load the topology"; exit 1; }
for i in 1 2; do
	( while :; do cat $BUS/*/power/async $LAB/topology >/dev/null 2>&1; done ) &
	LOADERS="$LOADERS $!"
done

# Two cycles without churn first, each a result: the rounds rest on them
# (the second one times a transition, which places the removals).
rl_good_cycle
tap_result $? "churn: warm-up cycle 1 of $ndev devices, no churn"
t0=$(rl_now_ms)
rl_good_cycle
tap_result $? "churn: warm-up cycle 2, timed"
wall=$(( $(rl_now_ms) - t0 ))
echo "# [churn] $ndev devices, a transition takes about $wall ms"

r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	err=0
	# Flips between cycles, under load.
	mode=1
	[ "$(rnd $((r * 10 + 1)) 3)" = 0 ] && mode=0
	echo $mode >/sys/power/pm_async
	for d in $(awk -v s="$seed$r" 'BEGIN { srand(s) } rand() < 0.1 { print $1 }' $LAB/topology); do
		if [ "$(cat $BUS/$d/power/async)" = enabled ]; then
			echo disabled >$BUS/$d/power/async
		else
			echo enabled >$BUS/$d/power/async
		fi
	done
	cat $LAB/topology >"$T/topo"
	cat $LAB/state >"$T/state.base"

	set -- $(rl_leaves)
	victim=$(eval echo "\${$(( $(rnd $((r * 10 + 2)) $#) + 1 ))}")
	new=n$r
	[ "$(rnd $((r * 10 + 3)) 4)" = 0 ] && new=$victim
	set -- $(awk -v v="$victim" '$1 != v { print $1 }' $LAB/topology)
	par=""
	[ $# -gt 0 ] && [ "$(rnd $((r * 10 + 4)) 3)" != 0 ] &&
		par="parent=$(eval echo "\${$(( $(rnd $((r * 10 + 5)) $#) + 1 ))}")"
	if [ -n "$par" ] && xfail add_during; then
		echo "# [churn] $new at the top level, not under ${par#parent=} (PM_ASYNC_XFAIL=add_during)"
		par=""
	fi
	# The device phases take the first part of a transition (after the
	# freezer) and the thaw the rest: most removals should hit them.
	delay=$(( $(rnd $((r * 10 + 6)) $((wall * 2 / 5 + 1))) * 1000 ))
	desc="churn: round $r pm_async=$mode: $victim removed after $delay us, $new added${par:+ with $par}"
	echo "# [churn] $desc"
	if ! echo "$delay $victim $new $par" >$LAB/churn; then
		tap_result 1 "$desc (cannot arm)"
		continue
	fi

	KERNEL_BAD=0
	rl_cycle freeze
	rc=$?
	[ $rc = 0 ] || { echo "# the transition failed ($rc):"; sed 's/^/#   /' "$T/err"; err=1; }
	set -- $(cat $LAB/churn)
	if [ "$1" != done ]; then
		echo "# churn did not run: $*"
		err=1
	else
		where=$(churn_where "$4")
		WHERE="$WHERE $where"
		[ "${8:-0}" = 0 ] || { echo "# device_add of $new returned $8"; err=1; }
	fi
	# Without the removed and the added device, every device ran every
	# callback once and is back as it was.
	grep -v "^$victim " "$T/topo" >"$T/topo.rest"
	mv "$T/topo.rest" "$T/topo"
	RL_IGNORE=$new rl_check_report good || err=1
	# The new device takes part in the whole transition if it came
	# before prepare, in none of it otherwise.
	n=$("$CHECK" "$RPT" select name="$new" : name | wc -l)
	[ "$n" = 0 ] || [ "$n" = 8 ] ||
		{ echo "# $new has $n lines in the report, expected 0 or 8:"; "$CHECK" "$RPT" select name="$new" : line | sed 's/^/#   /'; err=1; }
	grep -v "^$new " $LAB/state >"$T/state.rest"
	grep -v "^$victim " "$T/state.base" | cmp -s - "$T/state.rest" ||
		{ echo "# device state differs:"; grep -v "^$victim " "$T/state.base" | diff - "$T/state.rest" | head -n 10 | sed 's/^/#   /'; err=1; }
	grep -q "^$new state=active" $LAB/state || { echo "# $new is missing"; err=1; }
	[ $KERNEL_BAD = 0 ] || err=1

	cat $LAB/topology >"$T/topo"
	cat $LAB/state >"$T/state.base"
	rl_good_cycle || { echo "# the next cycle failed"; err=1; }
	[ $err = 0 ] || { echo "# topology before the round:"; sed 's/^/#T /' "$T/topo"; }
	tap_result $err "$desc${where:+ (during $where)}"
	where=""
done
kill $LOADERS 2>/dev/null

# The fixed cases, independent of the random rounds.
#
# fixed_start TOPO CHURN: load TOPO, arm CHURN and run one transition under
# a shortened lab watchdog (a fixed case takes a few seconds); status 1 if
# the topology or the churn cannot be set up.  A failed transition sets err.
fixed_start()
{
	rl_load "$1" && echo "$2" >$LAB/churn || return 1
	echo 45 >$LAB/watchdog
	KERNEL_BAD=0
	rl_cycle freeze || { echo "# the transition failed"; err=1; }
}

# fixed_end: no kernel report, the next cycle (with the topology as it is
# now) succeeds; the watchdog back to the campaign's.
fixed_end()
{
	[ $KERNEL_BAD = 0 ] || err=1
	cat $LAB/state >"$T/state.base"
	cat $LAB/topology >"$T/topo"
	rl_good_cycle || { echo "# the next cycle failed"; err=1; }
	echo $((RL_TIMEOUT + 30)) >$LAB/watchdog
}

# fixed_result DESC: a case whose churn came at the wrong moment (a starved
# vCPU) did not test what it should: a counted skip if nothing else went
# wrong.
fixed_result()
{
	if [ $err = 0 ] && [ -n "$mistimed" ]; then
		tap_skip "$1" "$mistimed: not tested"
	else
		tap_result $err "$1"
	fi
}

# A sync supplier whose consumer is deleted while the consumer's own
# suspend callback runs.  The consumer's link is gone when the consumer
# finishes, so the supplier is never told; the PM core must still suspend
# it (in order: its only consumer is gone) and finish the phase.  With
# pm_async=0 every device is sync.
fixed_case()
{
	err=0 mistimed=""
	desc="churn: sync supplier whose consumer is deleted during the consumer's suspend, pm_async=0"
	echo "# [churn] $desc"
	echo 0 >/sys/power/pm_async
	printf 'vs async=0\nvc async=0 suppliers=vs suspend=4000000\n' >"$T/fixed.topo"
	if fixed_start "$T/fixed.topo" "1500000 vc"; then
		set -- $(cat $LAB/churn)
		[ "$1" = done ] || { echo "# churn: $*"; err=1; }
		# vc was prepared (it took part) and vs's suspend came after.
		"$CHECK" "$RPT" within vs prepare end vs suspend start "${4:-0}" "${4:-0}" >/dev/null ||
			{ mistimed="the removal did not land between vs's prepare and its suspend"; echo "# $mistimed"; }
		grep -v '^vc ' "$T/topo" >"$T/topo.rest"
		mv "$T/topo.rest" "$T/topo"
		rl_check_report good || err=1
		grep -v '^vc ' "$T/state.base" | cmp -s - $LAB/state || { echo "# device state differs"; err=1; }
		fixed_end
	else
		err=1
	fi
	echo 1 >/sys/power/pm_async
	fixed_result "$desc"
}

# A device added during suspend under a parent that is already prepared:
# it takes no part in the transition, but the parent waits for it in each
# suspend phase it has left.  n is added while the sync s suspends (the
# suspend walk meets s, created last, first), after p's prepare and before
# p's suspend_late (p, an async leaf, suspends at once); p must then wait
# for n in suspend_late and in suspend_noirq and go through both.
added_case()
{
	err=0 mistimed=""
	desc="churn: a device added under a prepared parent during suspend, pm_async=1"
	echo "# [churn] $desc"
	if xfail add_during; then
		tap_skip "$desc" "hangs the parent on this kernel (PM_ASYNC_XFAIL=add_during)"
		return
	fi
	echo 1 >/sys/power/pm_async
	printf 'p suspend=1000\nv\ns async=0 suspend=800000\n' >"$T/added.topo"
	if fixed_start "$T/added.topo" "200000 v n parent=p"; then
		set -- $(cat $LAB/churn)
		[ "$1" = done ] && [ "${8:-1}" = 0 ] || { echo "# churn: $*"; err=1; }
		"$CHECK" "$RPT" within p prepare end p suspend_late start "${7:-0}" "${7:-0}" >/dev/null ||
			{ mistimed="n was not added between p's prepare and its suspend_late"; echo "# $mistimed"; }
		grep -v '^v ' "$T/topo" >"$T/topo.rest"
		mv "$T/topo.rest" "$T/topo"
		RL_IGNORE=n rl_check_report good || err=1
		fixed_end
	else
		err=1
	fi
	fixed_result "$desc"
}
if [ "${CHURN_FIXED:-1}" != 0 ]; then
	fixed_case
	added_case
fi

echo "# churn removals landed in:$(for w in $WHERE; do echo $w; done | sort | uniq -c | awk '{ printf " %s=%d", $2, $1 }')"
rl_summary churn
rl_fini

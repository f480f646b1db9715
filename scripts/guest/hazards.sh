#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hazards.sh SEED...: random topologies that model real drivers (issue 14),
# many cycles each (in the guest).
#
# As fuzz.sh, but the topologies come from "pm_async_gen SEED NDEV
# hazards": devices with and without drivers and with pm=0, stateless,
# managed, dormant and SYNC_STATE_ONLY links, device_pm_wait_for_dev()
# calls in every phase (with the PM core's list), direct_complete devices,
# DPM_FLAG_SMART_SUSPEND and DPM_FLAG_MAY_SKIP_RESUME drivers and callback
# times that change from cycle to cycle (jitter=); in about one cycle in
# three, the lab's churn thread deletes a stateless link while the
# transition runs (HAZ_CHURN adds the other operations, which break
# mainline itself: "move", device_move(), can deadlock on dpm_list_mtx
# against a parent that iterates its children in dpm_wait_for_children()
# (patch 0004); "link", device_link_add(), moves the consumer to the end
# of dpm_list, out of the transition (patch 0003)).  Each SEED decides the
# number of devices (80% up to 80, the rest up to HAZ_MAXDEV), a time scale
# (as generated, a tenth, or all zero) and pm_async (0 or 1) of each
# cycle.  Every cycle is checked: it succeeds, no violation, every callback
# that must run ran once (those the PM core may skip at most once), every
# device back active with runtime PM as before.  A failing seed prints its
# parameters and the topology of the failing cycle (lines "#T ...").  A hang is
# caught by the lab's watchdog (RL_TIMEOUT), whose warning makes the host
# stop the guest: the host counts it and goes on from the next seed.
#
#   HAZ_CYCLES   cycles per seed (default 10)
#   HAZ_MAXDEV   largest topology (default 300)
#   HAZ_MODE     the generator's mode: hazards (default), hazards-dc or
#                hazards-late (the same topologies, some devices marked
#                no-PM after device_add(), pm=late; breaks mainline 7.3:
#                each seed is a skip with PM_ASYNC_XFAIL=no_pm_late)
#   HAZ_CHURN    the churn operations to draw from, comma-separated
#                (default "unlink"; also
#                "move" and "link", e.g. HAZ_CHURN=unlink,move,link)
#   HAZ_NOMEM    in about one cycle in three, fail that percentage of
#                the GFP_ATOMIC allocations of the lab's waits and churn
#                thread (failslab with its task filter, test kernels):
#                the PM core cannot queue what they start (default 0: off;
#                a kernel without failslab fails the seed)
#   HAZ_NOMEM_ALL  1: HAZ_NOMEM fails those of every task instead (the
#                walk's and the workers' starts too)
#
# One TAP line per seed, "@@SEED-DONE SEED" after each; "# SUMMARY ..." at
# the end.

. /pma/rlib.sh

cycles=${HAZ_CYCLES:-10}
maxdev=${HAZ_MAXDEV:-300}

# haz_params SEED: "NDEV SCALE".
haz_params()
{
	awk -v s="$1" -v max="$maxdev" 'BEGIN {
		srand(s * 7919 + 29)
		r = rand()
		if (r < 0.8) n = 5 + int(rand() * 75)
		else n = 80 + int(rand() * 520)
		if (n > max) n = max
		r = rand()
		scale = (r < 0.5) ? 100 : (r < 0.8) ? 10 : 0
		if (n > 150 && scale == 100) scale = 10
		printf "%d %d\n", n, scale
	}'
}

# haz_churn SEED CYCLE: arm a move, link or unlink for the next cycle, or
# nothing; the lab refuses what it cannot do (a link that exists, a
# supplier with pm=0...), and then nothing is armed.  Prints what it armed.
haz_churn()
{
	set -- $(awk -v s="$1" -v c="$2" -v n="$(wc -l <$LAB/topology)" -v ops="${HAZ_CHURN:-unlink}" 'BEGIN {
		srand(s * 7919 + c * 104729 + 31)
		if (n < 2 || rand() >= 0.34) exit
		v = 1 + int(rand() * (n - 1))
		u = int(rand() * v)
		nops = split(ops, op_, ",")
		op = op_[1 + int(rand() * nops)]
		printf "%d %d %s %d\n", v + 1, u + 1, op, int(rand() * 40000)
	}')
	[ $# = 4 ] || return 0
	victim=$(sed -n "${1}s/ .*//p" $LAB/topology)
	other=$(sed -n "${2}s/ .*//p" $LAB/topology)
	[ "$3" = link ] && haz_moves_waits "$victim" && return 0
	if [ "$3" = move ] && [ -e "$T/haz.linked" ]; then
		# A link added earlier this seed moved its consumer and the
		# devices behind it to the end of the PM core's list, so the
		# new parent may now stand behind the victim there: a driver
		# that cannot know puts the device at the end of the list
		# (:last; right after the parent, :after, could put it before
		# one of its suppliers), which is only right for a device
		# nothing depends on or waits for.
		haz_moves_waits "$victim" leaf && return 0
		other=$other:last
	fi
	if [ "$3" = unlink ]; then
		# A stateless link of the victim, if it has one.
		other=$(sed -n "${1}s/.* suppliers=\([^ ,]*\).*/\1/p" $LAB/topology)
		[ -n "$other" ] || return 0
	fi
	echo "$4 $victim $3=$other" 2>/dev/null >$LAB/churn || return 0
	[ "$3" = link ] && : >"$T/haz.linked"
	echo "$4 $victim $3=$other"
}

# haz_moves_waits NAME [leaf]: a new link with NAME as the consumer moves
# NAME, its children and its consumers, recursively, to the end of the PM
# core's list (device_link_add()); true if one of them calls
# device_pm_wait_for_dev() or is waited for, or, with "leaf", if NAME has a
# child or a consumer at all (a device moved alone must have none).  The generator makes waits only
# with the list (issue 14: a wait against it may never return with
# pm_async=0, on any kernel), and such a move would turn one around.
haz_moves_waits()
{
	awk -v v="$1" -v leaf="${2:-}" '
	{
		name[NR] = $1
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "parent")
				dep[kv[2]] = dep[kv[2]] " " $1
			else if (kv[1] == "suppliers" || kv[1] == "managed") {
				n = split(kv[2], s, ",")
				for (j = 1; j <= n; j++)
					dep[s[j]] = dep[s[j]] " " $1
			} else if (kv[1] == "wait") {
				waits[$1] = 1
				n = split(kv[2], w, ",")
				for (j = 1; j <= n; j++) {
					sub(/.*:/, "", w[j])
					waits[w[j]] = 1
				}
			}
		}
	}
	END {
		if (leaf && dep[v] != "")
			exit 0
		todo[1] = v; nt = 1; seen[v] = 1
		for (k = 1; k <= nt; k++) {
			if (todo[k] in waits)
				exit 0
			n = split(dep[todo[k]], d, " ")
			for (j = 1; j <= n; j++)
				if (!(d[j] in seen)) {
					seen[d[j]] = 1
					todo[++nt] = d[j]
				}
		}
		exit 1
	}' $LAB/topology
}

rl_init
CHURNS=0
NOMEMS=0
for seed in "$@"; do
	set -- $(haz_params "$seed")
	ndev=$1 scale=$2
	desc="hazards: seed=$seed ndev=$ndev scale=$scale% cycles=$cycles${HAZ_MODE:+ mode=$HAZ_MODE}"
	echo "# [hazards] $desc"
	if [ "${HAZ_MODE:-}" = hazards-late ] && xfail no_pm_late; then
		tap_skip "$desc" "mainline waits for no device marked no-PM after"\
" device_add() (PM_ASYNC_XFAIL=no_pm_late)"
		echo "@@SEED-DONE $seed"
		continue
	fi
	err=0
	rm -f "$T/haz.linked"
	RL_SCALE=$scale rl_topo "haz:$seed:$ndev" "$T/in.topo" && rl_load "$T/in.topo" || err=1
	c=0
	while [ $err = 0 ] && [ $c -lt "$cycles" ]; do
		c=$((c + 1))
		# pm_async=0 in about one cycle in four, from the seed.
		mode=1
		[ $(( (seed * 2654435761 + c * 40503) % 97 % 4 )) = 0 ] && mode=0
		echo "$mode" >/sys/power/pm_async
		armed=$(haz_churn "$seed" "$c")
		nomem=""
		if [ "${HAZ_NOMEM:-0}" != 0 ] &&
		   [ $(( (seed * 40503 + c * 2654435761) % 89 % 3 )) = 0 ]; then
			nomem=", failslab ${HAZ_NOMEM}%"
			rl_nomem "$HAZ_NOMEM" "$([ "${HAZ_NOMEM_ALL:-0}" = 1 ] && echo all)" ||
				{ echo "# seed $seed: no failslab for HAZ_NOMEM"; err=1; }
		fi
		if ! rl_good_cycle; then
			echo "# seed $seed: cycle $c (pm_async=$mode${armed:+, churn $armed}$nomem) failed"
			err=1
		fi
		if [ -n "$nomem" ]; then
			NOMEMS=$((NOMEMS + 1))
			rl_nomem 0
		fi
		if [ -n "$armed" ]; then
			CHURNS=$((CHURNS + 1))
			set -- $(cat $LAB/churn)
			[ "$1" = done ] ||
				{ echo "# seed $seed: cycle $c: churn $armed did not run: $*"; err=1; }
			# The topology changed: the next cycles check against it.
			cat $LAB/topology >"$T/topo"
			cat $LAB/state >"$T/state.base"
		fi
	done
	echo none >$LAB/churn
	echo 1 >/sys/power/pm_async
	if [ $err != 0 ]; then
		echo "# replay: HAZ_MAXDEV=$maxdev HAZ_CYCLES=$cycles hazards.sh $seed; the topology:"
		sed 's/^/#T /' "$T/topo"
	fi
	tap_result $err "$desc"
	echo "@@SEED-DONE $seed"
done
echo "# [hazards] $CHURNS cycles with churn (${HAZ_CHURN:-unlink}) during the transition"
[ "${HAZ_NOMEM:-0}" = 0 ] ||
	echo "# [hazards] $NOMEMS cycles with ${HAZ_NOMEM}% of the GFP_ATOMIC allocations of $([ "${HAZ_NOMEM_ALL:-0}" = 1 ] && echo "every task" || echo "the waits and churn") failed"
rl_summary hazards
rl_fini

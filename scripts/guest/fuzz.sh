#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fuzz.sh SEED...: random topologies, many cycles each (in the guest).
#
# Each SEED decides everything, so a failure replays exactly with the same
# seed (and the same FUZZ_* settings): the number of devices (85% up to
# 100, 12% up to 600, 3% up to 3000 or FUZZ_MAXDEV), the pm_async_gen
# topology (trees with cross-subtree supplier links, random async flags and
# callback times including zero), a time scale (as generated, a tenth, or
# all zero), the share of async devices, and pm_async (0 or 1) of each
# cycle.  Every cycle
# is checked: it succeeds, no violation, one callback per device and phase,
# every device back active.  A failing seed prints its parameters and the
# topology as it was loaded (lines "#T ..."), which can be written back to
# the lab as it is.
#
#   FUZZ_CYCLES   cycles per seed (default 20)
#   FUZZ_MAXDEV   largest topology (default 3000)
#
# One TAP line per seed, "@@SEED-DONE SEED" after each (the host restarts
# after a hang from the next seed); "# SUMMARY ..." at the end.

. /pma/rlib.sh

cycles=${FUZZ_CYCLES:-20}
maxdev=${FUZZ_MAXDEV:-3000}

# fuzz_params SEED: "NDEV SCALE ASYNC_PCT".
fuzz_params()
{
	awk -v s="$1" -v max="$maxdev" 'BEGIN {
		srand(s * 7919 + 17)
		r = rand()
		if (r < 0.85) n = 5 + int(rand() * 95)
		else if (r < 0.97) n = 100 + int(rand() * 500)
		else n = 600 + int(rand() * 2400)
		if (n > max) n = max
		r = rand()
		scale = (r < 0.5) ? 100 : (r < 0.8) ? 10 : 0
		r = rand()
		apct = (r < 0.2) ? 100 : (r < 0.9) ? 75 : 25
		# Big topologies with full times take minutes per cycle.
		if (n > 300 && scale == 100) scale = 10
		printf "%d %d %d\n", n, scale, apct
	}'
}

rl_init
for seed in "$@"; do
	set -- $(fuzz_params "$seed")
	ndev=$1 scale=$2 apct=$3
	desc="fuzz: seed=$seed ndev=$ndev scale=$scale% async=$apct% cycles=$cycles"
	echo "# [fuzz] $desc"
	err=0
	RL_SCALE=$scale rl_topo "gen:$seed:$ndev" "$T/gen.topo" &&
	awk -v s="$seed" -v p="$apct" 'BEGIN { srand(s) }
		{ if (p != 75) sub(/ async=[01]/, " async=" (rand() * 100 < p ? 1 : 0)); print }' \
		"$T/gen.topo" >"$T/in.topo" && rl_load "$T/in.topo" || err=1
	c=0
	while [ $err = 0 ] && [ $c -lt "$cycles" ]; do
		c=$((c + 1))
		# pm_async=0 in about one cycle in seven, from the seed.
		mode=1
		[ $(( (seed * 2654435761 + c * 40503) % 97 % 7 )) = 0 ] && mode=0
		echo "$mode" >/sys/power/pm_async
		if ! rl_good_cycle; then
			echo "# seed $seed: cycle $c (pm_async=$mode) failed"
			err=1
		fi
	done
	echo 1 >/sys/power/pm_async
	if [ $err != 0 ]; then
		echo "# replay: FUZZ_MAXDEV=$maxdev FUZZ_CYCLES=$cycles fuzz.sh $seed; the topology:"
		sed 's/^/#T /' "$T/topo"
	fi
	tap_result $err "$desc"
	echo "@@SEED-DONE $seed"
done
rl_summary fuzz
rl_fini

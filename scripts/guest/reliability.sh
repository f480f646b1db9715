#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# reliability.sh: the reduced reliability set of "make check" (in the
# guest), one TAP stream: a bounded fault matrix (3 devices of the laptop
# profile at a tenth of its callback times, every suspend-side phase,
# pm_async on and off, plus a pair per phase), 4 fixed fuzz seeds of 3
# cycles, 4 churn rounds and 4 fixed hazard seeds of 3 cycles (topologies
# with drivers, all link kinds, device waits, direct_complete, smart
# suspend, skipped resume and jitter), the first again with devices marked
# no-PM after device_add() (hazards-late; a skip on stock).  About 100
# transitions; the full campaigns are "make faults", "make fuzz", "make
# soak", "make hazards" (scripts/campaign.sh).

# The plan comes first, so that a guest that dies (a hung transition: the
# lab's watchdog warns, the host stops the guest) leaves a stream short of its plan, which counts as
# a failure: 3 devices x 3 phases x 2 modes + 3 pairs x 2 modes, 4 seeds,
# churn's 2 warm-up cycles, 4 churn rounds, the two fixed churn cases,
# 4 hazard seeds and one of the generator's hazards-late mode.
echo "1..$((3 * 3 * 2 + 3 * 2 + 4 + 2 + 4 + 2 + 4 + 1))"
# Renumber the TAP of the parts into one stream.
{
	FAULT_MAX=3 FAULT_PAIRS=1 RL_SCALE=10 sh /pma/faults.sh laptop
	FUZZ_CYCLES=3 FUZZ_MAXDEV=300 sh /pma/fuzz.sh 1001 1002 1003 1004
	CHURN_NDEV=40 sh /pma/churn.sh 4
	HAZ_CYCLES=3 HAZ_MAXDEV=120 sh /pma/hazards.sh 2001 2002 2003 2004
	HAZ_CYCLES=3 HAZ_MAXDEV=120 HAZ_MODE=hazards-late sh /pma/hazards.sh 2001
} 2>&1 | awk '
	/^1\.\.[0-9]+$/ { next }
	/^@@SEED-DONE/ { next }
	/^(not )?ok [0-9]+ / {
		n++
		sub(/^ok [0-9]+ /, "ok " n " ")
		sub(/^not ok [0-9]+ /, "not ok " n " ")
		if ($1 == "not") bad++
	}
	{ print; fflush() }
	END { exit bad ? 1 : 0 }'

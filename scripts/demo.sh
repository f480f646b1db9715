#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: the laptop profile on the stock and the patched kernel (bench
# flavour), 5 cycles of each mode on each, the table with bounds and
# ratios, and an SVG timeline of one stock and one patched async cycle.
# DEMO_CYCLES changes the number of cycles.

set -euo pipefail
. "$(dirname "$0")/common.sh"

BENCH_PROFILES=laptop BENCH_CYCLES=${DEMO_CYCLES:-5} BENCH_ROUNDS=1 \
BENCH_OUT=$TOP/out/demo/$(date +%Y%m%d-%H%M%S) \
	exec "$HARNESS/bench.sh"

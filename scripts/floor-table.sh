#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# floor-table.sh [--limit N] [FILE]: summarise the "=== floor" lines of
# scripts/guest/floor.sh (make bench) as a table: per way, the median over
# the runs of the elapsed time and of its ratio to the bound, computed as
# pm-async-report does for a phase: max(longest item, all items / LIMIT),
# LIMIT the report's worker limit (256).
set -euo pipefail
limit=256
if [ "${1:-}" = --limit ]; then
	limit=$2
	shift 2
fi
awk -v limit="$limit" '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$1 == "===" && $2 == "floor" {
	way = $5
	delete f
	for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["elapsed_ns"] == "" || f["longest_ns"] == "" || f["sum_ns"] == "")
		next
	bound = f["longest_ns"] > f["sum_ns"] / limit ? f["longest_ns"] : f["sum_ns"] / limit
	if (bound <= 0)
		next
	if (!(way in n))
		order[++nways] = way
	n[way]++
	ms[way, n[way]] = f["elapsed_ns"] / 1e6
	ratio[way, n[way]] = f["elapsed_ns"] / bound
	items = f["items"]; us = f["us"]
}
END {
	if (!nways) {
		print "no workqueue floor lines" > "/dev/stderr"
		exit 1
	}
	printf "\nWorkqueue floor: %d work items sleeping %d us each, no PM core, median of %d runs (limit %d)\n\n",
		items, us, n[order[1]], limit
	printf "%-16s %12s %10s\n", "way", "elapsed ms", "x bound"
	for (w = 1; w <= nways; w++) {
		way = order[w]
		for (i = 1; i <= n[way]; i++) { a[i] = ms[way, i]; b[i] = ratio[way, i] }
		printf "%-16s %12.1f %9.2fx\n", way, median(a, n[way]), median(b, n[way])
	}
}' "${1:--}"

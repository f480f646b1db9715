#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# drvbench.sh CYCLES (in the guest, on the laptop machine: make bench's
# "drivers" profile, scripts/bench.sh): CYCLES real S3 cycles per mode,
# pm_async=0 (sync) and 1 (async, every power/async as the kernel set it)
# in turn, with the real drivers only (no lab device), by
# pm-async-measure; then every file of its run (the cycles' kernel logs,
# run.txt, links.txt: /sys/class/devlink) is printed for the host, one
# block a file:
#
#   @@DRVBENCH-FILE NAME
#   |LINE...
#   @@DRVBENCH-END NAME
#
# The host (scripts/drivers-table.sh) summarizes them and runs the advisor
# on them.  Progress goes out as "# [drvbench] ..." lines.  Exit status:
# pm-async-measure's.

. /pma/laptop.sh

CYCLES=${1:-5}
OUT=/tmp/drvbench

grep -q 'pma.machine=laptop' /proc/cmdline || {
	echo "# [drvbench] not the laptop machine (qemu-run.sh -M laptop)"
	exit 1
}
laptop_settle
echo "# [drvbench] $((CYCLES * 2)) real S3 cycles (sync, async x $CYCLES), real drivers only"
rm -rf $OUT
pm-async-measure -n "$CYCLES" --wake 6 --settle 2 --variants sync,async -o $OUT >/tmp/drvbench.txt 2>&1
rc=$?
sed 's/^/# /' /tmp/drvbench.txt
for f in $OUT/*; do
	[ -f "$f" ] || continue
	n=${f##*/}
	echo "@@DRVBENCH-FILE $n"
	sed 's/^/|/' "$f"
	echo "@@DRVBENCH-END $n"
done
echo "# [drvbench] pm-async-measure exit status $rc"
exit $rc

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# drvmeasure.sh (in the guest, on the laptop machine: qemu-run.sh -M
# laptop): the laptop owner's tools on real drivers (TAP).  What measure.sh
# and bisect.sh check on the lab's devices alone, here with the machine's
# real USB, AHCI, NVMe, HD audio and e1000e drivers in every transition.
#
#  - pm-async-measure --dry-run names the real i8042 it would mark and
#    touches nothing;
#  - pm-async-measure on DRVMEASURE_CYCLES (default 2) real S3 cycles per
#    variant (sync, async, marked: the real i8042 made async, the seed's
#    experiment) exits 0; every log is a full S3 cycle; the table has a
#    row, a bound and a critical path per variant; the mark took effect
#    (i8042 sync in the async cycles, async in the marked ones, read by the
#    advisor from the logs);
#  - pm-async-advise reads a real cycle's log: it exits 0, its profile (a
#    lab topology) has the log's slowest suspend callback with that time
#    and loads into the lab;
#  - pm-async-measure --bisect finds a hidden dependency between two lab
#    devices placed beside the real ones (pm_test=devices), whose failing
#    cycles' logs name real devices among the candidates: exactly the
#    pair, within its cycle cap, one udev rule each;
#  - after each run every knob and every power/async file is back, and
#    every real device is back (laptop.sh's inventory).

. /pma/tap.sh
. /pma/mcheck.sh
. /pma/laptop.sh

LAB=/sys/kernel/debug/pm_async_test
CYCLES=${DRVMEASURE_CYCLES:-2}
OUT=/tmp/drvmeasure
T=/tmp/drvmeasure.t
I8042=/sys/devices/platform/i8042

echo "TAP version 13"
if ! grep -q 'pma.machine=laptop' /proc/cmdline; then
	echo "1..1"
	tap_skip "drvmeasure: the tools on real drivers" "not the laptop machine (qemu-run.sh -M laptop)"
	exit 0
fi
command -v pm-async-measure >/dev/null && command -v pm-async-advise >/dev/null || {
	echo "1..1"
	nok "drvmeasure: pm-async-measure and pm-async-advise are in the initramfs"
	exit 1
}
# The plan comes first: a guest that dies in the middle leaves the
# stream short of it.
echo "1..14"

rm -rf $OUT $OUT-dry $T
mkdir -p $T
# No lab device yet: the first runs are the real machine's alone.
modprobe pm_async_test 2>/dev/null
echo clear >$LAB/topology 2>/dev/null

# Every power/async file with its value (PATH VALUE), and the PM knobs the
# tools set.
laptop_knobs()
{
	pm_knobs
	find /sys/devices -path '*/power/async' 2>/dev/null | sort | async_values
}
knobs() { laptop_knobs; }
# knobs_back WHEN: every knob as before, else the difference as comments.
knobs_back()
{
	knobs >$T/knobs.now
	cmp -s $T/knobs.base $T/knobs.now && return 0
	echo "# knobs changed $1:"
	diff $T/knobs.base $T/knobs.now | grep '^[-+][^-+]' | head -n 20 | sed 's/^/#   /'
	return 1
}

laptop_settle
inventory >$T/inv.base
knobs >$T/knobs.base

# The xHCI controller's part of the inventory and of the knobs: its USB
# buses' devices, the disk and the input devices below it, every
# power/async file under it and those of the disk's and SCSI host's
# virtual devices (see the bisection below).
XHCI=$(cd /sys/bus/pci/drivers/xhci_hcd/0000:* 2>/dev/null && pwd -P)
xhci_owned()
{
	[ -n "$XHCI" ] || return 0
	for u in $XHCI/usb*; do
		[ -e "$u/busnum" ] || continue
		b=$(cat $u/busnum)
		grep -E "^usb (usb$b|$b-[0-9.-]+) " $T/inv.base
	done
	for b in /sys/block/*; do
		case $(readlink -f $b/device 2>/dev/null) in "$XHCI"/*)
			grep "^disk ${b##*/} " $T/inv.base
			# its backing device info, a virtual device
			grep -F "/sys/devices/virtual/bdi/$(cat $b/dev)/" $T/knobs.base ;;
		esac
	done
	# the SCSI hosts' task management workqueues, virtual devices too
	for h in $(find $XHCI -name 'host[0-9]*' -prune 2>/dev/null); do
		grep -F "/sys/devices/virtual/workqueue/scsi_tmf_${h##*/host}/" $T/knobs.base
	done
	for i in /sys/class/input/input*; do
		case $(readlink -f $i 2>/dev/null) in "$XHCI"/*)
			grep -Fx "input $(cat $i/name)" $T/inv.base ;;
		esac
	done
	grep -F "$XHCI/" $T/knobs.base
}
xhci_owned | sort -u >$T/xhci.lines
echo "# [drvmeasure] $(grep -c . $T/inv.base) devices in the inventory, $(grep -c '/power/async ' $T/knobs.base) power/async files"

# --- pm-async-measure on real S3 --------------------------------------------

pm-async-measure --dry-run -n "$CYCLES" --variants sync,async,marked --mark-async i8042 \
	-o $OUT-dry >$T/dry.txt 2>&1
rc=$?
check "--dry-run: names the real i8042 ($I8042) it would make async, touches no knob, writes no log" \
	'[ $rc = 0 ] && grep -q "would set $I8042/power/async: .disabled. -> .enabled." $T/dry.txt &&
		knobs_back "by --dry-run" && [ ! -e $OUT-dry ]' $T/dry.txt

total=$((CYCLES * 3))
echo "# [drvmeasure] $total real S3 cycles (sync, async, marked x $CYCLES)"
pm-async-measure -n "$CYCLES" --wake 6 --settle 2 --variants sync,async,marked --mark-async i8042 \
	-o $OUT >$T/measure.txt 2>&1
rc=$?
sed 's/^/# /' $T/measure.txt
check "pm-async-measure: $total real S3 cycles with the real drivers, exit status 0" '[ $rc = 0 ]'

check "$CYCLES logs per variant, each a full S3 cycle with the HD audio codec's callbacks in it" \
	's3_logs_ok "hdaudioC0D0: PM: calling"'

check "table: a row per variant, n=$CYCLES, 8 columns as mean (+/- sd); a bound and a critical path per variant; no cycle left out" \
	table_ok $OUT/summary.txt

a=$(sync_list "$(ls $OUT/cycle-*-async.log | head -n 1)")
m=$(sync_list "$(ls $OUT/cycle-*-marked.log | head -n 1)")
check "the mark took effect: the real i8042 sync in the async cycles, async in the marked ones (the advisor's reading of the logs)" \
	'echo "$a" | grep -q "\"i8042\"" && ! echo "$m" | grep -q "\"i8042\""'

# The advisor on a real log: the slowest suspend callback of the first
# async cycle, as pm_print_times wrote it, is in its profile.
f=$(ls $OUT/cycle-*-async.log | head -n 1)
grep -v 'start suspend of devices' "$f" >$T/real.log
pm-async-advise --profile $T/real.prof $T/real.log >$T/advise.txt 2>&1
arc=$?
slow=$(awk '/suspend of devices complete after/ { exit }
	/: PM: [a-z_0-9]*suspend[a-z_0-9]* (\[[^]]*\] )?returned 0 after [0-9]+ usecs/ {
		s = $0; sub(/^\[[^]]*\] */, "", s); i = index(s, ": PM: ")
		d = substr(s, 1, i - 1); sub(/.* /, "", d)
		us = s; sub(/.* after /, "", us); sub(/ usecs.*/, "", us)
		if (us + 0 > best) { best = us + 0; dev = d }
	}
	END { if (dev != "") print dev, best }' $T/real.log)
echo "# [drvmeasure] slowest suspend callback of $f: ${slow:-none}; profile: $(grep -c . $T/real.prof 2>/dev/null) devices"
prof_ok()
{
	set -- $slow
	[ $# = 2 ] && [ "$2" -ge 1000 ] || { echo "# no suspend callback of 1 ms or more in the log"; return 1; }
	# The profile names a device NAME, or top-NAME if it has no parent
	# (pm-async-advise's profile.c); its suspend= is the callback's time,
	# in us, times the unit the advisor took for the printed "usecs"
	# ("durations : xS: why" in its report: 1.024 if it reads them as
	# the ns >> 10 of older kernels).
	p=$(awk -v d="$1" '$1 == d || $1 == "top-" d {
		for (i = 2; i <= NF; i++) if ($i ~ /^suspend=/) { sub(/^suspend=/, "", $i); print $i; exit } }' $T/real.prof)
	sc=$(sed -n 's/^durations : x\([0-9.]*\): .*/\1/p' $T/advise.txt | head -n 1)
	echo "# $1: $2 us in the log, ${p:-none} us in the profile; the advisor's unit: $(grep -m1 '^durations : ' $T/advise.txt)"
	[ -n "$p" ] && [ -n "$sc" ] &&
		awk -v l="$2" -v p="$p" -v s="$sc" 'BEGIN { d = p - l * s; exit !(d >= -2 && d <= 2) }'
}
check "pm-async-advise reads a real cycle's log: exit 0, its profile has the slowest suspend callback ($slow us) at that time, in the unit it reports" \
	'[ $arc = 0 ] && prof_ok' $T/advise.txt
np=$(grep -c '^[^#]' $T/real.prof 2>/dev/null)
check "the advisor's profile of the real machine ($np devices) loads into the lab, every device of it" \
	'[ "${np:-0}" -ge 20 ] && dd if=$T/real.prof of=$LAB/topology bs=4M 2>$T/load.err &&
		[ "$(grep -c . $LAB/state)" = "$np" ]' $T/load.err
echo clear >$LAB/topology 2>/dev/null

check "every knob and every power/async file restored after the run" 'knobs_back "by pm-async-measure"'
check "every real device back after the run (disks read back, USB, input, HD audio, carrier)" back

# --- pm-async-measure --bisect beside the real devices ----------------------

BISECT_LIB=1
. /pma/bisect.sh
# The failing cycles' logs name the real devices started before the lab's
# in that phase among the candidates: the search goes through them.
bisect_case real 3 200 "gpio0 ts" 100
# The candidates line of step 2: the failing cycles' devices, by name.
cands=$(awk '/^2\. candidates from the failing/ { k = 2; next } k && !--k { print; exit }' /tmp/bisect-real.txt 2>/dev/null)
nreal=0
for c in $cands; do
	case " f1 f2 f3 f4 f5 f6 f7 f8 gpio0 ts dsp codec " in *" $c "*) ;; *) nreal=$((nreal + 1)) ;; esac
done
echo "# [drvmeasure] bisect candidates: $(echo $cands | wc -w), $nreal of them real devices: $(echo $cands | cut -c1-300)"
check "--bisect's candidates from the failing cycles include real devices ($nreal)" '[ $nreal -ge 1 ]' /tmp/bisect-real.txt
rmmod pm_async_test 2>/dev/null
# QEMU's xHCI emulation stops answering (the kernel logs "xHCI host
# controller not responding, assume dead", on stock 7.3 as on the series)
# when a failed suspend resumes the USB devices below it: the controller
# and its devices are then gone for the rest of the boot.  If that
# happened, the xHCI's lines are left out of the two checks below (and
# said so); every other device and knob must be back all the same.  The
# kernel's message is looked for in the logs of the bisection's cycles
# (pm_print_times soon pushes it out of the ring buffer).
if cat /tmp/bisect-real/*.log 2>/dev/null | grep -q 'xhci_hcd .*host controller not responding, assume dead'; then
	echo "# [drvmeasure] the xHCI controller died in an aborted transition (QEMU): left out below:"
	sed 's/^/#   /' $T/xhci.lines
	grep -v -F -x -f $T/xhci.lines $T/inv.base >$T/inv.keep
	grep -v -F -x -f $T/xhci.lines $T/knobs.base >$T/knobs.keep
	mv $T/inv.keep $T/inv.base
	mv $T/knobs.keep $T/knobs.base
	inventory() { laptop_inventory | grep -v -F -x -f $T/xhci.lines; }
	knobs() { laptop_knobs | grep -v -F -x -f $T/xhci.lines | grep -v -F "$XHCI/"; }
fi
check "every knob and every power/async file restored after --bisect" 'knobs_back "by --bisect"'
check "every real device back after --bisect" back

[ $N_TEST = 14 ] || echo "# $N_TEST results for a plan of 14"

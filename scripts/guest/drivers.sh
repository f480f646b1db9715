#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# drivers.sh (in the guest, on the laptop machine: qemu-run.sh -M laptop):
# real drivers through real S3 and hibernation, with the lab's devices in
# the same transitions (TAP).
#
# The machine's devices and their drivers: the SATA disk (AHCI), the NVMe
# namespace, the USB disk, keyboard and tablet (xHCI), the USB mouse (EHCI,
# with three UHCI companions), the PS/2 keyboard and mouse (i8042), the
# HD audio codec, the e1000e NIC with its link up, the CMOS RTC.  The lab
# loads a topology with waits (along the list, checked) and hidden
# dependencies (slow, never failing), at the top level beside the PCI
# host bridge, so real and synthetic devices share every phase.
#
# Four settings, each for DRIVERS_S3 (default 2) real S3 cycles ("mem",
# deep, woken by the RTC alarm) and one hibernation with pm_test=devices:
#   kernel  pm_async=1 with power/async as the kernel and drivers set it;
#   async   every device async;
#   mix     power/async drawn at random per device (a seed per cycle);
#   sync    pm_async=0.
# After every transition: it succeeded (status 0, the lab's report good,
# its devices active, no violation), the kernel log of it has no warning,
# and every device is back: each disk reads back its signature from the
# medium (buffers flushed first), the USB devices are enumerated at the
# same paths with the same IDs, the same input devices exist, the NIC has
# its carrier, the HD audio codec is there.  pm_print_times and
# pm_debug_messages are on: every callback's time and every phase's are in
# the console log, and each cycle's phases and slowest callbacks are
# printed here ("#D" lines).
# A real hibernation to the swap partition with a restore on the next
# boot is not run: the harness's disks are snapshot=on (no run changes
# them), so the image would not survive to the next boot.

. /pma/rlib.sh
. /pma/laptop.sh

S3=${DRIVERS_S3:-2}
WAKE=${DRIVERS_WAKE:-6}
MODES=${DRIVERS_MODES:-kernel async mix sync}

echo "TAP version 13"
if ! grep -q 'pma.machine=laptop' /proc/cmdline; then
	echo "1..1"
	tap_skip "drivers: real drivers on the laptop machine" "not the laptop machine (qemu-run.sh -M laptop)"
	exit 0
fi
nmodes=$(echo $MODES | wc -w)
rl_plan $((8 + nmodes * (S3 + 1) + 2))

rl_init
dbg0=$(cat /sys/power/pm_debug_messages)
echo 1 >/sys/power/pm_print_times
echo 1 >/sys/power/pm_debug_messages
laptop_settle
inventory >$T/inv.base
sed 's/^/# device: /' $T/inv.base

check "drivers: the SATA disk (AHCI), the NVMe namespace and the USB disk read back their signatures" \
	'[ "$(grep -c "^disk .* PMA-DISK-" $T/inv.base)" = 3 ] && grep -q "^disk sd.* PMA-DISK-sata" $T/inv.base && grep -q "^disk nvme.* PMA-DISK-nvme" $T/inv.base && grep -q "^disk sd.* PMA-DISK-usb" $T/inv.base'
# bound DRIVER...: each PCI driver has a device.
bound()
{
	for drv; do
		ls -d /sys/bus/pci/drivers/$drv/0000:* >/dev/null 2>&1 || { echo "# no device bound to $drv"; return 1; }
	done
}
# QEMU's USB keyboard, tablet and mouse are all 0627:0001, its disk
# 46f4:0001.  The mouse is a high-speed device in QEMU: EHCI keeps it, its
# companions stay empty (EHCI's resume waits for them all the same).
check "drivers: USB keyboard, tablet and disk (xHCI), USB mouse (EHCI), three UHCI companions" \
	'bound uhci_hcd ehci-pci xhci_hcd && [ "$(ls -d /sys/bus/pci/drivers/uhci_hcd/0000:* | wc -l)" = 3 ] && [ "$(grep -c "^usb .* 0627:0001 " $T/inv.base)" -ge 3 ] && grep -q "^usb .* 46f4:0001 " $T/inv.base && ls -d /sys/bus/pci/drivers/ehci-pci/*/usb*/*-1 >/dev/null 2>&1' 
check "drivers: PS/2 keyboard and mouse (i8042)" \
	'grep -q "^input AT .*keyboard" $T/inv.base && grep -qi "^input .*PS/2" $T/inv.base'
check "drivers: the HD audio controller with its codec" \
	'bound snd_hda_intel && grep -q "^hda hdaudioC0D0" $T/inv.base'
check "drivers: e1000e with its link up (carrier); AHCI and NVMe bound" \
	'bound e1000e ahci nvme && grep -q "^net .* carrier=1" $T/inv.base'
check "drivers: real S3 (mem_sleep deep, rtc0 wake alarm) and hibernation" \
	'grep -q deep /sys/power/mem_sleep && [ -w /sys/class/rtc/rtc0/wakealarm ] && grep -qw disk /sys/power/state'

# The lab: waits along the list (checked), hidden dependencies that only
# slow a callback down (the list keeps the order with pm_async=0), short
# and slow devices, a chain; all at the top level beside pci0000:00.
cat >$T/in.topo <<'EOF'
lgpio async=1 suspend=2000 resume=3000 suspend_noirq=500 resume_noirq=500
lcomp1 async=1 suspend=3000 resume=8000
lcomp2 async=1 suspend=3000 resume=8000
lhcd async=1 suspend=6000 resume=20000 wait=resume:lcomp1,resume:lcomp2
lhub parent=lhcd async=1 suspend=10000 resume=30000
lcam parent=lhub async=1 suspend=15000 resume=40000
lbridge async=1 suspend=4000 resume=4000 wait=suspend:lsensor
ltouch parent=lbridge async=1 suspend=8000 resume=25000 hidden=suspend:lgpio:slow=10000
lpanel async=0 suspend=20000 resume=15000 suppliers=lgpio
lsensor async=1 suspend=0 resume=0 hidden=resume:lgpio:slow=5000@50
lwake parent=lsensor pm=0 async=0
lchain0 async=1 suspend=1000 resume=1000
lchain1 parent=lchain0 async=1 suspend=1000 resume=1000
lchain2 parent=lchain1 async=1 suspend=5000 resume=5000
EOF
check "drivers: the lab's topology (waits, hidden dependencies, a link, a no-PM child) loaded beside the real devices" \
	'rl_load $T/in.topo && [ "$(grep -c . $LAB/state)" = 14 ]'
echo 7 >$LAB/draws

# Every power/async file, with its value before the run.
find /sys/devices -path '*/power/async' 2>/dev/null | sort >$T/asyncs
async_values <$T/asyncs >$T/async.base
check "drivers: $(wc -l <$T/asyncs) power/async files, $(grep -c ' enabled$' $T/async.base) of them enabled by the kernel" \
	'[ -s $T/asyncs ] && grep -q " enabled$" $T/async.base && grep -q " disabled$" $T/async.base'

# apply_async FILE: write each "PATH VALUE" of FILE to its power/async.
apply_async() { while read -r f v; do echo $v >$f 2>/dev/null; done <"$1"; }

# set_mode MODE CYCLE: the power/async and pm_async of a setting.
set_mode()
{
	apply_async $T/async.base
	echo 1 >/sys/power/pm_async
	case $1 in
	async) while read -r f; do echo enabled >$f 2>/dev/null; done <$T/asyncs ;;
	mix)
		awk -v s="$2" 'BEGIN { srand(s * 7919 + 17) } { print $1, (rand() < 0.5 ? "enabled" : "disabled") }' \
			$T/asyncs >$T/async.mix
		apply_async $T/async.mix
		;;
	sync) echo 0 >/sys/power/pm_async ;;
	esac
}

# since_mark: the kernel log of the last transition.
since_mark()
{
	dmesg | awk -v mark="pma-mark $T $MARK" '
	!on { if (substr($0, length($0) - length(mark) + 1) == mark) on = 1; next }
	{ print }'
}

# cbtimes: the phases of the last transition ("PM: late suspend of
# devices complete after 12.345 msecs", pm_debug_messages) and its slowest
# callbacks ("DEV: PM: CALLBACK returned 0 after N usecs",
# pm_print_times), as "#D" lines.
cbtimes()
{
	since_mark | awk -v top=10 '
	/: PM: [a-z_]+ .*returned -?[0-9]+ after [0-9]+ usecs/ {
		s = $0
		sub(/^\[[^]]*\] */, "", s)
		i = index(s, ": PM: ")
		dev = substr(s, 1, i - 1)
		cb = substr(s, i + 6); sub(/ .*/, "", cb)
		us = s; sub(/.* after /, "", us); sub(/ usecs.*/, "", us)
		n++; t[n] = us + 0; d[n] = dev " " cb
	}
	/PM: [a-z ]*of devices complete after/ {
		s = $0; sub(/.*PM: /, "", s); sub(/ of devices complete after /, " ", s)
		sub(/ msecs.*/, "", s); phases = phases ", " s
	}
	END {
		printf "#D phases (ms): %s; %d callbacks\n", substr(phases, 3), n
		for (k = 1; k <= top && k <= n; k++) {
			m = 0
			for (i = 1; i <= n; i++) if (!(i in used) && (!m || t[i] > t[m])) m = i
			used[m] = 1
			printf "#D %d us %s\n", t[m], d[m]
		}
	}'
}

# cycle MODE N STATE: one transition, checked; one result.
cycle()
{
	KERNEL_BAD=0
	desc="drivers: $1 (pm_async=$(cat /sys/power/pm_async)) $3 cycle $2"
	if [ $3 = mem ]; then
		echo none >/sys/power/pm_test
		echo deep >/sys/power/mem_sleep
		echo 0 >/sys/class/rtc/rtc0/wakealarm
		echo +$WAKE >/sys/class/rtc/rtc0/wakealarm
		te=none
	else
		echo devices >/sys/power/pm_test
		te=devices
	fi
	rc=0
	rl_cycle $3 || rc=$?
	echo 0 >/sys/class/rtc/rtc0/wakealarm
	echo platform >/sys/power/pm_test
	ok=0
	if [ $rc != 0 ]; then
		echo "# $desc: the transition failed (status $rc):"
		sed 's/^/#   /' $T/err
		"$CHECK" "$RPT" select 'result<0' : line | head -n 5 | sed 's/^/#   /'
		ok=1
	fi
	if [ $3 = mem ] && ! since_mark | grep -q 'Waking up from system sleep state S3'; then
		echo "# $desc: no 'Waking up from system sleep state S3' in the log"
		ok=1
	fi
	SUSPEND_ALL=$(diff_phases $3 $te) rl_check_report good || ok=1
	rl_check_state || ok=1
	[ $KERNEL_BAD = 0 ] || ok=1
	back || ok=1
	cbtimes
	tap_result $ok "$desc: succeeded, lab report good, no kernel warning, every device back"
}

seed=0
for m in $MODES; do
	c=1
	while [ $c -le $S3 ]; do
		seed=$((seed + 1))
		set_mode $m $seed
		cycle $m $c mem
		c=$((c + 1))
	done
	seed=$((seed + 1))
	set_mode $m $seed
	cycle $m 1 disk
done

apply_async $T/async.base
echo 1 >/sys/power/pm_async
async_values <$T/asyncs >$T/async.now
check "drivers: every power/async and pm_async restored after the run" \
	'cmp -s $T/async.base $T/async.now && [ "$(cat /sys/power/pm_async)" = 1 ]'
check "drivers: $CYCLES transitions, $HANGS hangs, $VIOL violations in the lab's devices" \
	'[ $HANGS = 0 ] && [ $VIOL = 0 ]'
echo 0 >$LAB/draws
echo 0 >/sys/power/pm_print_times
echo "$dbg0" >/sys/power/pm_debug_messages
rl_summary drivers
rl_fini
[ $BAD = 0 ]

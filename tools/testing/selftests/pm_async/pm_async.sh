#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pm_async.sh: ordering, failure and fuzz tests of async device
# suspend/resume, driven through the pm_async_test lab module
# (Documentation/power/pm-async-lab.rst).  Every system transition is a
# real one with pm_test: "freeze" with pm_test=platform runs prepare,
# suspend, suspend_late, suspend_noirq and back for every device in the
# system; "disk" with pm_test=platform runs the freeze/restore callbacks.
#
# Cases (one KTAP result each):
#  1. sleep (pm_async_sleep.c, kselftest_harness.h; one case here whose
#     results are a subtest): sysfs: power/async of each device follows
#     async=; a device switched to sync runs in the PM task, one switched
#     to async in a worker; /sys/power/pm_async=0 runs everything in the
#     PM task.  The mixes of 3 and the hibernation of 8.
#  2. ordering: every profile (profiles/, and chain, wide and zero, which
#     pm_async_gen prints) with pm_async 0 and 1, each for PM_ASYNC_CYCLES
#     cycles: the transition succeeds, the report has no
#     violation and one line per device for each of the 8 callbacks, every
#     device ends active with runtime PM as before.
#  3. mixes (in pm_async_sleep): a sync parent with async children, an
#     async parent with sync children, supplier links across subtrees:
#     order checked again from the report's timestamps, and which devices
#     ran in the PM task.
#  3b. no-PM dependencies: a device whose only child or consumer takes no
#     part in PM (pm=0, like a wakeup source's wakeupN device) starts each
#     suspend phase at once, and one whose parent takes no part in PM
#     starts each resume phase at once, not behind the sync devices; a
#     sync device beyond a no-PM one (grandchild, grandparent) is still
#     waited for, as the walk always did.
#  3c. real drivers: per-device driver binding and the states of managed,
#     dormant and SYNC_STATE_ONLY links; a managed link orders its ends;
#     SYNC_STATE_ONLY and dormant links finish with pm_async 0 and 1;
#     device_pm_wait_for_dev() (wait=) in suspend, resume and noirq
#     phases orders the devices; direct_complete devices run only prepare
#     and complete, unless a child or consumer suspends; smart suspend and
#     may-skip-resume devices skip exactly the callbacks the PM core may
#     skip; jitter= changes durations from cycle to cycle; churn moves a
#     device (device_move()) and deletes a link during a transition; all
#     with no violation.
#  3d. pm_async=0 is stock order: on a topology with links, waits and mixed
#     flags, every callback runs in the PM task, one at a time, in exactly
#     the PM core's list order (creation order; reversed for suspend-side
#     phases and complete).
#  3e. mainline's engine under real-driver hazards: a device moved next
#     to its new parent during a transition stays in it; a SYNC_STATE_ONLY
#     consumer that suspends leaves its direct_complete supplier alone; a
#     link added during suspend keeps the consumer in the transition,
#     and a supplier whose link is deleted then does not wait for the
#     consumer; a device moved while its parent waits for it does not
#     deadlock, also when a sync parent waits for that parent; a failed
#     suspend_late resumes a may_skip_resume parent whose late suspend
#     ran; devices below a device that takes no part in PM suspend
#     before and resume after the device above it, which moving that
#     device during suspend hands to its new parent.  The name of each
#     case of a fix starts with its group ("[dc_link] ...": move_order,
#     dc_link, link_during, link_del, skip_resume_abort, move_during,
#     no_pm_below, no_pm_late in 3f; "[no_pm]" in 3b): on a
#     kernel without the fix, such as mainline 7.3, the cases of its group
#     fail (move_during deadlocks: PM_ASYNC_SKIP=move_during skips it).
#  3f. the contract: where mainline 7.3 finishes, so must the engine:
#     sync devices that wait for short async leaves and roots, a device
#     waited for before the walk reaches it, a failed suspend with a
#     waiter, a wait in freeze only, a wait that starts in the third
#     transition; a slow parent of a short child starts upfront; devices
#     removed, moved or unlinked during a phase start what they leave
#     behind, also when that start cannot allocate (failslab on the lab's
#     churn thread, skipped without it).  The lab counts any callback of
#     an async device in the PM task as a violation.
#  4. failure (in pm_async_sleep): a one-shot -EIO in suspend,
#     suspend_late and suspend_noirq, with pm_async 0 and 1: the transition
#     fails, nothing is out of order, every device ends active, the next
#     transition succeeds.  A device waited for (device_pm_wait_for_dev())
#     before the walk reaches it, whose only child fails: the transition
#     fails and does not hang.
#  5. input (pm_async_input.c, kselftest_harness.h; one case here whose
#     results are a subtest): each kind of malformed topology is rejected
#     and creates nothing; a good topology survives a read-back/write-back
#     round trip; fail= and the fail file arm and disarm failures; a churn
#     trigger reads back, a bad one is refused.
#  6. random: pm_async_gen topologies (seeds PM_ASYNC_SEEDS) with
#     pm_async=1; the seed is in the test name, so a failure replays with
#     "pm_async_gen SEED NDEV".
#  7. load: PM_ASYNC_BIG devices (default 10000) in one write, read back
#     and removed.
#  8. hibernation (in pm_async_sleep): "disk" with pm_test=platform
#     (freeze, freeze_late, freeze_noirq, then restore or thaw), skipped
#     if unsupported.
#  9. unload: rmmod with devices and links present; load again with
#     bind_driver=1, which binds a driver to every device.
#
# Environment:
#   PM_ASYNC_SUSPEND=1   run at all: without it the test skips, as every
#                        transition suspends the machine's real devices
#                        too (pm_test=platform, user space frozen)
#   PM_ASYNC_CYCLES=N    cycles per profile and mode in case 2 (default 2)
#   PM_ASYNC_QUICK=1     one cycle per profile and mode
#   PM_ASYNC_SEEDS="..." seeds for case 6 (default "1 2 3")
#   PM_ASYNC_NDEV=N      devices per random topology (default 200)
#   PM_ASYNC_BIG=N       devices for case 7 (default 10000, 0 skips it)
#   PM_ASYNC_KO=FILE     module to insmod when modprobe cannot load it
#   PM_ASYNC_SKIP="..."  groups of cases to skip (see 3e): a kernel
#                        without a fix whose case would hang it
#
# Runs as root under busybox ash as well as under the kselftest runner.
# Every knob it changes is put back on exit.

DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/../kselftest/ktap_helpers.sh"

LAB=/sys/kernel/debug/pm_async_test
FAILSLAB=/sys/kernel/debug/failslab
BUS=/sys/bus/pm_async_test/devices
PWR=/sys/power
DELAY=/sys/module/suspend/parameters/pm_test_delay
MOD=pm_async_test

CYCLES=${PM_ASYNC_CYCLES:-2}
[ "${PM_ASYNC_QUICK:-0}" = 1 ] && CYCLES=1
SEEDS=${PM_ASYNC_SEEDS:-"1 2 3"}
NDEV=${PM_ASYNC_NDEV:-200}
BIG=${PM_ASYNC_BIG:-10000}
PROFILES="laptop phone wide chain zero wakeup nopm-parent"
# Groups of cases not to run (see skipped()).
SKIP=${PM_ASYNC_SKIP:-}

SUSPEND_ALL="prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete"
DEV_PHASES="suspend suspend_late suspend_noirq resume_noirq resume_early resume"

TMP=""
saved_pm_test=""
saved_delay=""
saved_pm_async=""
loaded=0

# chk COMMAND ARGS...: pm_async_check's answer about the last report (its
# header comment lists the commands; it reads the lines by field name).
chk()
{
	"$DIR/pm_async_check" "$TMP/report" "$@"
}

# has FILTER...: a callback line of the report passes pm_async_check's
# select FILTERs.
has()
{
	[ -n "$(chk select "$@" : name)" ]
}

# The selected word of a "[current] other ..." sysfs file.
current()
{
	sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$1"
}

# failslab_arm: fail every GFP_ATOMIC slab allocation of the tasks marked
# for fault injection (the lab's churn thread and waits, with the lab's
# nomem), 1000 at most, silently; false without failslab.
failslab_arm()
{
	[ -w "$FAILSLAB/task-filter" ] && echo Y >$LAB/nomem &&
		echo Y >"$FAILSLAB/task-filter" &&
		echo Y >"$FAILSLAB/ignore-gfp-wait" &&
		echo 0 >"$FAILSLAB/verbose" &&
		echo 0 >"$FAILSLAB/space" &&
		echo 1 >"$FAILSLAB/interval" &&
		echo 1000 >"$FAILSLAB/times" &&
		echo 100 >"$FAILSLAB/probability"
}

# failslab_result ERR DESC: the result of a case run after failslab_arm,
# which it disarms: a skip without failslab, or if it passed with no
# allocation failed (a kernel that allocates nothing there, such as
# mainline, has nothing to fail).
failslab_result()
{
	if [ ! -w "$FAILSLAB/task-filter" ]; then
		ktap_test_skip "$2 (no failslab in debugfs)"
		return
	fi
	left=$(cat "$FAILSLAB/times")
	failslab_disarm
	if [ "$1" = 0 ] && [ "$left" -ge 1000 ]; then
		ktap_test_skip "$2 (no allocation failed: none made there)"
		return
	fi
	fix_result none "$1" "$2"
}

failslab_disarm()
{
	[ -w "$FAILSLAB/probability" ] || return 0
	echo 0 >"$FAILSLAB/probability"
	echo 1 >"$FAILSLAB/times"
	echo N >"$FAILSLAB/task-filter"
	echo N >$LAB/nomem 2>/dev/null
}

cleanup()
{
	rc=$?
	failslab_disarm
	[ -w "$LAB/topology" ] && echo clear >"$LAB/topology" 2>/dev/null
	[ -w "$LAB/draws" ] && echo 0 >"$LAB/draws" 2>/dev/null
	[ -n "$saved_pm_async" ] && echo "$saved_pm_async" >$PWR/pm_async
	[ -n "$saved_pm_test" ] && echo "$saved_pm_test" >$PWR/pm_test
	[ -n "$saved_delay" ] && echo "$saved_delay" >$DELAY
	[ $loaded = 1 ] && rmmod $MOD 2>/dev/null
	[ -n "$TMP" ] && rm -rf "$TMP"
	exit $rc
}

skip_all()
{
	ktap_skip_all "$@"
	exit "$KSFT_SKIP"
}

print_config()
{
	ktap_print_msg "this test needs a kernel with:"
	sed 's/^/# /' "$DIR/config"
}

# The module file: $PM_ASYNC_KO, next to this script, or in /lib/modules.
find_ko()
{
	for ko in "${PM_ASYNC_KO:-}" "$DIR/$MOD.ko"; do
		[ -n "$ko" ] && [ -f "$ko" ] && { echo "$ko"; return; }
	done
	find "/lib/modules/$(uname -r)" -name "$MOD.ko*" 2>/dev/null | head -n 1
}

# insmod_lab [PARAM=VALUE...]: load the module with modprobe, or with insmod
# when modprobe cannot (no modules.dep, module not installed).
insmod_lab()
{
	modprobe -q $MOD "$@" 2>/dev/null && return 0
	ko=$(find_ko)
	[ -n "$ko" ] && insmod "$ko" "$@"
}

load_module()
{
	[ -d $LAB ] && return 0
	insmod_lab && loaded=1
	[ -d $LAB ]
}

# ---------------------------------------------------------------------------
# Lab helpers.  The last topology loaded is in $TMP/topo (as read back), the
# state of its devices before any transition in $TMP/state.base, the report
# of the last transition in $TMP/report.

# write_topo FILE: one write(2) of FILE to the topology file.
write_topo()
{
	dd if="$1" of=$LAB/topology bs=4M 2>"$TMP/dd.err"
}

# load FILE: replace the lab's devices with those of FILE.
load()
{
	if ! echo clear >$LAB/topology || ! write_topo "$1"; then
		ktap_print_msg "cannot load $(basename "$1"):"
		sed 's/^/# /' "$TMP/dd.err"
		dmesg | grep "$MOD:" | tail -n 3 | sed 's/^/# /'
		return 1
	fi
	cat $LAB/topology >"$TMP/topo"
	cat $LAB/state >"$TMP/state.base"
}

# profile_file NAME: the topology of the profile NAME: profiles/NAME.topo,
# or, for the regular ones (chain, wide, zero), what pm_async_gen prints.
profile_file()
{
	if [ -f "$DIR/profiles/$1.topo" ]; then
		echo "$DIR/profiles/$1.topo"
	elif "$DIR/pm_async_gen" profile "$1" >"$TMP/$1.topo"; then
		echo "$TMP/$1.topo"
	fi
}

# topo_from TEXT: write TEXT (printf %b) to $TMP/in.topo.
topo_from()
{
	printf '%b' "$1" >"$TMP/in.topo"
}

# cycle STATE: one system transition; the status is that of the write.
cycle()
{
	rc=0
	echo "$1" 2>/dev/null >$PWR/state || rc=1
	cat $LAB/report >"$TMP/report"
	return $rc
}

# good_cycle STATE: a transition that must succeed.  It is not retried: an
# abort the lab did not inject (a wakeup event, a device or the freezer
# refusing) may come from the PM core under test, and no abort has been
# shown to be an artefact of the emulator; the kernel log says why.
NMARK=0
good_cycle()
{
	NMARK=$((NMARK + 1))
	echo "pm_async.sh: transition $NMARK" 2>/dev/null >/dev/kmsg
	cycle "$1" && return 0
	if has 'result<0'; then
		ktap_print_msg "$1 transition failed in a lab callback:"
		chk select 'result<0' : line | head -n 5 | sed 's/^/# /'
	else
		ktap_print_msg "$1 transition aborted, not by the lab; the kernel log:"
	fi
	dmesg 2>/dev/null | sed -n "/pm_async.sh: transition $NMARK\$/,\$p" |
		grep -E 'PM: |[Ff]reez|[Ww]ake|abort|error' | tail -n 10 | sed 's/^/# /'
	return 1
}

# check_report REQUIRED ALLOWED [DEV PHASE]: every device of $TMP/topo has
# exactly one line in $TMP/report for each phase in REQUIRED, at most one for
# each in ALLOWED and none for others; results are 0 except DEV's PHASE,
# which must be -EIO; there is no violation.  A device whose callbacks the
# PM core may skip (direct_complete=1, smart_suspend=1, may_skip_resume=1)
# needs only prepare and complete, and its prepare returns 1 with
# direct_complete=1.
check_report()
{
	if [ -n "${3:-}" ]; then
		chk check "$TMP/topo" "$1" "$2" "$3" "$4"
	else
		chk check "$TMP/topo" "$1" "$2"
	fi
}

# check_state: every device is where it was before the transition (active,
# runtime PM status and disable depth unchanged).
check_state()
{
	cat $LAB/state >"$TMP/state.now"
	cmp -s "$TMP/state.base" "$TMP/state.now" && return 0
	ktap_print_msg "device state differs from before the transition:"
	diff "$TMP/state.base" "$TMP/state.now" | grep '^[-+][^-+]' |
		head -n 10 | sed 's/^/# /'
	return 1
}

# spans: "suspend X ms, resume Y ms": device-phase wall time of the report.
spans()
{
	chk spans
}

# ctx DEV PHASE: where DEV's PHASE ran (task|worker), empty if it did not.
ctx()
{
	chk select name="$1" phase="$2" : ctx
}

# ended_by DEV1 PHASE1 DEV2 PHASE2 start|end WHAT: DEV1's PHASE1 ended no
# later than DEV2's PHASE2 started (ended), called WHAT in the message.
ended_by()
{
	chk ended_by "$@"
}

# before DEV1 PHASE1 DEV2 PHASE2: DEV1's PHASE1 ended before DEV2's PHASE2
# started.
before()
{
	ended_by "$1" "$2" "$3" "$4" start started
}

# suspends_first DEV1 DEV2: DEV1 finished each suspend phase before DEV2
# started it, and DEV2 finished each resume phase before DEV1 started it
# (DEV1 is a child or consumer of DEV2).
suspends_first()
{
	for ph in suspend suspend_late suspend_noirq; do
		before "$1" $ph "$2" $ph || return 1
	done
	for ph in resume_noirq resume_early resume; do
		before "$2" $ph "$1" $ph || return 1
	done
}

result()
{
	if [ "$1" = 0 ]; then
		ktap_test_pass "$2"
	else
		ktap_test_fail "$2"
	fi
}

set_pm_async()
{
	echo "$1" >$PWR/pm_async
}

# ---------------------------------------------------------------------------
# 1. sysfs, 3. mixes, 4. failure, 8. hibernation: pm_async_sleep (C,
# kselftest_harness.h), one case here, its results a subtest (leaves).

test_sleep()
{
	"$DIR/pm_async_sleep" >"$TMP/sleep.tap" 2>&1
	err=$?
	sed 's/^/    /' "$TMP/sleep.tap"
	result $err "sleep: the async knobs in sysfs, sync and async devices"\
" mixed, failures, hibernation (pm_async_sleep)"
}

# ---------------------------------------------------------------------------
# 2. ordering

test_ordering()
{
	for p in $PROFILES; do
		loaded_ok=0
		load "$(profile_file $p)" && loaded_ok=1
		ndev=$(wc -l <"$TMP/topo")
		for mode in 0 1; do
			err=0
			set_pm_async $mode
			c=0
			while [ $loaded_ok = 1 ] && [ $c -lt "$CYCLES" ]; do
				c=$((c + 1))
				if good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
				   check_state; then
					ktap_print_msg "$p pm_async=$mode cycle $c: $(spans)"
				else
					err=1
					break
				fi
			done
			[ $loaded_ok = 1 ] || err=1
			result $err "ordering: $p ($ndev devices), pm_async=$mode, $CYCLES cycles"
		done
	done
	set_pm_async 1
}

# ---------------------------------------------------------------------------
# 3b. dependencies that take no part in PM

# starts_early DEV PHASE SYNCDEV...: DEV's PHASE started before the first
# of the SYNCDEVs' PHASE callbacks ended.  An order, not a time: behind the
# sync devices DEV would start after all of them ended.
starts_early()
{
	chk starts_early "$@"
}

# skipped GROUP: $PM_ASYNC_SKIP names GROUP, the cases of a fix that would
# hang this kernel.
skipped()
{
	echo " $SKIP " | grep -q " $1 "
}

# churn_done: the armed churn ran, and the operation succeeded.
churn_done()
{
	set -- $(cat $LAB/churn)
	[ "$1" = done ] && [ "$7" = 0 ] && return 0
	ktap_print_msg "churn: $*"
	return 1
}

# no_pm_result ERR LATE DESC: ERR is a failed cycle or check, LATE a device
# that started late (a kernel without the fix, such as mainline 7.3); the
# case is named "[no_pm] DESC".
no_pm_result()
{
	result $(($1 | $2)) "[no_pm] $3"
}

test_no_pm()
{
	# Suspend: w's only child and l's only consumer take no part in PM
	# (like the wakeupN device of a wakeup source); the sync devices
	# come after w and l in dpm_list, so the suspend walk meets them
	# first.  g's child takes no part in PM either, but has a sync child
	# of its own, which the walk meets before g: g still follows it.
	cat >"$TMP/in.topo" <<EOF
w suspend=40000 suspend_late=4000 suspend_noirq=4000
w.wakeup parent=w pm=0
l suspend=40000
l.c pm=0 suppliers=l
g suspend=4000
g.b parent=g pm=0
g.b.c parent=g.b async=0 suspend=20000
s1 async=0 suspend=30000 suspend_late=10000 suspend_noirq=10000
s2 async=0 suspend=30000 suspend_late=10000 suspend_noirq=10000
s3 async=0 suspend=30000 suspend_late=10000 suspend_noirq=10000
EOF
	set_pm_async 1
	err=1
	late=0
	if load "$TMP/in.topo" && good_cycle freeze &&
	   check_report "$SUSPEND_ALL" "" && check_state; then
		err=0
		grep -q '^w.wakeup .* async=0 .*pm=0$' "$TMP/topo" ||
			{ ktap_print_msg "pm=0 not read back"; err=1; }
		for ph in suspend suspend_late suspend_noirq; do
			starts_early w $ph s1 s2 s3 || late=1
		done
		starts_early l suspend s1 s2 s3 || late=1
		before g.b.c suspend g suspend || err=1
	fi
	no_pm_result $err $late "no-PM child or consumer: the device starts each"\
" suspend phase at once, not behind the sync devices"

	# Resume: d's parent takes no part in PM (an ACPI device object, a
	# faux device); the sync devices come before d in dpm_list.  h.b.c's
	# parent takes no part in PM either, but its grandparent h is a sync
	# device that the walk meets first: h.b.c still follows it.  In
	# each suspend phase, the sync hx lets h.b.c finish before the walk
	# reaches h, which mainline does not make wait for it (see case 3e).
	cat >"$TMP/in.topo" <<EOF
acpi pm=0
h async=0 resume=20000
hx async=0 suspend=30000 suspend_late=30000 suspend_noirq=30000
h.b parent=h pm=0
h.b.c parent=h.b resume=4000
s1 async=0 resume=30000 resume_early=10000 resume_noirq=10000
s2 async=0 resume=30000 resume_early=10000 resume_noirq=10000
s3 async=0 resume=30000 resume_early=10000 resume_noirq=10000
d parent=acpi resume=40000 resume_early=4000 resume_noirq=4000
EOF
	err=1
	late=0
	if load "$TMP/in.topo" && good_cycle freeze &&
	   check_report "$SUSPEND_ALL" "" && check_state; then
		err=0
		for ph in resume_noirq resume_early resume; do
			starts_early d $ph s1 s2 s3 || late=1
		done
		before h resume h.b.c resume || err=1
	fi
	no_pm_result $err $late "no-PM parent: the device starts each resume phase"\
" at once, not behind the sync devices"
}

# ---------------------------------------------------------------------------
# 3c. real drivers

# lines DEV: the phases DEV ran in the last transition, in report order.
lines()
{
	echo $(chk select name="$1" : phase)
}

# expect_lines DEV PHASES: DEV ran exactly PHASES.
expect_lines()
{
	got=$(lines "$1")
	[ "$got" = "$2" ] && return 0
	ktap_print_msg "$1 ran '$got', expected '$2'"
	return 1
}

# ends_before DEV1 PHASE1 DEV2 PHASE2: DEV1's PHASE1 ended before DEV2's
# PHASE2 ended (DEV2 waited for DEV1 inside its callback).
ends_before()
{
	ended_by "$1" "$2" "$3" "$4" end ended
}

# link_status SUPPLIER CONSUMER: the driver core's state of their link.
link_status()
{
	cat "/sys/class/devlink/pm_async_test:$1--pm_async_test:$2/status" 2>/dev/null
}

NR_DRIVERS=9

test_drivers()
{
	# Drivers and links: sup and con have drivers (an active managed
	# link), unb has none (so dor's managed link to it is dormant), ssc
	# is registered before its supplier ssp and unbound (a
	# SYNC_STATE_ONLY link, as fw_devlink makes them).
	cat >"$TMP/in.topo" <<EOF
sup driver=1 suspend=20000 resume=20000 suspend_noirq=5000 resume_noirq=5000
con driver=1 managed=sup suspend=5000 resume=5000 suspend_noirq=1000 resume_noirq=1000
unb driver=0 suspend=20000 resume=20000
dor driver=1 managed=unb suspend=1000 resume=1000
ssc suspend=3000 resume=3000
ssp async=0 sync_consumers=ssc suspend=3000 resume=3000
EOF
	err=1
	if load "$TMP/in.topo"; then
		err=0
		for d in sup con dor; do
			[ -e "$BUS/$d/driver" ] ||
				{ ktap_print_msg "$d has no driver"; err=1; }
		done
		for d in unb ssc ssp; do
			[ -e "$BUS/$d/driver" ] &&
				{ ktap_print_msg "$d has a driver"; err=1; }
		done
		[ "$(link_status sup con)" = active ] ||
			{ ktap_print_msg "sup--con is '$(link_status sup con)'," \
				"expected active"; err=1; }
		[ "$(link_status unb dor)" = dormant ] ||
			{ ktap_print_msg "unb--dor is '$(link_status unb dor)'," \
				"expected dormant"; err=1; }
		[ -n "$(link_status ssp ssc)" ] ||
			{ ktap_print_msg "no SYNC_STATE_ONLY link ssp--ssc"; err=1; }
	fi
	result $err "drivers: driver= binds per device; managed links active or"\
" dormant, a SYNC_STATE_ONLY link"

	for mode in 0 1; do
		set_pm_async $mode
		err=1
		[ -d "$BUS/sup" ] && good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
			check_state && suspends_first con sup && err=0
		result $err "links: a managed link orders its ends, SYNC_STATE_ONLY"\
" and dormant links finish, pm_async=$mode"
	done

	# device_pm_wait_for_dev(), the USB companion pattern: ehci's resume
	# waits for comp, a device of a sibling subtree created before it;
	# its suspend waits for late1, created after it; the same in the
	# noirq phases.  All async, short callbacks for a few cycles.
	cat >"$TMP/in.topo" <<EOF
hc suspend=1000 resume=1000
hc.port parent=hc suspend=1000 resume=1000
comp resume=30000 resume_noirq=10000
comp.port parent=comp resume=1000
ehci parent=hc wait=resume:comp,suspend:late1,resume_noirq:comp,suspend_noirq:late1
late1 suspend=30000 suspend_noirq=10000
EOF
	ok=0
	load "$TMP/in.topo" && ok=1
	for mode in 1 0; do
		set_pm_async $mode
		err=1
		if [ $ok = 1 ]; then
			err=0
			for c in 1 2 3; do
				good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
					check_state &&
					ends_before comp resume ehci resume &&
					ends_before late1 suspend ehci suspend &&
					ends_before comp resume_noirq ehci resume_noirq &&
					ends_before late1 suspend_noirq ehci suspend_noirq ||
					{ err=1; break; }
			done
		fi
		result $err "wait: device_pm_wait_for_dev() in suspend, resume and"\
" noirq phases, 3 cycles, pm_async=$mode"
	done
	set_pm_async 1

	# direct_complete: dc is left alone; dcp is not, because its child
	# suspends; dcs is not, because its consumer suspends; top waits for
	# its direct_complete child dc2.
	cat >"$TMP/in.topo" <<EOF
dc direct_complete=1 suspend=1000 resume=1000
dcp direct_complete=1 suspend=1000 resume=1000
dcc parent=dcp suspend=1000 resume=1000
dcs direct_complete=1 suspend=1000
dcu suppliers=dcs suspend=1000 resume=1000
top suspend=2000 suspend_late=1000 suspend_noirq=1000
dc2 parent=top direct_complete=1 async=0
EOF
	err=1
	if load "$TMP/in.topo"; then
		err=0
		grep -q '^dc state=active rpm=enabled depth=0' "$TMP/state.base" ||
			{ ktap_print_msg "dc: runtime PM not enabled"; err=1; }
		for mode in 1 0; do
			set_pm_async $mode
			good_cycle freeze && check_report "$SUSPEND_ALL" "" && check_state &&
				expect_lines dc "prepare complete" &&
				expect_lines dc2 "prepare complete" &&
				expect_lines dcp "$SUSPEND_ALL" &&
				expect_lines dcs "$SUSPEND_ALL" || err=1
			has name=dc phase=prepare result=1 ||
				{ ktap_print_msg "dc prepare did not return 1"; err=1; }
		done
	fi
	set_pm_async 1
	result $err "direct_complete: only prepare and complete run, unless a"\
" child or consumer suspends, pm_async 1 and 0"

	# Smart suspend and skipped resume: the PM core skips the driver's
	# late and noirq suspend callbacks of the runtime-suspended ss, the
	# noirq and early resume callbacks of msk, both of sm; mp must
	# resume because its child does.
	cat >"$TMP/in.topo" <<EOF
ssp suspend=1000 suspend_late=1000 suspend_noirq=1000 resume_noirq=1000
ss parent=ssp driver=1 smart_suspend=1 suspend=1000 suspend_late=1000
msk driver=1 may_skip_resume=1 suspend=1000 resume_noirq=1000 resume_early=1000
sm driver=1 smart_suspend=1 may_skip_resume=1 suspend=1000 resume=1000
mp driver=1 may_skip_resume=1 suspend=1000 resume_noirq=1000
mc parent=mp suspend=1000 resume_noirq=1000
EOF
	err=1
	if load "$TMP/in.topo"; then
		err=0
		for mode in 1 0; do
			set_pm_async $mode
			good_cycle freeze && check_report "$SUSPEND_ALL" "" && check_state &&
				expect_lines ss "prepare suspend resume_noirq"\
" resume_early resume complete" &&
				expect_lines msk "prepare suspend suspend_late"\
" suspend_noirq resume complete" &&
				expect_lines sm "prepare suspend resume complete" &&
				expect_lines mp "$SUSPEND_ALL" &&
				expect_lines ssp "$SUSPEND_ALL" || err=1
		done
	fi
	set_pm_async 1
	result $err "smart suspend, may skip resume: exactly the driver callbacks"\
" the PM core may skip are skipped, pm_async 1 and 0"

	# Durations that change from cycle to cycle.
	topo_from "j jitter=20000 suspend=1000 resume=1000 suspend_late=1000"\
" resume_early=1000 suspend_noirq=1000 resume_noirq=1000\n"
	err=1
	if load "$TMP/in.topo"; then
		: >"$TMP/durations"
		for c in 1 2; do
			good_cycle freeze && check_report "$SUSPEND_ALL" "" && check_state || break
			chk select phase!=prepare phase!=complete : dur \
				>>"$TMP/durations"
		done
		set -- $(sort -n "$TMP/durations" | sed -n '1p;$p')
		n=$(wc -l <"$TMP/durations")
		ktap_print_msg "jitter: $n callbacks from $(( ${1:-0} / 1000 ))" \
			"to $(( ${2:-0} / 1000 )) us"
		[ "$n" = 12 ] && [ $(( ${2:-0} - ${1:-0} )) -gt 4000000 ] && err=0
	fi
	result $err "jitter: callback durations vary from cycle to cycle"

	# Churn during a transition: device_move() to another parent and a
	# stateless link deleted; the device and every other one still run
	# every callback once, in order, and the topology shows the change
	# afterwards.  (A link added then, and a move that deadlocks mainline,
	# are cases of 3e.)
	cat >"$TMP/in.topo" <<EOF
a suspend=3000 resume=3000
b parent=a suspend=3000 resume=3000
c suspend=100000 resume=20000 suspend_late=5000 resume_early=5000
d parent=c suspend=3000 resume=3000 suppliers=b suspend_late=5000 resume_early=5000
e suspend=1000 resume=1000 suspend_late=5000 resume_early=5000
EOF
	err=1
	if load "$TMP/in.topo"; then
		err=0
		mode=1
		for op in "d move=a:^d parent=a " "d unlink=b:^d .*resume_noirq=0\$" \
			  "e move=d:^e parent=d "; do
			set_pm_async $mode
			mode=$((1 - mode))
			if ! echo "40000 ${op%%:*}" >$LAB/churn; then
				ktap_print_msg "cannot arm churn ${op%%:*}"
				err=1
				break
			fi
			good_cycle freeze && check_report "$SUSPEND_ALL" "" && check_state || err=1
			churn_done || err=1
			grep -q "${op#*:}" $LAB/topology ||
				{ ktap_print_msg "churn ${op%%:*}: not in the topology"
				  grep '^[de] ' $LAB/topology | sed 's/^/# /'; err=1; }
			cat $LAB/topology >"$TMP/topo"
		done
	fi
	set_pm_async 1
	echo none >$LAB/churn
	result $err "churn: device_move() and a link deleted during a transition, pm_async 1 and 0"
}

# ---------------------------------------------------------------------------
# 3d. pm_async=0 is stock order

test_stock_order()
{
	cat >"$TMP/in.topo" <<EOF
o1 driver=1 suspend=200 resume=200
o2 parent=o1 async=0 suspend=300 resume=100 suspend_noirq=100
o3 managed=o1 driver=1 suspend=100 resume=300
o4 suspend=100 resume=100 direct_complete=1
o5 parent=o2 suppliers=o3 suspend=100 resume_early=200
o6 pm=0 parent=o5
o7 parent=o6 suspend=100 resume=100 wait=resume:o3,suspend:o9
o8 driver=1 may_skip_resume=1 suspend=100 resume=100 suspend_late=100
o9 sync_consumers=o4 suspend=300 resume=100 jitter=500
o10 parent=o9 async=0 suspend=100 resume=100
EOF
	set_pm_async 0
	err=1
	if load "$TMP/in.topo" && good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
	   check_state; then
		err=0
		chk select ctx!=task : name phase ctx | sed 's/^/# ran in a worker: /' |
			grep . && err=1
		# The report lists devices in creation order, the PM core's
		# list order: each phase, sorted by start time, must run
		# through it (backwards on the suspend side and for complete),
		# one callback at a time.
		for ph in $SUSPEND_ALL; do
			want=$(chk select phase="$ph" : name)
			case $ph in
			suspend*|complete) want=$(echo "$want" | sed -n '1!G;h;$p') ;;
			esac
			want=$(echo $want)
			chk serial "$ph" >"$TMP/order" || { grep '^#' "$TMP/order"; err=1; }
			got=$(grep -v '^#' "$TMP/order")
			if [ "$got" != "$want" ]; then
				ktap_print_msg "$ph ran '$got', list order '$want'"
				err=1
			fi
		done
		# And waited as stock: o7 waits for o3 (resume) and o9 (suspend).
		ends_before o3 resume o7 resume && ends_before o9 suspend o7 suspend || err=1
	fi
	set_pm_async 1
	result $err "pm_async=0: every callback in the PM task, one at a time, in"\
" exact list order (links, waits, mixed flags)"
}

# ---------------------------------------------------------------------------
# 3e. mainline's engine under real-driver hazards

# fix_result GROUP ERR DESC: as result(), the case named "[GROUP] DESC"
# (GROUP "none": DESC alone); a churn that missed its window (WINDOW=1)
# fails the case.
fix_result()
{
	if [ "${WINDOW:-0}" = 1 ]; then
		ktap_print_msg "the churn missed its window: the case tested nothing"
		set -- "$1" 1 "$3"
	fi
	if [ "$1" = none ]; then
		result "$2" "$3"
	else
		result "$2" "[$1] $3"
	fi
}

# move_order_case TOPO PRE CHURN ORDER DESC: load TOPO; with PRE, run a
# transition with that churn first (to set the PM core's list up); arm
# CHURN (a device_move() with an order) and run a transition, in which
# every device must run every callback; then one with pm_async=0, in which
# the shell condition ORDER (before ...) must hold: the PM core's list as
# the move makes it outside of a transition.  A case of group move_order.
move_order_case()
{
	topo_from "$1"
	err=1
	if load "$TMP/in.topo"; then
		err=0
		if [ -n "$2" ]; then
			echo "$2" >$LAB/churn && good_cycle freeze && churn_done ||
				err=1
		fi
		echo "$3" >$LAB/churn && good_cycle freeze &&
			check_report "$SUSPEND_ALL" "" && churn_done || err=1
		set_pm_async 0
		good_cycle freeze && check_report "$SUSPEND_ALL" "" && eval "$4" ||
			err=1
		set_pm_async 1
	fi
	fix_result move_order $err "$5"
}

# churn_within A PA B PB: the churn ran after A's PA callback had ended and
# before B's PB callback ended (else the case tested nothing: WINDOW=1).
churn_within()
{
	set -- "$@" $(cat $LAB/churn)
	chk within "$1" "$2" end "$3" "$4" end "$9" "${10}" && return 0
	WINDOW=1
	return 1
}

# churn_cycle "DELAY NAME OP=OTHER" A PA B PB: one transition with that
# churn, checked: report, device state, the churn ran, in its window (see
# churn_within()).
churn_cycle()
{
	armed=$1
	shift
	if ! echo "$armed" >$LAB/churn; then
		ktap_print_msg "cannot arm churn $armed"
		return 1
	fi
	crc=0
	good_cycle freeze && check_report "$SUSPEND_ALL" "" && churn_done &&
		churn_within "$@" && check_state || crc=1
	echo none >$LAB/churn
	return $crc
}

# move_during_cycle: load $TMP/in.topo, move mp.s under mq 100 ms into the
# suspend of the sync mx, after mp.f's suspend; err=1 if the cycle, the
# churn window or the new parent is wrong.
move_during_cycle()
{
	err=1
	WINDOW=0
	if load "$TMP/in.topo"; then
		err=0
		churn_cycle "100000 mp.s move=mq" mp.f suspend mx suspend || err=1
		grep -q '^mp.s parent=mq' $LAB/topology ||
			{ ktap_print_msg "mp.s: not under mq"; err=1; }
	fi
}

NR_FIXES=14
test_fixes()
{
	# device_move() with an order during suspend: n, suspended already
	# (the walk starts at the end of the list), is moved under p while
	# the sync z suspends, with p placed right before n
	# (DPM_ORDER_PARENT_BEFORE_DEV).  p, sync, is yet to suspend: moving
	# it next to n, among the devices handled, skips its suspend
	# (mainline; were p a child itself, its parent would wait for it for
	# ever).  It must suspend in this transition, and the PM core's list
	# must end as the move makes it outside of one (z, p, n): with
	# pm_async=0 the next suspend runs n, p, z.
	move_order_case "p async=0\nz async=0 suspend=200000\nn\n" "" \
		"0@z:suspend n move=p:before" \
		"before n suspend p suspend && before p suspend z suspend" \
		"device_move() during suspend, the parent placed before the"\
" device: the parent still suspends, and the list ends as after such a"\
" move outside of a transition"

	# The same in resume, the device placed right after its new parent
	# (DPM_ORDER_DEV_AFTER_PARENT): p has resumed, the sync n has not
	# when it is moved under p, during the sync z's resume.  Moving n
	# next to p, among the devices handled, skips n's resume (mainline).
	# The next resume, with pm_async=0, runs p, n, z.
	move_order_case "p\nz async=0 resume=200000\nn async=0\n" "" \
		"0@z:resume n move=p:after" \
		"before p resume n resume && before n resume z resume" \
		"device_move() during resume, the device placed after its parent:"\
" the device still resumes, and the list ends as after such a move"\
" outside of a transition"

	# A device placed after a new parent that comes after it in the PM
	# core's list: a link to s added while s completes (after a and p
	# did) moves a and its child p behind c (s, c, a, p).  Then, while
	# the sync a suspends, c is moved under p, which has suspended
	# (DPM_ORDER_DEV_AFTER_PARENT).  The move must be made before
	# suspend_late starts: an engine that counts on children coming
	# after their parent would start p first, whose worker waits for the
	# sync c, which the walk, waiting for a to finish, never reaches.
	# Mainline moves c among the devices handled: c's suspend is skipped.
	move_order_case "s async=0\na async=0 suspend=200000\np parent=a\n"\
"c async=0\n" "0@s:complete a link=s" "0@a:suspend c move=p:after" \
		"before c suspend p suspend && before p suspend a suspend" \
		"device_move() during suspend, the device placed after a parent"\
" behind it in the list: the move is made before the next phase starts"

	# A direct_complete supplier of a SYNC_STATE_ONLY link: the link does
	# not move it after its consumer c, so the walk meets it first and it
	# takes the direct_complete path; c's suspend must not clear that
	# afterwards (mainline then runs s's late, noirq and resume callbacks
	# and leaves runtime PM of s disabled).
	topo_from "c suspend=20000 resume=1000\ns direct_complete=1 sync_consumers=c\n"
	err=1
	if load "$TMP/in.topo"; then
		err=0
		for mode in 1 0; do
			set_pm_async $mode
			good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
				expect_lines s "prepare complete" &&
				expect_lines c "$SUSPEND_ALL" && check_state || err=1
		done
	fi
	set_pm_async 1
	fix_result dc_link $err "direct_complete: a SYNC_STATE_ONLY consumer that"\
" suspends leaves its supplier alone, pm_async 1 and 0"

	# device_link_add() during suspend, from a kernel thread: lc has
	# suspended, ls is still in its 400 ms callback.  lc must go on
	# through the transition (mainline moves it to dpm_list, out of it: lc
	# misses every later callback), and the next transitions keep the new
	# order, sync and async.
	topo_from "ls suspend=400000 resume=1000\nlc resume=1000\n"
	err=1
	WINDOW=0
	if load "$TMP/in.topo"; then
		err=0
		churn_cycle "100000 lc link=ls" lc suspend ls suspend &&
			expect_lines lc "$SUSPEND_ALL" || err=1
		if [ $err = 0 ]; then
			grep -q '^lc .*suppliers=ls' $LAB/topology ||
				{ ktap_print_msg "lc: no link to ls"; err=1; }
			for mode in 0 1; do
				set_pm_async $mode
				good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
					before lc suspend ls suspend &&
					before ls resume lc resume || err=1
			done
		fi
	fi
	set_pm_async 1
	fix_result link_during $err "device_link_add() during suspend keeps the"\
" consumer in the transition, then orders it"

	# The same with sync devices and pm_async=0: lc is yet to suspend
	# when the link is added during the 400 ms suspend of mx, created
	# after it.  lc still suspends in this transition, and the PM core's
	# list has it last afterwards, where device_link_add() puts it outside
	# of a transition: the next transition suspends lc before mx and
	# resumes it after mx.
	topo_from "ls async=0 resume=1000\nlc async=0 resume=1000\n"\
"mx async=0 suspend=400000 resume=1000\n"
	err=1
	WINDOW=0
	if load "$TMP/in.topo"; then
		err=0
		set_pm_async 0
		churn_cycle "100000 lc link=ls" ls prepare mx suspend &&
			expect_lines lc "$SUSPEND_ALL" || err=1
		if [ $err = 0 ]; then
			good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
				before lc suspend mx suspend &&
				before mx resume lc resume &&
				before lc suspend ls suspend || err=1
		fi
	fi
	set_pm_async 1
	fix_result link_during $err "device_link_add() during suspend: the PM"\
" core's list has the consumer last afterwards, as outside of a transition"

	# A device link deleted during suspend: p, k's supplier, is started
	# when the link is deleted, 50 ms into k's slow suspend, and must not
	# wait for k, which it no longer depends on (mainline starts p when
	# the walk reaches it and waits for k through the link).  The start
	# races with the deletion of the link: 4 transitions.
	topo_from "e\np\nk suppliers=p suspend=300000\n"
	err=0
	WINDOW=0
	for c in 1 2 3 4; do
		load "$TMP/in.topo" &&
			churn_cycle "50000@k:suspend k unlink=p" e suspend \
				k suspend &&
			ends_before p suspend k suspend || { err=1; break; }
	done
	fix_result link_del $err "a device link deleted during suspend: the"\
" supplier it leaves does not wait for its consumer"

	# A failed suspend_late: mp (DPM_FLAG_MAY_SKIP_RESUME) has finished
	# its late suspend when f, which the walk reaches after it, fails.
	# No noirq suspend has run, so nothing has decided that mp may stay
	# in suspend: its early resume must run before its child's (mainline
	# skips it and resumes mc early under a parent still suspended_late).
	# Then a failed freeze_late in hibernation, resumed as "recover".
	# pm_async 1 and 0; f's 30 ms leave mp and mc time to finish first.
	cat >"$TMP/in.topo" <<EOF
f async=0 suspend_late=30000
mp driver=1 may_skip_resume=1 suspend=1000 suspend_late=1000 resume_early=1000
mc parent=mp suspend=1000 suspend_late=1000 resume_early=1000
EOF
	err=1
	if load "$TMP/in.topo"; then
		err=0
		for mode in 1 0; do
			set_pm_async $mode
			echo "f suspend_late" >$LAB/fail || err=1
			if cycle freeze; then
				ktap_print_msg "the transition succeeded despite f failing"
				err=1
			fi
			check_report "prepare complete" "$DEV_PHASES" f suspend_late &&
				check_state || err=1
			has name=mp phase=suspend_late ||
				{ ktap_print_msg "mp: no late suspend before f failed"; err=1; }
			has name=mp phase=resume_early ||
				{ ktap_print_msg "mp: no early resume (pm_async $mode)"; err=1; }
			good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
				check_state || err=1
			# The same in hibernation: a failed freeze_late
			# resumes with PM_EVENT_RECOVER, where the same
			# power.must_resume decides.
			echo "f suspend_late" >$LAB/fail || err=1
			if cycle disk; then
				ktap_print_msg "hibernation succeeded despite f failing"
				err=1
			fi
			# (The early phase resumes as "recover", with thaw
			# callbacks; the last one with restore callbacks, as
			# no image was made.)
			check_report "prepare complete" "freeze freeze_late"\
" freeze_noirq thaw_noirq thaw_early thaw restore" f freeze_late &&
				check_state || err=1
			has name=mp phase=thaw_early ||
				{ ktap_print_msg "mp: no thaw_early (pm_async $mode)"; err=1; }
			hib_cycle || err=1
		done
	fi
	set_pm_async 1
	fix_result skip_resume_abort $err "a failed suspend_late or freeze_late"\
" resumes early a may_skip_resume parent whose late suspend ran"

	# Devices below a device that takes no part in PM: g's child g.b
	# does not, its child g.b.c (sync, slow) does; g's other child g.a
	# is a leaf that is done at once and starts g.  In resume, h.b.c's
	# parent takes no part in PM: its supplier r, a root that is done at
	# once, starts it while its grandparent h (sync, slow) still
	# resumes; so does the walk for j.b.c right after its async
	# grandparent j.  Mainline waits for none of them (it skips the
	# no-PM device); the lab checks through it.  k's driver lets the PM
	# core skip its resume (DPM_FLAG_MAY_SKIP_RESUME), but k.b.c, below
	# its no-PM child, must resume, so k must too: mainline marks the
	# no-PM k.b instead, skips k's noirq and early resume and resumes
	# k.b.c under it.
	topo_from "g suspend=4000\ng.a parent=g\ng.b parent=g pm=0\n"\
"g.b.c parent=g.b async=0 suspend=20000\n"\
"h async=0 resume=20000\nh.b parent=h pm=0\nr\n"\
"h.b.c parent=h.b suppliers=r resume=4000\n"\
"j resume=20000\nj.b parent=j pm=0\nj.b.c parent=j.b resume=4000\n"\
"k driver=1 may_skip_resume=1\nk.b parent=k pm=0\nk.b.c parent=k.b\n"
	err=1
	if load "$TMP/in.topo"; then
		err=0
		for mode in 1 0; do
			set_pm_async $mode
			good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
				check_state || { err=1; break; }
			before g.b.c suspend g suspend &&
				before h resume h.b.c resume &&
				before j resume j.b.c resume || err=1
		done
		set_pm_async 1
	fi
	fix_result no_pm_below $err "devices below a device that takes no part"\
" in PM: suspended before, resumed after the device above it"

	# 1100 async devices below a's no-PM child a.n, more than the PM
	# core's workqueue runs at once (WQ_DFL_ACTIVE, 1024): a's resume
	# waits for its supplier x, slow in resume_noirq.  They must resume
	# after a, and not by taking every worker to wait for it, which
	# would leave none for a (an engine that waits for a without
	# counting on it hangs here).
	{
		printf 'x resume_noirq=100000\na suppliers=x\na.n parent=a pm=0\n'
		i=0
		while [ $i -lt 1100 ]; do
			i=$((i + 1))
			echo "d$i parent=a.n"
		done
	} >"$TMP/in.topo"
	err=1
	if load "$TMP/in.topo"; then
		err=0
		for c in 1 2; do
			good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
				check_state || { err=1; break; }
			for d in d1 d550 d1100; do
				before a resume_noirq $d resume_noirq || err=1
			done
		done
	fi
	fix_result no_pm_below $err "1100 devices below a no-PM child resume"\
" after their ancestor, which waits for a slow supplier"

	# device_move() of a device that takes no part in PM, during
	# suspend: p.n is moved from the async p to the sync q while the
	# sync z suspends, before p.n's child p.n.c (async, slow) is done.
	# p no longer waits for p.n.c and must suspend now, not when p.n.c
	# is done or at the end of the phase (an engine that lets p.n.c
	# start p, or drop its count on q, leaves p behind it); q, reached
	# by the PM task after z, waits for p.n.c through p.n (mainline
	# does not).  p's start races with the move: 4 transitions.
	topo_from "q async=0\nz async=0 suspend=200000\ne\np\n"\
"p.n parent=p pm=0\np.n.c parent=p.n suspend=300000\n"
	err=0
	WINDOW=0
	for c in 1 2 3 4; do
		load "$TMP/in.topo" || { err=1; break; }
		churn_cycle "50000@z:suspend p.n move=q" e suspend \
			p.n.c suspend || { err=1; break; }
		grep -q '^p.n parent=q' $LAB/topology ||
			{ ktap_print_msg "p.n: not under q"; err=1; break; }
		ends_before p suspend p.n.c suspend &&
			before p.n.c suspend q suspend || { err=1; break; }
	done
	fix_result no_pm_below $err "device_move() of a no-PM device during"\
" suspend: the parent it leaves does not wait for the devices below it,"\
" the new one does"

	# device_move() of a no-PM device during resume: x, below the slow p,
	# is moved under n, done already, while p still resumes.  c, below x,
	# was counted on p, which no longer starts it: it must start then,
	# not when the phase ends behind the slower z (mainline resumes c
	# without waiting for p at all).
	topo_from "n\np resume=300000\nx parent=p pm=0\nc parent=x\n"\
"z resume=1500000\n"
	err=0
	WINDOW=0
	load "$TMP/in.topo" &&
		churn_cycle "50000@n:resume x move=n" n resume p resume &&
		started_by c resume z resume || err=1
	grep -q '^x parent=n' $LAB/topology ||
		{ ktap_print_msg "x: not under n"; err=1; }
	fix_result no_pm_below $err "device_move() of a no-PM device during"\
" resume: the devices below it start before the phase ends"

	# device_move() during suspend: mp is started when its fast child mp.f
	# is done and waits for its sync child mp.s, which the PM task reaches
	# after the 400 ms sync mx.  mp.s is moved to mq meanwhile:
	# device_move() must not wait for mp, which must not wait for the PM
	# task (mainline deadlocks: mp holds mp.s's node in its list of
	# children, device_move() holds dpm_list_mtx).
	if skipped move_during; then
		ktap_test_skip "[move_during] device_move() of a child its parent"\
" waits for, during suspend (PM_ASYNC_SKIP=move_during)"
		ktap_test_skip "[move_during] device_move() during suspend of a"\
" child its parent waits for, under a sync parent"\
" (PM_ASYNC_SKIP=move_during)"
		return
	fi
	cat >"$TMP/in.topo" <<EOF
mq
mp suspend=1000 resume=1000
mp.f parent=mp
mp.s parent=mp async=0 resume=1000
mx async=0 suspend=400000
EOF
	move_during_cycle
	fix_result move_during $err "device_move() of a child its parent waits"\
" for, during suspend"

	# The same under a sync parent g: once mp.s is moved, mp's last
	# child never comes, so an engine that leaves mp to its last child
	# has to start it when the PM task reaches g and waits for mp.
	cat >"$TMP/in.topo" <<EOF
mq
g async=0
mp parent=g suspend=1000 resume=1000
mp.f parent=mp
mp.s parent=mp async=0 resume=1000
mx async=0 suspend=400000
EOF
	move_during_cycle
	[ $err = 1 ] || before mp suspend g suspend || err=1
	fix_result move_during $err "device_move() during suspend of a child"\
" its parent waits for, under a sync parent"
}

# ---------------------------------------------------------------------------
# 3f. the contract: an "async" device runs in a worker (the lab counts a
# callback of one in the PM task as a violation), async leaves (suspend)
# and roots (resume) start upfront, and a waiter is never left behind a
# device nobody starts.  Each case is a driver behaviour that mainline
# 7.3 finishes; an engine that breaks the contract hangs or runs the
# phase behind the sync devices.

# contract_cycles N STATE: N transitions to STATE, each checked (report,
# no violation, every device back).  Stops at the first bad one.
contract_cycles()
{
	i=0
	while [ $i -lt "$1" ]; do
		i=$((i + 1))
		good_cycle "$2" && check_report "$SUSPEND_ALL" "" && check_state ||
			{ ktap_print_msg "transition $i of $1 ($2)"; return 1; }
	done
}

# hib_cycle: one hibernation transition with pm_test=platform, checked as
# in case 8.
hib_cycle()
{
	good_cycle disk || return 1
	res=restore
	has phase=thaw && res=thaw
	check_report "prepare freeze freeze_late freeze_noirq"\
" ${res}_noirq ${res}_early $res complete" "" && check_state
}

# early_cycles N DEV PHASE SYNCDEV...: N checked transitions in each of
# which DEV's PHASE starts before the first of the SYNCDEVs ends (see
# starts_early()).
early_cycles()
{
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		n=$((n - 1))
		good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
			check_state && starts_early "$@" || return 1
	done
}

# started_by DEV1 PHASE1 DEV2 PHASE2: DEV1's PHASE1 started before DEV2's
# PHASE2 ended.
started_by()
{
	chk started_by "$@"
}

# churn_start_case "CHURN" A PA B PB DEV PHASE OTHER DESC: load
# $TMP/in.topo, one churn_cycle "CHURN" A PA B PB (the churn must come
# after A's PA ended and before B's PB ended), and DEV's PHASE must start
# before OTHER's PHASE ends: a contract case (fix_result none) named DESC.
churn_start_case()
{
	err=1
	WINDOW=0
	if load "$TMP/in.topo"; then
		err=0
		churn_cycle "$1" "$2" "$3" "$4" "$5" &&
			started_by "$6" "$7" "$8" "$7" || err=1
	fi
	fix_result none $err "$9"
}

# fillers: SETUP_FILLERS (3000) sync devices f1, f2... without callback
# times, as topology lines.
fillers()
{
	awk -v n="${SETUP_FILLERS:-3000}" \
		'BEGIN { for (i = 1; i <= n; i++) printf "f%d async=0\n", i }'
}

# forget NAME: churn removed NAME, which has left the topology, the report
# and the state: so it leaves the saved topology and state too.
forget()
{
	cat $LAB/topology >"$TMP/topo"
	grep -v "^$1 " "$TMP/state.base" >"$TMP/state.rm"
	mv "$TMP/state.rm" "$TMP/state.base"
}

# removed_cycle NAME: one transition that must succeed, in which churn
# removes NAME; then the report and the state are checked and the churn
# must be done.  0: all good, 1: a check failed, 2: the transition failed.
# CHURN_START is when the removal started (empty if it was not done).
removed_cycle()
{
	CHURN_START=""
	good_cycle freeze || return 2
	forget "$1"
	rm_rc=0
	check_report "$SUSPEND_ALL" "" && check_state || rm_rc=1
	# "done DELAY NAME DEL_START_NS DEL_END_NS"
	set -- $(cat $LAB/churn)
	if [ "$1" = done ]; then
		CHURN_START=$4
	else
		ktap_print_msg "churn: $*"
		rm_rc=1
	fi
	return $rm_rc
}

# setup_window_case "DELAY@l:PHASE NAME [OP=OTHER]" PHASE Z DEV OTHER DESC:
# load $TMP/in.topo and run one transition with that churn, checked; the
# churn must have started after l's PHASE started and before Z's (the first
# sync device the walk runs after the setup), else it missed the setup
# (WINDOW=1), and it is tried again, SETUP_TRIES (5) times in all (when
# l's worker comes in is up to the scheduler: a skip if it never did
# during the setup); DEV's PHASE must start before OTHER's ends.  A
# contract case (fix_result none) named DESC.
setup_window_case()
{
	local churn=$1 ph=$2 z=$3 dev=$4 other=$5 desc=$6 cs try=0 bad=0

	WINDOW=1
	while [ $WINDOW = 1 ] && [ $try -lt "${SETUP_TRIES:-5}" ]; do
		try=$((try + 1))
		err=1
		WINDOW=0
		load "$TMP/in.topo" && echo "$churn" >$LAB/churn || break
		err=0
		if ! good_cycle freeze; then
			bad=1
			break
		fi
		set -- $churn
		[ $# = 2 ] && forget "$2"
		check_report "$SUSPEND_ALL" "" && check_state || bad=1
		# "done DELAY NAME START_NS END_NS" or "done DELAY NAME
		# OP=OTHER START_NS END_NS RESULT".
		set -- $(cat $LAB/churn)
		case $4 in
		*=*) cs=$5; churn_done || bad=1 ;;
		*) cs=$4; [ "$1" = done ] || { ktap_print_msg "churn: $*"; bad=1; } ;;
		esac
		chk within l "$ph" start "$z" "$ph" start "$cs" "$cs" || WINDOW=1
		[ $WINDOW = 1 ] || started_by "$dev" "$ph" "$other" "$ph" || err=1
	done
	echo none >$LAB/churn
	[ $bad = 0 ] || err=1
	if [ $err = 0 ] && [ $WINDOW = 1 ]; then
		ktap_test_skip "$desc: the churn missed the setup in $try transitions"
		return
	fi
	[ $try = 1 ] || ktap_print_msg "the churn came during the setup in transition $try"
	fix_result none $err "$desc"
}

# failed_cycle DEV PHASE: a transition in which DEV's PHASE fails (armed
# with fail=): the transition fails, every device comes back, the next one
# succeeds.
failed_cycle()
{
	if cycle freeze; then
		ktap_print_msg "the transition succeeded despite $1 $2 failing"
		return 1
	fi
	check_report "prepare complete" "$DEV_PHASES" "$1" "$2" && check_state &&
		good_cycle freeze && check_report "$SUSPEND_ALL" "" && check_state
}

# failed_in EVENT DEV PHASE: as failed_cycle(), in suspend-to-idle
# (EVENT freeze) or in hibernation (disk, with pm_test=platform), where
# DEV's PHASE (a suspend-side name, as fail= takes it) is a freeze one.
failed_in()
{
	[ "$1" = freeze ] && { failed_cycle "$2" "$3"; return; }
	if cycle disk; then
		ktap_print_msg "hibernation succeeded despite $2 $3 failing"
		return 1
	fi
	# A failed freeze phase resumes with thaw callbacks (recover), the
	# last phase with restore ones, as no image was made.
	check_report "prepare complete" "freeze freeze_late freeze_noirq"\
" thaw_noirq thaw_early thaw restore_noirq restore_early restore" "$2" \
		"$(echo "$3" | sed 's/^suspend/freeze/')" && check_state && hib_cycle
}

# failed_phases EVENT SHAPE: for each suspend-side phase PH, the topology
# "SHAPE PH" prints (a function) fails in PH at device x in a transition to
# EVENT (see failed_in()).  Nonzero if one of them does not pass.
failed_phases()
{
	fp_err=0
	for fp_ph in suspend suspend_late suspend_noirq; do
		"$2" "$fp_ph" >"$TMP/in.topo"
		if ! load "$TMP/in.topo" || ! failed_in "$1" x "$fp_ph"; then
			ktap_print_msg "$1, x failing in $fp_ph"
			fp_err=1
		fi
	done
	return $fp_err
}

# kicked_topo PHASE: the async leaf w waits in PHASE for p, which the walk
# meets after the sync x, whose PHASE fails after 20 ms; p's child c is
# sync, so the walk, stopped at x, never reaches it.
kicked_topo()
{
	printf 'w wait=%s:p\np\nc parent=p async=0\n' "$1"
	printf 'x async=0 %s=20000 fail=%s\n' "$1" "$1"
}

# deferred_topo PHASE: 100 async parents, each with one async child whose
# PHASE takes 20 ms, and the sync x, met first by the walk, whose PHASE
# fails at once: every parent is still waiting for its child.
deferred_topo()
{
	i=0
	while [ $i -lt 100 ]; do
		i=$((i + 1))
		printf 'p%d\nc%d parent=p%d %s=20000\n' $i $i $i "$1"
	done
	printf 'x async=0 fail=%s\n' "$1"
}

# kick_chains suspend|resume [fail]: 64 chains of 32 async devices, each
# chain's end next to a sync device, and 64 async waiters, each waiting for
# the far end of a chain; the sync z holds the walk for 10 s.  In suspend,
# w<i> waits for a<i>_1, a<i>_32 is the parent of the sync s<i>, and z is
# met first by the walk; in resume, the sync s<i> is the parent of a<i>_1,
# w<i> waits for a<i>_32, and z comes first in the list.  With "fail",
# f, a child of a1_32, fails its suspend after 1 s.
kick_chains()
{
	awk -v ph="$1" -v fail="${2:-}" 'BEGIN {
		W = 64; D = 32
		if (ph == "suspend") {
			for (i = 1; i <= W; i++)
				printf "w%d wait=suspend:a%d_1\n", i, i
			for (i = 1; i <= W; i++) {
				printf "a%d_1\n", i
				for (j = 2; j <= D; j++)
					printf "a%d_%d parent=a%d_%d\n", i, j, i, j - 1
				printf "s%d parent=a%d_%d async=0\n", i, i, D
			}
			if (fail)
				print "f parent=a1_32 suspend=1000000 fail=suspend"
			print "z async=0 suspend=10000000"
		} else {
			print "z async=0 resume=10000000"
			for (i = 1; i <= W; i++) {
				printf "s%d async=0\na%d_1 parent=s%d\n", i, i, i
				for (j = 2; j <= D; j++)
					printf "a%d_%d parent=a%d_%d\n", i, j, i, j - 1
			}
			for (i = 1; i <= W; i++)
				printf "w%d wait=resume:a%d_%d\n", i, i, D
		}
	}'
}

# busy_overlap PHASE: two callbacks of PHASE in the last report ran side by
# side: one started before the other ended.  Callbacks that busy-wait one
# after another on one CPU never do.
busy_overlap()
{
	chk overlap "$1"
}

# cycle_case GROUP DESC [CHECK...]: load $TMP/in.topo and run one freeze
# transition that must succeed, every device in every phase with no
# violation, then CHECK (a command and its arguments) if given, and the
# state as before; the case's result in GROUP (see fix_result()).
cycle_case()
{
	group=$1
	desc=$2
	shift 2
	err=1
	if load "$TMP/in.topo"; then
		err=0
		good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
			{ [ $# = 0 ] || "$@"; } && check_state || err=1
	fi
	fix_result "$group" $err "$desc"
}

NR_CONTRACT=33
test_contract()
{
	set_pm_async 1

	# A sync device whose suspend waits (device_pm_wait_for_dev()) for
	# an async leaf that takes no time, created before it: the walk
	# meets the sync device first, so only a leaf started upfront lets
	# the wait return.  Four transitions: an engine that learns from
	# earlier ones has learnt by then.
	topo_from "lf\ns async=0 suspend=5000 wait=suspend:lf\n"
	err=1
	load "$TMP/in.topo" && contract_cycles 4 freeze && err=0
	result $err "contract: a sync device's suspend waits for a short async leaf"

	# The same in resume: the sync device comes first in the list and
	# waits for an async root that takes no time.
	topo_from "s async=0 resume=5000 wait=resume:rt\nrt\n"
	err=1
	load "$TMP/in.topo" && contract_cycles 4 freeze && err=0
	result $err "contract: a sync device's resume waits for a short async root"

	# w (a leaf, started upfront) waits for x while the walk runs the
	# sync s2, before it reaches x; x's child x.c waits for the sync s,
	# which the walk reaches last.  x must go to a worker when the walk
	# gets to it: run by the walk itself, it would wait for x.c, which
	# waits for the walk.
	topo_from "s async=0 suspend=20000\nx\nx.c parent=x wait=suspend:s\n"\
"s2 async=0 suspend=20000\nw wait=suspend:x\n"
	err=1
	load "$TMP/in.topo" && contract_cycles 4 freeze && err=0
	result $err "contract: a device waited for before the walk reaches it,"\
" whose child waits for a sync device"

	# A device that only the walk keeps behind a device below its no-PM
	# child: v, a leaf, waits for g at once, while the walk runs g.b.c
	# (sync, slow) under g's no-PM child g.b; in resume, w, a root, waits
	# for h.b.c at once, while the walk runs its grandparent h (sync,
	# slow) above its no-PM parent.  Mainline starts g and h.b.c only
	# when the walk reaches them, after g.b.c and h: an engine that
	# starts a device for its waiter must wait for them too.  (In each
	# suspend phase, the sync hx lets h.b.c finish before the walk
	# reaches h, which mainline does not make wait for it: case 3e; in
	# each resume phase, the sync gx lets g finish before the walk reaches
	# g.b.c, which mainline does not make wait for g either.)
	topo_from "v wait=suspend:g\ng suspend=4000\ng.b parent=g pm=0\n"\
"gx async=0 resume=30000 resume_early=30000 resume_noirq=30000\n"\
"g.b.c parent=g.b async=0 suspend=20000\nh async=0 resume=20000\n"\
"hx async=0 suspend=30000 suspend_late=30000 suspend_noirq=30000\n"\
"h.b parent=h pm=0\nh.b.c parent=h.b resume=4000\n"\
"w wait=resume:h.b.c\n"
	err=1
	if load "$TMP/in.topo" && contract_cycles 3 freeze; then
		err=0
		before g.b.c suspend g suspend && before h resume h.b.c resume ||
			err=1
	fi
	result $err "contract: a waiter starts a device no earlier than the"\
" devices below its no-PM child (suspend) or above its no-PM parent"\
" (resume)"

	# w, the last device, is started while the suspend phase is still
	# being set up (3000 devices to count before x's children) and waits
	# for x at once; x.a then fails, x.b ends after the failure and so
	# starts nothing.  The waiter must not be left behind x: the
	# transition fails with x.a's -EIO, every device comes back, the next
	# one succeeds.
	{
		printf 'x\nx.a parent=x suspend=1000 fail=suspend\n'
		printf 'x.b parent=x suspend=50000\n'
		i=0
		while [ $i -lt 3000 ]; do
			i=$((i + 1))
			echo "f$i"
		done
		echo "w wait=suspend:x"
	} >"$TMP/in.topo"
	err=1
	load "$TMP/in.topo" && failed_cycle x.a suspend && err=0
	result $err "contract: a failed suspend while a waiter waits for a device"\
" with two children"

	# s, sync, waits for its child w, which waits for d, which the walk
	# has not reached (it is blocked in s); d's child g fails.  d must be
	# started for w (mainline starts it when its child e is done).
	topo_from "d\ne parent=d\ng parent=d suspend=20000 fail=suspend\n"\
"s async=0\nw parent=s wait=suspend:d\n"
	err=1
	load "$TMP/in.topo" && failed_cycle g suspend && err=0
	result $err "contract: a sync parent waits for a child that waits for a"\
" device the walk has not reached, in a failed suspend"

	# The same one level down: s waits for d, and d's worker for k, which
	# the walk has not reached either; k's child k2 fails.
	topo_from "d\ne parent=d\nk parent=d\nk1 parent=k\n"\
"k2 parent=k suspend=20000 fail=suspend\ns async=0 wait=suspend:d\n"
	err=1
	load "$TMP/in.topo" && failed_cycle k2 suspend && err=0
	result $err "contract: a sync device waits for a device whose child the"\
" walk has not reached, in a failed suspend"

	# A waiter starts a device (device_pm_wait_for_dev()) whose sync child
	# the walk never reaches, as it stops at a sync device that fails;
	# and many async parents left waiting for their children when a
	# failure ends the walk at once.  In each suspend-side phase, in
	# suspend-to-idle and in hibernation: the transition fails, every
	# device comes back, the next one succeeds (mainline completes the
	# devices the walk did not reach when a phase fails).
	for ev in freeze disk; do
		if [ $ev = disk ] && ! { grep -qw disk $PWR/state &&
		     grep -qw platform $PWR/pm_test; }; then
			ktap_test_skip "contract: failed $ev: no hibernation with"\
" pm_test=platform"
			ktap_test_skip "contract: failed $ev: no hibernation with"\
" pm_test=platform"
			continue
		fi
		err=0
		failed_phases $ev kicked_topo || err=1
		result $err "contract: a waiter starts a device whose sync child"\
" the walk never reaches, in a failed $ev"
		err=0
		failed_phases $ev deferred_topo || err=1
		result $err "contract: 100 async parents wait for slow children when"\
" a sync device fails at once, in a failed $ev"
	done

	# d takes no time and waits for e, created before it, in freeze only:
	# two suspend-to-idle transitions, then a hibernation one.  What an
	# engine learns of d in suspend must not make it run d's freeze in
	# the PM task, where it would wait for e, which the walk has not
	# reached.
	if grep -qw disk $PWR/state && grep -qw platform $PWR/pm_test; then
		topo_from "e\nd wait=freeze:e\n"
		err=1
		load "$TMP/in.topo" && contract_cycles 2 freeze && hib_cycle &&
			contract_cycles 1 freeze && err=0
		result $err "contract: a short device that waits in freeze only"
	else
		ktap_test_skip "contract: a short device that waits in freeze only:"\
" no hibernation with pm_test=platform"
	fi

	# The USB companion pattern: a.ehci's resume starts waiting for
	# b.uhci, in a sibling subtree created after it, from the third
	# transition on (as an EHCI driver does once its root hub was
	# suspended); every device takes no time.
	topo_from "a\na.ehci parent=a wait=resume:b.uhci+3\nb\nb.uhci parent=b\n"
	err=1
	load "$TMP/in.topo" && contract_cycles 5 freeze && err=0
	result $err "contract: a resume wait that starts in the third transition,"\
" on a sibling subtree"

	# A slow async device whose only child takes no time, three sync
	# devices after it: the child is a leaf and starts upfront, so the
	# parent starts at once, not behind the sync devices, in each of
	# four transitions.
	topo_from "p suspend=200000\np.c parent=p\ns1 async=0 suspend=50000\n"\
"s2 async=0 suspend=50000\ns3 async=0 suspend=50000\n"
	err=1
	load "$TMP/in.topo" && early_cycles 4 p suspend s1 s2 s3 && err=0
	result $err "contract: a slow device whose child takes no time starts"\
" its suspend upfront"

	# Resume: a root and its child take no time, the grandchild resumes
	# slowly, three sync devices come before them in the list.
	topo_from "s1 async=0 resume=50000\ns2 async=0 resume=50000\n"\
"s3 async=0 resume=50000\nr\nr.c parent=r\nr.c.g parent=r.c resume=200000\n"
	err=1
	load "$TMP/in.topo" && early_cycles 4 r.c.g resume s1 s2 s3 && err=0
	result $err "contract: a slow grandchild of a short root starts its"\
" resume upfront"

	# p's child c1 supplies the slow k, so it waits for k; 150 ms into
	# the transition, while the walk runs the sync devices, c1 is
	# removed.  p must start then (its other child is done), not at the
	# end of the phase, after the last sync device.
	topo_from "p\nc1 parent=p\nc2 parent=p\nk suppliers=c1 suspend=300000\n"\
"s1 async=0 suspend=100000\ns2 async=0 suspend=100000\n"\
"s3 async=0 suspend=100000\n"
	err=1
	WINDOW=0
	if load "$TMP/in.topo" && echo "150000 c1" >$LAB/churn; then
		err=0
		removed_cycle c1
		rc=$?
		[ $rc = 0 ] || err=1
		if [ $rc != 2 ]; then
			# The removal came after c2's suspend, before k's had
			# ended.
			[ -z "$CHURN_START" ] || chk within c2 suspend end \
				k suspend end "$CHURN_START" "$CHURN_START" || WINDOW=1
			started_by p suspend s1 suspend || err=1
		fi
		echo none >$LAB/churn
	fi
	fix_result none $err "contract: a child removed during suspend starts"\
" its parent"

	# k consumes p and suspends slowly; 150 ms into the transition its
	# link to p is deleted.  p must start before the unrelated slow z is
	# done (mainline starts p when the walk reaches it, after the sync
	# devices), not when the phase ends.
	topo_from "p\nk suppliers=p suspend=300000\nz suspend=1000000\n"\
"s1 async=0 suspend=150000\ns2 async=0 suspend=150000\n"\
"s3 async=0 suspend=150000\n"
	churn_start_case "150000 k unlink=p" k prepare k suspend p suspend z \
		"contract: a link deleted during suspend starts its supplier"

	# device_move() during resume: c, counted on its parent op when the
	# phase started, is moved under np, done already, while op still
	# resumes.  Nothing that is done counts c any more, so it must start
	# then (mainline: when its worker finds its parent done), not when
	# the phase ends behind the much slower z.
	topo_from "np resume=1000\nop resume=1000000\nc parent=op resume=1000\n"\
"z resume=2000000\n"
	churn_start_case "400000 c move=np" np resume op resume c resume z \
		"contract: a device moved to a parent that is done, during resume,"\
" starts before the phase ends"

	# The same move while the churn thread cannot allocate (failslab's
	# task filter on it, GFP_ATOMIC only): c's start from device_move()
	# cannot be queued.  It must not run c's callback there, under
	# dpm_list_mtx, which c's wait for its parent takes (a deadlock);
	# the end of the phase starts c instead.
	err=1
	WINDOW=0
	if load "$TMP/in.topo" && failslab_arm; then
		err=0
		churn_cycle "400000 c move=np" np resume op resume || err=1
	fi
	failslab_result $err "contract: a device moved during resume when its"\
" start cannot be queued"

	# A kick that cannot be queued runs the device in the waiter's
	# context: the sync s waits for d (device_pm_wait_for_dev(), marked
	# for failslab), deferred behind its slow parent p, so the PM task
	# runs d.  d is the last dependency of m, which waits for s: m must
	# go to a worker, not be handed to the PM task to run next, where it
	# would wait for s, which is up the same stack (a deadlock).  The lab
	# does not count d in the PM task, in a wait marked for failslab
	# (mainline runs a device it cannot schedule there too).
	topo_from "p resume=300000\nd parent=p\ns async=0 wait=resume:d\n"\
"m parent=d wait=resume:s\n"
	err=1
	if load "$TMP/in.topo" && failslab_arm; then
		err=0
		good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
			check_state || err=1
		[ "$(ctx m resume)" = worker ] || {
			ktap_print_msg "m resume ran in: $(ctx m resume)"
			err=1
		}
	fi
	failslab_result $err "contract: a device run in place because its kick"\
" cannot be queued does not run what it starts"

	# A driver's own thread, not a callback, waits for d with
	# device_pm_wait_for_dev() (the churn thread's wait=, 50 ms into the
	# suspend of d's child c, once the phase is set up) and the kick
	# cannot be queued (failslab on that thread): d runs in that thread.
	# The phase must not end before d is done, or the next one sets d up
	# again and starts late callbacks beside its suspend (mainline: the
	# thread only waits).
	topo_from "d suspend=200000\nc parent=d suspend=100000\nw\n"
	err=1
	if load "$TMP/in.topo" && failslab_arm &&
	   echo "50000@c:suspend w wait=d" >$LAB/churn; then
		err=0
		good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
			churn_done && check_state || err=1
		echo none >$LAB/churn
	fi
	failslab_result $err "contract: a device run in place by a thread"\
" outside the PM core ends before its phase does"

	# Some drivers mark a device with device_set_pm_not_required() in
	# their probe, once it is on the PM core's list (the regulator core
	# its class device, xe an upstream bridge with no driver): the device
	# stays on the list and is resumed as any other (pm=late).  The sync
	# x is one, with the async child c; the walk is busy with the slow
	# sync w when b, their parent, is done.  c must resume after x, as
	# mainline resumes it (the walk reaches c after it has run x), not
	# when b is done, as if x took no part in PM.
	topo_from "b resume=1000\nw async=0 resume=100000\n"\
"x parent=b pm=late async=0 resume=1000\nc parent=x resume=1000\n"
	cycle_case none "contract: a child of a sync device marked no-PM after"\
" it was added resumes after it"

	# The same with the async x and a slow unrelated root s: x must start
	# when b is done, not when the phase ends, and c must resume after x
	# (mainline starts x when b is done, but waits for no device marked
	# no-PM, so c resumes beside x, and b suspends late beside x).
	topo_from "b resume=1000\ns resume=200000\n"\
"x parent=b pm=late resume=20000\nc parent=x resume=1000\n"
	cycle_case no_pm_late "contract: an async device marked no-PM after it"\
" was added starts with its parent, its child after it" \
		started_by x resume s resume

	# device_move() with an order puts a device behind the walk: n is
	# moved under p during the sync z's suspend, with p placed before n
	# (DPM_ORDER_PARENT_BEFORE_DEV), where the walk has been already; p's
	# child q2 then fails.  The phase must still end, p suspended or
	# skipped for the error, everything back.
	topo_from "pp\np parent=pp\nq1 parent=p\nq2 parent=p suspend=800000 fail=suspend\n"\
"z async=0 suspend=400000\nn\n"
	err=1
	WINDOW=0
	if load "$TMP/in.topo" && echo "150000 n move=p:before" >$LAB/churn; then
		err=0
		if cycle freeze; then
			ktap_print_msg "the transition succeeded despite q2 failing"
			err=1
		fi
		cat $LAB/topology >"$TMP/topo"
		check_report "prepare complete" "$DEV_PHASES" q2 suspend &&
			churn_done && churn_within n suspend z suspend || err=1
		echo none >$LAB/churn
		good_cycle freeze && check_report "$SUSPEND_ALL" "" || err=1
	fi
	fix_result none $err "contract: a device moved behind the walk"\
" (DPM_ORDER_PARENT_BEFORE_DEV) in a failed suspend"

	# A device removed or a link deleted while a suspend phase is being
	# set up: the leaf l is started then, and as its callback starts the
	# churn thread makes the change, after the setup counted the device
	# or link.  The superior must start when the walk would reach it, not
	# at the end of the phase, behind the slow sync s0 at the list's
	# start.  The sync fillers make the setup long enough for l's worker
	# and the churn thread to come in.
	topo_from "s0 async=0 suspend=150000\np suspend=1000\n$(fillers)\n"\
"c parent=p async=0\nz async=0 suspend=1000\nl suspend=20000\n"
	setup_window_case "0@l:suspend c" suspend z p s0 \
		"contract: a sync child removed while suspend is set up starts"\
" its parent"
	topo_from "s0 async=0 suspend=150000\ny suspend=1000\n$(fillers)\n"\
"x suppliers=y suspend=50000\nz async=0 suspend=1000\nl suspend=20000\n"
	setup_window_case "0@l:suspend x unlink=y" suspend z y s0 \
		"contract: a link deleted while suspend is set up starts its"\
" supplier"
	topo_from "s0 async=0 suspend_late=150000\ny suspend_late=1000\n"\
"$(fillers)\nx suppliers=y suspend_late=50000\n"\
"z async=0 suspend_late=1000\nl suspend_late=20000\n"
	setup_window_case "0@l:suspend_late x unlink=y" suspend_late z y s0 \
		"contract: a link deleted while suspend_late is set up starts its"\
" supplier"

	# A supplier with a driver removed during resume, 5 ms into the resume
	# of its parent r: its driver unbinds first, which turns its managed
	# link to the unbound consumer c dormant before the PM core hears of
	# the removal.  c, counted on s when the phase started, must start
	# then (mainline: when the walk reaches it), not when the phase ends
	# behind the slow sync z.
	topo_from "r resume=20000\ns parent=r driver=1\nc driver=0 managed=s\n"\
"z async=0 resume=150000\n"
	err=1
	WINDOW=0
	if load "$TMP/in.topo" && echo "5000@r:resume s" >$LAB/churn; then
		err=0
		removed_cycle s
		rc=$?
		[ $rc = 0 ] || err=1
		if [ $rc != 2 ]; then
			# The removal came within r's resume.
			[ -z "$CHURN_START" ] || chk within r resume start \
				r resume end "$CHURN_START" "$CHURN_START" || WINDOW=1
			started_by c resume z resume || err=1
		fi
		echo none >$LAB/churn
	fi
	fix_result none $err "contract: a supplier removed during resume starts"\
" its consumer, whose link its driver's unbinding made dormant"

	# r, with 1,100 consumers through managed links that are dormant (no
	# driver on r), is removed during resume, while their parent p still
	# waits for the slow sync s.  The links were never counted: dropping
	# them anyway started every consumer early, 1,024 workers (the pm_async
	# workqueue's max_active) slept on p and p's own work never ran (the
	# series, before it marked each link it counted, hung here).
	{
		printf "s async=0 resume=20000\np suppliers=s\nr driver=0\n"
		awk 'BEGIN { for (i = 0; i < 1100; i++) printf "c%d parent=p managed=r\n", i }'
	} >"$TMP/in.topo"
	err=1
	if load "$TMP/in.topo" && echo "0@s:resume r" >$LAB/churn; then
		err=0
		removed_cycle r || err=1
		echo none >$LAB/churn
	fi
	fix_result none $err "contract: a device with 1,100 dormant consumers"\
" under a deferred parent, removed during resume"

	# Eight async devices whose callbacks busy-wait (mdelay(), as an ACPI
	# Stall() or a polling loop does), all started upfront: with two CPUs
	# or more, some run side by side, as on mainline's unbound workqueue.
	# A workqueue that keeps them on one CPU runs them one after another
	# (each holds up the next until it is done).  Checked in suspend and
	# resume of three transitions: in each phase one callback starts
	# before another one ends.
	if [ "$(grep -c '^processor' /proc/cpuinfo)" -ge 2 ]; then
		: >"$TMP/in.topo"
		for i in 1 2 3 4 5 6 7 8; do
			echo "b$i busy=1 suspend=4000 resume=4000" >>"$TMP/in.topo"
		done
		err=1
		if load "$TMP/in.topo"; then
			err=0
			for i in 1 2 3; do
				good_cycle freeze || { err=1; break; }
				check_report "$SUSPEND_ALL" "" || err=1
				busy_overlap suspend && busy_overlap resume || err=1
			done
		fi
		result $err "contract: async devices that busy-wait run side by side"
	else
		ktap_test_skip "contract: async devices that busy-wait run side by"\
" side: one CPU"
	fi

	# More devices started by waiters than the workqueue runs at once
	# (1,024 workers per node by default): each waiter of kick_chains()
	# starts the far end of its chain, whose worker would start the next
	# device and wait for it, and so on down every chain while z holds the
	# walk, 2,112 workers in all, with the chains' near ends queued behind
	# the workers that wait for them.  Mainline queues no device before
	# the devices it waits for, and finishes (13 s in QEMU, in suspend).
	# Every phase must end, also when a device fails meanwhile.
	kick_chains suspend >"$TMP/in.topo"
	cycle_case none "contract: waiters start 64 chains of 32 devices, more"\
" than the workqueue runs at once, in suspend"
	kick_chains resume >"$TMP/in.topo"
	cycle_case none "contract: waiters start 64 chains of 32 devices, more"\
" than the workqueue runs at once, in resume"
	kick_chains suspend fail >"$TMP/in.topo"
	err=1
	load "$TMP/in.topo" && failed_cycle f suspend && err=0
	result $err "contract: waiters start 64 chains of 32 devices, more"\
" than the workqueue runs at once, in a failed suspend"
}

# ---------------------------------------------------------------------------
# 4b. hidden dependencies (hidden=): the failure pm-async-measure --bisect
# looks for.  ts needs gpio0 still active at the end of its suspend
# callback; nothing tells the PM core.

NR_HIDDEN=8

# hidden_cycles N MODE: N freeze transitions with pm_async=MODE; prints how
# many failed with ts's suspend returning -11 (any other failure: "x").
hidden_cycles()
{
	set_pm_async "$2"
	h_fail=0
	h_i=0
	while [ $h_i -lt "$1" ]; do
		h_i=$((h_i + 1))
		cycle freeze && continue
		if has name=ts phase=suspend result=-11; then
			h_fail=$((h_fail + 1))
		else
			echo x
			return
		fi
	done
	echo $h_fail
}

# hidden_topo P [SUSPEND_EXTRA]: gpio0, two fillers and ts, which needs
# gpio0 (chance P%); ts is slower than gpio0, so async it always ends last.
hidden_topo()
{
	topo_from "gpio0 suspend=500 resume=500\n"\
"f1 suspend=2000 resume=500\n"\
"f2 suspend=1000 resume=500\n"\
"ts suspend=20000 resume=500 hidden=suspend:gpio0${2:-}@$1\n"
	load "$TMP/in.topo"
}

# hidden_pattern SEED: load ts with a 50% hidden failure, write SEED to the
# lab's draws file and run 8 async freeze transitions; prints which failed
# with ts's -11 (1) and which succeeded (0), "x" for any other outcome.
hidden_pattern()
{
	hidden_topo 50 || { echo x; return; }
	echo "$1" >$LAB/draws || { echo x; return; }
	set_pm_async 1
	h_pat=""
	for h_i in 1 2 3 4 5 6 7 8; do
		if cycle freeze; then
			h_pat="${h_pat}0"
		elif has name=ts phase=suspend result=-11; then
			h_pat="${h_pat}1"
		else
			h_pat="${h_pat}x"
		fi
	done
	echo 0 >$LAB/draws
	echo "$h_pat"
}

# The time of ts's suspend callback in the last report, in ms.
ts_suspend_ms()
{
	set -- $(chk select name=ts phase=suspend : dur)
	[ $# = 0 ] || echo $(($1 / 1000000))
}

test_hidden()
{
	err=1
	# Up to 3 transitions: in the first one after the load, gpio0's
	# worker may come in only after ts's check on a loaded host (stock
	# failed 0 of 1 once, beside a soak); at least one must fail.
	if hidden_topo 100; then
		n1=$(hidden_cycles 3 1)
		log=$(dmesg | grep -E "pm_async_test ts: (PM: failed to suspend async: error -11|$(:
			)suspend: command failed: -11)" | tail -n 2)
		[ "$n1" != x ] && [ "$n1" -ge 1 ] &&
			[ "$(echo "$log" | grep -c .)" = 2 ] && check_state && err=0
		[ $err = 0 ] || ktap_print_msg "failed async: $n1 of 3; log: $log"
	fi
	result $err "hidden: async, ts fails with -EAGAIN (driver message and"\
" 'ts: PM: failed to suspend async: error -11'), devices back"

	n0=$(hidden_cycles 3 0)
	[ "$n0" = 0 ] && check_state
	result $? "hidden: pm_async=0 never fails (the list order keeps ts"\
" before gpio0; $n0 of 3 failed)"

	err=0
	echo disabled >$BUS/ts/power/async
	nt=$(hidden_cycles 2 1)
	echo enabled >$BUS/ts/power/async
	echo disabled >$BUS/gpio0/power/async
	ng=$(hidden_cycles 2 1)
	echo disabled >$BUS/ts/power/async
	nb=$(hidden_cycles 3 1)
	echo enabled >$BUS/ts/power/async
	echo enabled >$BUS/gpio0/power/async
	if [ "$nt $ng $nb" != "2 2 0" ]; then
		ktap_print_msg "failed: ts sync $nt/2, gpio0 sync $ng/2, both $nb/3"
		err=1
	fi
	result $err "hidden: ts sync alone or gpio0 sync alone still fails, both sync never fail"

	err=1
	if hidden_topo 0; then
		p0=$(hidden_cycles 5 1)
		# @100: as in the first case, ts's check may come before
		# gpio0's worker on a loaded host; at least one must fail.
		hidden_topo 100 && p100=$(hidden_cycles 3 1) && [ "$p0" = 0 ] &&
			[ "$p100" != x ] && [ "$p100" -ge 1 ] && err=0
		[ $err = 0 ] || ktap_print_msg "failed: @0 ${p0:-?}/5, @100 ${p100:-?}/3"
	fi
	result $err "hidden: chance @0 never fails (5 async cycles), @100 does (3)"

	# With a seed in draws, the chances are drawn from the seed, the
	# device and its transition count: the same seed twice on a fresh
	# topology gives the same failures, cycle by cycle (what lets the
	# differential campaign run the same scenario on two kernels), and
	# other seeds give other ones (8 cycles: two equal patterns by chance
	# one time in 256 per seed).
	pa=$(hidden_pattern 7)
	pb=$(hidden_pattern 7)
	pc=$(hidden_pattern 8)
	pd=$(hidden_pattern 9)
	err=0
	case "$pa$pb$pc$pd" in
	*x*) err=1 ;;
	esac
	[ "$pa" = "$pb" ] || err=1
	[ "$pa" = "$pc" ] && [ "$pa" = "$pd" ] && err=1
	[ $err = 0 ] || ktap_print_msg "draws 7: $pa and $pb, 8: $pc, 9: $pd"
	result $err "hidden: draws=SEED: @50 fails in the same cycles with the"\
" same seed on a fresh topology, not with two other seeds"

	err=1
	if hidden_topo 100 ":slow=200000"; then
		set_pm_async 1
		cycle freeze && d1=$(ts_suspend_ms)
		set_pm_async 0
		cycle freeze && d0=$(ts_suspend_ms)
		# The hidden wait adds ten times ts's own 20 ms: async, ts
		# takes more than three times its pm_async=0 time of the
		# same run (TCG stretches sleeps, so no configured time).
		[ -n "${d0:-}" ] && [ -n "${d1:-}" ] && [ "$d0" -gt 0 ] &&
			[ "$d1" -gt $((3 * d0)) ] && err=0
		[ $err = 0 ] || ktap_print_msg "ts suspend: async ${d1:-?} ms, sync ${d0:-?} ms"
	fi
	result $err "hidden: slow=200000: async ts suspend succeeds after"\
" waiting, more than 3x its pm_async=0 time"

	err=1
	topo_from "gpio0 suspend=500 resume=20000\nts suspend=500 resume=500 hidden=resume:gpio0\n"
	if load "$TMP/in.topo"; then
		set_pm_async 1
		cycle freeze && has name=ts phase=resume result=-11 &&
			set_pm_async 0 && cycle freeze &&
			has name=ts phase=resume result=0 &&
			check_state && err=0
	fi
	result $err "hidden: resume side: async ts resume returns -11 before"\
" gpio0 is back, pm_async=0 0; the transitions succeed"
	set_pm_async 1

	err=0
	topo_from "gpio0\nts hidden=suspend_noirq:gpio0:5@50%\n"\
"f1 hidden=resume_early:gpio0:slow=100\n"
	if load "$TMP/in.topo"; then
		grep -q "^ts .* hidden=suspend_noirq:gpio0:-5@50$" "$TMP/topo" &&
			grep -q "^f1 .* hidden=resume_early:gpio0:slow=100$" "$TMP/topo" || {
			ktap_print_msg "read back: $(grep hidden "$TMP/topo" | tr '\n' '|')"
			err=1
		}
		for bad in "x hidden=suspend:late\nlate" "x hidden=prepare:gpio0" \
			"x hidden=suspend:gpio0@101" "x hidden=suspend:gpio0:0" \
			"x hidden=suspend:gpio0:slow=0" "x hidden=suspend:x" \
			"x hidden=suspend" "x hidden=suspend:gpio0:abc"; do
			topo_from "$bad\n"
			if write_topo "$TMP/in.topo"; then
				ktap_print_msg "accepted: $bad"
				err=1
			fi
		done
		cmp -s $LAB/topology "$TMP/topo" ||
			{ ktap_print_msg "topology changed"; err=1; }
	else
		err=1
	fi
	result $err "hidden: PHASE:NAME[:ERRNO|:slow=US][@P%] read back; a later,"\
" unknown or own device, prepare, @101, errno 0, slow=0 rejected"
}

# ---------------------------------------------------------------------------
# 5. bad input, round trip, failure arming: pm_async_input (C,
# kselftest_harness.h), one case here, its results a subtest (leaves).

test_input()
{
	"$DIR/pm_async_input" >"$TMP/input.tap" 2>&1
	err=$?
	sed 's/^/    /' "$TMP/input.tap"
	result $err "input: the lab's control files refuse bad writes and"\
" read back what they accept (pm_async_input)"
}

# ---------------------------------------------------------------------------
# 6. random topologies

test_random()
{
	set_pm_async 1
	for seed in $SEEDS; do
		err=1
		if "$DIR/pm_async_gen" "$seed" "$NDEV" >"$TMP/gen.topo" &&
		   load "$TMP/gen.topo"; then
			err=0
			grep -v '^#' "$TMP/gen.topo" | cmp -s - "$TMP/topo" ||
				{ ktap_print_msg "read-back differs from the input"; err=1; }
			c=0
			while [ $err = 0 ] && [ $c -lt "$CYCLES" ]; do
				c=$((c + 1))
				if good_cycle freeze && check_report "$SUSPEND_ALL" "" &&
				   check_state; then
					ktap_print_msg "seed $seed cycle $c: $(spans)"
				else
					err=1
				fi
			done
		fi
		result $err "random: pm_async_gen $seed $NDEV, pm_async=1, $CYCLES cycles"
	done
}

# ---------------------------------------------------------------------------
# 7. a large topology

uptime_ms()
{
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

test_big()
{
	if [ "$BIG" = 0 ]; then
		ktap_test_skip "load: PM_ASYNC_BIG=0"
		return
	fi
	err=1
	echo clear >$LAB/topology
	if "$DIR/pm_async_gen" 1 "$BIG" >"$TMP/gen.topo"; then
		t0=$(uptime_ms)
		if write_topo "$TMP/gen.topo"; then
			t1=$(uptime_ms)
			cat $LAB/topology >"$TMP/topo"
			n=$(wc -l <$LAB/state)
			t2=$(uptime_ms)
			echo clear >$LAB/topology
			t3=$(uptime_ms)
			ktap_print_msg "$BIG devices: load $((t1 - t0)) ms," \
				"read back $((t2 - t1)) ms, clear $((t3 - t2)) ms"
			err=0
			grep -v '^#' "$TMP/gen.topo" | cmp -s - "$TMP/topo" ||
				{ ktap_print_msg "read-back differs from the input"; err=1; }
			[ "$n" = "$BIG" ] ||
				{ ktap_print_msg "state has $n lines"; err=1; }
			[ "$(ls $BUS | wc -l)" = 0 ] ||
				{ ktap_print_msg "clear left devices"; err=1; }
		else
			sed 's/^/# /' "$TMP/dd.err"
		fi
	fi
	result $err "load: $BIG devices in one write, read back and cleared"
}

# ---------------------------------------------------------------------------
# 9. unload

test_unload()
{
	if [ ! -e /sys/module/$MOD/initstate ]; then
		ktap_test_skip "unload: $MOD is built in"
		return
	fi
	err=1
	if load "$DIR/profiles/phone.topo" && rmmod $MOD; then
		err=0
		[ -d $BUS ] && { ktap_print_msg "bus still present"; err=1; }
		# Again with a driver bound to every device.
		if insmod_lab bind_driver=1 && load "$DIR/profiles/laptop.topo"; then
			for d in $(ls $BUS); do
				[ -e "$BUS/$d/driver" ] ||
					{ ktap_print_msg "$d has no driver"; err=1; break; }
			done
			echo clear >$LAB/topology
			[ -z "$(ls $BUS)" ] ||
				{ ktap_print_msg "clear left devices"; err=1; }
			rmmod $MOD || err=1
		else
			ktap_print_msg "cannot load $MOD with bind_driver=1"
			err=1
		fi
		insmod_lab || { ktap_print_msg "cannot load $MOD again"; err=1; }
		grep -qs N /sys/module/$MOD/taint ||
			{ ktap_print_msg "$MOD is not marked as a test module (taint N)"; err=1; }
	fi
	result $err "unload: rmmod with devices and links present;"\
" with bind_driver=1 every device has a driver; a test module (taint N)"
}

# ---------------------------------------------------------------------------

ktap_print_header

# Every transition suspends all devices of this machine up to the platform
# (pm_test=platform), real ones included, with user space frozen: only
# when asked.
[ "${PM_ASYNC_SUSPEND:-0}" = 1 ] ||
	skip_all "suspends every device of this machine (pm_test=platform):"\
" set PM_ASYNC_SUSPEND=1 to run"
[ "$(id -u)" = 0 ] || skip_all "must be run as root"
if [ ! -d /sys/kernel/debug/tracing ] && [ -z "$(ls /sys/kernel/debug 2>/dev/null)" ]; then
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
fi
if ! grep -qs debugfs /proc/mounts; then
	print_config
	skip_all "debugfs is not available"
fi
if [ ! -f $PWR/pm_test ]; then
	print_config
	skip_all "no $PWR/pm_test (CONFIG_PM_DEBUG)"
fi
grep -qw freeze $PWR/state || skip_all "suspend-to-idle ('freeze') not in $PWR/state"
if ! load_module; then
	print_config
	skip_all "module $MOD is not available"
fi
command -v awk >/dev/null && command -v dd >/dev/null && command -v cmp >/dev/null ||
	skip_all "awk, dd and cmp are needed"
for prog in pm_async_check pm_async_input pm_async_sleep; do
	[ -x "$DIR/$prog" ] || skip_all "no $DIR/$prog: build the test first"
done

TMP=$(mktemp -d) || skip_all "mktemp failed"
saved_pm_test=$(current $PWR/pm_test)
saved_pm_async=$(cat $PWR/pm_async)
[ -f $DELAY ] && saved_delay=$(cat $DELAY)
trap cleanup EXIT
trap 'exit 130' INT TERM

echo platform >$PWR/pm_test
[ -f $DELAY ] && echo 0 >$DELAY
echo clear >$LAB/topology

# shellcheck disable=SC2086 # word counts
nseeds=$(echo $SEEDS | wc -w)
# shellcheck disable=SC2086
nprof=$(echo $PROFILES | wc -w)
ktap_set_plan $((1 + 2 * nprof + 2 + NR_DRIVERS + 1 + NR_FIXES +
	NR_CONTRACT + 1 + nseeds + 2 + NR_HIDDEN))

test_sleep
test_ordering
test_no_pm
test_drivers
test_stock_order
test_fixes
test_contract
test_hidden
test_input
test_random
test_big
test_unload

ktap_finished

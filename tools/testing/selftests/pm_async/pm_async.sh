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
# Cases (one KTAP result each; a C program's is a subtest of its own
# results, kselftest_harness.h on pm_async_case.h):
#  1. sleep (pm_async_sleep.c): power/async of each device follows async=;
#     a device switched to sync runs in the PM task, one switched to async
#     in a worker; /sys/power/pm_async=0 runs everything in the PM task;
#     sync and async devices mixed (order and where each ran); a one-shot
#     -EIO in each suspend phase with pm_async 0 and 1 (the transition
#     fails, every device comes back, the next one succeeds), also of a
#     device's only child while a waiter waits for it before the walk
#     reaches it; hibernation ("disk" with pm_test=platform).
#  2. ordering: every profile (profiles/, and chain, wide and zero, which
#     pm_async_gen prints) with pm_async 0 and 1, each for PM_ASYNC_CYCLES
#     cycles: the transition succeeds, the report has no
#     violation and one line per device for each of the 8 callbacks, every
#     device ends active with runtime PM as before.
#  3. drivers (pm_async_drivers.c): devices whose child, consumer or parent
#     takes no part in PM start at once; driver binding and managed,
#     dormant and SYNC_STATE_ONLY links; device_pm_wait_for_dev();
#     direct_complete, smart suspend and may-skip-resume devices skip
#     exactly what the PM core may skip; jitter; churn (device_move(), a
#     link deleted) during a transition; pm_async=0 is stock order.
#  4. fixes (pm_async_fixes.c): mainline's engine under real-driver
#     hazards, each case in the group of the fix it needs ("[GROUP]" in an
#     expected failure's reason).  On a kernel without the fixes, such as
#     mainline 7.3, PM_ASYNC_XFAIL names the groups whose cases must fail
#     (XFAIL) and PM_ASYNC_SKIP those that would hang it (move_during).
#  5. contract (pm_async_contract.c): where mainline 7.3 finishes, so must
#     the engine (waiters of short async devices, waits before the walk,
#     failed transitions with waiters, devices removed, moved or unlinked
#     mid-phase, failslab); async devices run in workers, leaves and roots
#     start upfront.
#  6. hidden (pm_async_hidden.c): a hidden dependency (hidden=) fails
#     async and not sync, reproducibly from the lab's draws.
#  7. input (pm_async_input.c): each kind of malformed topology is rejected
#     and creates nothing; good ones survive a round trip; fail= and the
#     fail file arm and disarm failures; churn triggers read back.
#  8. random: pm_async_gen topologies (seeds PM_ASYNC_SEEDS) with
#     pm_async=1; the seed is in the test name, so a failure replays with
#     "pm_async_gen SEED NDEV".
#  9. load: PM_ASYNC_BIG devices (default 10000) in one write, read back
#     and removed.
# 10. unload: rmmod with devices and links present; load again with
#     bind_driver=1, which binds a driver to every device.
#
# Environment:
#   PM_ASYNC_SUSPEND=1   run at all: without it the test skips, as every
#                        transition suspends the machine's real devices
#                        too (pm_test=platform, user space frozen)
#   PM_ASYNC_CYCLES=N    cycles per profile and mode in case 2 (default 2)
#   PM_ASYNC_QUICK=1     one cycle per profile and mode
#   PM_ASYNC_SEEDS="..." seeds for case 8 (default "1 2 3")
#   PM_ASYNC_NDEV=N      devices per random topology (default 200)
#   PM_ASYNC_BIG=N       devices for case 9 (default 10000, 0 skips it)
#   PM_ASYNC_KO=FILE     module to insmod when modprobe cannot load it
#   PM_ASYNC_SKIP="..."  groups of cases to skip (see 4): a kernel
#                        without a fix whose case would hang it
#   PM_ASYNC_XFAIL="..." groups of cases that must fail (see 4): a kernel
#                        without their fixes
#
# Runs as root under busybox ash as well as under the kselftest runner.
# Every knob it changes is put back on exit.

DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/../kselftest/ktap_helpers.sh"

LAB=/sys/kernel/debug/pm_async_test
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

SUSPEND_ALL="prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete"

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

cleanup()
{
	rc=$?
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
# 1, 3-7. The cases in C (kselftest_harness.h, pm_async_case.h): one case
# here per program, its results a subtest (leaves).

# c_cases PROG DESC: run PROG's cases, their lines indented as they come
# (a subtest), and the case DESC, which fails when PROG does.
c_cases()
{
	{ "$DIR/$1" 2>&1; echo $? >"$TMP/$1.rc"; } |
		while IFS= read -r line; do echo "    $line"; done
	result "$(cat "$TMP/$1.rc")" "$2 ($1)"
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
# 8. random topologies

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
# 9. a large topology

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
# 10. unload

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
for prog in pm_async_check pm_async_sleep pm_async_drivers pm_async_fixes \
	pm_async_contract pm_async_hidden pm_async_input; do
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
ktap_set_plan $((2 * nprof + 6 + nseeds + 2))

c_cases pm_async_sleep "sleep: the async knobs in sysfs, sync and async"\
" devices mixed, failures, hibernation"
test_ordering
c_cases pm_async_drivers "drivers: no-PM dependencies, drivers and links,"\
" waits, skipped callbacks, churn, stock order with pm_async=0"
c_cases pm_async_fixes "fixes: mainline's engine under real-driver hazards"
c_cases pm_async_contract "contract: where mainline finishes, so does the engine"
c_cases pm_async_hidden "hidden: a hidden dependency fails async, not sync"
c_cases pm_async_input "input: malformed topologies, round trips, arming"
test_random
test_big
test_unload

ktap_finished

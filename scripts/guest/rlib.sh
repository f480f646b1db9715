# SPDX-License-Identifier: GPL-2.0
# pm-async: helpers of the reliability campaigns (faults.sh, fuzz.sh,
# churn.sh, soak.sh), sourced by them in the guest (busybox ash).
#
# Every transition goes through rl_cycle, which
#  - guards it with two watchdogs: the lab's (debugfs "watchdog": a hang
#    while user space is frozen, i.e. in the device phases, prints the
#    blocked tasks' stacks and warns; the host stops the guest and counts it) and a shell
#    one (a write that has not returned after RL_TIMEOUT seconds while user
#    space runs: "echo w" to sysrq, counted as a hang);
#  - scans the kernel log lines of the transition for sanitizer reports
#    (KCSAN, KASAN; those whose stack is in drivers/base/power or the lab
#    counted apart), warnings, lockdep reports and hung tasks.
# The checks after it (rl_check_*) count violations and bad outcomes.
# Results are TAP lines (tap.sh's tap_result and tap_skip), after the
# plan if the script knows it beforehand (rl_plan: a guest that dies then
# leaves the stream short of it), and a final summary line (rl_summary,
# which prints the plan if rl_plan did not):
#   # SUMMARY campaign=NAME cycles=N callbacks=N points=N faults=N
#     violations=N hangs=N sanitizer=N sanitizer_pm=N kernel_reports=N bad=N
#     skipped=N
# callbacks: device phase callbacks that ran (devices x phases exercised);
# points: distinct device x phase fault points (faults.sh).

. /pma/difflib.sh
. /pma/tap.sh

LAB=/sys/kernel/debug/pm_async_test
RPT=$LAB/report
BUS=/sys/bus/pm_async_test/devices
PROFILES=/kselftest/pm_async/profiles
GEN=/kselftest/pm_async/pm_async_gen
CHECK=/kselftest/pm_async/pm_async_check
RL_TIMEOUT=${RL_TIMEOUT:-300}
SUSPEND_ALL="prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete"

T=""
CYCLES=0 CALLBACKS=0 POINTS=0 FAULTS=0 VIOL=0 HANGS=0
SANI=0 SANI_PM=0 KREP=0
MARK=0
DOG=""

# Seconds since boot, without a fork.
rl_now()
{
	read -r up _ </proc/uptime
	echo "${up%.*}"
}
rl_now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# Deterministic pseudo-random numbers from a seed: rl_rand SEED SALT MOD.
rl_rand()
{
	awk -v s="$1" -v t="$2" -v m="$3" 'BEGIN { srand(s * 7919 + t); printf "%d\n", int(rand() * m) }'
}

# xfail GROUP: $PM_ASYNC_XFAIL names GROUP, a case known to fail (or hang)
# on this kernel (see tools/testing/selftests/pm_async/pm_async.sh).
xfail()
{
	case " ${PM_ASYNC_XFAIL:-} " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# rl_plan N: the plan, before the first result.
RL_PLANNED=0
rl_plan()
{
	RL_PLANNED=1
	echo "1..$1"
}

# rl_kmemleak_scan: scan for leaks twice (an object is reported once it has
# stayed unreferenced over a scan), set KML_N to the number of unreferenced
# objects and, if any, print the start of the list as comments.  Needs a
# kernel with kmemleak ($RL_KML writable).  A scan that fails (kmemleak
# disabled itself, or was turned off: the write returns an error) proves
# nothing: the status is 1 and KML_N is "none", never 0.
RL_KML=/sys/kernel/debug/kmemleak
rl_kmemleak_scan()
{
	KML_N=none
	if ! echo scan 2>"${T:-/tmp}/kml.err" >$RL_KML || ! { sleep 5; echo scan 2>"${T:-/tmp}/kml.err" >$RL_KML; }; then
		echo "# kmemleak scan failed: $(cat "${T:-/tmp}/kml.err")"
		dmesg | grep -i 'kmemleak' | tail -n 5 | sed 's/^/#   /'
		return 1
	fi
	KML_N=$(grep -c '^unreferenced object' $RL_KML)
	[ "$KML_N" = 0 ] || head -n 80 $RL_KML | sed 's/^/#   /'
}

rl_summary()
{
	[ $RL_PLANNED = 1 ] || echo "1..$N_TEST"
	echo "# SUMMARY campaign=$1 cycles=$CYCLES callbacks=$CALLBACKS points=$POINTS faults=$FAULTS violations=$VIOL hangs=$HANGS sanitizer=$SANI sanitizer_pm=$SANI_PM kernel_reports=$KREP bad=$BAD skipped=$SKIPS"
}

# The shell watchdog: one process for the whole campaign.  It only runs
# while user space is not frozen; the lab's watchdog covers the rest.
rl_watchdog()
{
	while [ -d "$T" ]; do
		sleep 5
		[ -s "$T/busy" ] || continue
		read -r t0 n <"$T/busy" 2>/dev/null || continue
		[ -n "$n" ] && [ ! -e "$T/hung.$n" ] || continue
		now=$(rl_now)
		[ $((now - t0)) -gt "$RL_TIMEOUT" ] || continue
		: >"$T/hung.$n"
		echo "# watchdog: transition $n has not returned after $((now - t0)) s; blocked tasks:"
		if [ -w /proc/sysrq-trigger ]; then
			echo w >/proc/sysrq-trigger
			dmesg | sed -n '/sysrq: Show Blocked State/,$p' | tail -n 300 | sed 's/^/#   /'
		else
			dmesg | tail -n 60 | sed 's/^/#   /'
		fi
	done
}

rl_init()
{
	T=$(mktemp -d /tmp/rl.XXXXXX) || exit 1
	if [ ! -d $LAB ]; then
		modprobe pm_async_test || { echo "Bail out! cannot load pm_async_test"; exit 1; }
	fi
	echo platform >/sys/power/pm_test
	[ -w /sys/module/suspend/parameters/pm_test_delay ] &&
		echo 0 >/sys/module/suspend/parameters/pm_test_delay
	echo 1 >/sys/power/pm_async
	echo none >$LAB/churn
	echo $((RL_TIMEOUT + 30)) >$LAB/watchdog
	rl_watchdog &
	DOG=$!
}

rl_fini()
{
	echo 0 >$LAB/watchdog
	echo 1 >/sys/power/pm_async
	echo clear >$LAB/topology
	d=$T
	T=""
	rm -rf "$d"
	[ -n "$DOG" ] && kill "$DOG" 2>/dev/null
}

# rl_load FILE: replace the lab's devices; keep the topology and the state.
rl_load()
{
	echo clear >$LAB/topology
	if ! dd if="$1" of=$LAB/topology bs=4M 2>"$T/dd.err"; then
		echo "# cannot load $1:"
		dmesg | grep 'pm_async_test:' | tail -n 3 | sed 's/^/#   /'
		return 1
	fi
	cat $LAB/topology >"$T/topo"
	cat $LAB/state >"$T/state.base"
}

# Mark the kernel log before a transition; the mark names this campaign's
# temporary directory, so campaigns run one after the other in a boot never
# see each other's marks.
rl_mark()
{
	MARK=$((MARK + 1))
	echo "pma-mark $T $MARK" >/dev/kmsg
}

# Count the sanitizer reports and other kernel problems of the transition
# (one pass over the kernel log from the mark on; the lines go to $T/klog
# only when there is something to show).
rl_scan()
{
	set -- $(dmesg | awk -v mark="pma-mark $T $MARK" -v klog="$T/klog" '
	!on { if (substr($0, length($0) - length(mark) + 1) == mark) on = 1; next }
	{ line[++nl] = $0 }
	function flush() {
		if (!inrep) return
		san++
		if (pm) sanpm++
		inrep = 0
	}
	/BUG: (KCSAN|KASAN)/ { flush(); inrep = 1; pm = 0 }
	inrep && /drivers\/base\/power|dpm_|device_(suspend|resume)|async_(suspend|resume)|pm_async|pat_/ { pm = 1 }
	inrep && /==========/ { flush(); next }
	/BUG: (KCSAN|KASAN)/ { next }
	!inrep && /WARNING:|BUG:|INFO: task .* blocked|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage/ { other++ }
	END {
		flush()
		if (san + other)
			for (i = 1; i <= nl; i++) print line[i] > klog
		printf "%d %d %d\n", san, sanpm, other
	}')
	SANI=$((SANI + $1))
	SANI_PM=$((SANI_PM + $2))
	KREP=$((KREP + $3))
	if [ "$1" != 0 ] || [ "$3" != 0 ]; then
		echo "# kernel reports in this transition ($1 sanitizer, $2 of them in PM code, $3 other):"
		grep -E -A30 'BUG:|WARNING:|INFO: task|locking|lock state|RCU usage' "$T/klog" | head -n 80 | sed 's/^/#   /'
		return 1
	fi
	return 0
}

# rl_cycle STATE: one transition under the watchdogs.  The status is that of
# the write; the lab's report ($RPT) stays until the next transition.  Returns 2 on a hang
# that ended, 3 on kernel reports (with the write's status lost).
rl_cycle()
{
	CYCLES=$((CYCLES + 1))
	rl_mark
	echo "$(rl_now) $CYCLES" >"$T/busy"
	rc=0
	echo "$1" 2>"$T/err" >/sys/power/state || rc=1
	: >"$T/busy"
	if [ -e "$T/hung.$CYCLES" ]; then
		HANGS=$((HANGS + 1))
		rc=2
	fi
	rl_scan || KERNEL_BAD=1
	return $rc
}

# The lab's violations of the order between a device and the devices
# below its no-PM child or consumer, or the ancestor above its no-PM
# parent: expected on a kernel without "PM: sleep: Wait for the devices
# below a device that takes no part in PM" (PM_ASYNC_XFAIL=no_pm_below).
RL_NOPM_RE=' below the no-PM (child|consumer) is |: ancestor [^ ]+ is '

# rl_viol_unexpected REPORT: the violations of REPORT that this kernel is
# not expected to have (all of them unless PM_ASYNC_XFAIL=no_pm_below, see
# RL_NOPM_RE; a report lists at most 64).
rl_viol_unexpected()
{
	set -- "$1" ""
	xfail no_pm_below && set -- "$1" "$RL_NOPM_RE"
	[ "${RL_NOMEM:-0}" = 0 ] ||
		set -- "$1" "${2:+$2|} async callback runs in the PM task\$"
	set -- $("$CHECK" "$1" violations ${2:+"$2"})
	# No count at all (a report cut short) is left to the caller.
	[ "${1:--1}" -ge 0 ] && echo "$1" || echo 0
}

# rl_nomem PERCENT [all]: fail that share of the GFP_ATOMIC slab
# allocations of the tasks the lab marks for fault injection (its
# device_pm_wait_for_dev() calls and its churn thread), or with "all" of
# every task (the PM task's and the workers' starts too), from now on; 0
# to stop; false without failslab.  While it is on (RL_NOMEM=1), an
# "async" device run in the PM task is not a violation: a device the PM
# core cannot queue runs in the context that waits for it, or in the walk,
# as on mainline.
RL_FAILSLAB=/sys/kernel/debug/failslab
rl_nomem()
{
	[ -w $RL_FAILSLAB/task-filter ] || return 1
	if [ "$1" = 0 ]; then
		echo 0 >$RL_FAILSLAB/probability
		echo 1 >$RL_FAILSLAB/times
		echo N >$RL_FAILSLAB/task-filter
		echo N >$LAB/nomem
		RL_NOMEM=0
		return 0
	fi
	echo Y >$LAB/nomem
	if [ "${2:-}" = all ]; then
		echo N >$RL_FAILSLAB/task-filter
	else
		echo Y >$RL_FAILSLAB/task-filter
	fi
	echo Y >$RL_FAILSLAB/ignore-gfp-wait
	echo 0 >$RL_FAILSLAB/verbose
	echo 0 >$RL_FAILSLAB/space
	echo 1 >$RL_FAILSLAB/interval
	echo -1 >$RL_FAILSLAB/times
	echo "$1" >$RL_FAILSLAB/probability
	RL_NOMEM=1
}

# rl_check_report good | fail: the report of the last transition, read by
# the kselftest's pm_async_check ("cycle"; it prints at most 30 messages).
#   good: every device of $T/topo has exactly one line for each callback,
#         all results 0;
#   fail: prepare and complete once each for every device, results 0
#         except the armed failures (-5), at least one -5, and every
#         resume-side callback matched by a successful suspend-side one of
#         the same level (no device resumed that had not been suspended),
#         every device that went down came back up.
# Both: no violation, except on a kernel that PM_ASYNC_XFAIL says lacks
# "PM: sleep: Wait for the devices below a device that takes no part in
# PM" (no_pm_below, mainline 7.3), where violations that are all of that
# kind (a device below a no-PM child or consumer not done yet, a no-PM
# parent's ancestor not resumed yet) are expected and named.  Adds the
# device phase callbacks to CALLBACKS and the violations to VIOL.  The
# lines of device $RL_IGNORE are not looked at.
# Devices with pm=0 have no lines; devices whose callbacks the PM core may
# skip (direct_complete=1, smart_suspend=1, may_skip_resume=1) need only
# prepare and complete, their levels are the lab's to check, and with
# direct_complete=1 prepare returns 1.
rl_check_report()
{
	# Not "rc": callers keep their transition's status in it.
	rl_crc=0
	"$CHECK" "$RPT" cycle "$1" "$T/topo" "$SUSPEND_ALL" "${RL_IGNORE:-}" \
		"$(rl_viol_unexpected "$RPT")" >"$T/msg" || rl_crc=$?
	if [ $rl_crc = 2 ]; then
		cat "$T/msg"
		return 1
	fi
	# The messages, then "CALLBACKS VIOLATIONS ERRORS".
	set -- $(tail -n 1 "$T/msg")
	sed '$d' "$T/msg"
	rm -f "$T/msg"
	CALLBACKS=$((CALLBACKS + $1))
	VIOL=$((VIOL + $2))
	[ "$3" = 0 ]
}

# rl_check_state [BASE]: every device active, runtime PM as in BASE
# (default: the state after loading).
rl_check_state()
{
	cmp -s "${1:-$T/state.base}" $LAB/state && return 0
	cat $LAB/state >"$T/state.now"
	echo "# device state differs from before the transition:"
	diff "${1:-$T/state.base}" "$T/state.now" | grep '^[-+][^-+]' | head -n 10 | sed 's/^/#   /'
	return 1
}

# rl_good_cycle: a transition that must succeed, checked.
rl_good_cycle()
{
	KERNEL_BAD=0
	if ! rl_cycle freeze; then
		echo "# the transition failed:"
		sed 's/^/#   /' "$T/err"
		"$CHECK" "$RPT" select 'result<0' : line | head -n 5 | sed 's/^/#   /'
		rl_check_report good >/dev/null
		return 1
	fi
	rl_check_report good && rl_check_state && [ $KERNEL_BAD = 0 ]
}

# rl_leaves: devices of the lab that are nobody's parent.
rl_leaves()
{
	awk '{ name[NR] = $1; for (i = 2; i <= NF; i++) if ($i ~ /^parent=/) { sub(/^parent=/, "", $i); par[$i] = 1 } }
	END { for (i = 1; i <= NR; i++) if (!par[name[i]]) print name[i] }' $LAB/topology
}

# rl_topo SPEC DST: write the topology SPEC names to DST.  SPEC is a
# profile name, a file, gen:SEED:NDEV (pm_async_gen) or haz:SEED:NDEV
# (pm_async_gen with its hazard keys).  RL_SCALE (percent,
# default 100) scales every callback time (the hibernation callbacks' own
# times, freeze= to restore=, too); 0 makes them all zero.
rl_topo()
{
	case $1 in
	gen:*)
		seed=${1#gen:}
		ndev=${seed#*:}
		seed=${seed%%:*}
		$GEN "$seed" "$ndev" >"$2.raw" || return 1
		;;
	haz:*)
		seed=${1#haz:}
		ndev=${seed#*:}
		seed=${seed%%:*}
		$GEN "$seed" "$ndev" "${HAZ_MODE:-hazards}" >"$2.raw" || return 1
		;;
	*/*) cp "$1" "$2.raw" || return 1 ;;
	*)
		# The regular profiles come from the generator.
		if [ -f "$PROFILES/$1.topo" ]; then
			cp "$PROFILES/$1.topo" "$2.raw" || return 1
		else
			$GEN profile "$1" >"$2.raw" || return 1
		fi
		;;
	esac
	topo_scale "${RL_SCALE:-100}" <"$2.raw" >"$2"
	rm -f "$2.raw"
}

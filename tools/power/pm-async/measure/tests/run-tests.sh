#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of pm-async-measure (TAP), on the host, on a fake sysfs tree
# (PM_ASYNC_SYSFS) with a fake kernel log (PM_ASYNC_DMESG, PM_ASYNC_KMSG):
# the log parsing (failing devices in every format, the cycle's part of the
# log, the phase sums, the advisor's JSON) and the restoration of every
# knob after a good run, a failed cycle and SIGINT, under each shell of
# $MEASURE_SHELLS that is installed (default: dash, bash, busybox ash).
#
#   run-tests.sh [TOOL [ADVISE]]

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOOL=${1:-$HERE/../pm-async-measure}
ADVISE=${2:-$HERE/../../pm-async-advise}
T=$(mktemp -d "${TMPDIR:-/tmp}/measure-test.XXXXXX")
if [ -n "${KEEP:-}" ]; then echo "# files kept in $T"; else trap 'rm -rf "$T"' EXIT; fi
n=0
fails=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok()
{
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n - $*"
	[ -s "$T/out" ] && sed 's/^/# /' "$T/out" | tail -n 30
}
skip() { n=$((n + 1)); echo "ok $n - $* # SKIP"; }
# check DESCRIPTION CONDITION: CONDITION is a shell command line (eval).
check()
{
	if eval "$2"; then ok "$1"; else nok "$1"; fi
}

shells=""
for s in ${MEASURE_SHELLS:-dash bash busybox}; do
	command -v "$s" >/dev/null 2>&1 || continue
	if [ "$s" = busybox ]; then shells="$shells busybox_sh"; else shells="$shells $s"; fi
done
[ -n "$shells" ] || shells=sh
busybox_sh() { busybox sh "$@"; }
has_advise=0
[ -x "$ADVISE" ] && has_advise=1
# Named on the command line (make test does), the advisor must be there:
# its checks are not skipped then.
if [ $# -ge 2 ] && [ $has_advise = 0 ]; then
	echo "Bail out! pm-async-advise not found at $ADVISE"
	exit 1
fi

echo "TAP version 13"

# ------------------------------------------------------------ fixtures

# A fake kernel log of one good cycle (the advisor's test log) and its
# phase sums: suspend 10 + 1 + 2 = 13 ms, resume 3 + 0.5 + 20 = 23.5 ms.
cat >"$T/good.txt" <<'EOF'
[  100.000000] PM: suspend entry (deep)
[  100.001000] disk sd0: PM: calling lab_suspend @ 50, parent: ata1
[  100.008000] disk sd0: PM: lab_suspend returned 0 after 7000 usecs
[  100.008100] ata ata1: PM: calling lab_suspend @ 51, parent: pci0
[  100.009100] ata ata1: PM: lab_suspend returned 0 after 1000 usecs
[  100.009200] kbd i8042: PM: calling lab_suspend @ 40, parent: none
[  100.009300] kbd i8042: PM: lab_suspend returned 0 after 100 usecs
[  100.010000] PM: suspend of devices complete after 10.000 msecs
[  100.010100] PM: start suspend of devices complete after 10.100 msecs
[  100.011000] PM: late suspend of devices complete after 1.000 msecs
[  100.013000] PM: noirq suspend of devices complete after 2.000 msecs
[  110.003000] PM: noirq resume of devices complete after 3.000 msecs
[  110.003500] PM: early resume of devices complete after 0.500 msecs
[  110.004000] kbd i8042: PM: calling lab_resume @ 40, parent: none
[  110.004100] kbd i8042: PM: lab_resume returned 0 after 100 usecs
[  110.004200] ata ata1: PM: calling lab_resume @ 52, parent: pci0
[  110.014200] ata ata1: PM: lab_resume returned 0 after 10000 usecs
[  110.014300] disk sd0: PM: calling lab_resume @ 53, parent: ata1
[  110.023300] disk sd0: PM: lab_resume returned 0 after 9000 usecs
[  110.023500] PM: resume of devices complete after 20.000 msecs
[  110.030000] PM: suspend exit
EOF
# A failed one (6.x messages: dpm_run_callback, returned, failed to).
cat >"$T/bad.txt" <<'EOF'
[  200.000000] PM: suspend entry (deep)
[  200.001000] disk sd0: PM: calling lab_suspend @ 50, parent: ata1
[  200.002000] usb 1-1: PM: calling usb_dev_suspend [usbcore] @ 60, parent: usb1
[  200.002500] usb 1-1: PM: dpm_run_callback(): usb_dev_suspend [usbcore] returns -5
[  200.002510] usb 1-1: PM: usb_dev_suspend [usbcore] returned -5 after 500 usecs
[  200.002520] usb 1-1: PM: failed to suspend async: error -5
[  200.008000] disk sd0: PM: lab_suspend returned 0 after 7000 usecs
[  200.008100] PM: suspend of devices aborted after 8.100 msecs
[  200.008200] PM: Some devices failed to suspend, or early wake event detected
[  200.018100] PM: resume of devices complete after 9.100 msecs
[  200.018200] PM: suspend exit
EOF

# mkfake DIR: a sysfs tree with every knob the tool touches, all set to
# values it changes, and a fake kernel log: DIR/klog takes the tool's
# markers (PM_ASYNC_KMSG) and DIR/dmesg, called after each cycle, appends
# the cycle's messages to it (good.txt, or bad.txt from cycle $FAIL_AT on,
# whose "state" write fails: the file becomes a link to /dev/full) and
# prints it.  At the call after cycle $HANG_AT it touches DIR/hanging and
# sleeps 3 s (for SIGINT).  DIR/seen gets the knobs as they were at each
# call (call 1 is the tool's check that dmesg works).
SD=devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0	# the disk
mkfake()
{
	F=$1
	rm -rf "$F"
	mkdir -p "$F/power" "$F/class/rtc/rtc0/device/power" \
		"$F/devices/platform/i8042/power" \
		"$F/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/power" \
		"$F/devices/pci0000:00/0000:00:1d.0/usb1/1-1/power" \
		"$F/devices/pci0000:00/0000:00:1a.0/usb2/1-1/power" \
		"$F/devices/platform/serial8250/tty" # no power/async: not a device
	# device links: i8042 supplies 0:0:0:0; 0000:00:1f.2 supplies the
	# 1-1 under usb1, SYNC_STATE_ONLY and dormant
	mkdir -p "$F/class/devlink/platform:i8042--scsi:0:0:0:0" \
		"$F/class/devlink/pci:0000:00:1f.2--usb:1-1"
	dl=$F/class/devlink
	ln -s ../../../devices/platform/i8042 "$dl/platform:i8042--scsi:0:0:0:0/supplier"
	ln -s "../../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0" \
		"$F/class/devlink/platform:i8042--scsi:0:0:0:0/consumer"
	echo 0 >"$F/class/devlink/platform:i8042--scsi:0:0:0:0/sync_state_only"
	echo active >"$F/class/devlink/platform:i8042--scsi:0:0:0:0/status"
	ln -s "../../../devices/pci0000:00/0000:00:1f.2" "$dl/pci:0000:00:1f.2--usb:1-1/supplier"
	ln -s "../../../devices/pci0000:00/0000:00:1d.0/usb1/1-1" \
		"$dl/pci:0000:00:1f.2--usb:1-1/consumer"
	echo 1 >"$F/class/devlink/pci:0000:00:1f.2--usb:1-1/sync_state_only"
	echo dormant >"$F/class/devlink/pci:0000:00:1f.2--usb:1-1/status"
	echo "freeze mem disk" >"$F/power/state"
	echo "[s2idle] deep" >"$F/power/mem_sleep"
	echo 1 >"$F/power/pm_async"
	echo 0 >"$F/power/pm_print_times"
	echo 0 >"$F/power/pm_debug_messages"
	echo "none core processors platform [devices] freezer" >"$F/power/pm_test"
	: >"$F/class/rtc/rtc0/wakealarm"
	echo disabled >"$F/class/rtc/rtc0/device/power/wakeup"
	echo disabled >"$F/devices/platform/i8042/power/async"
	echo disabled >"$F/$SD/power/async"
	echo enabled >"$F/devices/pci0000:00/0000:00:1d.0/usb1/1-1/power/async"
	echo enabled >"$F/devices/pci0000:00/0000:00:1a.0/usb2/1-1/power/async"
	{
		echo "[    1.000000] an old line before any marker"
		echo "[    1.000001] PM: suspend of devices complete after 99.000 msecs"
	} >"$F/klog"
	echo 0 >"$F/calls"
	echo "#!/bin/sh" >"$F/dmesg"
	echo "F=$F SD=$SD" >>"$F/dmesg"
	cat >>"$F/dmesg" <<'EOF'
c=$(($(cat $F/calls) + 1))
echo $c >$F/calls
{
	printf "call %s: state=%s" $c "$( [ -f $F/power/state ] && cat $F/power/state)"
	for k in pm_async pm_print_times pm_debug_messages mem_sleep pm_test; do
		printf ' %s=%s' $k "$(cat $F/power/$k)"
	done
	printf ' alarm=%s wakeup=%s i8042=%s sd=%s\n' "$(cat $F/class/rtc/rtc0/wakealarm)" \
		"$(cat $F/class/rtc/rtc0/device/power/wakeup)" \
		"$(cat $F/devices/platform/i8042/power/async)" \
		"$(cat "$F/$SD/power/async")"
} >>$F/seen
cycle=$((c - 1))
if [ $cycle -ge 1 ]; then
	if [ -n "${HANG_AT:-}" ] && [ $cycle = "$HANG_AT" ]; then
		: >$F/hanging
		sleep 3
	fi
	if [ -n "${FAIL_AT:-}" ] && [ $cycle -ge "$FAIL_AT" ]; then
		cat $F/bad.txt >>$F/klog
	else
		cat $F/good.txt >>$F/klog
	fi
	if [ -n "${FAIL_AT:-}" ] && [ $((cycle + 1)) = "$FAIL_AT" ]; then
		rm -f $F/power/state
		ln -s /dev/full $F/power/state
	fi
fi
cat $F/klog
EOF
	chmod +x "$F/dmesg"
	cp "$T/good.txt" "$T/bad.txt" "$F/"
}

# Every file of the tree with its content (the fake log files excluded).
snapshot()
{
	(cd "$1" && find power class devices \( -type f -o -type l \) | sort | while read -r f; do
		printf '%s=%s\n' "$f" "$(cat "$f" 2>/dev/null)"
	done)
}

# The values a tree must have after the tool put everything back
# (selection files hold the word that was selected, an alarm that was not
# set is cleared with 0).
restored_ok()
{
	F=$1
	[ "$(cat "$F/power/pm_async")" = 1 ] &&
	[ "$(cat "$F/power/pm_print_times")" = 0 ] &&
	[ "$(cat "$F/power/pm_debug_messages")" = 0 ] &&
	[ "$(cat "$F/power/mem_sleep")" = s2idle ] &&
	[ "$(cat "$F/power/pm_test")" = devices ] &&
	[ "$(cat "$F/class/rtc/rtc0/wakealarm")" = "${2:-0}" ] &&
	[ "$(cat "$F/class/rtc/rtc0/device/power/wakeup")" = disabled ] &&
	[ "$(cat "$F/devices/platform/i8042/power/async")" = disabled ] &&
	[ "$(cat "$F/$SD/power/async")" = disabled ] || {
		snapshot "$F" | grep -v -e '^devices/.*usb' -e 'state=' | sed 's/^/# now: /'
		return 1
	}
}

# run SHELL FAKE ARGS...: the tool on the fake tree, output in $T/out,
# status in $rc.
run()
{
	sh_=$1 F=$2
	shift 2
	mkdir -p "$T/tmpd"
	TMPDIR=$T/tmpd PM_ASYNC_SYSFS=$F PM_ASYNC_KMSG=$F/klog PM_ASYNC_DMESG=$F/dmesg \
		PM_ASYNC_ADVISE=${ADV-$ADVISE} PM_ASYNC_UID=${UIDX:-0} \
		$sh_ "$TOOL" "$@" >"$T/out" 2>&1
	rc=$?
}

grepq() { grep -q -e "$1" "$T/out"; }

# ------------------------------------------------------------ log parsing

devs() { $TOOL --failed-devices "$@" | tr '\n' ' '; }

check "--failed-devices: 6.x log (dpm_run_callback, returned -5, failed to) names 1-1 once" \
	'[ "$(devs "$T/bad.txt")" = "1-1 " ]'
cat >"$T/old.txt" <<'EOF'
<3>[ 12.1] PM: Device 0000:00:1d.0 failed to suspend async: error -16
Dec 18 10:00:00 wind kernel: [ 12.2] PM: Device sd 0:0:0:0 failed to suspend: error -5
EOF
check "--failed-devices: old 'PM: Device X failed to' format, syslog prefix, a name with a blank" \
	'[ "$(devs "$T/old.txt")" = "0000:00:1d.0 sd 0:0:0:0 " ]'
cat >"$T/mixed.txt" <<'EOF'
[    5.000000] [   T42]  serio0: PM: dpm_run_callback(): serio_suspend+0x0/0x20 returns -110
[    5.000100] ahci 0000:00:1f.2: PM: ahci_pci_device_suspend returned -16 after 1200 usecs
[    5.000200] sd 2:0:0:0: PM: calling scsi_bus_suspend @ 12, parent: target2:0:0
[    5.000300] sd 2:0:0:0: PM: scsi_bus_suspend returned 0 after 3 usecs
[    5.000400] PM: Some devices failed to suspend, or early wake event detected
EOF
check "--failed-devices: empty driver string, [T42] caller id, symbol offsets, returned -16; \
returned 0 is no failure" \
	'[ "$(devs "$T/mixed.txt")" = "serio0 0000:00:1f.2 " ]'
check "--failed-devices: a good cycle has no failing device" '[ "$(devs "$T/good.txt")" = "" ]'
check "--failed-devices: an unreadable log is an error" \
	'! $TOOL --failed-devices "$T/nonexistent" >/dev/null 2>&1'

# ------------------------------------------------------------ runs, per shell

for sh_ in $shells; do
	name=${sh_%_sh}
	shcmd=$sh_
	[ $sh_ = busybox_sh ] && shcmd="busybox sh"
	F=$T/fake-$name
	mkfake "$F"
	before=$(snapshot "$F")
	run $sh_ "$F" -n 2 --wake 7 --settle 0 -o "$T/out-$name" --variants sync,async,marked \
		--mark-async i8042 0:0:0:0 --mark-sync usb1/1-1
	check "$name: a mark path that is not a device is refused before anything is touched" \
		'[ $rc = 1 ] && grepq "usb1/1-1: no power/async" &&
			[ "$(snapshot "$F")" = "$before" ]'

	mkfake "$F"
	run $sh_ "$F" -n 2 --wake 7 --settle 0 -o "$T/out-$name" --variants sync,async,marked \
		--mark-async i8042 0:0:0:0
	check "$name: a run of 2 cycles x 3 variants exits 0" '[ $rc = 0 ]'
	six="cycle-001-sync.log cycle-002-async.log cycle-003-marked.log"
	six="$six cycle-004-sync.log cycle-005-async.log cycle-006-marked.log "
	check "$name: six cycle logs, named by cycle and variant" \
		'[ "$(cd "$T/out-$name" && ls cycle-*.log | tr "\n" " ")" = "$six" ]'
	markers_ok()
	{
		for i in 1 2 3 4 5 6; do
			f=$(ls "$T/out-$name"/cycle-00$i-*.log)
			head -n 1 "$f" | grep -q "pm-async-measure .*: cycle $i [a-z]*$" || return 1
			! grep -q "old line" "$f" || return 1
			[ "$(grep -c "of devices complete" "$f")" = 7 ] || return 1
			[ "$(grep -c "pm-async-measure" "$f")" = 1 ] || return 1
		done
	}
	check "$name: each cycle log starts at its own marker (nothing from before it)" markers_ok
	check "$name: progress line with the phase sums of the cycle (13.0 / 23.5 ms)" \
		'grepq "cycle 1/6: sync (pm_async=0) ... suspend 13.0 ms, resume 23.5 ms"'
	# What the fake kernel saw at each cycle (call 1 is the check of dmesg).
	knobs="pm_print_times=1 pm_debug_messages=1 mem_sleep=deep pm_test=none alarm=+7"
	check "$name: during a cycle: $knobs, rtc wakeup enabled" \
		'[ "$(grep -c "state=mem pm_async=[01] $knobs wakeup=enabled" "$F/seen")" = 6 ]'
	alt="0disableddisabled 1disableddisabled 1enabledenabled "
	check "$name: pm_async alternates 0 1 1 and the marks apply to the marked cycles only" \
		'[ "$(sed -n "2,7s/.*pm_async=\([01]\).* i8042=\([a-z]*\) sd=\([a-z]*\)/\1\2\3/p" \
			"$F/seen" | tr "\n" " ")" = "$alt$alt" ]'
	check "$name: every knob restored after a good run (pm_async, pm_print_times, $(:
		)pm_debug_messages, mem_sleep, pm_test, wakealarm, rtc wakeup, power/async)" \
		'restored_ok "$F"'
	check "$name: the run says what it restored" \
		'grepq "restored 9 setting(s): power/pm_print_times"'
	if [ $has_advise = 1 ]; then
		check "$name: the table has one row per variant with n=2, mean (+/- sd) columns" \
			'grepq "^sync  *2  *13.0 (+/- 0.0)  *23.5 (+/- 0.0)" &&
				grepq "^async  *2  *13.0 (+/- 0.0)" &&
				grepq "^marked  *2  *13.0 (+/- 0.0)"'
		check "$name: 'start suspend' (after the suspend phase in 6.x) does not split $(:
			)cycles; summary names the raw logs" \
			'! grepq "left out" &&
				! grep -q "/sum/" "$T/out-$name/summary.txt" \
					"$T/out-$name/summary.json" &&
				grep -q "$T/out-$name/cycle-001-sync.log" \
					"$T/out-$name/summary.json"'
		check "$name: lower bound and critical path per variant; summary.txt and $(:
			)summary.json written" \
			'grepq "marked:  suspend bound 8.0" &&
				grepq "suspend CP (2/2 cycles): suspend: sd0 -> ata1" &&
				[ -s "$T/out-$name/summary.txt" ] &&
				grep -q "\"good_cycles\": 2" "$T/out-$name/summary.json"'
	else
		skip "$name: table (no pm-async-advise at $ADVISE)"
		skip "$name: bound and critical path (no pm-async-advise)"
		skip "$name: start suspend line (no pm-async-advise)"
	fi
	check "$name: run.txt records the settings and marks" \
		'grep -q "^variants sync async marked" "$T/out-$name/run.txt" &&
			grep -q "^mark i8042 enabled" "$T/out-$name/run.txt"'
	links="1-1|0000:00:1f.2|sync_state_only|dormant 0:0:0:0|i8042 "
	check "$name: links.txt holds the device links of class/devlink with their flags" \
		'[ "$(grep -v "^#" "$T/out-$name/links.txt" | tr "\t\n" "| ")" = "$links" ]'
	if [ $has_advise = 1 ]; then
		check "$name: the advisor on a cycle log of the run uses links.txt and the $(:
			)kernel of run.txt" \
			'"$ADVISE" --json "$T/out-$name/cycle-001-sync.log" >"$T/adv.json" 2>&1 &&
			 grep -q "\"links_from\": \".*links.txt, saved by pm-async-measure\"" \
				"$T/adv.json" &&
			 grep -q "\"kernel_from\": \".*run.txt (pm-async-measure)\"" "$T/adv.json"'
	else
		skip "$name: advisor and links.txt (no pm-async-advise)"
	fi

	# A failed cycle: the third "state" write fails.
	mkfake "$F"
	FAIL_AT=3 run $sh_ "$F" -n 3 --wake 7 --settle 0 -o "$T/fail-$name" --mark-async i8042
	check "$name: a failed cycle stops the run with status 1" \
		'[ $rc = 1 ] && [ "$(grep -c "^call" "$F/seen")" = 4 ] && ! grepq "cycle 4/"'
	check "$name: the failure names the write error and the failing device (1-1) from the log" \
		'grepq "cycle 3 (sync): writing .mem. to .*/power/state failed: $(:
			)\(No space left on device\|I/O error\)$" &&
			grepq "failing device(s): 1-1" && grepq "failed to suspend async: error -5"'
	check "$name: the failed cycle's log is kept, the good ones summarized" \
		'[ -s "$T/fail-$name/cycle-003-sync.failed.log" ] &&
			{ [ $has_advise = 0 ] || grepq "^marked  *1 "; }'
	rm -f "$F/power/state"
	check "$name: every knob restored after a failed cycle" 'restored_ok "$F"'

	# SIGINT between cycles (while the log of cycle 2 is read).  A
	# background job of a script starts with SIGINT ignored, which a shell
	# cannot trap: env --default-signal (coreutils 8.31) undoes that.
	if ! env --default-signal=INT true 2>/dev/null; then
		skip "$name: SIGINT (no env --default-signal)"
		skip "$name: knobs after SIGINT (no env --default-signal)"
		continue
	fi
	mkfake "$F"
	echo $(( $(date +%s) + 3600 )) >"$F/class/rtc/rtc0/wakealarm"
	alarm=$(cat "$F/class/rtc/rtc0/wakealarm")
	PM_ASYNC_SYSFS=$F PM_ASYNC_KMSG=$F/klog PM_ASYNC_DMESG=$F/dmesg PM_ASYNC_ADVISE=$ADVISE \
		PM_ASYNC_UID=0 HANG_AT=2 env --default-signal=INT $shcmd "$TOOL" -n 5 --settle 0 \
		-o "$T/int-$name" --mark-async 0:0:0:0 >"$T/out" 2>&1 &
	pid=$!
	i=0
	while [ ! -e "$F/hanging" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	kill -INT $pid
	wait $pid
	rc=$?
	check "$name: SIGINT stops the run with status 130" \
		'[ $rc = 130 ] && grepq "interrupted (INT)" && ! grepq "cycle 3/"'
	check "$name: every knob restored after SIGINT, an armed wake alarm re-armed" \
		'restored_ok "$F" "$alarm"'
done

# ------------------------------------------------------------ --bisect

# mkbisect DIR: the fake tree of mkfake with eight lab devices on top
# (DIR/devices/NAME, list order LAB_DEVS, all async) and a dmesg whose
# cycles fail by rules: HIDDEN="F:D:P ..." makes F fail (-EAGAIN, "failed
# to suspend async") with chance P% in an async cycle unless both F and D
# are sync (power/async disabled); SYNC_FAIL=1 makes pm_async=0 cycles
# fail too; LATE="NAME ..." devices start after the failure (not in its
# phase's log before it).  The draw is awk's rand() seeded with the cycle
# number (SEED added): the same run gives the same cycles.  Suspend takes
# 40 ms with pm_async=0, 10 + 3 per sync lab device with pm_async=1;
# resume 10 ms.
LAB_DEVS="gpio0 f1 f2 ts f3 dsp codec f4"
mkbisect()
{
	mkfake "$1"
	echo 0 >"$1/class/rtc/rtc0/wakealarm"	# an alarm left alone reads 0
	for d in $LAB_DEVS; do
		mkdir -p "$1/devices/$d/power"
		echo enabled >"$1/devices/$d/power/async"
	done
	cat >"$1/dmesg" <<EOF
#!/bin/sh
F=$1 DEVS="$LAB_DEVS"
EOF
	cat >>"$1/dmesg" <<'EOF'
c=$(($(cat $F/calls) + 1))
echo $c >$F/calls
a=$(cat $F/power/pm_async)
st=""
for d in $DEVS; do st="$st $d=$(cat $F/devices/$d/power/async)"; done
al=$(cat $F/class/rtc/rtc0/wakealarm)
printf 'call %s: pm_async=%s alarm=%s%s\n' $c $a "$al" "$st" >>$F/seen
if [ $c -ge 2 ]; then
	[ -n "${HANG_AT:-}" ] && [ $((c - 1)) = "$HANG_AT" ] && { : >$F/hanging; sleep 3; }
	awk -v c=$c -v a=$a -v st="$st" -v rules="${HIDDEN:-}" -v syncfail="${SYNC_FAIL:-0}" \
		-v late=" ${LATE:-} " -v devs="$DEVS" -v seed="${SEED:-0}" 'BEGIN {
		srand(c * 7919 + seed)
		n = split(devs, dv, " ")
		m = split(st, kv, " ")
		for (i = 1; i <= m; i++) { split(kv[i], p, "="); sync[p[1]] = p[2] == "disabled" }
		nr = split(rules, r, " "); nf = 0; ns = 0
		for (i = 1; i <= n; i++) ns += sync[dv[i]]
		for (i = 1; i <= nr; i++) {
			split(r[i], x, ":")
			broken = a == 1 ? !(sync[x[1]] && sync[x[2]]) : syncfail
			if (broken && rand() * 100 < x[3] && !(x[1] in fail)) {
				fail[x[1]] = 1
				fl[++nf] = x[1]
			}
		}
		print "[ 1.0] PM: suspend entry (s2idle)"
		calls = "[ 1.1] pm_async_test %s: PM: calling pat_suspend [pm_async_test] @ %d, "
		calls = calls "parent: none\n"
		callr = calls; sub(/suspend/, "resume", callr); sub(/1\.1/, "1.5", callr)
		lab = "[ 1.2] pm_async_test %s: "
		for (i = n; i > 0; i--)
			if (!index(late, " " dv[i] " "))
				printf calls, dv[i], 100 + i
		for (i = 1; i <= nf; i++) {
			printf "[ 1.2] pm_async_test %s: suspend: command failed: -11\n", fl[i]
			printf lab "PM: pat_suspend [pm_async_test] returned -11 after " \
				"20000 usecs\n", fl[i]
			printf lab "PM: failed to suspend%s: error -11\n", fl[i], a ? " async" : ""
		}
		for (i = n; i > 0; i--)
			if (index(late, " " dv[i] " "))
				printf calls, dv[i], 100 + i
		sus = a ? 10 + 3 * ns : 40
		if (nf) {
			printf "[ 1.4] PM: suspend of devices aborted after %d.000 msecs\n", sus
			print "[ 1.4] PM: Some devices failed to suspend, or early wake event " \
				"detected"
		} else
			printf "[ 1.4] PM: suspend of devices complete after %d.000 msecs\n", sus
		for (i = 1; i <= n; i++)
			printf callr, dv[i], 100 + i
		print "[ 1.6] PM: resume of devices complete after 10.000 msecs"
		print "[ 1.7] PM: suspend exit"
	}' >>$F/klog
fi
cat $F/klog
EOF
	chmod +x "$1/dmesg"
}

# bisect SHELL FAKE ARGS...: pm-async-measure --bisect on the fake tree
bisect() { b_sh=$1 b_f=$2; shift 2; run "$b_sh" "$b_f" --bisect --settle 0 -o "$T/bis" "$@"; }
# the set the run found, sorted, one line
found_set()
{
	sed -n 's/^found //p' "$T/bis/bisect.txt" 2>/dev/null | tr ' ' '\n' | sort | tr '\n' ' '
}
# every lab device async again, every knob as mkfake left it
# lab_restored DIR [ALARM]: as restored_ok, and every lab device async
lab_restored()
{
	for d in $LAB_DEVS; do
		[ "$(cat "$1/devices/$d/power/async")" = enabled ] || return 1
	done
	restored_ok "$@"
}
cycles_used() { sed -n 's/^cycles //p' "$T/bis/bisect.txt" 2>/dev/null; }

for sh_ in $shells; do
	name=${sh_%_sh}
	shcmd=$sh_
	[ $sh_ = busybox_sh ] && shcmd="busybox sh"
	F=$T/bis-$name
	rm -rf "$T/bis"

	mkbisect "$F"
	HIDDEN="ts:gpio0:100" bisect $sh_ "$F" -n 3 --wake 7
	check "$name: --bisect, one hidden dependency (ts needs gpio0), every async cycle fails: $(:
		)exit 0, the set is exactly gpio0 and ts ($(cycles_used) cycles)" \
		'[ $rc = 0 ] && [ "$(found_set)" = "gpio0 ts " ]'
	check "$name: --bisect: confirms both sides with the rate (3 of 3 async, 0 of 3 sync), $(:
		)candidates from the log (not f4 ... it is there: all 8)" \
		'grepq "pm_async=1: 3 of 3 cycles failed (ts x3)" &&
			grepq "pm_async=0: 0 of 3 cycles failed" &&
			grepq "estimated failure rate with async: 1.00"'
	check "$name: --bisect: a real-sleep cycle is armed: the RTC alarm was +7 at every cycle" \
		'[ "$(grep -c "^call" "$F/seen")" -gt 6 ] &&
			[ "$(sed 1d "$F/seen" | grep -vc "alarm=+7")" = 0 ]'
	check "$name: --bisect: the udev rule file marks /devices/gpio0 and /devices/ts sync" \
		'[ "$(grep -c "^ACTION==\"add\", DEVPATH==\"/devices/[a-z0-9]*\", $(:
			)ATTR{power/async}=\"disabled\"$" "$T/bis/99-pm-async-sync.rules")" = 2 ] &&
			grep -q "DEVPATH==\"/devices/gpio0\"" "$T/bis/99-pm-async-sync.rules" &&
			grep -q "DEVPATH==\"/devices/ts\"" "$T/bis/99-pm-async-sync.rules"'
	check "$name: --bisect: the pair gives a device link, ts the consumer (it suspends first $(:
		)with pm_async=0), gpio0 the supplier" \
		'grepq "device_link_add(<ts>, <gpio0>, DL_FLAG_STATELESS)"'
	check "$name: --bisect: async time kept: pm_async=0 50 ms, the set sync 26 ms, $(:
		)saves 24 ms" \
		'grepq "pm_async=0 50.0 ms, all async ? (no good cycle) ms, $(:
			)with the set sync 26.0 ms" &&
			grepq "saves 24.0 ms (48%)"'
	check "$name: --bisect: every knob restored, every lab device async again" \
		'lab_restored "$F"'

	rm -rf "$T/bis"
	mkbisect "$F"
	HIDDEN="ts:gpio0:100 codec:dsp:100" bisect $sh_ "$F" -n 2 --pm-test platform
	check "$name: --bisect, two hidden dependencies: the set is exactly codec dsp gpio0 ts $(:
		)($(cycles_used) cycles, at most 60)" \
		'[ $rc = 0 ] && [ "$(found_set)" = "codec dsp gpio0 ts " ] &&
			[ "$(cycles_used)" -le 60 ]'
	check "$name: --bisect with --pm-test: no alarm set; knobs restored" \
		'! sed 1d "$F/seen" | grep -q "alarm=+" && lab_restored "$F"'

	rm -rf "$T/bis"
	mkbisect "$F"
	HIDDEN="ts:gpio0:50" SEED=1 bisect $sh_ "$F" -n 10 --pm-test platform
	check "$name: --bisect, intermittent (50%): the set is exactly gpio0 ts, steps of $(:
		)more than one cycle ($(cycles_used) cycles)" \
		'[ $rc = 0 ] && [ "$(found_set)" = "gpio0 ts " ] &&
			grepq "search: \([2-9]\|[1-9][0-9]\) cycle(s) per step"'
	check "$name: --bisect, intermittent: async time kept from good async cycles too" \
		'grepq "all async 20.0 ms, with the set sync 26.0 ms" &&
			grepq "keeps 80% of the async gain"'

	# SEED=13: 2 failures in the first 10 async cycles, the 3rd at 16
	rm -rf "$T/bis"
	mkbisect "$F"
	HIDDEN="ts:gpio0:50" SEED=13 bisect $sh_ "$F" -n 10 --pm-test platform
	check "$name: --bisect, 2 of the first 10 async cycles fail: the confirmation goes on $(:
		)until 3 have failed (16 cycles), the rate is 3/16; the set is exactly gpio0 ts" \
		'[ $rc = 0 ] && [ "$(found_set)" = "gpio0 ts " ] &&
			grepq "pm_async=1: 3 of 16 cycles failed (ts x3)" &&
			grepq "estimated failure rate with async: 0.19 (3/16)" &&
			grepq "pm_async=0: 0 of 10 cycles failed"'

	# SEED=7: 2 failures in 30 async cycles
	rm -rf "$T/bis"
	mkbisect "$F"
	HIDDEN="ts:gpio0:5" SEED=7 bisect $sh_ "$F" -n 10 --pm-test platform --max-cycles 45
	check "$name: --bisect, fewer than 3 failures: the confirmation stops at 3N (30) cycles $(:
		)and plans on the rate measured; the cap (45) then stops the search (status 4)" \
		'[ $rc = 4 ] && grepq "pm_async=1: 2 of 30 cycles failed (ts x2)" &&
			grepq "estimated failure rate with async: 0.07 (2/30)" &&
			grepq "the cycle cap (45) stopped the search"'

	rm -rf "$T/bis"
	mkbisect "$F"
	HIDDEN="ts:gpio0:60 codec:dsp:60" SEED=2 bisect $sh_ "$F" -n 10 --pm-test platform
	check "$name: --bisect, two intermittent (60% each): the set is exactly $(:
		)codec dsp gpio0 ts $(:
		)($(cycles_used) cycles)" \
		'[ $rc = 0 ] && [ "$(found_set)" = "codec dsp gpio0 ts " ]'

	rm -rf "$T/bis"
	mkbisect "$F"
	HIDDEN="ts:gpio0:100" LATE="gpio0" bisect $sh_ "$F" -n 2 --pm-test platform
	check "$name: --bisect: a culprit the log does not show: every async device is tried $(:
		)and the set still found" \
		'[ $rc = 0 ] && [ "$(found_set)" = "gpio0 ts " ] && grepq "every async device"'

	rm -rf "$T/bis"
	mkbisect "$F"
	echo disabled >"$F/devices/ts/power/async"
	HIDDEN="ts:gpio0:100" bisect $sh_ "$F" -n 2 --pm-test platform
	check "$name: --bisect: a device sync already is left out; the set is gpio0 $(:
		)alone; ts stays sync" \
		'[ $rc = 0 ] && [ "$(found_set)" = "gpio0 " ] && grepq "ts(sync already)" &&
			[ "$(cat "$F/devices/ts/power/async")" = disabled ]'

	rm -rf "$T/bis"
	mkbisect "$F"
	HIDDEN="ts:gpio0:100" SYNC_FAIL=1 bisect $sh_ "$F" -n 2 --pm-test platform
	check "$name: --bisect: pm_async=0 fails too: status 3, nothing searched, knobs restored" \
		'[ $rc = 3 ] && grepq "pm_async=0 fails too" && ! grepq "3. search" &&
			lab_restored "$F"'
	mkbisect "$F"
	bisect $sh_ "$F" -n 2 --pm-test platform
	check "$name: --bisect: async does not fail: status 3, nothing to bisect" \
		'[ $rc = 3 ] && grepq "nothing to bisect"'
	mkbisect "$F"
	HIDDEN="ts:gpio0:100 codec:dsp:100" bisect $sh_ "$F" -n 2 --pm-test platform --max-cycles 8
	check "$name: --bisect --max-cycles 8: the cap stops the search (status 4, says so), $(:
		)8 cycles run, knobs restored" \
		'[ $rc = 4 ] && grepq "cycle cap (8) stopped" &&
			[ "$(grep -c "^call" "$F/seen")" = 9 ] &&
			lab_restored "$F"'

	if ! env --default-signal=INT true 2>/dev/null; then
		skip "$name: --bisect SIGINT (no env --default-signal)"
		continue
	fi
	mkbisect "$F"
	PM_ASYNC_SYSFS=$F PM_ASYNC_KMSG=$F/klog PM_ASYNC_DMESG=$F/dmesg PM_ASYNC_ADVISE=$ADVISE \
		PM_ASYNC_UID=0 HANG_AT=7 HIDDEN="ts:gpio0:100" \
		env --default-signal=INT $shcmd "$TOOL" \
		--bisect -n 2 --settle 0 --pm-test platform -o "$T/bis-int" >"$T/out" 2>&1 &
	pid=$!
	i=0
	while [ ! -e "$F/hanging" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	sync_then=$(cat "$F"/devices/*/power/async | grep -c disabled)
	kill -INT $pid
	wait $pid
	rc=$?
	check "$name: --bisect: SIGINT in the search (with $sync_then devices sync) $(:
		)stops it (130) $(:
		)and restores every knob and power/async" \
		'[ $rc = 130 ] && [ "$sync_then" -gt 2 ] && lab_restored "$F"'
done

F=$T/bis-opts
mkbisect "$F"
before=$(snapshot "$F")
run sh "$F" --bisect --dry-run -o "$T/bis-dry"
check "--bisect --dry-run: prints the plan, touches nothing, writes no log" \
	'[ $rc = 0 ] && grepq "would run 10 cycles with pm_async=1 (up to 30 until 3 fail)" &&
		[ "$(snapshot "$F")" = "$before" ] && [ ! -e "$T/bis-dry" ] && [ ! -e "$F/seen" ]'
for a in "--bisect --mark-sync ts:--bisect chooses the marks" \
	"--bisect --variants sync,async:--bisect chooses the marks" \
	"--confidence 40:--confidence: 40 is out of range" \
	"--max-cycles 0:--max-cycles: 0 is out of range"; do
	# shellcheck disable=SC2086
	run sh "$F" ${a%%:*}
	check "--bisect usage error '${a%%:*}': status 2, a clear message, nothing touched" \
		'[ $rc = 2 ] && grep -qF -e "${a#*:}" "$T/out" &&
			[ "$(snapshot "$F")" = "$before" ]'
done

# ------------------------------------------------------------ refusals

F=$T/fake
mkfake "$F"
before=$(snapshot "$F")
unchanged() { [ "$(snapshot "$F")" = "$before" ]; }

UIDX=1000 run sh "$F" -n 1
check "not root: a clear message, status 1, nothing touched" \
	'[ $rc = 1 ] && grepq "needs root" && unchanged'

rm "$F/class/rtc/rtc0/wakealarm"
before=$(snapshot "$F")
run sh "$F" -n 1
check "no wake alarm: refuses to sleep, nothing touched" \
	'[ $rc = 1 ] && grepq "no wake source.*refusing to sleep" && unchanged'
run sh "$F" -n 1 --pm-test platform --settle 0 -o "$T/pmtest"
check "--pm-test platform needs no wake alarm; pm_test set during the cycle and restored" \
	'[ $rc = 0 ] && grep -q "pm_test=platform" "$F/seen" &&
		[ "$(cat "$F/power/pm_test")" = devices ]'
mkfake "$F"

before=$(snapshot "$F")
run sh "$F" --dry-run -n 3 --variants sync,async,marked --mark-async i8042 --mark-sync 0:0:0:0
check "--dry-run: prints the plan (knobs, marks, cycles), touches nothing, writes no log" \
	'[ $rc = 0 ] && grepq "would set .*/power/pm_print_times: .0. -> .1." &&
		grepq "would set .*/devices/platform/i8042/power/async: .disabled. -> .enabled." &&
		grepq "cycle 3/9 (marked): pm_async=1" && unchanged && [ ! -e "$F/seen" ] &&
		[ "$(grep -c . "$F/klog")" = 2 ]'
UIDX=1000 run sh "$F" --dry-run
check "--dry-run works without root" '[ $rc = 0 ] && unchanged'

run sh "$F" --mark-async 1-1
check "an ambiguous device name is refused with the candidates, nothing touched" \
	'[ $rc = 1 ] && grepq "1-1. is ambiguous" && grepq "usb2/1-1" && unchanged'
run sh "$F" --dry-run --variants sync,marked --mark-async 1-1@usb2 /sys/devices/platform/i8042
check "NAME@PARENT and /sys paths select a device" \
	'[ $rc = 0 ] && grepq "1-1@usb2 = enabled (now enabled; .*/usb2/1-1)" &&
		grepq "i8042/power/async: .disabled. -> .enabled."'
run sh "$F" --mark-async nosuchdev
check "an unknown device is refused" '[ $rc = 1 ] && grepq "nosuchdev.: no directory" && unchanged'

cat >"$T/advice.json" <<'EOF'
{"devices": 4,
 "advice": [
    {"device": "i8042", "saving_ms": 120.500, "suspend_side_ms": 120.500,
     "sysfs": "/sys/devices/platform/i8042/power/async"},
    {"device": "1-1@usb1", "saving_ms": 3.000, "suspend_side_ms": 3.0},
    {"device": "0:0:0:0", "saving_ms": 0.010, "suspend_side_ms": 0.010}
 ],
 "best_set": {"max": 5, "devices": ["i8042"]}}
EOF
run sh "$F" --dry-run --from-advice "$T/advice.json"
check "--from-advice: the advice devices saving >= 0.05 ms, NAME@PARENT resolved; variants \
sync,marked" \
	'[ $rc = 0 ] && grepq "i8042 = enabled" &&
		grepq "1-1@usb1 = enabled (now enabled; .*/usb1/1-1)" && ! grepq "0:0:0:0 =" &&
		grepq "per variant: sync, marked"'
run sh "$F" --dry-run --from-advice "$T/advice.json" --advice-max 1
check "--from-advice --advice-max 1 takes the first device only" \
	'[ $rc = 0 ] && grepq "i8042 = enabled" && ! grepq "1-1@usb1 ="'
echo '{"devices": 1}' >"$T/noadv.json"
run sh "$F" --dry-run --from-advice "$T/noadv.json"
check "--from-advice: a file without an advice array is an error" \
	'[ $rc = 1 ] && grepq "no .advice. array"'

echo "s2idle" >"$F/power/mem_sleep"
before=$(snapshot "$F")
run sh "$F" --dry-run
check "default state: freeze when mem_sleep has no deep (with a warning about waking)" \
	'[ $rc = 0 ] && grepq "of .freeze." && grepq "suspend-to-idle"'
mkfake "$F"
rm "$F/power/pm_print_times"
before=$(snapshot "$F")
run sh "$F" -n 1
check "no pm_print_times: names CONFIG_PM_SLEEP_DEBUG, nothing touched" \
	'[ $rc = 1 ] && grepq "CONFIG_PM_SLEEP_DEBUG" && unchanged'
mkfake "$F"
before=$(snapshot "$F")

for a in "-n 0" "--cycles x" "--wake" "--frobnicate" "--variants sync,marked" \
	"--variants bogus" "--state disk" "--mark-async"; do
	# shellcheck disable=SC2086
	run sh "$F" $a
	check "usage error '$a': status 2, nothing touched" '[ $rc = 2 ] && unchanged'
done
# A bad number names the option as it was written.
for a in "-n abc:-n: 'abc' is not a whole number" "--cycles 0:--cycles: 0 is out of range" \
	"-n 99999999999:-n: 99999999999 is out of range" \
	"--wake x:--wake: 'x' is not a whole number" \
	"-w -5:-w: '-5' is not a whole number" "--wake 0:--wake: 0 is out of range" \
	"--settle 1.5:--settle: '1.5' is not a whole number" "--advice-max x:--advice-max: 'x'" \
	"--advice-min-ms 1e3:--advice-min-ms: '1e3' is not a number" \
	"--pm-test bogus:--pm-test: 'bogus' is not a pm_test level"; do
	want=${a#*:}
	# shellcheck disable=SC2086
	run sh "$F" ${a%%:*}
	check "bad value '${a%%:*}': status 2 naming the option, nothing touched" \
		'[ $rc = 2 ] && grep -qF -e "$want" "$T/out" && unchanged'
done
run sh "$F" --help
check "--help prints the usage" \
	'[ $rc = 0 ] && grepq "usage: pm-async-measure" && grepq "--mark-async"'
# Every run above, usage errors and refusals included, took its
# temporary directory away with it.
check "no temporary directory left behind by any run (usage errors included)" \
	'[ -d "$T/tmpd" ] && [ -z "$(ls -A "$T/tmpd")" ]'

# ------------------------------------------------------------ safe output

# Issue #28: a line the tool prints as a command is pasted into a root
# shell.  The hostile names below only ever try "touch pwned", relative to
# the working directory of the sh that reads them: $T/sand.
# The tool runs there too: a name that did run could only touch
# $SAND/pwned, never a file of the source tree.
SAND=$T/sand
mkdir -p "$SAND" "$T/fakebin" "$T/noadv"
case $TOOL in /*) ;; *) TOOL=$PWD/$TOOL ;; esac
case $ADVISE in /*) ;; *) ADVISE=$PWD/$ADVISE ;; esac
cd "$SAND" || exit 1
# a pm-async-advise that prints its arguments, one per line in brackets
printf '#!/bin/sh\nprintf "[%%s]\\n" "$@" >"%s/args"\n' "$T" >"$T/fakebin/pm-async-advise"
chmod +x "$T/fakebin/pm-async-advise"
# the tool without an advisor next to it, nor one in a source tree above it
cp "$TOOL" "$T/noadv/pm-async-measure"
pwned() { [ -e "$SAND/pwned" ]; }
# the line after the first one matching $1 in $T/out
line_after() { sed -n "/$1/{n;p;q;}" "$T/out"; }

odir=$T/'it'\''s $(touch pwned) `touch pwned` "q" *x'
for sh_ in $shells; do
	name=${sh_%_sh}
	F=$T/safe-$name
	mkfake "$F"
	rm -rf "$odir" "$SAND/pwned" "$T/args"
	tool_=$TOOL TOOL=$T/noadv/pm-async-measure ADV=
	run $sh_ "$F" -n 1 --pm-test platform --settle 0 -o "$odir"
	TOOL=$tool_
	unset ADV
	hint=$(line_after "summarize the logs with")
	(cd "$SAND" && PATH=$T/fakebin:$PATH sh -c "$hint") >/dev/null 2>&1
	want="[summarize]
[--label]
[sync]
[$odir/cycle-001-sync.log]
[--label]
[async]
[$odir/cycle-002-async.log]"
	check "$name: without an advisor, the summarize command it prints for an output $(:
		)directory named with ' \$() \` \" * runs as printed: the logs as arguments, $(:
		)no command substitution" \
		'[ $rc = 0 ] && [ "$(cat "$T/args" 2>/dev/null)" = "$want" ] && ! pwned'
done

nl='
'
F=$T/safe-nl
mkfake "$F"
rm -rf "$SAND/pwned"
ndir="$T/new${nl}line \$(touch pwned)"
tool_=$TOOL TOOL=$T/noadv/pm-async-measure ADV=
run sh "$F" -n 1 --pm-test platform --settle 0 -o "$ndir"
TOOL=$tool_
unset ADV
hint=$(line_after "summarize the logs with")
check "an output directory with a newline: the summarize command is not printed, a $(:
	)comment says why" \
	'[ $rc = 0 ] && case $hint in "  # "*) true ;; *) false ;; esac &&
		! grep -q "pwned)/cycle" "$T/out"'
rm -rf "$ndir"

# mkhostile DIR NAME...: the fake tree of mkfake with devices DIR/devices/NAME
# (all async); in an async cycle the first of them still async fails.  The
# fake dmesg reads the names from DIR/names and never expands them.
mkhostile()
{
	F=$1
	shift
	mkfake "$F"
	echo 0 >"$F/class/rtc/rtc0/wakealarm"
	: >"$F/names"
	for d in "$@"; do
		mkdir -p "$F/devices/$d/power"
		echo enabled >"$F/devices/$d/power/async"
		printf '%s\n' "$d" >>"$F/names"
	done
	printf '#!/bin/sh\nF=%s\n' "$F" >"$F/dmesg"
	cat >>"$F/dmesg" <<'EOF2'
c=$(($(cat "$F/calls") + 1))
echo $c >"$F/calls"
echo "call $c" >>"$F/seen"
if [ $c -ge 2 ]; then
	a=$(cat "$F/power/pm_async")
	fail=
	{
		echo "[ 1.0] PM: suspend entry (s2idle)"
		while IFS= read -r d; do
			printf '[ 1.1] lab %s: PM: calling lab_suspend @ 101, parent: none\n' "$d"
			[ -z "$fail" ] && [ "$a" = 1 ] &&
				[ "$(cat "$F/devices/$d/power/async")" = enabled ] && fail=$d
		done <"$F/names"
		if [ -n "$fail" ]; then
			printf '[ 1.2] lab %s: PM: lab_suspend returned -11 after 20000 usecs\n' \
				"$fail"
			printf '[ 1.2] lab %s: PM: failed to suspend async: error -11\n' "$fail"
			echo "[ 1.4] PM: suspend of devices aborted after 10.000 msecs"
		else
			echo "[ 1.4] PM: suspend of devices complete after 10.000 msecs"
		fi
		echo "[ 1.6] PM: resume of devices complete after 10.000 msecs"
	} >>"$F/klog"
fi
cat "$F/klog"
EOF2
	chmod +x "$F/dmesg"
}

# --bisect on devices named q'u$(touch${IFS}pwned) (a udev rule can match it
# literally) and ev"il* (it cannot: '"' ends the value, '*' is a pattern),
# the rule file named with ' $() and a blank.
F=$T/safe-bis
good_name='q'\''u$(touch${IFS}pwned)'
bad_name='ev"il*'
mkhostile "$F" "$good_name" "$bad_name"
rule=$T/'r'\''$(touch pwned) x.rules'
rm -rf "$T/bis" "$SAND/pwned"
run sh "$F" --bisect -n 2 --settle 0 --pm-test platform -o "$T/bis" --rule "$rule"
rule_ok()
{
	[ -s "$rule" ] || return 1
	# only comments and rule lines; one rule, the device that can be matched
	[ "$(grep -vc -e '^#' -e '^ACTION=="add", DEVPATH=="[^"]*", ATTR{power/async}="disabled"$' \
		"$rule")" = 0 ] || return 1
	[ "$(grep -c '^ACTION' "$rule")" = 1 ] || return 1
	expect="ACTION==\"add\", DEVPATH==\"/devices/$good_name\", ATTR{power/async}=\"disabled\""
	grep -qxF "$expect" "$rule" || return 1
	grep -q '^# skipped' "$rule"
}
check "--bisect: the udev rule file has the rule of $good_name and, for $bad_name, a $(:
	)comment instead of a broken rule" \
	'[ $rc = 0 ] && rule_ok'
inst=$(sed -n 's/^# install: cp //p' "$rule" 2>/dev/null)
words=$(cd "$SAND" && sh -c "set -- $inst; printf '[%s]\n' \"\$@\"" 2>/dev/null)
check "--bisect: the install command of the rule file quotes its name (' \$() and a $(:
	)blank): two words, no command substitution" \
	'[ "$words" = "[$rule]
[/etc/udev/rules.d/]" ] && ! pwned'
alt=$(sed -n 's/^# skipped .*; instead, as root: echo disabled > //p' "$rule" 2>/dev/null)
words=$(cd "$SAND" && sh -c "set -- $alt; printf '[%s]\n' \"\$@\"" 2>/dev/null)
check "--bisect: the comment for $bad_name gives the command to run instead, its path $(:
	)one word" \
	'[ "$words" = "[$F/devices/$bad_name/power/async]" ] && ! pwned'
check "--bisect: hostile device names: nothing ran, every knob restored" \
	'! pwned && [ ! -e "$T/pwned" ] && [ ! -e "$F/pwned" ] &&
		[ "$(cat "$F/devices/$good_name/power/async")" = enabled ] &&
		[ "$(cat "$F/devices/$bad_name/power/async")" = enabled ] && restored_ok "$F"'

echo "1..$n"
[ $fails = 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pm-async: the in-guest part of "make check".  Every test stream is framed
# by "@@TAP NAME" / "@@TAPEND NAME rc=N" so the host can count its results.
# Arguments: names of the streams to run (default: all that exist).

ksft=/kselftest/pm_async/pm_async.sh

stream()
{
	name=$1
	shift
	echo "@@TAP $name"
	"$@"
	echo "@@TAPEND $name rc=$?"
}

# KUnit suites built as modules: load each, print the KTAP of its suites.
kunit()
{
	found=0
	for ko in $(find /lib/modules -name '*kunit*.ko' | sort); do
		found=1
		mod=$(basename "$ko" .ko)
		before=$(ls /sys/kernel/debug/kunit 2>/dev/null)
		modprobe "$mod" || { echo "not ok 1 $mod # modprobe failed"; continue; }
		for s in $(ls /sys/kernel/debug/kunit); do
			echo "$before" | grep -qx "$s" && continue
			cat "/sys/kernel/debug/kunit/$s/results"
		done
	done
	[ $found = 1 ] || echo "# no KUnit modules in this kernel"
}

# Lockdep, sleeping-in-atomic, hung tasks, WARN and BUG leave traces in the
# kernel log; any of them fails the run.
dmesg_clean()
{
	echo "TAP version 13"
	echo "1..1"
	bad=$(dmesg | grep -E 'WARNING:|BUG:|INFO: task .* blocked|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|Call Trace' | head -n 20)
	if [ -z "$bad" ]; then
		echo "ok 1 kernel log has no warnings, lockdep reports or hung tasks"
	else
		echo "$bad" | sed 's/^/# /'
		dmesg | grep -B2 -A25 -E 'WARNING:|BUG:|INFO: task|circular locking' | head -n 80 | sed 's/^/# /'
		echo "not ok 1 kernel log has no warnings, lockdep reports or hung tasks"
	fi
}

set -- ${*:-kselftest kunit reliability measure replay dmesg}
for s in "$@"; do
	case $s in
	kselftest) [ -x $ksft ] || [ -f $ksft ] && stream kselftest sh $ksft ;;
	kunit) stream kunit kunit ;;
	reliability) stream reliability sh /pma/reliability.sh ;;
	measure) stream measure sh /pma/measure.sh ;;
	replay) stream replay sh /pma/replay.sh ;;
	dmesg) stream dmesg dmesg_clean ;;
	esac
done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-checks.sh KERNEL DIR RC TIMEOUT STREAMS: the checks of one guest run
# as a whole, for make check (check.sh) and make check-kcsan/-kasan
# (sanitize.sh).  DIR holds qemu-run.sh's console.log and results.log, RC is
# qemu-run.sh's exit status (124: timeout after TIMEOUT s, 125: the guest
# stopped without reporting), STREAMS the streams the guest was asked for.
# Prints a KTAP document of two streams for tap-summary.sh:
#  - "guest": the run reached its end marker @@PMA-END; a timeout, a kernel
#    panic, a hung transition the lab's watchdog warned of, a guest that
#    never ran its command or stopped without the end marker is a "not ok"
#    with the reason, with the last console lines as
#    comments (also shown on stderr, unless qemu-run.sh did already);
#  - "kernel-log": the whole console, per stream (kernel-log.sh).
# The streams that never started are counted by tap-summary.sh -e STREAMS;
# they are named here and the console is shown for them too.

set -uo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/guest/tap.sh"

k=$1 dir=$2 rc=$3 tmo=$4 streams=$5
why="" missing=""

for s in $streams; do
	grep -qx "    # Subtest: $s" "$dir/results.log" 2>/dev/null || missing="$missing $s"
done
if [ "$rc" = 124 ]; then
	why="timed out after $tmo s"
elif [ ! -s "$dir/console.log" ] && [ ! -s "$dir/results.log" ]; then
	why="no console output: the guest did not boot (qemu-run.sh status $rc)"
elif grep -q 'Kernel panic - not syncing' "$dir/console.log"; then
	why="kernel panic: $(grep -m1 -o 'Kernel panic - not syncing.*' "$dir/console.log")"
elif grep -qF "$WATCHDOG_HUNG" "$dir/console.log"; then
	why="a hung system transition: the lab's watchdog warned (qemu-run.sh status $rc)"
elif ! grep -q '^@@PMA-BEGIN' "$dir/results.log" 2>/dev/null; then
	why="the guest never ran its command (no @@PMA-BEGIN; qemu-run.sh status $rc)"
elif ! grep -q '^@@PMA-END' "$dir/results.log"; then
	why="the guest stopped without its end marker @@PMA-END (qemu-run.sh status $rc)"
fi

# guest: the one result of the run as a whole.
guest()
{
	echo "1..1"
	if [ -n "$why$missing" ]; then
		[ -z "$missing" ] || echo "# streams that never started:$missing"
		echo "# last console lines:"
		tail -n 40 "$dir/console.log" 2>/dev/null | sed 's/^/#   /'
	fi
	if [ -n "$why" ]; then
		echo "not ok 1 $k guest: $why"
	else
		echo "ok 1 $k guest: ran to its end marker (@@PMA-END)"
	fi
}

tap_doc 2
tap_stream 1 guest guest
PMA_STREAM_NR=2 "$(dirname "$0")/kernel-log.sh" "$dir/console.log" kernel-log

# qemu-run.sh has shown the console already on a timeout or crash.
if [ -n "$missing" ] || { [ -n "$why" ] && [ "$rc" != 124 ] && [ "$rc" != 125 ]; }; then
	printf '[pm-async] %s guest: %s%s; last console lines:\n' "$k" "${why:-ran to its end}" \
		"${missing:+; streams that never started:$missing}" >&2
	tail -n 40 "$dir/console.log" 2>/dev/null | sed 's/^/    /' >&2
fi
exit 0

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-log.sh CONSOLE [NAME]: the kernel log check of one guest run, on
# the host, over the whole boot's console (qemu-run.sh's console.log), so
# nothing scrolls out of a ring buffer.  Prints a KTAP document of one
# stream, NAME (default kernel-log; PMA_STREAM_NR=K: only the stream, as
# subtest K of a document the caller began), with one result per part of
# the run: "boot" up to the first stream, then each stream from its
# "# Subtest: NAME" line to the next one (the guest's check.sh writes the
# line to /dev/kmsg too, so it is in the console; KUnit's suites are
# indented there, the streams are not).  A report is counted in the
# part it was printed in; a hung-task report comes up to
# 2 x hung_task_timeout_secs after the hang began, so it may name the
# stream after the culprit.
#
# A report is a line whose message (after the timestamp) starts with one of
# the headers the kernel prints for a real problem:
#   WARNING:        WARN*(), lockdep (circular/recursive locking,
#                   inconsistent lock state, suspicious RCU usage...)
#   BUG:            sleeping in atomic, KASAN, KCSAN, NULL dereference,
#                   workqueue lockup; also "watchdog: BUG: soft lockup"
#   kernel BUG at, Oops:, general protection fault, UBSAN:, Kernel panic
#   INFO: task ... blocked for more than   (hung task)
#   rcu: INFO: ... stall / detected stalls (RCU stall)
#   pm_async_test: watchdog:               (the lab caught a hung transition)
#   pm_async_test: violation: ... async callback runs in the PM task
#                   (the contract: an "async" device runs in a worker; the
#                   lab's other violations are the streams' to judge, as
#                   some cases of a kernel without a fix expect them)
#   Call Trace: with no header in the 200 lines before it (a stack dump of
#                   its own: sysrq-w of a hung transition, tasks that refused
#                   to freeze)
# and "printk messages dropped": the console lost lines, so the scan is
# incomplete.  Anchored at the start of the message on purpose: boot lines
# such as "RETBleed: WARNING: ..." (mitigation notes) are not reports.  What
# the tests print on purpose does not match: an injected failure prints
# "PM: Device ... failed to suspend: error -5", "PM: Some devices failed to
# suspend", "dpm_run_callback(): ... returns -5"; the lab's input checks
# print "pm_async_test: line N: ..."; measure.sh's pm_print_times lines are
# "calling ..." / "... returned 0 after ...".
#
# Exit status 0 (the result is in the TAP).

set -uo pipefail
. "$(dirname "$0")/guest/tap.sh"

console=${1:?usage: kernel-log.sh CONSOLE [NAME]}
name=${2:-kernel-log}

scan()
{
	if [ ! -s "$console" ]; then
		echo "1..1"
		echo "not ok 1 kernel log: $console is empty or missing"
		return 0
	fi
	awk '
BEGIN {
	P = "^(\\[ *[0-9]+\\.[0-9]+\\] *)?(\\[ *[TC][0-9]+\\] *)?"
	P1 = "^(\\[ *[0-9]+\\.[0-9]+\\] )?(\\[ *[TC][0-9]+\\] )?"
	hdr = P "(WARNING:|BUG:|watchdog: BUG:|kernel BUG at|Oops:|general protection fault|UBSAN:|Kernel panic|INFO: task .* blocked for more than|rcu: INFO: .*(stall|stalls)|INFO: rcu_.*stall|pm_async_test: watchdog:|pm_async_test: violation: .*: async callback runs in the PM task)"
	seg[n = 1] = "boot"
	last_hdr = -1000
}
{ sub(/\r$/, "") }
$0 ~ P1 "# Subtest: [^ ]+$" {
	s = substr($0, index($0, "# Subtest: ") + 11)
	seg[++n] = s
	last_hdr = -1000
	next
}
$0 ~ hdr {
	rep[n]++
	last_hdr = NR
	if (rep[n] <= 3) { ctx[n] = ctx[n] "#   " $0 "\n"; take[n] = 12 }
	if (first[n] == "") { first[n] = $0; sub(P, "", first[n]) }
	next
}
/Call Trace:/ && NR - last_hdr > 200 {
	rep[n]++
	last_hdr = NR
	if (rep[n] <= 3) { ctx[n] = ctx[n] "#   " $0 "\n"; take[n] = 12 }
	if (first[n] == "") first[n] = "stack dump (Call Trace:) with no report header before it"
	next
}
/printk messages dropped/ {
	lostmsg[n]++
	if (first[n] == "") { first[n] = $0; sub(P, "", first[n]) }
}
take[n] > 0 { ctx[n] = ctx[n] "#   " $0 "\n"; take[n]-- }
END {
	printf "1..%d\n", n
	for (i = 1; i <= n; i++) {
		what = "kernel log during " seg[i]
		if (rep[i] + lostmsg[i] == 0) {
			printf "ok %d %s: no warning, lockdep, hung-task, RCU stall, BUG or Oops report, no async callback in the PM task\n", i, what
			continue
		}
		printf "%s", ctx[i]
		why = rep[i] + 0 " report(s)"
		if (lostmsg[i]) why = why ", the console lost messages (scan incomplete)"
		printf "not ok %d %s: %s, the first: %s\n", i, what, why, first[i]
	}
}' "$console"
}

[ -n "${PMA_STREAM_NR:-}" ] || tap_doc 1
tap_stream "${PMA_STREAM_NR:-1}" "$name" scan
exit 0

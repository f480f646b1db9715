#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test, ending with one line "N passed, N failed".
#  1. host tools' unit tests (TAP);
#  2. the patched test kernel (lockdep, DEBUG_ATOMIC_SLEEP) in QEMU: the
#     pm_async kselftest, the KUnit suites and a clean kernel log;
#  3. the stock test kernel (lab part of the series only): the kselftest and
#     a clean kernel log, so the lab is proven on the unmodified PM core.
# Both kernels also run the reduced reliability set (faults, fuzz seeds,
# churn: scripts/guest/reliability.sh), pm-async-measure on real S3
# (measure.sh) and the advisor's profile of a real laptop's log replayed
# in the lab (replay.sh) before the kernel log check.
# CHECK_KERNELS="patched stock" and CHECK_STREAMS select parts.

set -uo pipefail
. "$(dirname "$0")/common.sh"

out=$TOP/out/check
rm -rf "$out"
mkdir -p "$out"
args=()
failed_steps=0

step() { say "== $*"; }

step "host tools: unit tests"
for d in "$TOP"/scripts/*/; do
	[ -f "$d/Makefile" ] && grep -q '^test:' "$d/Makefile" || continue
	name=$(basename "$d")
	make -s -C "$d" test >"$out/host-$name.tap" 2>"$out/host-$name.err" ||
		{ [ -s "$out/host-$name.tap" ] || cat "$out/host-$name.err" >&2; }
	args+=("host-$name" "$out/host-$name.tap")
done
"$TOP/scripts/tests/run.sh" >"$out/host-harness.tap" 2>&1 || true
args+=("host-harness" "$out/host-harness.tap")

"$TOP/scripts/tree.sh" || exit 1

# The series as it would be mailed: git am onto a fresh tree, checkpatch
# --strict and kernel-doc per patch (the reduced form of make
# series-check; the per-patch builds run in "make series-check").
step "series: make series + series-check without builds"
{
	echo "TAP version 13"
	echo "1..1"
	if "$TOP/scripts/series.sh" >"$out/series.log" 2>&1 &&
	   SERIES_CHECK_BUILD=0 "$TOP/scripts/series-check.sh" >>"$out/series.log" 2>&1; then
		echo "ok 1 series: git am, checkpatch --strict, kernel-doc"
	else
		sed 's/^/# /' "$out/series.log" | tail -n 40
		echo "not ok 1 series: git am, checkpatch --strict, kernel-doc"
	fi
} >"$out/series.tap"
args+=("series" "$out/series.tap")
for k in ${CHECK_KERNELS:-patched stock}; do
	step "$k kernel (test flavour): build"
	if ! "$TOP/scripts/build-kernel.sh" "$k" test ||
	   ! "$TOP/scripts/mkinitramfs.sh" "$k" test; then
		echo "not ok 1 build of the $k test kernel" >"$out/$k-build.tap"
		args+=("$k" "$out/$k-build.tap")
		continue
	fi
	streams=${CHECK_STREAMS:-kselftest kunit reliability measure replay dmesg}
	[ "$k" = stock ] && streams=${streams/kunit/}
	step "$k kernel: booting QEMU for: $streams"
	# no_console_suspend: the lab's watchdog reports a hung transition
	# on the console (scripts/guest/rlib.sh).
	"$TOP/scripts/qemu-run.sh" -k "$k" -f test -t "${CHECK_TIMEOUT:-1500}" \
		-a no_console_suspend -o "$out/$k" -- "sh /pma/check.sh $streams" | sed -u 's/^/    /'
	args+=("$k" "$out/$k/results.log")
done

say "== summary"
TAP_TOTALS=$out/totals "$TOP/scripts/tap-summary.sh" "${args[@]}"
read -r pass fail skip <"$out/totals"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]

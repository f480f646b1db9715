#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make drivers-soak: many real S3 cycles of the laptop machine's real
# drivers, with the lab's devices beside them, on each kernel: the guest's
# drivers stream (scripts/guest/drivers.sh) with DRIVERS_SOAK_CYCLES (500)
# S3 cycles spread over its four settings (the kernel's power/async, every
# device async, random mixes, pm_async=0), plus one hibernation
# (pm_test=devices) per setting.  Every cycle is checked as in make check:
# it succeeded, no kernel warning, every device back.  The kernels are
# DRIVERS_SOAK_KERNELS ("stock patched"); the summary per kernel gives the
# cycles, hangs, violations, bad cycles (a device lost, a failed
# transition, a warning) and the kernel log check; the logs stay in
# out/drivers-soak/KERNEL.  The kernels are built first, then their guests
# run side by side (a soak checks outcomes, not times; the wake alarm's
# wait leaves the cores idle): DRIVERS_SOAK_PARALLEL=0 runs them one after
# the other.  Exit status 0 only if every kernel's run was clean.

set -uo pipefail
. "$(dirname "$0")/common.sh"

S=$TOP/scripts
n=${DRIVERS_SOAK_CYCLES:-500}
per=$(((n + 3) / 4))
out=$TOP/out/drivers-soak
mkdir -p "$out"
"$S/tree.sh" || die "make tree failed"
kernels=${DRIVERS_SOAK_KERNELS:-stock patched}
for k in $kernels; do
	"$S/build-kernel.sh" "$k" test+laptop && "$S/mkinitramfs.sh" "$k" test+laptop ||
		die "cannot build the $k test+laptop kernel"
done
# S3 under TCG: about 10 s a cycle with the devices' times and the wake
# alarm; 30 s each is the timeout.
tmo=$((per * 4 * 30 + 600))

soak()
{
	local k=$1

	say "$k: $((per * 4)) real S3 cycles and 4 hibernations on the laptop machine (timeout $tmo s, log $out/$k.log)"
	"$S/qemu-run.sh" -k "$k" -f test+laptop -M laptop -t "$tmo" -p -a no_console_suspend \
		-o "$out/$k" -- "DRIVERS_S3=$per sh /pma/check.sh drivers" >"$out/$k.log" 2>&1
	"$S/guest-checks.sh" "$k-laptop" "$out/$k" "$?" "$tmo" drivers >"$out/$k/guest.log"
}
# shellcheck disable=SC2086
each_kernel "${DRIVERS_SOAK_PARALLEL:-1}" soak $kernels

status=0
for k in $kernels; do
	# The stream's lines are indented by 4 (one KTAP subtest, tap.sh).
	sum=$(sed -n 's/^    # SUMMARY campaign=drivers //p' "$out/$k/results.log" | head -n 1)
	kl=$(grep -c '^    not ok' "$out/$k/guest.log")
	bad=$(grep -c '^    not ok' "$out/$k/results.log")
	echo "$k: $sum; not ok results $bad; guest/kernel-log failures $kl"
	[ -n "$sum" ] && [ "$bad" = 0 ] && [ "$kl" = 0 ] || status=1
done
exit $status

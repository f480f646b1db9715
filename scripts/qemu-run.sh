#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-run.sh [options] -- COMMAND...
#
# Boot build/KERNEL/obj-FLAVOUR in qemu-system-x86_64 (TCG) with its
# initramfs, run COMMAND (a shell command line) in the guest and print its
# output as it comes.  The exit status is COMMAND's; a guest that crashes,
# powers off without reporting, or runs past the timeout is killed and
# reported as a failure with the last console lines.
#
# Options:
#   -k KERNEL    stock|patched (default patched)
#   -f FLAVOUR   test|bench (default test)
#   -s N         virtual CPUs (default $PMA_SMP or 2)
#   -m MB        memory (default 1024)
#   -t SECONDS   timeout (default 900)
#   -o DIR       keep console.log and results.log in DIR
#   -a ARGS      extra kernel command line
#   -q           do not echo the guest output (still written to DIR)
#   -p           echo only the guest's progress lines ("# [...")
#   -i FILE      put FILE in the guest as /extra/BASENAME (repeatable)

set -euo pipefail
. "$(dirname "$0")/common.sh"

kernel=patched flavour=test smp=${PMA_SMP:-2} mem=1024 timeout=900
logdir="" extra="" quiet=0 files=()
while getopts "k:f:s:m:t:o:a:qpi:" opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	f) flavour=$OPTARG ;;
	s) smp=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) timeout=$OPTARG ;;
	o) logdir=$OPTARG ;;
	a) extra=$OPTARG ;;
	q) quiet=1 ;;
	p) quiet=2 ;;
	i) files+=("$OPTARG") ;;
	*) die "usage: qemu-run.sh [-k stock|patched] [-f test|bench] [-s N] [-t S] [-o DIR] -- COMMAND" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || die "no command given"

image=$(bzimage "$kernel" "$flavour")
base=$BUILD/$kernel/initramfs-$flavour.cpio.gz
[ -f "$image" ] || die "$image missing: build it first (make kernel / base-kernel)"
[ -f "$base" ] || die "$base missing: run 'make initramfs'"

work=$(mktemp -d)
[ -n "$logdir" ] || logdir=$work
mkdir -p "$logdir"
console=$logdir/console.log
results=$logdir/results.log
: >"$console"
: >"$results"
qpid=""
cleanup()
{
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The command travels as /run.sh in a second cpio archive; the kernel
# unpacks concatenated archives in order.
mkdir -p "$work/extra/extra"
printf '%s\n' "$*" >"$work/extra/run.sh"
for f in "${files[@]}"; do
	cp "$f" "$work/extra/extra/" || die "cannot read $f"
done
(cd "$work/extra" && find . | cpio -o -H newc --quiet -R 0:0) | gzip -1 >"$work/extra.cpio.gz"
cat "$base" "$work/extra.cpio.gz" >"$work/initrd"

append="console=ttyS0 panic=-1 oops=panic suspend.pm_test_delay=0 $extra"
qemu-system-x86_64 -machine pc -accel tcg -smp "$smp" -m "$mem" \
	-kernel "$image" -initrd "$work/initrd" -append "$append" \
	-display none -vga none -monitor none -no-reboot \
	-serial "file:$console" -serial "file:$results" </dev/null &
qpid=$!

if [ $quiet = 0 ]; then
	tail -n +1 -F "$results" --pid="$qpid" 2>/dev/null &
elif [ $quiet = 2 ]; then
	tail -n +1 -F "$results" --pid="$qpid" 2>/dev/null | grep --line-buffered '^# \[' &
fi
# The guest's tty turns "\n" into "\r\n"; the logs are read by scripts
# (check.sh, tap-summary.sh, kernel-log.sh) after a timeout too.
crlf() { sed -i 's/\r$//' "$results" "$console"; }

deadline=$((SECONDS + timeout))
while kill -0 "$qpid" 2>/dev/null; do
	if [ $SECONDS -ge $deadline ]; then
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
		qpid=""
		sleep 0.5
		crlf
		echo "[pm-async] TIMEOUT: guest ($kernel-$flavour) still running after ${timeout}s; last console lines:" >&2
		tail -n 40 "$console" | sed 's/^/    /' >&2
		exit 124
	fi
	sleep 0.2
done
wait "$qpid" 2>/dev/null || true
qpid=""
sleep 0.3
crlf

rc=$(sed -n 's/^@@PMA-END rc=\([0-9]*\).*/\1/p' "$results" | tail -n 1)
if [ -z "$rc" ]; then
	echo "[pm-async] FAILED: guest ($kernel-$flavour) stopped without reporting; last console lines:" >&2
	tail -n 40 "$console" | sed 's/^/    /' >&2
	exit 125
fi
exit "$rc"

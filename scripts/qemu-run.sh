#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-run.sh [options] -- COMMAND...
#
# Boot build/KERNEL/obj-FLAVOUR in qemu-system-x86_64 (TCG) with its
# initramfs, run COMMAND (a shell command line) in the guest and print its
# output as it comes.  The exit status is COMMAND's; a guest that crashes,
# powers off without reporting, or runs past the timeout is killed and
# reported as a failure with the last console lines: 124 for the timeout,
# 125 otherwise, also when the lab's watchdog warns of a hung transition.
#
# Options:
#   -k KERNEL    stock|patched (default patched)
#   -f FLAVOUR   test|bench, or test+laptop|bench+laptop (default test)
#   -M MACHINE   pc (default $PMA_MACHINE or pc: the lab's machine) or
#                laptop (q35 with real devices and their drivers; the
#                kernel needs a "+laptop" flavour), see laptop_args below
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
machine=${PMA_MACHINE:-pc}
logdir="" extra="" quiet=0 files=()
while getopts "k:f:M:s:m:t:o:a:qpi:" opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	f) flavour=$OPTARG ;;
	M) machine=$OPTARG ;;
	s) smp=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) timeout=$OPTARG ;;
	o) logdir=$OPTARG ;;
	a) extra=$OPTARG ;;
	q) quiet=1 ;;
	p) quiet=2 ;;
	i) files+=("$OPTARG") ;;
	*) die "usage: qemu-run.sh [-k stock|patched] [-f test|bench[+laptop]] [-M pc|laptop] [-s N] [-t S] [-o DIR] -- COMMAND" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || die "no command given"
case $machine in
pc) ;;
laptop) [[ $flavour == *+laptop* ]] || die "the laptop machine needs a kernel with its drivers: -f $flavour+laptop" ;;
*) die "unknown machine '$machine' (pc or laptop)" ;;
esac

# laptop_images DIR: the laptop machine's disks, small sparse files made on
# first use: a SATA disk with an MBR holding a swap partition (1 MiB - 49
# MiB, for hibernation) and a data partition, an NVMe namespace and a USB
# disk.  Each disk carries a signature at 1 MiB into its data area
# ("PMA-DISK-NAME") that the guest reads back after every transition.
laptop_images()
{
	local dir=$1 d

	mkdir -p "$dir"
	[ -f "$dir/done" ] && return 0
	truncate -s 64M "$dir/sata.img"
	truncate -s 16M "$dir/nvme.img" "$dir/usb.img"
	# MBR: partition 1 type 82 (swap) at LBA 2048, 98304 sectors (48
	# MiB); partition 2 type 83 from LBA 100352 to the end.
	python3 - "$dir/sata.img" <<-'PY' || return 1
		import struct, sys
		def part(kind, start, count):
		    return struct.pack('<B3sB3sII', 0, b'\xfe\xff\xff', kind, b'\xfe\xff\xff', start, count)
		mbr = bytearray(512)
		mbr[440:444] = b'PMA1'
		mbr[446:462] = part(0x82, 2048, 98304)
		mbr[462:478] = part(0x83, 100352, 131072 - 100352)
		mbr[510:512] = b'\x55\xaa'
		with open(sys.argv[1], 'r+b') as f:
		    f.write(mbr)
		    f.seek(100352 * 512 + (1 << 20))
		    f.write(b'PMA-DISK-sata\n')
		    # Partition 1 as mkswap makes it (version 1, 4 KiB pages).
		    pages = 98304 * 512 // 4096
		    f.seek(2048 * 512 + 1024)
		    f.write(struct.pack('<III', 1, pages - 1, 0) + b'PMA-SWAP-UUID-01' + b'pma-swap'.ljust(16, b'\0'))
		    f.seek(2048 * 512 + 4096 - 10)
		    f.write(b'SWAPSPACE2')
	PY
	for d in nvme usb; do
		printf 'PMA-DISK-%s\n' "$d" |
			dd of="$dir/$d.img" bs=1M seek=1 conv=notrunc status=none || return 1
	done
	touch "$dir/done"
}

# The laptop machine: q35 (ICH9: LPC with ACPI S3 allowed, i8042 with a
# keyboard and a mouse, the CMOS RTC, the built-in AHCI controller), EHCI
# with its three UHCI companions on 00:1d and a USB mouse (high-speed in
# QEMU, so EHCI keeps it), xHCI with a keyboard, a tablet and a disk, HD
# audio with a duplex codec, and NVMe and e1000e behind PCIe root ports.
# -nodefaults: no VGA, no default NIC; disks are opened with snapshot=on,
# so no run changes them.
laptop_args()
{
	local img=$1

	echo -machine q35 -nodefaults -global ICH9-LPC.disable_s3=0
	echo -drive if=none,id=sata0,format=raw,snapshot=on,file=$img/sata.img
	echo -device ide-hd,drive=sata0,bus=ide.0
	echo -device ich9-usb-ehci1,id=ehci,addr=1d.7,multifunction=on
	echo -device ich9-usb-uhci1,masterbus=ehci.0,firstport=0,addr=1d.0,multifunction=on
	echo -device ich9-usb-uhci2,masterbus=ehci.0,firstport=2,addr=1d.1
	echo -device ich9-usb-uhci3,masterbus=ehci.0,firstport=4,addr=1d.2
	echo -device usb-mouse,bus=ehci.0
	echo -device qemu-xhci,id=xhci
	echo -device usb-kbd,bus=xhci.0 -device usb-tablet,bus=xhci.0
	echo -drive if=none,id=usb0,format=raw,snapshot=on,file=$img/usb.img
	echo -device usb-storage,bus=xhci.0,drive=usb0
	echo -audiodev none,id=snd0
	echo -device ich9-intel-hda,addr=1b.0 -device hda-duplex,audiodev=snd0
	echo -device pcie-root-port,id=rp1,chassis=1,slot=1
	echo -drive if=none,id=nvm0,format=raw,snapshot=on,file=$img/nvme.img
	echo -device nvme,bus=rp1,serial=pma-nvme0,drive=nvm0
	echo -device pcie-root-port,id=rp2,chassis=2,slot=2
	echo -netdev user,id=net0,restrict=on -device e1000e,bus=rp2,netdev=net0
}

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
margs=(-machine pc -vga none)
if [ "$machine" = laptop ]; then
	# Two runs may share the images: the first makes them.
	exec 8>"$BUILD/laptop.lock"
	flock 8
	laptop_images "$BUILD/laptop" || die "cannot make the laptop machine's disk images in $BUILD/laptop"
	exec 8>&-
	# shellcheck disable=SC2207 # the arguments hold no blanks
	margs=($(laptop_args "$BUILD/laptop"))
	append="$append pma.machine=laptop"
fi
qemu-system-x86_64 "${margs[@]}" -accel tcg -smp "$smp" -m "$mem" \
	-kernel "$image" -initrd "$work/initrd" -append "$append" \
	-display none -monitor none -no-reboot \
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

# stop_guest WHY: stop QEMU, print WHY and the last console lines.
stop_guest()
{
	kill "$qpid" 2>/dev/null || true
	wait "$qpid" 2>/dev/null || true
	qpid=""
	sleep 0.5
	crlf
	echo "[pm-async] $1; last console lines:" >&2
	tail -n 40 "$console" | sed 's/^/    /' >&2
}

deadline=$((SECONDS + timeout))
ended="" hung="" polls=0
while kill -0 "$qpid" 2>/dev/null; do
	# The lab's watchdog warns of a hung transition and leaves the guest
	# as it is (nothing in it can end the transition): once the warning
	# is on the console, 2 s for the rest of it, then QEMU is stopped.
	polls=$((polls + 1))
	if [ -z "$hung" ] && [ $((polls % 5)) = 0 ] &&
		grep -qF "$WATCHDOG_HUNG" "$console" 2>/dev/null; then
		hung=$((SECONDS + 2))
	fi
	if [ -n "$hung" ] && [ $SECONDS -ge "$hung" ]; then
		stop_guest "HANG: the lab's watchdog caught a hung transition in the guest ($kernel-$flavour)"
		exit 125
	fi
	# q35 does not exit on the guest's ACPI power-off here ("reboot:
	# Power down", then nothing): once the guest has reported its end,
	# it gets 5 s to power off, then QEMU is stopped.
	if [ -z "$ended" ] && grep -q '^@@PMA-END' "$results" 2>/dev/null; then
		ended=$((SECONDS + 5))
	fi
	if [ -n "$ended" ] && [ $SECONDS -ge "$ended" ]; then
		kill "$qpid" 2>/dev/null || true
		break
	fi
	if [ $SECONDS -ge $deadline ]; then
		stop_guest "TIMEOUT: guest ($kernel-$flavour) still running after ${timeout}s"
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

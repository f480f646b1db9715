#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh KERNEL FLAVOUR: build/KERNEL/initramfs-FLAVOUR.cpio.gz with
# busybox, the kernel's modules, the pm_async kselftest (static) and the
# guest scripts.  The command to run is added per boot by qemu-run.sh as a
# second, concatenated cpio archive.

set -euo pipefail
. "$(dirname "$0")/common.sh"

kernel=${1:?kernel}
flavour=${2:?flavour}
obj=$(objdir "$kernel" "$flavour")
out=$BUILD/$kernel/initramfs-$flavour.cpio.gz
stage=$BUILD/$kernel/initramfs-$flavour
[ -f "$obj/arch/x86/boot/bzImage" ] || die "no kernel in $obj: run 'make kernel'"
busybox=$(command -v busybox || true)
[ -n "$busybox" ] && file -L "$busybox" | grep -q 'statically linked' ||
	busybox=/bin/busybox
[ -x "$busybox" ] || die "busybox-static is missing: run 'make deps'"

# The kselftest of the kernel's own tree (static: the guest has no C
# library).  The stock and patched trees have the same one, the series'
# last version (the stock tree takes the overlay files' last versions):
# it is built once, in build/kselftest, where the host finds the
# generator too.  A tree at the end of an earlier posting (series-check)
# has its own.
case $kernel in
stock | patched) kst=$BUILD/kselftest ksrc=$SRC kout=$BUILD/kselftest-build ;;
*)
	kst=$BUILD/$kernel/kselftest ksrc=$(srcdir "$kernel") kout=$BUILD/$kernel/kselftest-build
	rm -rf "$kst"
	;;
esac
if [ -d "$ksrc/tools/testing/selftests/pm_async" ]; then
	say "building the pm_async kselftest of $ksrc"
	make -s -C "$ksrc/tools/testing/selftests" TARGETS=pm_async \
		OUTPUT="$kout" LDFLAGS=-static \
		INSTALL_PATH="$kst" install >/dev/null
fi

# pm-async-measure and the advisor it summarizes with (static).
adv=
if [ -f "$TOP/tools/power/pm-async/Makefile" ]; then
	adv=$("$TOP/scripts/advise-static.sh")
fi

say "packing $out"
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,lib}
cp "$busybox" "$stage/bin/busybox"
for app in $("$busybox" --list-full); do
	[ -e "$stage/$app" ] || ln -s /bin/busybox "$stage/$app"
done
cp "$TOP/scripts/guest/init" "$stage/init"
chmod +x "$stage/init"
mkdir -p "$stage/pma"
cp "$TOP"/scripts/guest/*.sh "$stage/pma/" 2>/dev/null || true
# a real laptop's suspend log for the replay stream (replay.sh)
mkdir -p "$stage/pma/data"
cp "$TOP"/tools/power/pm-async/advise/tests/data/*.txt "$stage/pma/data/"
[ -d "$obj/modinst/lib/modules" ] && cp -a "$obj/modinst/lib/modules" "$stage/lib/"
[ -d "$kst" ] && cp -a "$kst" "$stage/kselftest"
cp "$TOP/tools/power/pm-async/measure/pm-async-measure" "$stage/usr/bin/"
[ -z "$adv" ] || cp "$adv" "$stage/usr/bin/"
(cd "$stage" && find . | sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"

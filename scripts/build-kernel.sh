#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh KERNEL FLAVOUR: build build/KERNEL/obj-FLAVOUR/bzImage
# and its modules.  KERNEL is "stock" (the lab part of the series only, PM
# core untouched) or "patched" (the whole series); FLAVOUR is "test"
# (configs/test.config: lockdep & co.) or "bench" (no debugging), or
# either with more fragments after a "+": "test+laptop" adds
# configs/laptop.config (the laptop machine's real drivers).  Both kernels
# of a flavour get the same configuration.

set -euo pipefail
. "$(dirname "$0")/common.sh"

kernel=${1:?kernel: stock|patched}
flavour=${2:?flavour: test|bench[+laptop]}
[ -d "$BUILD/$kernel/src" ] || die "unknown kernel '$kernel' (no $BUILD/$kernel/src)"
frags=()
IFS=+ read -ra parts <<<"$flavour"
for p in "${parts[@]}"; do
	[ -n "$p" ] && [ -f "$TOP/configs/$p.config" ] || die "unknown flavour '$flavour' (no configs/$p.config)"
	frags+=("$TOP/configs/$p.config")
done

src=$(srcdir "$kernel")
obj=$(objdir "$kernel" "$flavour")
[ -d "$src" ] || die "$src missing: run 'make tree'"
mkdir -p "$obj"
# Two builds of one kernel at a time would corrupt it: the second waits.
exec 9>"$obj.lock"
if ! flock -n 9; then
	say "waiting for another build of $kernel-$flavour to finish"
	flock 9
fi

cc=gcc
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	export CCACHE_BASEDIR=$BUILD
	export CCACHE_NOHASHDIR=1
fi
# The release string comes from LOCALVERSION on the command line, not from
# CONFIG_LOCALVERSION: the configuration (and so every object) stays the
# same for all kernels of a flavour, which lets ccache share them.  Setting
# it also keeps setlocalversion from adding "+" for a git tree.
release=$(localversion "$(debian_version)")-$kernel-$flavour
kmake() { make -s -C "$src" O="$obj" CC="$cc" HOSTCC="$cc" LOCALVERSION="$release" "$@"; }

# The fragment that makes this kernel: base + flavour + release string.
frag=$obj/pm-async.config
{
	cat "$TOP/configs/base.config" "${frags[@]}"
	echo 'CONFIG_LOCALVERSION=""'
	echo "# CONFIG_LOCALVERSION_AUTO is not set"
} >"$frag.new"

if ! cmp -s "$frag.new" "$frag" || [ ! -f "$obj/.config" ]; then
	say "configuring $kernel-$flavour (tinyconfig + configs/base.config + configs/${flavour//+/.config + configs/}.config)"
	mv "$frag.new" "$frag"
	kmake tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >/dev/null
	kmake olddefconfig >/dev/null
	# Every option we ask for must have survived: a typo or a missing
	# dependency would otherwise pass unnoticed.
	bad=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF -- "$line" "$obj/.config" ||
				{ say "config: '$line' did not stick"; bad=1; }
			;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			grep -q "^$sym=" "$obj/.config" &&
				{ say "config: $sym is set but should not be"; bad=1; }
			;;
		esac
	done <"$frag"
	[ $bad = 0 ] || { rm -f "$obj/.config"; die "configuration of $kernel-$flavour failed"; }
else
	rm -f "$frag.new"
fi

say "building kernel $kernel-$flavour ($(debian_version)) in $obj"
start=$SECONDS
kmake -j"$(nproc)" ${PMA_KTARGETS:-bzImage modules}
rm -rf "$obj/modinst"
kmake INSTALL_MOD_PATH="$obj/modinst" INSTALL_MOD_STRIP=1 modules_install >/dev/null
# The bench's workqueue floor module (bench/wqfloor, not part of the
# series), built against this kernel in its object tree and installed with
# its modules (lib/modules/RELEASE/updates).
if [ -f "$TOP/bench/wqfloor/Kbuild" ]; then
	ext=$obj/pma_wqfloor
	mkdir -p "$ext"
	cp -p "$TOP"/bench/wqfloor/Kbuild "$TOP"/bench/wqfloor/*.c "$ext/"
	kmake M="$ext" modules
	kmake M="$ext" INSTALL_MOD_PATH="$obj/modinst" INSTALL_MOD_STRIP=1 modules_install >/dev/null
fi
say "kernel $kernel-$flavour ready after $((SECONDS - start)) s: $(cat "$obj/include/config/kernel.release")"

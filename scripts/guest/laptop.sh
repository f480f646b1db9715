# SPDX-License-Identifier: GPL-2.0
#
# laptop.sh (in the guest, sourced): the laptop machine's devices, for
# drivers.sh and drvmeasure.sh.  inventory prints everything that must be
# back after a transition; laptop_settle waits for the devices still
# probing after boot; back compares the inventory with $T/inv.base (the
# caller's directory T), waiting for it up to 15 s.  Their own variables
# are named lp_*: a caller's i stays as it was.

SIG_OFF=1	# MiB into each disk's data area

# disk_sig DEV: the signature of block device DEV (sda, nvme0n1, ...): the
# data partition's (2) if it has one, else the whole disk's; read after its
# buffers are flushed, with O_DIRECT, so it comes from the device.
disk_sig()
{
	lp_d=/dev/$1
	[ -e /sys/block/$1/${1}2 ] && lp_d=/dev/${1}2
	[ -e /sys/block/$1/${1}p2 ] && lp_d=/dev/${1}p2
	blockdev --flushbufs $lp_d 2>/dev/null
	dd if=$lp_d bs=4096 skip=$((SIG_OFF * 256)) count=1 iflag=direct 2>/dev/null |
		head -c 64 | tr -d '\0' | head -n 1
}

# disks: "NAME SIGNATURE" per disk, sorted by signature.
disks()
{
	for lp_b in /sys/block/*; do
		lp_n=${lp_b##*/}
		case $lp_n in sd* | nvme*) ;; *) continue ;; esac
		echo "$lp_n $(disk_sig $lp_n)"
	done | sort -k2
}

# usb: "PATH VID:PID PRODUCT" of every USB device, hubs included.
usb()
{
	for lp_u in /sys/bus/usb/devices/*; do
		[ -f $lp_u/idVendor ] || continue
		echo "${lp_u##*/} $(cat $lp_u/idVendor):$(cat $lp_u/idProduct) $(cat $lp_u/product 2>/dev/null | tr ' ' _)"
	done | sort
}

inputs() { cat /sys/class/input/input*/name 2>/dev/null | sort; }
codecs() { ls /sys/bus/hdaudio/devices 2>/dev/null | sort; }

# inventory: everything that must be back after a transition.
inventory() { laptop_inventory; }
laptop_inventory()
{
	disks | sed 's/^/disk /'
	usb | sed 's/^/usb /'
	inputs | sed 's/^/input /'
	codecs | sed 's/^/hda /'
	for lp_n in /sys/class/net/*; do
		[ -e $lp_n/device ] && echo "net ${lp_n##*/} carrier=$(cat $lp_n/carrier 2>/dev/null)"
	done
}

# back: the inventory equals the one taken before the first transition,
# within 15 s (USB devices are reset and reconnected after xHCI's
# "Reinit" on every resume; e1000e takes a moment to get its link back).
back()
{
	lp_i=0
	while [ $lp_i -lt 30 ]; do
		inventory >$T/inv.now
		cmp -s $T/inv.base $T/inv.now && return 0
		sleep 0.5
		lp_i=$((lp_i + 1))
	done
	echo "# not every device is back after 15 s:"
	diff $T/inv.base $T/inv.now | grep '^[-+][^-+]' | head -n 20 | sed 's/^/#   /'
	return 1
}

# async_values: "PATH VALUE" for each power/async file PATH read from
# standard input.
async_values()
{
	while read -r lp_f; do echo "$lp_f $(cat $lp_f)"; done
}

# laptop_settle: bring the NICs' links up, then wait (up to 20 s) until
# the PS/2 mouse, the USB devices and the disks have probed and the NIC
# has its carrier.
laptop_settle()
{
	for lp_n in /sys/class/net/*; do
		[ -e $lp_n/device ] && ip link set ${lp_n##*/} up 2>/dev/null
	done
	lp_i=0
	while [ $lp_i -lt 40 ]; do
		[ "$(usb | grep -c ' 0627:0001 ')" -ge 2 ] && [ "$(disks | grep -c PMA-DISK)" -ge 3 ] &&
			grep -q 1 /sys/class/net/*/carrier 2>/dev/null && break
		sleep 0.5
		lp_i=$((lp_i + 1))
	done
}

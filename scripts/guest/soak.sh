#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh CYCLES [PROFILE]: CYCLES consecutive cycles of PROFILE (default
# phone) with pm_async=1 (in the guest).  Every cycle is checked as in
# fuzz.sh.  Slab usage is sampled after SOAK_WARMUP cycles and at the end:
#  - with /proc/slabinfo (the slab flavour): the caches that grow with the
#    number of tasks (the async framework's worker pool grows with the
#    largest number of callbacks that slept at once) and vmap_area (lazily
#    purged vmalloc areas: worker stacks, large seq_file buffers) are
#    shown apart, and growth of all the other caches' objects by more than
#    SOAK_OTHER_KB (default 128) kB fails;
#  - without it: growth of SUnreclaim by more than SOAK_SLAB_KB (default
#    512) kB fails; this counts new workers too;
#  - under KASAN, whose quarantine keeps freed objects in the caches, there
#    is no slab verdict: kmemleak is the leak check there.
# With kmemleak in the kernel, the leak list is cleared after the warm-up
# and scanned twice at the end: any unreferenced object fails.  Progress
# every 50 cycles.

. /pma/rlib.sh

cycles=${1:-1000}
prof=${2:-phone}
warm=${SOAK_WARMUP:-20}
slack=${SOAK_SLAB_KB:-512}
other_max=${SOAK_OTHER_KB:-128}
# Caches whose objects come with tasks (dentry: the /proc/PID entries that
# kworkers() reads for every task), and the vmalloc bookkeeping.
TASK_CACHES=" task_struct signal_cache sighand_cache cred pid proc_inode_cache dentry vm_area_struct maple_node vmap_area "

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# Bytes in use per slab cache (active objects x object size), to show
# which caches grew; empty without /proc/slabinfo.
slabs() { awk 'NR > 2 { print $1, $2 * $4 }' /proc/slabinfo 2>/dev/null; }

# Kernel worker threads: the async framework's pool grows with the largest
# concurrency seen, and each worker is a task_struct in the slab.
kworkers() { grep -l '^kworker' /proc/[0-9]*/comm 2>/dev/null | wc -l; }

rl_init
kasan=0
dmesg | grep -q 'KernelAddressSanitizer initialized' && kasan=1
RL_SCALE=${RL_SCALE:-100} rl_topo "$prof" "$T/in.topo" && rl_load "$T/in.topo" ||
	{ echo "Bail out! cannot load $prof"; exit 1; }
ndev=$(wc -l <"$T/topo")
echo "1" >/sys/power/pm_async
fails=0
first=""
c=0
while [ $c -lt "$cycles" ]; do
	c=$((c + 1))
	if ! rl_good_cycle; then
		fails=$((fails + 1))
		[ -n "$first" ] || first=$c
		echo "# cycle $c failed"
		[ $fails -ge 5 ] && { echo "# stopping after 5 failed cycles"; break; }
	fi
	if [ $c = "$warm" ]; then
		echo 2 >/proc/sys/vm/drop_caches
		s0=$(meminfo Slab) u0=$(meminfo SUnreclaim)
		[ -w $RL_KML ] && echo clear >$RL_KML
		slabs >"$T/slab0"
		k0=$(kworkers)
		echo "# [soak] after $c cycles: Slab ${s0} kB, SUnreclaim ${u0} kB, $k0 kworkers"
	fi
	[ $((c % 50)) = 0 ] && echo "# [soak] $prof: $c/$cycles cycles, $fails failed, Slab $(meminfo Slab) kB"
done
tap_result $fails "soak: $c cycles of $prof ($ndev devices), pm_async=1${first:+, first failure at cycle $first}"

echo 2 >/proc/sys/vm/drop_caches
s1=$(meminfo Slab) u1=$(meminfo SUnreclaim)
err=0
if [ -n "${u0:-}" ]; then
	echo "# slab after cycle $warm: Slab $s0 kB, SUnreclaim $u0 kB; after cycle $c: Slab $s1 kB, SUnreclaim $u1 kB"
	echo "# kworkers after cycle $warm: $k0, after cycle $c: $(kworkers)"
	slabs >"$T/slab1"
	if [ $kasan = 1 ]; then
		tap_skip "soak: slab growth" "KASAN quarantine holds freed objects (SOAK_FLAVOUR=slab for this check)"
	elif [ -s "$T/slab1" ]; then
		# kB of growth per cache, the caches that come with tasks apart;
		# the last line is "TASK_KB OTHER_KB"
		awk -v tc="$TASK_CACHES" 'NR == FNR { b[$1] = $2; next }
		{
			d = ($2 - b[$1]) / 1024
			if (index(tc, " " $1 " ")) { task += d; if (d >= 8) tl = tl sprintf(" %s%+d", $1, d) }
			else if (d > 0) { other += d; if (d >= 4) ol = ol sprintf(" %s%+d", $1, d) }
		}
		END {
			print "#   caches of tasks and vmalloc areas (kB, >= 8):" (tl == "" ? " -" : tl)
			print "#   other caches that grew (kB, >= 4):" (ol == "" ? " -" : ol)
			printf "%d %d\n", task, other
		}' "$T/slab0" "$T/slab1" >"$T/slabmsg"
		grep '^#' "$T/slabmsg"
		set -- $(tail -n 1 "$T/slabmsg")
		echo "# tasks (new workers) and lazily freed vmalloc areas account for $1 kB; the other caches grew by $2 kB"
		[ "$2" -le "$other_max" ] || err=1
		tap_result $err "soak: slab caches other than the tasks' grew by $2 kB over $((c - warm)) cycles (at most $other_max; SUnreclaim $((u1 - u0)) kB, with $(( $(kworkers) - k0 )) new kworkers)"
	else
		[ $((u1 - u0)) -le "$slack" ] || err=1
		tap_result $err "soak: unreclaimable slab grew by $((u1 - u0)) kB over $((c - warm)) cycles (at most $slack; no /proc/slabinfo: SOAK_FLAVOUR=slab tells workers from leaks)"
	fi
else
	tap_result 1 "soak: fewer cycles than the warm-up ($warm), no slab figures"
fi
if [ -e $RL_KML ]; then
	if rl_kmemleak_scan; then
		tap_result $((KML_N != 0)) "soak: kmemleak reports $KML_N unreferenced objects"
	else
		tap_result 1 "soak: the kmemleak scan failed (kmemleak disabled?), no leak verdict"
	fi
else
	tap_skip "soak: kmemleak" "not in this kernel"
fi
rl_summary soak
rl_fini

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: stock and patched kernels of the bench flavour (no lock or
# memory debugging, same configuration), every profile, sync and async
# cycles on both kernels in the same session, then the report.
#
#   BENCH_PROFILES  names under tools/testing/selftests/pm_async/profiles
#                   or printed by its pm_async_gen (chain, wide, zero)
#                   or paths to topology files (default: all shipped), and
#                   "drivers": the laptop machine's real drivers, real S3
#                   (kernels of the bench+laptop flavour, no lab device;
#                   scripts/guest/drvbench.sh, table by
#                   scripts/drivers-table.sh, in drivers.txt: patched
#                   against stock; every other kernel of BENCH_KERNELS
#                   against stock in drivers-NAME.txt, in the same table
#                   form, where "patched" stands for NAME)
#   BENCH_CYCLES    measured cycles per kernel, profile and mode (10)
#   BENCH_ROUNDS    alternations stock/patched per profile (2): the cycles
#                   are split between rounds so machine drift hits both
#   BENCH_WARMUP    untimed cycles after loading a profile in a boot (1)
#   BENCH_OUT       output directory (out/bench/<date>)
#   BENCH_SVG       "all" (one timeline per profile and kernel) or "none"
#   BENCH_FLOOR     "ITEMS US" of the workqueue floor (1000 1000: the wide
#                   profile's leaves without the PM core), or "none"
#   BENCH_KERNELS   the kernels of the lab profiles, in the order each round
#                   runs them ("stock patched"); another name is a tree in
#                   build/NAME/src (a form of the series to compare with
#                   the others in the same run, e.g. a git worktree of
#                   build/patched/src at another commit), built here

set -euo pipefail
. "$(dirname "$0")/common.sh"

profiles=${BENCH_PROFILES:-laptop phone wide chain zero wakeup nopm-parent drivers}
cycles=${BENCH_CYCLES:-10}
rounds=${BENCH_ROUNDS:-2}
warmup=${BENCH_WARMUP:-1}
out=${BENCH_OUT:-$TOP/out/bench/$(date +%Y%m%d-%H%M%S)}
svg=${BENCH_SVG:-all}
floor=${BENCH_FLOOR:-1000 1000}
flavour=bench
kernels=${BENCH_KERNELS:-stock patched}
[ "$rounds" -ge 1 ] && [ "$cycles" -ge "$rounds" ] ||
	die "BENCH_CYCLES ($cycles) must be at least BENCH_ROUNDS ($rounds)"

"$TOP/scripts/tree.sh"
drivers=0
for prof in $profiles; do [ "$prof" = drivers ] && drivers=1; done
for k in $kernels; do
	"$TOP/scripts/build-kernel.sh" $k $flavour
	"$TOP/scripts/mkinitramfs.sh" $k $flavour
done
if [ $drivers = 1 ]; then
	case " $kernels " in
	*" stock "*) ;;
	*) die "the drivers profile compares with stock: add it to BENCH_KERNELS" ;;
	esac
	for k in $kernels; do
		"$TOP/scripts/build-kernel.sh" $k $flavour+laptop
		"$TOP/scripts/mkinitramfs.sh" $k $flavour+laptop
	done
fi
make -s -C "$TOP/tools/power/pm-async" pm-async-report
report=$TOP/tools/power/pm-async/pm-async-report
version=$(debian_version)
mkdir -p "$out/raw"

# drivers ROUND N: the real drivers' N sync and N async real S3 cycles on
# each kernel, in out/drivers/KERNEL-ROUND.  Real S3 under TCG takes about
# 10 s a cycle (the wake alarm's 6 s included).
drivers_round()
{
	local k

	for k in $kernels; do
		say "== drivers: $k kernel, round $1/$rounds, $2 real S3 cycles per mode"
		if ! "$TOP/scripts/qemu-run.sh" -k $k -f $flavour+laptop -M laptop -p \
			-t $(($2 * 2 * 30 + 600)) -o "$out/drivers/$k-$1" -- "sh /pma/drvbench.sh $2"; then
			say "drivers on $k: some cycles failed (see $out/drivers/$k-$1)"
			failed=1
		fi
	done
}

failed=0
for prof in $profiles; do
	args=() name=$(basename "$prof" .topo)
	if [ "$prof" = drivers ]; then
		for ((r = 1; r <= rounds; r++)); do
			drivers_round $r $(( cycles / rounds + (r <= cycles % rounds ? 1 : 0) ))
		done
		continue
	fi
	if [ -f "$prof" ]; then
		args=(-i "$prof")
		guest_prof=/extra/$(basename "$prof")
	else
		case $prof in
		chain | wide | zero) ;; # printed by pm_async_gen profile NAME
		*)
			[ -f "$TOP/tools/testing/selftests/pm_async/profiles/$prof.topo" ] ||
				die "no profile '$prof' (a shipped name or a topology file)"
			;;
		esac
		guest_prof=$prof
	fi
	for ((r = 1; r <= rounds; r++)); do
		n=$(( cycles / rounds + (r <= cycles % rounds ? 1 : 0) ))
		for k in $kernels; do
			say "== $name: $k kernel, round $r/$rounds, $n cycles per mode"
			log=$out/raw/$name-$k-$r
			if ! "$TOP/scripts/qemu-run.sh" -k $k -f $flavour -p -t 1800 \
				-o "$log" "${args[@]}" -- \
				"sh /pma/cycles.sh $k $version $n $warmup $guest_prof"; then
				say "$name on $k: some cycles failed (see $log)"
				failed=1
			fi
		done
	done
done

# The workqueue floor, on the patched kernel (it does not use the PM core,
# so either kernel would do): the lowest a PM core running each sleeping
# callback in a worker of its own reaches, for the same limit as the report.
if [ "$floor" != none ]; then
	set -- $floor
	[ $# = 2 ] || die "BENCH_FLOOR must be 'ITEMS US' or 'none'"
	say "== workqueue floor: $1 items of $2 us, patched kernel"
	if ! "$TOP/scripts/qemu-run.sh" -k patched -f $flavour -p -t 900 \
		-o "$out/floor" -- "sh /pma/floor.sh patched 5 $1 $2"; then
		say "workqueue floor failed (see $out/floor)"
		failed=1
	fi
fi

# The raw logs number cycles per boot: renumber by kernel/profile/mode so
# the report sees every cycle once.
all=$out/cycles.txt
: >"$out/table.txt"
if compgen -G "$out/raw/*/results.log" >/dev/null; then
	awk '/^=== cycle / {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		key = f["kernel"] "/" f["profile"] "/" f["mode"]
		sub(/ cycle=[0-9]+/, " cycle=" ++n[key])
	} { print }' "$out"/raw/*/results.log >"$all"
	say "== report"
	"$report" --json "$out/bench.json" "$all" | tee "$out/table.txt"
fi
if [ -s "$out/floor/results.log" ]; then
	"$TOP/scripts/floor-table.sh" "$out/floor/results.log" |
		tee -a "$out/table.txt"
fi
if [ $drivers = 1 ]; then
	if [ -d "$out/drivers" ] && compgen -G "$out/drivers/patched-*" >/dev/null; then
		"$TOP/scripts/drivers-table.sh" "$out/drivers" >"$out/drivers.txt" || failed=1
		tee -a "$out/table.txt" <"$out/drivers.txt"
	fi
	# Every other kernel against stock, in the same table.
	for k in $kernels; do
		case $k in stock | patched) continue ;; esac
		"$TOP/scripts/drivers-table.sh" "$out/drivers" $k >"$out/drivers-$k.txt" || true
		tee -a "$out/table.txt" <"$out/drivers-$k.txt"
	done
fi
if [ "$svg" = all ]; then
	for prof in $profiles; do
		[ "$prof" = drivers ] && continue
		name=$(basename "$prof" .topo)
		for k in $kernels; do
			"$report" --quiet --filter "profile=$name" \
				--svg "$out/$name-$k-async.svg" \
				--cycle "kernel=$k,mode=async,cycle=1" "$all" >/dev/null &&
				echo "timeline: $out/$name-$k-async.svg"
		done
	done
fi
say "results in $out"
exit $failed

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# drivers-table.sh DIR [NAME]: the table of make bench's "drivers"
# profile.  DIR holds one directory a boot, KERNEL-ROUND, each with the
# results.log of scripts/guest/drvbench.sh (the laptop machine's real
# drivers, real S3 cycles, pm_async=0 and 1 in turn, by
# pm-async-measure).  Its files are
# written back to DIR/KERNEL-ROUND/run (cycle-NNN-MODE.log, run.txt,
# links.txt), then:
#
#  - pm-async-advise summarize over every round: per kernel and mode, the
#    device-phase times ('PM: ... complete after'), mean (+/- sd), the
#    bound and the critical path (DIR/summary.txt);
#  - pm-async-advise on every async cycle's log (with its run's links.txt,
#    the device links read from sysfs, and the device tree from the log's
#    parents; --units us: 7.3 prints real microseconds): the bound of that
#    cycle from its measured callback times, and, on stock's logs, its
#    prediction of mainline (stock itself) and of pm-async (patched);
#  - one table: per phase, both kernels sync and async, patched / stock,
#    the bound, the advisor's predictions beside the measurements with
#    their errors, and a verdict: "slower" when patched's async mean
#    exceeds stock's by more than the spread of the same run (the sum of
#    the two standard deviations), else "ok".  S3 only: the phases are
#    named as for suspend.
#
# With NAME, NAME's boots (DIR/NAME-ROUND) take patched's place in the
# table, against stock's: another form of the series measured in the same
# run (BENCH_KERNELS), seen through DIR/as-NAME, whose links name them
# patched-ROUND.
#
# Exit status: 0 when every kernel and mode has good cycles (summarize
# exits 0) and no phase is "slower"; 1 otherwise.  DRIVERS_ADVISE: the advisor (default the static
# one the guests carry).

set -uo pipefail
. "$(dirname "$0")/common.sh"

dir=${1:?usage: drivers-table.sh DIR [NAME]}
name=${2:-patched}
adv=${DRIVERS_ADVISE:-$("$TOP/scripts/advise-static.sh")}
[ -x "$adv" ] || die "no pm-async-advise at $adv"

if [ "$name" != patched ]; then
	sub=$dir/as-$name
	rm -rf "$sub"
	mkdir -p "$sub"
	for r in "$dir"/stock-[0-9]* "$dir/$name"-[0-9]*; do
		[ -d "$r" ] || continue
		b=${r##*/}
		ln -s "../$b" "$sub/${b/#$name-/patched-}"
	done
	echo "$name against stock (\"patched\" in this table is $name)"
	dir=$sub
fi

# The files of each boot, back from its results.log.
for r in "$dir"/*-[0-9]*/results.log; do
	[ -f "$r" ] || continue
	d=$(dirname "$r")/run
	rm -rf "$d"
	mkdir -p "$d"
	# A file is written once its end marker is seen: a boot cut short
	# leaves no partial log behind.
	awk -v d="$d" '
		/^@@DRVBENCH-FILE / { f = d "/" $2; t = f ".part"; printf "" >t; next }
		/^@@DRVBENCH-END / { if (f != "") { close(t); system("mv \"" t "\" \"" f "\"") } f = ""; next }
		f != "" && /^\|/ { print substr($0, 2) >>t }' "$r"
	rm -f "$d"/*.part
done

args=() missing=""
for k in stock patched; do
	for m in sync async; do
		set -- "$dir"/$k-[0-9]*/run/cycle-*-$m.log
		if [ -f "$1" ]; then
			args+=(--label "$k-$m" "$@")
		else
			missing="$missing $k-$m"
		fi
	done
done
[ ${#args[@]} -gt 0 ] || die "no cycle log under $dir/*/run"
"$adv" summarize --units us "${args[@]}" >"$dir/summary.txt" 2>&1
src=$?

# The advisor on each async cycle: its table rows, tagged by kernel.
: >"$dir/advise.rows"
for k in stock patched; do
	for f in "$dir"/$k-[0-9]*/run/cycle-*-async.log; do
		[ -f "$f" ] || continue
		"$adv" --units us "$f" >"$f.advise" 2>&1 || continue
		# The rows of the table of predictions, from its header to its
		# "= resume" row; an aborted phase ("!") is no prediction.
		awk -v k=$k '/^phase +observed/ { on = 1; next }
			on && /^= / { if ($3 !~ /!/) print k, "=" $2, $3, $8, $9, $10; if ($2 == "resume") on = 0; next }
			on && NF >= 10 { if ($2 !~ /!/) print k, $1, $2, $7, $8, $9; next }
			on { on = 0 }' "$f.advise" >>"$dir/advise.rows"
	done
done

awk -v missing="$missing" -v src="$src" '
# summarize: "label n suspend resume suspend suspend_late ..." rows with
# "mean (+/- sd)" cells.
FILENAME ~ /summary.txt$/ {
	if ($1 == "label" && $2 == "n") { for (i = 3; i <= NF; i++) col[i - 2] = (i <= 4 ? "=" : "") $i; nc = NF - 2; on = 1; next }
	if (on && NF == 2 + 3 * nc) {
		for (j = 1; j <= nc; j++) {
			mean[$1, col[j]] = $(3 * j); s = $(3 * j + 2); sub(/\)$/, "", s); sd[$1, col[j]] = s
		}
		n[$1] = $2; next
	}
	if (on && NF == 0) on = 0
	next
}
# advise.rows: KERNEL PHASE OBSERVED MAINLINE PM-ASYNC BOUND
{
	# Numbers only: "-" or "stuck" is no prediction.
	k = $1; p = $2
	if (num($6)) { bs[k, p] += $6; bn[k, p]++ }
	if (k == "stock") {
		if (num($4)) { ml[p] += $4; mln[p]++ }
		if (num($5)) { pa[p] += $5; pan[p]++ }
	}
}
function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?$/ }
function cell(l, p) { return ((l, p) in mean) ? sprintf("%.1f (%.1f)", mean[l, p], sd[l, p]) : "-" }
function err(pred, meas) { return meas > 0 ? sprintf("%+.0f%%", (pred - meas) / meas * 100) : "-" }
END {
	printf "\ndrivers: the laptop machine (q35) with its real drivers, real S3 (mem), pm_async=0 (sync) and 1 (async);\n"
	printf "device-phase times in ms, mean (sd) over %s/%s/%s/%s cycles (stock sync/async, patched sync/async);\n", \
		n["stock-sync"] + 0, n["stock-async"] + 0, n["patched-sync"] + 0, n["patched-async"] + 0
	printf "bound: max(critical path, total / limit) of each async cycle from its measured callback times, the\n"
	printf "device tree and the device links (sysfs), mean over both kernels; advisor: pm-async-advise on each of\n"
	printf "stock'"'"'s async logs, its mainline and pm-async predictions (mean) and their error against stock'"'"'s and\n"
	printf "patched'"'"'s measured async means; slower: patched async above stock async by more than sd + sd\n"
	printf "%-14s %13s %13s %13s %13s %6s %8s %17s %17s %s\n", "phase", "stock sync", "patched sync", "stock async",
		"patched async", "p/s", "bound", "adv mainline", "adv pm-async", "verdict"
	np = split("=suspend =resume suspend suspend_late suspend_noirq resume_noirq resume_early resume", ph, " ")
	bad = 0
	for (i = 1; i <= np; i++) {
		p = ph[i]
		if (!(("stock-async", p) in mean) || !(("patched-async", p) in mean)) continue
		sa = mean["stock-async", p]; pa_ = mean["patched-async", p]
		r = sa > 0 ? sprintf("%.2f", pa_ / sa) : "-"
		bsum = bn["stock", p] + bn["patched", p]
		b = bsum ? sprintf("%.1f", (bs["stock", p] + bs["patched", p]) / bsum) : "-"
		m = mln[p] ? ml[p] / mln[p] : -1; q = pan[p] ? pa[p] / pan[p] : -1
		am = m >= 0 ? sprintf("%.1f %s", m, err(m, sa)) : "-"
		ap = q >= 0 ? sprintf("%.1f %s", q, err(q, pa_)) : "-"
		v = "ok"
		if (pa_ - sa > sd["stock-async", p] + sd["patched-async", p]) { v = "slower"; bad++ }
		name = p; sub(/^=/, "= ", name)
		printf "%-14s %13s %13s %13s %13s %6s %8s %17s %17s %s\n", name, cell("stock-sync", p), cell("patched-sync", p),
			cell("stock-async", p), cell("patched-async", p), r, b, am, ap, v
	}
	if (missing != "") { printf "no cycle for:%s\n", missing; bad++ }
	split("stock-sync stock-async patched-sync patched-async", lb, " ")
	for (i = 1; i <= 4; i++)
		if (index(missing, lb[i]) == 0 && !n[lb[i]]) { printf "no good cycle for %s (summary.txt)\n", lb[i]; bad++ }
	if (src != 0) { printf "pm-async-advise summarize exited %s (summary.txt)\n", src; bad++ }
	printf "drivers verdict: %s\n", bad ? "FAIL (" bad " phase(s) slower beyond the spread, or no cycles)" : "patched no slower than stock in any phase beyond the spread"
	exit bad ? 1 : 0
}' "$dir/summary.txt" "$dir/advise.rows"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# diff-compare.sh STOCK_LOG... -- PATCHED_LOG...: the host half of the
# differential campaign (make diff, scripts/campaign.sh; the "diff/compare"
# stream of make check).  The logs are the guests' results.log files of
# scripts/guest/diff.sh on each kernel (several boots each: a boot that died
# in a seed leaves it started but not done, or "@@SEED-HUNG S" from the
# campaign).  Per seed and kernel: finished or hung, the topology's
# checksum, the plan, the cycles, violations, bad outcomes and the median
# device-phase time of the cycles that ran fully.
#
# Rules (the exit status is 0 only when they hold):
#  - every seed that stock finishes, patched finishes;
#  - no more violations and cycles with an unexpected outcome on patched
#    than on stock for the same seed and plan (0 where stock has none:
#    what mainline does too, such as the lab's finding of a child resumed
#    early while its may_skip_resume parent stays suspended_late after a
#    failed suspend_late, is counted, not held against the series);
#  - the same topology and the same plan on both kernels;
#  - per seed, the median over its cycles of patched's device-phase time
#    divided by stock's in the same cycle at most DIFF_RATIO (1.10), unless
#    both kernels' median times are under DIFF_FLOOR_MS (5 ms): under TCG a
#    timer sleep is stretched by the emulation and the host's load, so
#    small spans are mostly noise.  A seed's cycles differ (s2idle, mem,
#    hibernation, pm_test levels): the ratio of two medians may compare
#    one kind of cycle on stock with another on patched (seed 198 of a
#    campaign read 1.48x, its series faster in 4 of its 5 cycles), the
#    median of the per-cycle ratios compares each cycle with itself.  The
#    cycles are paired: the same on both kernels, those that ran fully on
#    both (no failure injected, the outcome as expected).  A cycle that
#    went wrong on one kernel only (a violation of mainline's) is left out
#    on both: it may run other phases than the other kernel's.  Only the
#    cycles run with pm_async=1 count: those run with pm_async=0 (the order
#    of mainline on both kernels) are the control, the spread of the
#    measurement itself, reported over all seeds.  A seed with no
#    pm_async=1 cycle full on both is not compared (counted, printed), nor
#    is one with fewer than DIFF_MIN_PAIRS (default 1) such cycles: a seed
#    over the ratio with fewer is printed for a recheck, which adds cycles.
#    campaign.sh sets it to 3 from the held-out run on seeds 1261-1560 on
#    (decided on 2026-12-05 before that run: seed 1077 of the 961-1260 run
#    failed over 2 paired cycles, one of them a 2.4 ms stall of the guest,
#    README, #25).
#    Seeds that stock did not finish are left out of this rule (and
#    counted).  The pm_async=0 cycles left the per-seed rule on 2026-12-05,
#    after the held-out run on seeds 661-960, whose one seed over 1.10x
#    (709) had only pm_async=0 cycles full on both; that run's verdict
#    stands, the change holds from the next held-out run (README, #25).
#  - a cycle with an injected failure is not a transition but an abort:
#    its time is the abort latency, the phase's work up to the failure plus
#    every callback in flight when it comes, and which callbacks are in
#    flight is a race between the failure and the engine's starts (an
#    engine that starts a device on its last dependency has more in
#    flight).  Those cycles keep every other rule (hangs, violations,
#    outcomes); their times, paired the same way, are reported apart (per
#    seed and over all seeds) and do not fail the time rule.  Decided on
#    2026-12-05 after seeds 279 and 31 of the 1-300 run had shown 1.77x
#    and 1.38x over such cycles only (stock broke the order in all their
#    full cycles), before the campaign on seeds 301-660 (README, #25).
# Stock's hangs, violations and bad outcomes are counted and reported; they
# do not fail the comparison (mainline 7.3 has known bugs).  Every exception
# is printed with the seed, NDEV, the plan and the seed's topology, written
# again from the generator (DIFF_GEN, default build/kselftest/pm_async/
# pm_async_gen) to DIFF_OUT/seed-S.topo (DIFF_OUT: the directory of the
# first log).
#
# DIFF_TAP=1 prints TAP instead: one result per seed (a seed that stock did
# not finish is a skip), the counts as comments.

set -uo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/guest/difflib.sh"

stock=() patched=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do stock+=("$1"); shift; done
[ $# -gt 0 ] && shift
patched=("$@")
[ ${#stock[@]} -gt 0 ] && [ ${#patched[@]} -gt 0 ] ||
	die "usage: diff-compare.sh STOCK_LOG... -- PATCHED_LOG..."

floor=${DIFF_FLOOR_MS:-5}
ratio=${DIFF_RATIO:-1.10}
minp=${DIFF_MIN_PAIRS:-1}
[[ $minp =~ ^[1-9][0-9]*$ ]] || die "DIFF_MIN_PAIRS: '$minp' is not a number of cycles (1 or more)"
tap=${DIFF_TAP:-0}
outdir=${DIFF_OUT:-$(dirname "${stock[0]}")}
gen=${DIFF_GEN:-$BUILD/kselftest/pm_async/pm_async_gen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The median of a list of times, as difflib.sh takes it: the mean of the
# two middle ones, as an integer; "" for an empty list.  sorted(L, V):
# the list's values into V, in ascending order; their number.  Both awk
# programs below start with them.
awk_median='
function sorted(l, v,   k, i, j, t) {
	k = split(l, v, " ")
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return k
}
function median(l,   v, k) {
	k = sorted(l, v)
	if (!k) return ""
	if (k % 2) return int(v[(k + 1) / 2])
	return int((v[k / 2] + v[k / 2 + 1]) / 2)
}'

# extract LOG...: one line per seed, tab-separated:
#   SEED STATUS NDEV MODE SCALE TOPO CYCLES FULL MEDIAN VIOL BAD PLAN
#   OKMEDIAN NOK CYCLELIST PLANS
# (PLAN: the first run's; OKMEDIAN: the median device-phase time of the
# NOK cycles whose outcome was as expected, full or not; CYCLELIST:
# "CYCLE:OK:FULL:DEV_NS:SYNC" per cycle, OK 1 when the outcome was as
# expected, SYNC 1 when its run's plan runs it with pm_async=0; PLANS:
# every run's plan, "RUN=PLAN" joined by " ; ", which must be the same on
# both kernels: a recheck runs other cycles than the first run).
# STATUS: done, or hung (started, not done).  Within one run the last run
# of a seed counts.  A recheck (campaign.sh's DIFF_RECHECK: logs in
# directories KERNEL-rN-BOOT) is another run of the same seed: its cycles
# join the first run's as CYCLE "rN.C", so that they pair with the same
# recheck's cycles on the other kernel; STATUS is hung if any run hung
# (CYCLES then counts that run's cycles), the counts add up.
extract()
{
	local f logs=()

	for f; do [ -r "$f" ] && logs+=("$f"); done
	[ ${#logs[@]} -gt 0 ] || return 0
	awk "$awk_median"'
	function field(k,   i) {
		for (i = 1; i <= NF; i++)
			if (index($i, k "=") == 1) return substr($i, length(k) + 2)
		return ""
	}
	# sync0 PLAN CYCLE: 1 if a run with PLAN runs CYCLE with pm_async=0.
	function sync0(p, c,   x, n, i) {
		n = split(p, x, " ")
		for (i = 1; i <= n; i++)
			if (index(x[i], c ":") == 1) return x[i] ~ /\/async=0/
		return 0
	}
	# The run a log belongs to: "" for the first, "rN" for a recheck.
	FNR == 1 {
		d = FILENAME; sub(/\/[^\/]*$/, "", d); sub(/.*\//, "", d)
		tag = (d ~ /-r[0-9]+-[0-9]+$/) ? d : ""
		sub(/-[0-9]+$/, "", tag); sub(/.*-/, "", tag)
	}
	/^# \[diff\] diff: seed=/ {
		s = field("seed"); k = s SUBSEP tag
		if (!(s in seen)) { seen[s] = 1; order[++n] = s }
		if (!(k in st)) tags[s] = tags[s] " " tag "."
		st[k] = "hung"; ndev[k] = field("ndev"); mode[k] = field("mode")
		sc = field("scale"); sub(/%$/, "", sc); scale[k] = sc
		topo[k] = field("topo"); cyc[k] = 0; full[k] = 0; med[k] = "-"
		viol[k] = 0; bad[k] = 0; plan[k] = "-"; okl[k] = ""; cl[k] = ""
		next
	}
	/^# \[diff\] plan seed=/ {
		s = field("seed"); sub(/:$/, "", s)
		p = $0; sub(/^# \[diff\] plan seed=[0-9]*: */, "", p); plan[s, tag] = p
		next
	}
	/^@@DIFF-CYCLE / {
		k = field("seed") SUBSEP tag; cyc[k]++
		v = field("viol"); if (v != "") viol[k] += v
		if (field("outcome") != "ok") bad[k]++
		else if (field("dev_ns") != "") okl[k] = okl[k] " " field("dev_ns")
		if (field("full") == 1) full[k]++
		d = field("dev_ns")
		cl[k] = cl[k] " " (tag == "" ? "" : tag ".") field("cycle") ":" (field("outcome") == "ok") ":" (field("full") == 1) ":" (d == "" ? "-" : d) ":" sync0(plan[k], field("cycle"))
		next
	}
	/^@@DIFF-SEED / { med[field("seed"), tag] = field("median_ns"); next }
	/^@@SEED-DONE / { if (($2, tag) in st) st[$2, tag] = "done"; next }
	/^@@SEED-HUNG / { if (($2, tag) in st) st[$2, tag] = "hung"; next }
	END {
		for (i = 1; i <= n; i++) {
			s = order[i]
			nt = split(tags[s], tg, " ")
			k0 = s SUBSEP substr(tg[1], 1, length(tg[1]) - 1)
			status = "done"; c = f = vi = b = 0; ok = l = pl = ""
			for (j = 1; j <= nt; j++) {
				k = s SUBSEP substr(tg[j], 1, length(tg[j]) - 1)
				f += full[k]; vi += viol[k]; b += bad[k]
				ok = ok okl[k]; l = l cl[k]
				pl = pl (j > 1 ? " ; " : "") substr(tg[j], 1, length(tg[j]) - 1) "=" plan[k]
				if (st[k] != "done") { status = "hung"; hc = cyc[k] }
				c += cyc[k]
			}
			if (status == "hung") c = hc
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%d\t%d\t%s\t%s\t%d\t%s\t%s\n", s, status, ndev[k0], mode[k0],
				scale[k0], topo[k0], c, f, med[k0], vi, b, plan[k0],
				((m = median(ok)) == "" ? "-" : m), split(ok, tmp, " "), substr(l, 2), pl
		}
	}' "${logs[@]}" | sort -n
}

extract "${stock[@]}" >"$work/stock"
extract "${patched[@]}" >"$work/patched"

# topology SEED NDEV MODE SCALE: the seed's topology written to a file;
# prints where, or how to make it.
topology()
{
	local f=$outdir/seed-$1.topo

	if [ -x "$gen" ] && mkdir -p "$outdir" &&
	   "$gen" "$1" "$2" "$3" 2>/dev/null | topo_scale "$4" >"$f" &&
	   [ -s "$f" ]; then
		echo "$f"
	else
		rm -f "$f"
		echo "(not written: no generator at $gen) pm_async_gen $1 $2 $3, times at $4%"
	fi
}

# The comparison, one line per seed: VERDICT SEED WHY, VERDICT one of
# ok, fail, skip (stock did not finish: no comparison), note (counted, does
# not fail); then the counts.
awk -F '\t' -v floor="$floor" -v ratio="$ratio" -v minp="$minp" -v timeonly="$work/timeonly" "$awk_median"'
FILENAME == ARGV[1] { for (i = 1; i <= NF; i++) S[$1, i] = $i; ins[$1] = 1; seeds[$1] = 1; next }
{ for (i = 1; i <= NF; i++) P[$1, i] = $i; inp[$1] = 1; seeds[$1] = 1 }
function ms(ns) { return sprintf("%.2f", ns / 1e6) }
# The nearest rank of the P quantile of N sorted values.
function rank(p, n,   r) { r = int(p * n); return r < p * n ? r + 1 : (r ? r : 1) }
# pair STOCK_CYCLES PATCHED_CYCLES: the times of the cycles full on
# both (fs, fp: nfull of them) and of the cycles stopped at their injected
# failure as planned on both (as, ap: nab).  rf, ra: their per-cycle
# ratios patched / stock, in millionths.  The full cycles that the plan
# of their run runs with pm_async=0 (the order of mainline on both
# kernels) are not among them (nsync0 of them): their ratios go to sync,
# over all seeds, the spread of the measurement itself; those of the
# aborts go to aborts.
function pair(a, b,   x, y, n, i, f, c, sa, r) {
	fs = fp = as = ap = rf = ra = ""; nfull = nab = nsync0 = 0
	delete sa
	n = split(a, x, " ")
	for (i = 1; i <= n; i++) { split(x[i], f, ":"); sa[f[1]] = x[i] }
	n = split(b, y, " ")
	for (i = 1; i <= n; i++) {
		split(y[i], f, ":")
		if (!(f[1] in sa)) continue
		split(sa[f[1]], c, ":")
		if (!c[2] || !f[2] || c[4] == "-" || f[4] == "-") continue
		r = c[4] > 0 ? " " int(f[4] * 1e6 / c[4]) : ""
		if (c[3] && f[3] && f[5]) {
			nsync0++; if (r != "") sync = sync r
		} else if (c[3] && f[3]) {
			nfull++; fs = fs " " c[4]; fp = fp " " f[4]; rf = rf r
		} else if (!c[3] && !f[3]) {
			nab++; as = as " " c[4]; ap = ap " " f[4]; ra = ra r; aborts = aborts r
		}
	}
}
# dist LIST: "N, per-cycle ratio median Mx, 10-90% Lx-Hx, O over the ratio"
# of a list of ratios in millionths.
function dist(l,   q, n, i, o) {
	n = sorted(l, q); o = 0
	if (!n) return "0"
	for (i = 1; i <= n; i++) if (q[i] / 1e6 > ratio + 0) o++
	return sprintf("%d, per-cycle ratio median %.2fx, 10-90%% %.2f-%.2fx, %d over %sx", n,
		median(l) / 1e6, q[rank(0.1, n)] / 1e6, q[rank(0.9, n)] / 1e6, o, ratio)
}
END {
	for (s in seeds) {
		why = ""; v = "ok"; notes = ""
		sd = (s in ins) && S[s, 2] == "done"
		pd = (s in inp) && P[s, 2] == "done"
		# counts per kernel
		if (s in ins) { ns++; if (!sd) sh++; sv += S[s, 10]; sb += S[s, 11]; sc += S[s, 7] }
		if (s in inp) { np++; if (!pd) ph++; pv += P[s, 10]; pb += P[s, 11]; pc += P[s, 7]; topos[P[s, 6]] = 1 }
		if (s in ins) topos[S[s, 6]] = 1
		if ((s in ins) && (s in inp) && (S[s, 6] != P[s, 6] || (S[s, 16] != P[s, 16] && S[s, 12] != "-" && P[s, 12] != "-"))) {
			v = "fail"; why = why "; not the same topology or plan on both kernels (topo " S[s, 6] " / " P[s, 6] ")"
		}
		if (sd && !pd) { v = "fail"; why = why "; stock finished, patched " ((s in inp) ? "hung in cycle " (P[s, 7] + 1) : "never ran it") }
		if (!sd && (s in inp) && !pd) notes = notes "; patched hung too, in cycle " (P[s, 7] + 1)
		# What mainline does as well (the same seed and plan) is counted,
		# not held against patched: more than on stock fails.
		sv0 = (s in ins) ? S[s, 10] + 0 : 0; sb0 = (s in ins) ? S[s, 11] + 0 : 0
		if ((s in inp) && P[s, 10] > sv0) { v = "fail"; why = why "; " P[s, 10] " violations on patched (stock " sv0 ")" }
		else if ((s in inp) && P[s, 10] > 0) notes = notes "; " P[s, 10] " violations on patched, as many or fewer than stock"
		if ((s in inp) && P[s, 11] > sb0) { v = "fail"; why = why "; " P[s, 11] " cycles with a bad outcome on patched (stock " sb0 ")" }
		else if ((s in inp) && P[s, 11] > 0) notes = notes "; " P[s, 11] " cycles with a bad outcome on patched, as many or fewer than stock"
		if ((s in ins) && S[s, 10] > 0) notes = notes "; " S[s, 10] " violations on stock"
		if ((s in ins) && S[s, 11] > 0) notes = notes "; " S[s, 11] " cycles with a bad outcome on stock"
		t = ""
		if (!sd) {
			excl++
			if (v == "ok") v = "skip"
			why = why "; stock " ((s in ins) ? "hung in cycle " (S[s, 7] + 1) : "never ran it") ": no comparison"
		} else if (pd) {
			# Paired cycles: the same cycles on both kernels.
			pair(S[s, 15], P[s, 15])
			if (nfull) {
				sm = median(fs); pm = median(fp); rr = median(rf)
				t = "stock " ms(sm) " ms, patched " ms(pm) " ms"
				if (rr != "") t = t sprintf(" (%.2fx per cycle)", rr / 1e6)
			}
			if (nfull && nfull < minp + 0) {
				uncmp++
				notes = notes "; only " nfull " pm_async=1 cycles full on both kernels, fewer than " minp \
					" (" S[s, 8] " / " P[s, 8] " full): time not compared"
				# Over the ratio: a recheck may add the cycles it lacks.
				if (v == "ok" && rr != "" && rr / 1e6 > ratio + 0) print s >timeonly
			} else if (nfull) {
				if (nfull != S[s, 8] || nfull != P[s, 8])
					t = t ", over the " nfull " pm_async=1 cycles full on both (" S[s, 8] " / " P[s, 8] " full)"
				if (sm < floor * 1e6 && pm < floor * 1e6) { under++; t = t ", both under " floor " ms" }
				else if (rr != "" && rr / 1e6 > ratio + 0) {
					slower++
					# Slower and nothing else: what a recheck may measure again.
					if (v == "ok") print s >timeonly
					v = "fail"; why = why "; patched slower than " ratio "x stock"
				}
				compared++
			} else {
				uncmp++
				notes = notes "; no pm_async=1 cycle full on both kernels (" S[s, 8] " / " P[s, 8] " full" \
					(nsync0 ? ", " nsync0 " pm_async=0 on both: the control" : "") "): time not compared"
			}
			if (nab) {
				rr = median(ra)
				t = t (t == "" ? "" : "; ") "aborts (injected failures, not in the time rule): " nab \
					", stock " ms(median(as)) " ms, patched " ms(median(ap)) " ms" \
					(rr == "" ? "" : sprintf(" (%.2fx per cycle)", rr / 1e6))
			}
		}
		if (v == "ok" && notes != "") v = "note"
		ndv = (s in inp) ? P[s, 3] : S[s, 3]
		printf "%s|%s|%s|%s|%s\n", v, s, ndv, substr(why notes, 3), t
	}
	for (k in topos) nt++
	# The pm_async=0 cycles and the aborts, as dist() gives them.
	printf "@@COUNTS %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", ns, sh, sv, sb, sc, np, ph, pv, pb, pc,
		nt, slower, under + 0, excl + 0, compared + 0, uncmp + 0
	printf "@@SYNC %s\n@@ABORTS %s\n", dist(sync), dist(aborts)
}' "$work/stock" "$work/patched" >"$work/cmp"

grep -v '^@@' "$work/cmp" | sort -t '|' -k2,2n >"$work/seeds"
read -r _ ns sh sv sb sc np ph pv pb pc nt slower under excl compared uncmp < <(grep '^@@COUNTS' "$work/cmp")
sync=$(sed -n 's/^@@SYNC //p' "$work/cmp")
aborts=$(sed -n 's/^@@ABORTS //p' "$work/cmp")
# The seeds that failed the time rule and nothing else, for a recheck.
[ -n "${DIFF_SLOWER_OUT:-}" ] && sort -n "$work/timeonly" 2>/dev/null >"$DIFF_SLOWER_OUT"
nfail=$(grep -c '^fail' "$work/seeds")

# exception SEED WHY: the seed's parameters, plan and topology.
exception()
{
	local s=$1 line nd md pct pl

	line=$(grep -P "^$s\t" "$work/patched" || grep -P "^$s\t" "$work/stock")
	IFS=$'\t' read -r _ _ nd md pct _ _ _ _ _ _ pl _ <<<"$line"
	echo "${3}seed $s (NDEV $nd, mode $md, times at $pct%): $2"
	echo "${3}  plan: $pl"
	echo "${3}  topology: $(topology "$s" "$nd" "$md" "$pct")"
	echo "${3}  replay: DIFF_SEEDS=$s DIFF_MAXDEV=${DIFF_MAXDEV:-120} DIFF_CYCLES=${DIFF_CYCLES:-6} make diff"
}

summary_lines()
{
	[ "$sync" = 0 ] ||
		echo "${1}pm_async=0 cycles full on both (mainline's order on both kernels: the measurement's spread): $sync"
	[ "$aborts" = 0 ] ||
		echo "${1}aborts paired (cycles stopped at their injected failure on both; reported, not in the time rule): $aborts"
	echo "${1}stock:   $ns seeds, $sh hung, $sc cycles, $sv violations, $sb bad outcomes"
	echo "${1}patched: $np seeds, $ph hung, $pc cycles, $pv violations, $pb bad outcomes"
	echo "${1}verdict: $np seeds, $nt topologies, $pc patched cycles, hangs $sh/$ph (stock/patched)," \
		"violations $sv/$pv (stock/patched), $slower slower than ${ratio}x" \
		"($under under the ${floor} ms floor, $excl left out: stock did not finish," \
		"$compared compared, $uncmp with $([ "$minp" = 1 ] && echo "no pm_async=1 cycle" ||
			echo "fewer than $minp pm_async=1 cycles") full on both)," \
		"$nfail seeds failing the rules: $([ "$nfail" = 0 ] && echo PASS || echo FAIL)"
}

if [ "$tap" = 1 ]; then
	echo "TAP version 13"
	echo "1..$(wc -l <"$work/seeds")"
	i=0
	while IFS='|' read -r v s ndv why t; do
		i=$((i + 1))
		d="diff: seed=$s ndev=$ndv${t:+: $t}"
		case $v in
		ok|note) echo "ok $i $d${why:+ ($why)}" ;;
		skip) echo "ok $i $d # SKIP $why" ;;
		fail) echo "not ok $i $d: $why"; exception "$s" "$why" "#   " ;;
		esac
		[ "$v" = note ] && exception "$s" "$why" "#   "
	done <"$work/seeds"
	summary_lines "# "
else
	while IFS='|' read -r v s _ why t; do
		case $v in
		fail) exception "$s" "FAIL: $why${t:+ ($t)}" "" ;;
		note|skip) exception "$s" "counted: $why${t:+ ($t)}" "" ;;
		esac
	done <"$work/seeds"
	summary_lines ""
fi
[ "$nfail" = 0 ]

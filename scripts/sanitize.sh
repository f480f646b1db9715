#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sanitize.sh kcsan|kasan: make check-kcsan / make check-kasan.  Builds the
# patched kernel in that flavour (configs/FLAVOUR.config), boots it and runs
# the pm_async kselftest, the KUnit suites and the reduced reliability set
# (scripts/guest/reliability.sh), then counts the sanitizer reports in the
# whole kernel log: "BUG: KCSAN" / "BUG: KASAN", those whose report names
# drivers/base/power, dpm_* or the lab apart from the others.  Kernels with
# kmemleak (KASAN flavour) end with a leak scan (scripts/guest/kmemleak.sh).
# Any report, any leak or any failed test fails the run, and so does a run
# that timed out, crashed or lost a stream, or a kernel warning anywhere in
# the console (scripts/guest-checks.sh, kernel-log.sh: a sanitizer report
# then counts there too).
#   SANITIZE_KERNEL  patched (default) or stock
#   SANITIZE_STREAMS default "kselftest kunit reliability"
#   SANITIZE_TIMEOUT seconds for the boot (default 5400)

set -uo pipefail
. "$(dirname "$0")/common.sh"

flavour=${1:?usage: sanitize.sh kcsan|kasan}
k=${SANITIZE_KERNEL:-patched}
streams=${SANITIZE_STREAMS:-kselftest kunit reliability}
out=$TOP/out/check-$flavour
rm -rf "$out"
mkdir -p "$out"
start=$SECONDS

"$TOP/scripts/tree.sh" || exit 1
"$TOP/scripts/build-kernel.sh" "$k" "$flavour" &&
	"$TOP/scripts/mkinitramfs.sh" "$k" "$flavour" || die "cannot build $k-$flavour"
# The KASAN flavour has kmemleak (configs/kasan.config): its absence there
# fails instead of skipping.
kml=""
[ "$flavour" = kasan ] && kml=required
say "== $k-$flavour: booting QEMU for: $streams kmemleak"
# shellcheck disable=SC2086 # one word per stream
"$TOP/scripts/qemu-run.sh" -k "$k" -f "$flavour" -t "${SANITIZE_TIMEOUT:-5400}" \
	-a no_console_suspend -o "$out" -- "$(check_cmd "PMA_KMEMLEAK=$kml" $streams kmemleak)" | sed -u 's/^/    /'
rc=${PIPESTATUS[0]}
# The run as a whole (timeout, panic, end marker, streams that never
# started) and the whole console's kernel log, as in make check; the
# sanitizer reports are also counted apart below.
"$TOP/scripts/guest-checks.sh" "$k-$flavour" "$out" "$rc" "${SANITIZE_TIMEOUT:-5400}" "$streams kmemleak" >"$out/guest.log"

# One report runs from its "BUG: K?SAN" line to the closing "=====" line.
awk -v out="$out/reports.txt" '
function flush() {
	if (!inrep) return
	n++
	if (pm) npm++
	print (pm ? "[drivers/base/power] " : "[elsewhere] ") title >out
	inrep = 0
}
/BUG: (KCSAN|KASAN)/ { flush(); inrep = 1; pm = 0; title = $0; sub(/^.*BUG: /, "", title) }
inrep && /drivers\/base\/power|dpm_|device_(suspend|resume)|async_(suspend|resume)|pm_async|pat_/ { pm = 1 }
inrep && /==========/ { flush() }
END { flush(); printf "%d %d\n", n, npm > (out ".count") }
' "$out/console.log"
read -r nrep npm <"$out/reports.txt.count"
say "== summary ($(( (SECONDS - start) / 60 )) min)"
TAP_TOTALS=$out/totals "$TOP/scripts/tap-summary.sh" -e "$streams kmemleak" "$k-$flavour" "$out/results.log" \
	"$k-$flavour" "$out/guest.log"
read -r pass fail skip <"$out/totals"
echo "sanitizer reports ($flavour): $nrep, $npm of them attributable to drivers/base/power or the lab"
[ ! -s "$out/reports.txt" ] || sort "$out/reports.txt" | uniq -c | sed 's/^/  /'
[ "$nrep" = 0 ] || fail=$((fail + 1))
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]

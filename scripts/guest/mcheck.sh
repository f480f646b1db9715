# SPDX-License-Identifier: GPL-2.0
#
# mcheck.sh (in the guest, sourced): the checks of a pm-async-measure run
# in $OUT with $CYCLES cycles of each variant (sync, async, marked), shared
# by measure.sh and drvmeasure.sh.

# s3_logs_ok [PATTERN]: the logs, each a full S3 cycle (and with a line
# matching PATTERN).
s3_logs_ok()
{
	[ "$(ls $OUT/cycle-*.log 2>/dev/null | wc -l)" = $((CYCLES * 3)) ] || return 1
	for v in sync async marked; do
		[ "$(ls $OUT/cycle-*-$v.log | wc -l)" = "$CYCLES" ] || return 1
	done
	for f in $OUT/cycle-*.log; do
		grep -q "PM: suspend entry (deep)" $f && grep -q "Waking up from system sleep state S3" $f &&
			grep -q "PM: resume of devices complete" $f && grep -q -e "${1:-PM: resume}" $f ||
			{ echo "# not a full S3 cycle: $f"; return 1; }
	done
}
# table_ok: summary.txt has a row per variant with n = $CYCLES and 8
# "mean (+/- sd)" columns, a bound and a critical path per variant, and
# no cycle left out.
table_ok()
{
	for v in sync async marked; do
		grep -Eq "^$v +$CYCLES +[0-9.]+ \(\+/- [0-9.]+\) +[0-9.]+ \(\+/- [0-9.]+\)( +[0-9.]+ \(\+/- [0-9.]+\)){6} *$" $OUT/summary.txt ||
			{ echo "# no row for $v with n=$CYCLES and 8 'mean (+/- sd)' columns"; return 1; }
		grep -q "^  $v:  suspend bound [0-9.]* (+/- [0-9.]*)  resume bound" $OUT/summary.txt &&
		grep -A2 "^  $v:  suspend bound" $OUT/summary.txt | grep -Eq "suspend CP \([0-9]+/$CYCLES cycles\): suspend: [^ ]+( -> [^ ]+)*$" ||
			{ echo "# no bound / critical path for $v"; return 1; }
	done
	! grep -q "left out" $OUT/summary.txt
}
# pm_knobs: the PM settings pm-async-measure changes, as NAME=VALUE.
pm_knobs()
{
	for f in pm_async pm_print_times pm_debug_messages mem_sleep pm_test; do
		printf '%s=%s\n' $f "$(cat /sys/power/$f 2>/dev/null)"
	done
	printf 'wakealarm=%s\n' "$(cat /sys/class/rtc/rtc0/wakealarm 2>/dev/null)"
}
# sync_list LOG: the devices the advisor reads as sync in a cycle's log
# (its JSON's sync_devices, as a quoted, comma-separated list).
sync_list()
{
	grep -v 'start suspend of devices' "$1" >/tmp/sync_list.log
	pm-async-advise --json /tmp/sync_list.log 2>/dev/null | sed -n 's/.*"sync_devices": \[\(.*\)\],*$/\1/p'
}

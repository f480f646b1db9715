# SPDX-License-Identifier: GPL-2.0
# pm-async: the parts of diff.sh (the differential campaign's guest script)
# that need no kernel: the seed's number of devices, its plan of cycles, the
# device-phase time of a report and the median.  Sourced by diff.sh in the
# guest (busybox ash) and by the harness's tests on the host
# (scripts/tests/run.sh), which check that every plan holds a suspend, a
# hibernation and a failure in a phase its cycle runs.

# topo_scale PCT: the topology on standard input without comments and
# blank lines, every callback time (the hibernation callbacks' own times,
# freeze= to restore=, too) scaled to PCT percent, on standard output.
# Also used by rlib.sh's rl_topo().
topo_scale()
{
	awk -v pct="$1" '
	/^[ \t]*#/ || NF == 0 { next }
	{
		for (i = 2; i <= NF; i++)
			if ($i ~ /^(suspend|resume|freeze|thaw|poweroff|restore)(_late|_early|_noirq)?=/) {
				split($i, kv, "=")
				$i = kv[1] "=" int(kv[2] * pct / 100)
			}
		print
	}'
}

# diff_ndev SEED MAXDEV: the number of devices (80% up to 60, the rest up
# to MAXDEV).
diff_ndev()
{
	awk -v s="$1" -v max="$2" 'BEGIN {
		srand(s * 7919 + 37)
		if (rand() < 0.8) n = 5 + int(rand() * 56)
		else n = 60 + int(rand() * (max > 60 ? max - 59 : 1))
		if (n > max) n = max
		if (n < 2) n = 2
		print n
	}'
}

# diff_plan SEED CYCLES STATES ELIGIBLE: one line per cycle,
#   CYCLE STATE PM_TEST PM_ASYNC FAILDEV FAILPHASE CHURN
# (FAILDEV "-" for none; CHURN 1 to try one) from the seed and the devices
# that may fail (the file ELIGIBLE, one name a line).  STATES: the states this
# guest has of "freeze mem disk" (what is missing becomes freeze, on both
# kernels alike).
diff_plan()
{
	awk -v s="$1" -v n="$2" -v states="$3" -v elig="$4" 'BEGIN {
		ne = 0
		while ((getline l < elig) > 0) dev[ne++] = l
		srand(s * 7919 + 104723)
		# Three distinct cycles: a suspend, a hibernation, a failure.
		for (i = 1; i <= n; i++) pos[i] = i
		for (i = n; i > 1; i--) { j = 1 + int(rand() * i); t = pos[i]; pos[i] = pos[j]; pos[j] = t }
		for (c = 1; c <= n; c++) {
			r = rand()
			st[c] = (r < 0.4) ? "freeze" : (r < 0.7) ? "mem" : "disk"
			te[c] = (rand() < 0.4) ? "devices" : "platform"
			as[c] = (rand() < 0.17) ? 0 : 1
			fl[c] = (rand() < 0.25)
			ch[c] = (rand() < 0.34)
		}
		if (n >= 1) { r = rand(); st[pos[1]] = (r < 0.5) ? "freeze" : "mem" }
		if (n >= 2) st[pos[2]] = "disk"
		if (n >= 3) fl[pos[3]] = 1
		for (c = 1; c <= n; c++) {
			if (index(" " states " ", " " st[c] " ") == 0) st[c] = "freeze"
			fd = "-"; fp = "-"
			if (fl[c] && ne > 0) {
				fd = dev[int(rand() * ne)]
				if (te[c] == "devices") fp = "suspend"
				else {
					r = int(rand() * 3)
					fp = (r == 0) ? "suspend" : (r == 1) ? "suspend_late" : "suspend_noirq"
				}
			}
			printf "%d %s %s %d %s %s %d\n", c, st[c], te[c], as[c], fd, fp, (fd == "-") ? ch[c] : 0
		}
	}'
}

# diff_devtime REPORT: the device-phase time of a transition, in ns, from
# the lab's report: per phase but prepare and complete, the latest end
# less the earliest start, summed over the phases.
diff_devtime()
{
	"$CHECK" "$1" phases | awk '{ t += $3 - $2 } END { printf "%d\n", t }'
}

# median N...: the median of the numbers (the mean of the middle two for an
# even count); "-" for none.
median()
{
	echo "$@" | tr ' ' '\n' | grep . | sort -n | awk '
	{ v[++n] = $1 }
	END {
		if (!n) { print "-"; exit }
		if (n % 2) printf "%d\n", v[(n + 1) / 2]
		else printf "%d\n", (v[n / 2] + v[n / 2 + 1]) / 2
	}'
}

# diff_phases STATE PM_TEST: the callbacks a good cycle runs (rlib's
# SUSPEND_ALL for rl_check_report); for disk, the resume side as the
# report shows it (restore, or thaw after a snapshot).
diff_phases()
{
	case $1 in
	disk)
		res=restore
		[ -n "$("$CHECK" "$RPT" select phase=thaw : name)" ] && res=thaw
		if [ "$2" = devices ]; then
			echo "prepare freeze $res complete"
		else
			echo "prepare freeze freeze_late freeze_noirq ${res}_noirq ${res}_early $res complete"
		fi
		;;
	*)
		if [ "$2" = devices ]; then
			echo "prepare suspend resume complete"
		else
			echo "prepare suspend suspend_late suspend_noirq resume_noirq resume_early resume complete"
		fi
		;;
	esac
}

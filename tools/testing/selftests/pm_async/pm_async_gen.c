// SPDX-License-Identifier: GPL-2.0
/*
 * pm_async_gen - print a random device topology for the pm_async_test lab
 *
 *   pm_async_gen SEED [NDEV [hazards|hazards-dc|hazards-late|diff]]
 *   pm_async_gen profile chain|wide|zero
 *
 * The output is a topology in the format of
 * /sys/kernel/debug/pm_async_test/topology (Documentation/power/
 * pm-async-lab.rst): NDEV devices (default 200) forming a forest of trees
 * of varied depth and fan-out, plus supplier links across subtrees.  A
 * device only names earlier devices as parent or supplier, so the graph is
 * acyclic.  Async flags and callback times (mostly 0 to 2000 us, some zero)
 * are random too.
 *
 * With "hazards", the topology also models real drivers with the keys of
 * the lab's topology (see pm-async-lab.rst): devices that take no part in
 * PM (pm=0), devices with and without a driver (driver=1), managed links
 * (dormant when the supplier has no driver), SYNC_STATE_ONLY links from
 * earlier unbound devices (sync_consumers=), device_pm_wait_for_dev()
 * calls (wait=; only with the PM core's list: suspend-side waits for later
 * devices, resume-side ones for earlier devices, prepare and complete for
 * any), direct_complete devices, DPM_FLAG_SMART_SUSPEND and
 * DPM_FLAG_MAY_SKIP_RESUME drivers and jitter.  Without it the output is
 * the same as before those keys existed.  "hazards" leaves out one
 * combination that breaks mainline 7.3 itself: a direct_complete supplier
 * of a link the PM core does not wait for (SYNC_STATE_ONLY, dormant).  Its
 * consumer may suspend after the supplier was direct-completed and then
 * clears the supplier's power.direct_complete, so the PM core runs the
 * supplier's late, noirq and resume callbacks although its suspend
 * callback never ran.  "hazards-dc" makes that combination too.
 * "hazards-late" makes what "hazards" makes, the same topology for the same
 * SEED, with some of the devices that take part in PM marked no-PM after
 * they were added (pm=late), as the regulator core marks its class device
 * and xe an upstream bridge in their probe: the device stays on the PM
 * core's list and runs its callbacks, and mainline 7.3 no longer waits for
 * it.  Which devices are marked is a hash of SEED and the device, not a
 * draw, so that removing " pm=late" gives the output of "hazards".
 *
 * "diff" makes what "hazards" makes and more, for comparing PM cores: waits
 * from sync devices on async devices, among them "quiet" devices (async
 * roots that are also leaves, with all times 0, no links and no waits of
 * their own), with the PM core's list and against it (suspend-side for an
 * earlier device, resume-side for a later one; always from a sync device
 * for a quiet one, so that no wait closes a cycle and none is made with
 * pm_async=0, where a wait against the list from an async device would
 * never return); waits from the FROM-th transition on (+2 to +4) or by
 * chance (@30 to @90); waits in hibernation callbacks only (freeze, thaw, restore and their forms);
 * per-callback hibernation times (freeze=, restore= and others) that differ
 * from the suspend and resume times, 0 where those are large and large
 * where they are 0; busy-waiting devices (busy=1, times up to 2000 us, no
 * jitter); and two shapes with short async devices: an async device with a
 * slow suspend whose child (or consumer) is async with all times 0,
 * followed by 3 sync devices of a few ms, and 3 sync devices of a few ms
 * followed by an async root with all times 0, its child with all times 0
 * and a grandchild with a slow resume.  The devices of the shapes and the
 * quiet ones get no other keys than driver=, and no later device picks
 * them as parent or link end.  The lab does not check waits against the list; a PM
 * core that runs a quiet device only from the PM task's walk hangs on them
 * (the lab's watchdog tells).
 *
 * The same SEED always gives the same output: the generator has its own
 * PRNG (splitmix64) and does not depend on libc's rand().  Every key is
 * written out in the order the lab reads the topology back, so the lab's
 * read-back equals the output minus the leading comment line.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define DEFAULT_NDEV	200
#define MAX_NDEV	100000
#define MAX_SUPPLIERS	3
#define MAX_WAITS	2
/* The lab's limit of waits per device (wait=). */
#define LAB_MAX_WAITS	4
#define NTIMES		6

static const char * const time_keys[] = {
	"suspend", "resume", "suspend_late", "resume_early",
	"suspend_noirq", "resume_noirq",
};

static uint64_t prng_state;
static uint64_t seed_value;

/* splitmix64: small, fast and good enough for test shapes. */
static uint64_t prng_next(void)
{
	uint64_t z = (prng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. */
static unsigned int prng_below(unsigned int n)
{
	return (unsigned int)(prng_next() % n);
}

/* True with probability pct percent. */
static int prng_pct(unsigned int pct)
{
	return prng_below(100) < pct;
}

/* A callback time: often zero, mostly up to 2 ms, rarely up to 10 ms. */
static unsigned int random_time(void)
{
	unsigned int r = prng_below(100);

	if (r < 40)
		return 0;
	if (r < 97)
		return prng_below(2001);
	return 2000 + prng_below(8001);
}

static int parse_uint(const char *s, unsigned long long max,
		      unsigned long long *val)
{
	char *end;

	errno = 0;
	*val = strtoull(s, &end, 0);
	return errno || end == s || *end || *val > max ? -1 : 0;
}

static void die_usage(void)
{
	fprintf(stderr, "usage: pm_async_gen SEED [NDEV [hazards|hazards-dc|hazards-late|diff]]\n"
		"       pm_async_gen profile chain|wide|zero\n"
		"  print a random pm_async_test topology of NDEV devices (default %d, at most %d);\n"
		"  with \"hazards\", with drivers, managed, dormant and SYNC_STATE_ONLY links,\n"
		"  device waits, direct_complete, smart suspend, skipped resume and jitter;\n"
		"  with \"hazards-dc\", also direct_complete suppliers of unwaited links;\n"
		"  with \"hazards-late\", the topology of \"hazards\" with devices marked\n"
		"  no-PM after they were added (pm=late);\n"
		"  with \"diff\", hazards plus waits from sync devices and against the PM\n"
		"  core's list, waits from a later transition or by chance, hibernation-only\n"
		"  waits and times, busy-waiting devices and short async devices around slow\n"
		"  and sync ones;\n"
		"  \"profile NAME\" prints the kselftest's profile NAME (chain, wide, zero)\n",
		DEFAULT_NDEV, MAX_NDEV);
	exit(2);
}

/* "diff" mode (see the top of the file); all zero in the other modes. */
static int diff;
/* "hazards-late" mode (see the top of the file). */
static int late;
/* Per device: async, a quiet or shape device, busy=1, its six times. */
static unsigned char *is_async, *plain, *busy;
static unsigned int (*times)[NTIMES];

/* A number below 100 from the seed and @key (splitmix64's finalizer). */
static unsigned int seed_hash100(uint64_t key)
{
	uint64_t z = seed_value ^ key;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) % 100;
}

/*
 * Is device @i quiet (diff mode)?  A hash of the seed and @i rather than a
 * draw, so that a device can wait for a later quiet device.
 */
static int quiet(unsigned int i)
{
	if (!diff || !i)
		return 0;
	return seed_hash100(0xd1b54a32d192ed03ULL * (i + 1)) < 5;
}

/*
 * Is device @i marked no-PM after it was added (hazards-late mode)?  A hash
 * of the seed and @i, as quiet(), so that the mode draws nothing the
 * "hazards" mode does not.
 */
static int marked_late(unsigned int i)
{
	if (!late)
		return 0;
	return seed_hash100(0x9e3779b97f4a7c15ULL * (i + 7)) < 8;
}

/* The first quiet device after @i, or 0 if none. */
static unsigned int next_quiet(unsigned int i, unsigned int ndev)
{
	for (i++; i < ndev; i++)
		if (quiet(i))
			return i;
	return 0;
}

/* The last quiet device before @i, or 0 if none. */
static unsigned int prev_quiet(unsigned int i)
{
	while (i-- > 1)
		if (quiet(i))
			return i;
	return 0;
}

/* The shapes of diff mode, as roles of consecutive devices. */
enum role {
	ROLE_NONE,
	ROLE_QUIET,	/* async root and leaf, all times 0 */
	ROLE_SLOW,	/* async, slow suspend */
	ROLE_SHORT,	/* async child or consumer of ROLE_SLOW, all times 0 */
	ROLE_SYNC,	/* sync, a few ms */
	ROLE_ROOT0,	/* async root, all times 0 */
	ROLE_CHILD0,	/* async child of ROLE_ROOT0, all times 0 */
	ROLE_GRAND,	/* async child of ROLE_CHILD0, slow resume */
};

static const unsigned char shape_slow[] = {
	ROLE_SLOW, ROLE_SHORT, ROLE_SYNC, ROLE_SYNC, ROLE_SYNC, 0,
};

static const unsigned char shape_root[] = {
	ROLE_SYNC, ROLE_SYNC, ROLE_SYNC, ROLE_ROOT0, ROLE_CHILD0, ROLE_GRAND, 0,
};

/* The shape being made, its first device and the device of each role. */
static const unsigned char *shape;
static unsigned int shape_first, role_dev[ROLE_GRAND + 1];

/* A wait to print: callback name, device index, +FROM and @PERCENT. */
struct wait {
	const char *phase;
	unsigned int target;
	unsigned int from;
	unsigned int percent;
};

static const char * const wait_suspend[] = {
	"suspend", "suspend_late", "suspend_noirq",
};

static const char * const wait_resume[] = {
	"resume_noirq", "resume_early", "resume",
};

static const char * const wait_freeze[] = {
	"freeze", "freeze_late", "freeze_noirq",
};

static const char * const wait_thaw[] = {
	"thaw_noirq", "thaw_early", "thaw",
	"restore_noirq", "restore_early", "restore",
};

/* The per-callback hibernation time keys, in the lab's order. */
static const char * const ev_keys[] = {
	"freeze", "freeze_late", "freeze_noirq",
	"thaw_noirq", "thaw_early", "thaw",
	"poweroff", "poweroff_late", "poweroff_noirq",
	"restore_noirq", "restore_early", "restore",
};

/* Index in time_keys[] of the time that ev_keys[@k] stands in for. */
static unsigned int ev_level_time(unsigned int k)
{
	static const unsigned char idx[] = { 0, 2, 4, 5, 3, 1 };

	return idx[k % 6];
}

/* Add a wait to @w (@n so far) unless full or already there. */
static void add_wait(struct wait *w, unsigned int *n, const char *phase,
		     unsigned int target)
{
	unsigned int j;

	if (*n >= LAB_MAX_WAITS)
		return;
	for (j = 0; j < *n; j++)
		if (w[j].target == target && !strcmp(w[j].phase, phase))
			return;
	w[*n].phase = phase;
	w[*n].target = target;
	w[*n].from = 1;
	w[*n].percent = 100;
	(*n)++;
}

/* A suspend-side (@resume 0) or resume-side wait name, 30 % hibernation. */
static const char *diff_phase(int resume)
{
	if (prng_pct(30))
		return resume ? wait_thaw[prng_below(ARRAY_SIZE(wait_thaw))] :
				wait_freeze[prng_below(ARRAY_SIZE(wait_freeze))];
	return resume ? wait_resume[prng_below(3)] : wait_suspend[prng_below(3)];
}

/*
 * The extra waits of diff mode for device @i (not quiet, not in a shape,
 * taking part in PM), after the @n in @w.  No wait closes a cycle: with
 * the list, every device a suspend-side wait can lead to is later than the
 * waiter, every one a resume-side wait can lead to earlier, except quiet
 * devices, which wait for nothing.  Waits against the list are only from
 * sync devices for quiet ones: with pm_async=0 they are not made
 * (device_pm_wait_for_dev() from a sync device then waits for nothing),
 * with pm_async=1 they are for a device that a PM core starting leaves
 * (suspend) and roots (resume) upfront runs without the PM task.  From an
 * async device, such a wait would never return with pm_async=0.
 */
static void diff_waits(unsigned int i, unsigned int ndev, struct wait *w,
		       unsigned int *n)
{
	unsigned int j, k, t, first = *n;

	if (!is_async[i] && prng_pct(30)) {
		/* With the list, for an async device. */
		t = prng_pct(50) ? next_quiet(i, ndev) : 0;
		if (t) {
			add_wait(w, n, diff_phase(0), t);
		} else if (i > 0) {
			for (k = 0; k < 4; k++) {
				t = prng_pct(50) && prev_quiet(i) ?
				    prev_quiet(i) : prng_below(i);
				if (is_async[t])
					break;
			}
			if (is_async[t])
				add_wait(w, n, diff_phase(1), t);
		}
		/* Against the list, for a quiet device. */
		if (prng_pct(50)) {
			t = prev_quiet(i);
			if (t)
				add_wait(w, n, diff_phase(0), t);
		}
		if (prng_pct(50)) {
			t = next_quiet(i, ndev);
			if (t)
				add_wait(w, n, diff_phase(1), t);
		}
	}
	/* Hibernation-only waits with the list. */
	if (prng_pct(8)) {
		if (prng_pct(50) && i + 1 < ndev)
			add_wait(w, n, wait_freeze[prng_below(3)],
				 i + 1 + prng_below(ndev - i - 1));
		else if (i > 0)
			add_wait(w, n, wait_thaw[prng_below(6)], prng_below(i));
	}
	/* Some of the new waits only from a later transition, or by chance. */
	for (j = first; j < *n; j++) {
		if (prng_pct(25))
			w[j].from = 2 + prng_below(3);
		if (prng_pct(25))
			w[j].percent = 30 + prng_below(61);
	}
}

/*
 * The per-callback hibernation times of device @i (diff mode): freeze= and
 * restore= often, another one sometimes, each differing from the time of
 * its level: 0 where that is large, large where it is small.
 */
static void diff_ev_times(unsigned int i)
{
	unsigned int k, v, base, max = busy[i] ? 2000 : 8000;
	unsigned int mask = 0;

	if (plain[i] || !prng_pct(12))
		return;
	if (prng_pct(60))
		mask |= 1u << 0;
	if (prng_pct(60))
		mask |= 1u << 11;
	if (!mask || prng_pct(30))
		mask |= 1u << prng_below(ARRAY_SIZE(ev_keys));
	for (k = 0; k < ARRAY_SIZE(ev_keys); k++) {
		if (!(mask & (1u << k)))
			continue;
		base = times[i][ev_level_time(k)];
		if (base >= max / 2 || (base >= 500 && prng_pct(50)))
			v = 0;
		else
			v = max / 2 + prng_below(max / 2 + 1);
		if (v == base)
			v = base ? 0 : 1;
		printf(" %s=%u", ev_keys[k], v);
	}
}

/* Print ",NAME" or " KEY=NAME" for the first name of a list. */
static void print_name(const char *key, unsigned int idx, int *first)
{
	printf("%s%s%sg%u", *first ? " " : ",", *first ? key : "",
	       *first ? "=" : "", idx);
	*first = 0;
}

/*
 * The hazard keys of device @i of @ndev, after its suppliers (the @nsup in
 * @sup); @nopm, @bound and @dc describe the devices decided so far; @all
 * allows direct_complete suppliers of links the PM core does not wait for.
 */
static void print_hazards(unsigned int i, unsigned int ndev,
			  const unsigned int *sup, unsigned int nsup,
			  const unsigned char *nopm, const unsigned char *bound,
			  unsigned char *dc, int all)
{
	unsigned int j, k, n, s, picked[MAX_SUPPLIERS];
	int first, dup, unwaited = 0;
	struct wait w[LAB_MAX_WAITS];
	unsigned int nw = 0;

	if (nopm[i])
		printf(" pm=0");
	else if (!plain[i] && marked_late(i))
		printf(" pm=late");
	if (bound[i])
		printf(" driver=1");

	/* Managed links to earlier devices that take part in PM. */
	first = 1;
	n = 0;
	if (i > 0 && !plain[i] && prng_pct(15)) {
		for (k = 1 + prng_below(2); k; k--) {
			s = prng_below(i);
			/* A dormant link to a direct_complete supplier. */
			dup = nopm[s] || (!all && dc[s] && !bound[s]) ||
			      plain[s];
			for (j = 0; j < nsup; j++)
				dup |= sup[j] == s;
			for (j = 0; j < n; j++)
				dup |= picked[j] == s;
			if (dup)
				continue;
			picked[n++] = s;
			print_name("managed", s, &first);
		}
	}

	/* SYNC_STATE_ONLY links from earlier devices without a driver. */
	first = 1;
	n = 0;
	if (i > 0 && !nopm[i] && !plain[i] && prng_pct(8)) {
		for (k = 1 + prng_below(2); k; k--) {
			s = prng_below(i);
			for (dup = bound[s] || plain[s], j = 0; j < n; j++)
				dup |= picked[j] == s;
			if (dup)
				continue;
			picked[n++] = s;
			unwaited = 1;
			print_name("sync_consumers", s, &first);
		}
	}

	/* Waits that go with the PM core's list. */
	if (!nopm[i] && !plain[i] && prng_pct(12)) {
		for (k = 1 + prng_below(MAX_WAITS); k; k--) {
			unsigned int r = prng_below(10);

			/*
			 * The target is drawn before the phase, as in the
			 * printf() of earlier versions (gcc evaluates the
			 * arguments right to left), so outputs stay the same.
			 */
			if (r < 4 && i + 1 < ndev) {
				s = i + 1 + prng_below(ndev - i - 1);
				add_wait(w, &nw, wait_suspend[prng_below(3)], s);
			} else if (r < 8 && i > 0) {
				s = prng_below(i);
				add_wait(w, &nw, wait_resume[prng_below(3)], s);
			} else if (r >= 8 && ndev > 1) {
				s = prng_below(ndev - 1);
				add_wait(w, &nw, r == 8 ? "prepare" : "complete",
					 s < i ? s : s + 1);
			} else {
				continue;
			}
			/* One wait per line is enough to avoid duplicates. */
			break;
		}
	}
	if (diff && !nopm[i] && !plain[i])
		diff_waits(i, ndev, w, &nw);
	for (j = 0; j < nw; j++) {
		printf("%s%s:g%u", j ? "," : " wait=", w[j].phase,
		       w[j].target);
		if (w[j].from > 1)
			printf("+%u", w[j].from);
		if (w[j].percent < 100)
			printf("@%u", w[j].percent);
	}

	if (plain[i]) {
		dc[i] = 0;
		return;
	}
	dc[i] = !nopm[i] && prng_pct(10) && (all || !unwaited);
	if (dc[i])
		printf(" direct_complete=1");
	if (bound[i] && !nopm[i] && prng_pct(12))
		printf(" smart_suspend=1");
	if (bound[i] && !nopm[i] && prng_pct(12))
		printf(" may_skip_resume=1");
	if (prng_pct(10) && !busy[i])
		printf(" jitter=%u", prng_below(3001));
}

/*
 * The role of device @i in diff mode: quiet, in a shape (which may start
 * here, with a 2 % chance, when it fits before @ndev and meets no quiet
 * device) or none.
 */
static unsigned int diff_role(unsigned int i, unsigned int ndev)
{
	const unsigned char *sh;
	unsigned int j, len;

	if (!diff)
		return ROLE_NONE;
	/* A shape meets no quiet device (see below). */
	if (shape && shape[i - shape_first])
		return shape[i - shape_first];
	shape = NULL;
	if (quiet(i))
		return ROLE_QUIET;
	if (!prng_pct(2))
		return ROLE_NONE;
	sh = prng_pct(50) ? shape_slow : shape_root;
	len = strlen((const char *)sh);
	if (i + len > ndev)
		return ROLE_NONE;
	for (j = i; j < i + len; j++)
		if (quiet(j))
			return ROLE_NONE;
	shape = sh;
	shape_first = i;
	return shape[0];
}

/*
 * The shipped profiles too regular to ship as files: chain, wide and zero,
 * printed as profiles/NAME.topo would hold them.
 */
static int print_profile(const char *name)
{
	unsigned int i, j, k;

	if (!strcmp(name, "chain")) {
		fputs("# chain: 50 async devices, each the parent of the next, 1 ms suspend and\n"
		      "# 1 ms resume each: nothing can run in parallel, so async only adds the\n"
		      "# cost of handing each device to a worker.\n",
		      stdout);
		printf("c0 async=1 suspend=1000 resume=1000\n");
		for (i = 1; i < 50; i++)
			printf("c%u parent=c%u async=1 suspend=1000 resume=1000\n",
			       i, i - 1);
	} else if (!strcmp(name, "wide")) {
		fputs("# wide: one parent with 1000 async leaves, 1 ms suspend and 1 ms resume\n"
		      "# each: the async framework's concurrency limit (256 workers in 6.12) and\n"
		      "# the cost of starting many workers at once.  A sync cycle takes 2 s.\n",
		      stdout);
		printf("hub async=1\n");
		for (i = 0; i < 1000; i++)
			printf("leaf%u parent=hub async=1 suspend=1000 resume=1000\n",
			       i);
	} else if (!strcmp(name, "zero")) {
		fputs("# zero: 2000 async devices whose callbacks take no time, in 20 subtrees\n"
		      "# of 100 (a root with 9 children of 10 leaves each): pure PM core and\n"
		      "# async framework overhead, where async can be slower than sync.\n",
		      stdout);
		for (i = 0; i < 20; i++) {
			printf("z%u\n", i);
			for (j = 0; j < 9; j++) {
				printf("z%u.%u parent=z%u\n", i, j, i);
				for (k = 0; k < 10; k++)
					printf("z%u.%u.%u parent=z%u.%u\n",
					       i, j, k, i, j);
			}
		}
	} else {
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long seed, ndev = DEFAULT_NDEV;
	unsigned int parent, *hubs, nhubs = 0, role, t[NTIMES];
	unsigned int i, j, k, nsup, sup[MAX_SUPPLIERS];
	unsigned char *nopm, *bound, *dc;
	int dup, async, hazards = 0;

	if (argc == 3 && !strcmp(argv[1], "profile")) {
		if (print_profile(argv[2]))
			die_usage();
		return 0;
	}
	if (argc < 2 || argc > 4 || parse_uint(argv[1], UINT64_MAX, &seed))
		die_usage();
	if (argc >= 3 && (parse_uint(argv[2], MAX_NDEV, &ndev) || !ndev))
		die_usage();
	if (argc == 4) {
		if (!strcmp(argv[3], "hazards"))
			hazards = 1;
		else if (!strcmp(argv[3], "hazards-dc"))
			hazards = 2;
		else if (!strcmp(argv[3], "hazards-late"))
			late = 1;
		else if (!strcmp(argv[3], "diff"))
			diff = 1;
		else
			die_usage();
	}
	/* diff and hazards-late make everything hazards makes. */
	if (diff || late)
		hazards = 1;

	hubs = calloc(ndev, sizeof(*hubs));
	nopm = calloc(ndev, 1);
	bound = calloc(ndev, 1);
	dc = calloc(ndev, 1);
	is_async = calloc(ndev, 1);
	plain = calloc(ndev, 1);
	busy = calloc(ndev, 1);
	times = calloc(ndev, sizeof(*times));
	if (!hubs || !nopm || !bound || !dc || !is_async || !plain || !busy ||
	    !times) {
		perror("pm_async_gen");
		return 1;
	}

	prng_state = seed;
	seed_value = seed;
	printf("# pm_async_gen seed=%llu ndev=%llu%s\n", seed, ndev,
	       diff ? " diff" :
	       late ? " hazards-late" :
	       hazards ? hazards == 2 ? " hazards-dc" : " hazards" : "");

	for (i = 0; i < ndev; i++) {
		unsigned int r;

		role = diff_role(i, ndev);
		plain[i] = role != ROLE_NONE;
		role_dev[role] = i;
		r = prng_below(100);

		/*
		 * Parent choice shapes the forest: a few roots, chains (the
		 * previous device), hubs with a large fan-out, and uniform
		 * picks for everything in between.  parent is index + 1,
		 * 0 for a root.
		 */
		if (i == 0 || r < 6)
			parent = 0;
		else if (r < 30)
			parent = i;
		else if (r < 60 && nhubs)
			parent = hubs[prng_below(nhubs)] + 1;
		else
			parent = prng_below(i) + 1;
		if (prng_pct(8) && !plain[i])
			hubs[nhubs++] = i;
		/* Quiet and shape devices get no children but their own. */
		if (parent && plain[parent - 1])
			parent = 0;
		if (role == ROLE_QUIET || role == ROLE_SYNC ||
		    role == ROLE_ROOT0 || role == ROLE_SHORT)
			parent = 0;
		if (role == ROLE_SHORT && prng_pct(70))
			parent = role_dev[ROLE_SLOW] + 1;
		if (role == ROLE_CHILD0)
			parent = role_dev[ROLE_ROOT0] + 1;
		if (role == ROLE_GRAND)
			parent = role_dev[ROLE_CHILD0] + 1;

		if (hazards) {
			/* Like a wakeup source's wakeupN device. */
			nopm[i] = i > 0 && prng_pct(5) && !plain[i];
			bound[i] = prng_pct(50);
		}
		printf("g%u", i);
		if (parent)
			printf(" parent=g%u", parent - 1);
		async = prng_pct(75) && !nopm[i];
		if (role)
			async = role != ROLE_SYNC;
		is_async[i] = async;
		printf(" async=%d", async);
		busy[i] = diff && !role && !nopm[i] && prng_pct(6);
		for (j = 0; j < NTIMES; j++) {
			t[j] = random_time();
			if (busy[i] && t[j] > 2000)
				t[j] = prng_below(2001);
			if (role && role != ROLE_SLOW)
				t[j] = 0;
		}
		if (role == ROLE_SLOW)
			t[0] = 20000 + prng_below(40001);
		if (role == ROLE_SYNC) {
			t[0] = 2000 + prng_below(3001);
			t[1] = 2000 + prng_below(3001);
		}
		if (role == ROLE_GRAND)
			t[1] = 20000 + prng_below(40001);
		for (j = 0; j < NTIMES; j++) {
			times[i][j] = t[j];
			printf(" %s=%u", time_keys[j], t[j]);
		}

		/* Links to earlier devices, usually in other subtrees. */
		nsup = 0;
		if (i > 1 && prng_pct(20)) {
			unsigned int want = 1 + prng_below(MAX_SUPPLIERS);

			for (k = 0; k < want; k++) {
				unsigned int s = prng_below(i);

				/* A supplier must take part in PM. */
				for (dup = nopm[s] || plain[s], j = 0; j < nsup;
				     j++)
					dup |= sup[j] == s;
				if (!dup)
					sup[nsup++] = s;
			}
		}
		if (role)
			nsup = 0;
		/* The short device is the slow one's consumer, not child. */
		if (role == ROLE_SHORT && !parent)
			sup[nsup++] = role_dev[ROLE_SLOW];
		for (j = 0; j < nsup; j++)
			printf("%sg%u", j ? "," : " suppliers=", sup[j]);
		if (hazards)
			print_hazards(i, ndev, sup, nsup, nopm, bound, dc,
				      hazards == 2);
		if (diff)
			diff_ev_times(i);
		if (busy[i])
			printf(" busy=1");
		putchar('\n');
	}

	free(hubs);
	free(nopm);
	free(bound);
	free(dc);
	free(is_async);
	free(plain);
	free(busy);
	free(times);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}

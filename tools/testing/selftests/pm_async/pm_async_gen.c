// SPDX-License-Identifier: GPL-2.0
/*
 * pm_async_gen - print a random device topology for the pm_async_test lab
 *
 *   pm_async_gen SEED [NDEV [hazards|hazards-dc]]
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
 * the lab's issue 14 (see pm-async-lab.rst): devices that take no part in
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

static const char * const time_keys[] = {
	"suspend", "resume", "suspend_late", "resume_early",
	"suspend_noirq", "resume_noirq",
};

static uint64_t prng_state;

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
	fprintf(stderr, "usage: pm_async_gen SEED [NDEV [hazards|hazards-dc]]\n"
		"  print a random pm_async_test topology of NDEV devices (default %d, at most %d);\n"
		"  with \"hazards\", with drivers, managed, dormant and SYNC_STATE_ONLY links,\n"
		"  device waits, direct_complete, smart suspend, skipped resume and jitter\n",
		DEFAULT_NDEV, MAX_NDEV);
	exit(2);
}

static const char * const wait_suspend[] = {
	"suspend", "suspend_late", "suspend_noirq",
};

static const char * const wait_resume[] = {
	"resume_noirq", "resume_early", "resume",
};

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

	if (nopm[i])
		printf(" pm=0");
	if (bound[i])
		printf(" driver=1");

	/* Managed links to earlier devices that take part in PM. */
	first = 1;
	n = 0;
	if (i > 0 && prng_pct(15)) {
		for (k = 1 + prng_below(2); k; k--) {
			s = prng_below(i);
			/* A dormant link to a direct_complete supplier. */
			for (dup = nopm[s] || (!all && dc[s] && !bound[s]), j = 0;
			     j < nsup; j++)
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
	if (i > 0 && !nopm[i] && prng_pct(8)) {
		for (k = 1 + prng_below(2); k; k--) {
			s = prng_below(i);
			for (dup = bound[s], j = 0; j < n; j++)
				dup |= picked[j] == s;
			if (dup)
				continue;
			picked[n++] = s;
			unwaited = 1;
			print_name("sync_consumers", s, &first);
		}
	}

	/* Waits that go with the PM core's list. */
	first = 1;
	if (!nopm[i] && prng_pct(12)) {
		for (k = 1 + prng_below(MAX_WAITS); k; k--) {
			unsigned int r = prng_below(10);

			if (r < 4 && i + 1 < ndev) {
				printf("%s%s:g%u", first ? " wait=" : ",",
				       wait_suspend[prng_below(3)],
				       i + 1 + prng_below(ndev - i - 1));
			} else if (r < 8 && i > 0) {
				printf("%s%s:g%u", first ? " wait=" : ",",
				       wait_resume[prng_below(3)],
				       prng_below(i));
			} else if (r >= 8 && ndev > 1) {
				s = prng_below(ndev - 1);
				printf("%s%s:g%u", first ? " wait=" : ",",
				       r == 8 ? "prepare" : "complete",
				       s < i ? s : s + 1);
			} else {
				continue;
			}
			first = 0;
			/* One wait per line is enough to avoid duplicates. */
			break;
		}
	}

	dc[i] = !nopm[i] && prng_pct(10) && (all || !unwaited);
	if (dc[i])
		printf(" direct_complete=1");
	if (bound[i] && !nopm[i] && prng_pct(12))
		printf(" smart_suspend=1");
	if (bound[i] && !nopm[i] && prng_pct(12))
		printf(" may_skip_resume=1");
	if (prng_pct(10))
		printf(" jitter=%u", prng_below(3001));
}

int main(int argc, char **argv)
{
	unsigned long long seed, ndev = DEFAULT_NDEV;
	unsigned int parent, *hubs, nhubs = 0;
	unsigned int i, j, k, nsup, sup[MAX_SUPPLIERS];
	unsigned char *nopm, *bound, *dc;
	int dup, hazards = 0;

	if (argc < 2 || argc > 4 || parse_uint(argv[1], UINT64_MAX, &seed))
		die_usage();
	if (argc >= 3 && (parse_uint(argv[2], MAX_NDEV, &ndev) || !ndev))
		die_usage();
	if (argc == 4) {
		if (!strcmp(argv[3], "hazards"))
			hazards = 1;
		else if (!strcmp(argv[3], "hazards-dc"))
			hazards = 2;
		else
			die_usage();
	}

	hubs = calloc(ndev, sizeof(*hubs));
	nopm = calloc(ndev, 1);
	bound = calloc(ndev, 1);
	dc = calloc(ndev, 1);
	if (!hubs || !nopm || !bound || !dc) {
		perror("pm_async_gen");
		return 1;
	}

	prng_state = seed;
	printf("# pm_async_gen seed=%llu ndev=%llu%s\n", seed, ndev,
	       hazards ? hazards == 2 ? " hazards-dc" : " hazards" : "");

	for (i = 0; i < ndev; i++) {
		unsigned int r = prng_below(100);

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
		if (prng_pct(8))
			hubs[nhubs++] = i;

		if (hazards) {
			/* Like a wakeup source's wakeupN device. */
			nopm[i] = i > 0 && prng_pct(5);
			bound[i] = prng_pct(50);
		}
		printf("g%u", i);
		if (parent)
			printf(" parent=g%u", parent - 1);
		printf(" async=%d", prng_pct(75) && !nopm[i]);
		for (j = 0; j < ARRAY_SIZE(time_keys); j++)
			printf(" %s=%u", time_keys[j], random_time());

		/* Links to earlier devices, usually in other subtrees. */
		nsup = 0;
		if (i > 1 && prng_pct(20)) {
			unsigned int want = 1 + prng_below(MAX_SUPPLIERS);

			for (k = 0; k < want; k++) {
				unsigned int s = prng_below(i);

				/* A supplier must take part in PM. */
				for (dup = nopm[s], j = 0; j < nsup; j++)
					dup |= sup[j] == s;
				if (!dup)
					sup[nsup++] = s;
			}
		}
		for (j = 0; j < nsup; j++)
			printf("%sg%u", j ? "," : " suppliers=", sup[j]);
		if (hazards)
			print_hazards(i, ndev, sup, nsup, nopm, bound, dc,
				      hazards == 2);
		putchar('\n');
	}

	free(hubs);
	free(nopm);
	free(bound);
	free(dc);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * pm_async_gen - print a random device topology for the pm_async_test lab
 *
 *   pm_async_gen SEED [NDEV]
 *
 * The output is a topology in the format of
 * /sys/kernel/debug/pm_async_test/topology (Documentation/power/
 * pm-async-lab.rst): NDEV devices (default 200) forming a forest of trees
 * of varied depth and fan-out, plus supplier links across subtrees.  A
 * device only names earlier devices as parent or supplier, so the graph is
 * acyclic.  Async flags and callback times (mostly 0 to 2000 us, some zero)
 * are random too.
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

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define DEFAULT_NDEV	200
#define MAX_NDEV	100000
#define MAX_SUPPLIERS	3

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
	fprintf(stderr, "usage: pm_async_gen SEED [NDEV]\n"
		"  print a random pm_async_test topology of NDEV devices (default %d, at most %d)\n",
		DEFAULT_NDEV, MAX_NDEV);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long seed, ndev = DEFAULT_NDEV;
	unsigned int parent, *hubs, nhubs = 0;
	unsigned int i, j, k, nsup, sup[MAX_SUPPLIERS];
	int dup;

	if (argc < 2 || argc > 3 || parse_uint(argv[1], UINT64_MAX, &seed))
		die_usage();
	if (argc == 3 && (parse_uint(argv[2], MAX_NDEV, &ndev) || !ndev))
		die_usage();

	hubs = calloc(ndev, sizeof(*hubs));
	if (!hubs) {
		perror("pm_async_gen");
		return 1;
	}

	prng_state = seed;
	printf("# pm_async_gen seed=%llu ndev=%llu\n", seed, ndev);

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

		printf("g%u", i);
		if (parent)
			printf(" parent=g%u", parent - 1);
		printf(" async=%d", prng_pct(75));
		for (j = 0; j < ARRAY_SIZE(time_keys); j++)
			printf(" %s=%u", time_keys[j], random_time());

		/* Links to earlier devices, usually in other subtrees. */
		nsup = 0;
		if (i > 1 && prng_pct(20)) {
			unsigned int want = 1 + prng_below(MAX_SUPPLIERS);

			for (k = 0; k < want; k++) {
				unsigned int s = prng_below(i);

				for (dup = 0, j = 0; j < nsup; j++)
					dup |= sup[j] == s;
				if (!dup)
					sup[nsup++] = s;
			}
		}
		for (j = 0; j < nsup; j++)
			printf("%sg%u", j ? "," : " suppliers=", sup[j]);
		putchar('\n');
	}

	free(hubs);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}

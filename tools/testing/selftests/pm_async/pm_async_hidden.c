// SPDX-License-Identifier: GPL-2.0
/*
 * Hidden dependencies (pm_async.sh's case 6, hidden=), with the
 * pm_async_test lab (pm_test=platform): the failure pm-async-measure
 * --bisect looks for.  ts needs gpio0 still active at the end of its
 * suspend callback; nothing tells the PM core.  Async, ts's suspend
 * returns -EAGAIN; pm_async=0 keeps the list order and never fails; the
 * chance of the failure (@P%) and the seed of the lab's draws decide
 * which transitions fail; slow= waits instead of failing; the resume side
 * fails the same way; hidden= reads back and refuses what it cannot mean.
 *
 * The driver's messages are read from the kernel log (dmesg).
 */
#define _GNU_SOURCE	/* memmem() */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../kselftest_harness.h"
#include "pm_async_case.h"

/* Transitions of a pattern of draws (hidden_pattern()). */
#define NR_DRAWS	8
/* A count hidden_cycles() gave no number for: another failure. */
#define HIDDEN_X	-1
/* A count never measured (its topology did not load). */
#define HIDDEN_UNSET	-2

FIXTURE(hidden) {
	struct pma_case c;
	int draws;	/* the lab's draws file is to be put back to 0 */
};

FIXTURE_SETUP(hidden)
{
	const char *why = pma_case_begin(&self->c);

	if (why)
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN(hidden)
{
	if (self->draws)
		pma_lab_write("draws", "0\n");
	pma_case_end(&self->c);
}

/*
 * @n freeze transitions with pm_async=@mode: how many failed with ts's
 * suspend returning -11; HIDDEN_X for any other failure.
 */
static int hidden_cycles(struct pma_case *c, int n, int mode)
{
	int i, fail = 0, ret;

	pma_set_pm_async(mode);
	for (i = 0; i < n; i++) {
		ret = pma_case_cycle(c, "freeze");
		if (!ret)
			continue;
		if (ret > 0 && pma_case_has(c, "ts", "suspend", -11))
			fail++;
		else
			return HIDDEN_X;
	}
	return fail;
}

/*
 * gpio0, two fillers and ts, which needs gpio0 (chance @p%, @extra after
 * the name: ":slow=US"); ts is slower than gpio0, so async it always ends
 * last.  0, or -1 after saying why.
 */
static int hidden_topo(struct pma_case *c, int p, const char *extra)
{
	char topo[256];

	snprintf(topo, sizeof(topo),
		 "gpio0 suspend=500 resume=500\n"
		 "f1 suspend=2000 resume=500\n"
		 "f2 suspend=1000 resume=500\n"
		 "ts suspend=20000 resume=500 hidden=suspend:gpio0%s@%d\n",
		 extra, p);
	return pma_case_load(c, topo);
}

/*
 * Load ts with a 50% hidden failure, write @seed to the lab's draws file
 * (*@draws set: to be put back) and make NR_DRAWS async freeze
 * transitions; @pat gets which failed with ts's -11 (1) and which
 * succeeded (0), "x" for any other outcome.
 */
static void hidden_pattern(struct pma_case *c, int *draws, int seed,
			   char pat[NR_DRAWS + 1])
{
	char val[16];
	int i, ret;

	snprintf(pat, NR_DRAWS + 1, "x");
	if (hidden_topo(c, 50, ""))
		return;
	snprintf(val, sizeof(val), "%d\n", seed);
	*draws = 1;
	if (pma_lab_write("draws", val))
		return;
	pma_set_pm_async(1);
	for (i = 0; i < NR_DRAWS; i++) {
		ret = pma_case_cycle(c, "freeze");
		if (!ret)
			pat[i] = '0';
		else if (ret > 0 && pma_case_has(c, "ts", "suspend", -11))
			pat[i] = '1';
		else
			pat[i] = 'x';
	}
	pat[NR_DRAWS] = '\0';
	pma_lab_write("draws", "0\n");
}

/* The time of ts's suspend callback in the last report, in ms; -1: none. */
static long long ts_suspend_ms(const struct pma_report *rep)
{
	int i;

	for (i = 0; i < rep->ncb; i++)
		if (!strcmp(rep->cb[i].r.name, "ts") &&
		    !strcmp(rep->cb[i].r.phase, "suspend"))
			return (rep->cb[i].r.end - rep->cb[i].r.start) /
			       1000000;
	return -1;
}

/* A count of hidden_cycles() for a message: "x", "?" or the number. */
static const char *count_str(int n, char *buf, size_t len)
{
	if (n == HIDDEN_X)
		return "x";
	if (n == HIDDEN_UNSET)
		return "?";
	snprintf(buf, len, "%d", n);
	return buf;
}

/*
 * The last two lines of the kernel log (dmesg) where ts says it failed
 * with -11: the driver's message or the PM core's; joined with " | " into
 * @log.  How many (0 to 2).
 */
static int ts_failed_log(char *log, size_t len)
{
	static const char *const msgs[] = {
		"pm_async_test ts: PM: failed to suspend async: error -11",
		"pm_async_test ts: suspend: command failed: -11",
	};
	char *line = NULL, *last[2] = { NULL, NULL };
	size_t cap = 0;
	int n = 0, i;
	FILE *f;

	*log = '\0';
	f = popen("dmesg", "r");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) >= 0) {
		if (!strstr(line, msgs[0]) && !strstr(line, msgs[1]))
			continue;
		line[strcspn(line, "\n")] = '\0';
		free(last[0]);
		last[0] = last[1];
		last[1] = strdup(line);
		n++;
	}
	pclose(f);
	free(line);
	for (i = 0; i < 2; i++) {
		if (!last[i])
			continue;
		snprintf(log + strlen(log), len - strlen(log), "%s%s",
			 *log ? " | " : "", last[i]);
		free(last[i]);
	}
	return n < 2 ? n : 2;
}

/* The lines of @topo that name "hidden", joined with '|', for a message. */
static void hidden_lines(const char *topo, char *buf, size_t len)
{
	const char *l, *e;

	*buf = '\0';
	for (l = topo; l && *l; l = *e ? e + 1 : e) {
		e = strchr(l, '\n');
		if (!e)
			e = l + strlen(l);
		if (memmem(l, e - l, "hidden", 6))
			snprintf(buf + strlen(buf), len - strlen(buf), "%.*s|",
				 (int)(e - l), l);
	}
}

/* Write @val ("enabled", "disabled") to @dev's power/async. */
static int set_async(const char *dev, const char *val)
{
	char path[128], line[16];

	snprintf(path, sizeof(path), PMA_BUS "/%s/power/async", dev);
	snprintf(line, sizeof(line), "%s\n", val);
	return pma_write(path, line);
}

/*
 * Async, ts fails with -EAGAIN (the driver's message and 'ts: PM: failed
 * to suspend async: error -11'), the devices come back.  Up to 3
 * transitions: in the first one after the load, gpio0's worker may come
 * in only after ts's check on a loaded host (stock failed 0 of 1 once,
 * beside a soak); at least one must fail.
 */
TEST_F_TIMEOUT(hidden, async_ts_fails_eagain, PMA_CASE_TIMEOUT)
{
	char log[1024], num[16];
	int n1, nlog;

	ASSERT_EQ(0, hidden_topo(&self->c, 100, ""));
	n1 = hidden_cycles(&self->c, 3, 1);
	nlog = ts_failed_log(log, sizeof(log));
	EXPECT_TRUE(n1 >= 1 && nlog == 2 &&
		    !pma_case_same_state(&self->c))
		TH_LOG("failed async: %s of 3; log: %s",
		       count_str(n1, num, sizeof(num)), log);
}

/*
 * pm_async=0 never fails: the list order keeps ts before gpio0.
 */
TEST_F_TIMEOUT(hidden, pm_async_0_never_fails, PMA_CASE_TIMEOUT)
{
	char num[16];
	int n0;

	ASSERT_EQ(0, hidden_topo(&self->c, 100, ""));
	n0 = hidden_cycles(&self->c, 3, 0);
	printf("# pm_async=0: %s of 3 failed\n",
	       count_str(n0, num, sizeof(num)));
	EXPECT_TRUE(n0 == 0 && !pma_case_same_state(&self->c));
}

/* ts sync alone or gpio0 sync alone still fails, both sync never fail. */
TEST_F_TIMEOUT(hidden, one_sync_fails_both_sync_never, PMA_CASE_TIMEOUT)
{
	char a[16], b[16], d[16];
	int nt, ng, nb;

	ASSERT_EQ(0, hidden_topo(&self->c, 100, ""));
	ASSERT_EQ(0, set_async("ts", "disabled"));
	nt = hidden_cycles(&self->c, 2, 1);
	ASSERT_EQ(0, set_async("ts", "enabled"));
	ASSERT_EQ(0, set_async("gpio0", "disabled"));
	ng = hidden_cycles(&self->c, 2, 1);
	ASSERT_EQ(0, set_async("ts", "disabled"));
	nb = hidden_cycles(&self->c, 3, 1);
	set_async("ts", "enabled");
	set_async("gpio0", "enabled");
	EXPECT_TRUE(nt == 2 && ng == 2 && nb == 0)
		TH_LOG("failed: ts sync %s/2, gpio0 sync %s/2, both %s/3",
		       count_str(nt, a, sizeof(a)),
		       count_str(ng, b, sizeof(b)),
		       count_str(nb, d, sizeof(d)));
}

/* The chance @0 never fails (5 async cycles), @100 does (3). */
TEST_F_TIMEOUT(hidden, chance_0_never_100_does, PMA_CASE_TIMEOUT)
{
	int p0, p100 = HIDDEN_UNSET;
	char a[16], b[16];

	ASSERT_EQ(0, hidden_topo(&self->c, 0, ""));
	p0 = hidden_cycles(&self->c, 5, 1);
	/*
	 * @100: as in the first case, ts's check may come before gpio0's
	 * worker on a loaded host; at least one must fail.
	 */
	if (!hidden_topo(&self->c, 100, ""))
		p100 = hidden_cycles(&self->c, 3, 1);
	EXPECT_TRUE(p0 == 0 && p100 >= 1)
		TH_LOG("failed: @0 %s/5, @100 %s/3",
		       count_str(p0, a, sizeof(a)),
		       count_str(p100, b, sizeof(b)));
}

/*
 * draws=SEED: @50 fails in the same cycles with the same seed on a fresh
 * topology, not with two other seeds.  With a seed in draws, the chances
 * are drawn from the seed, the device and its transition count: the same
 * seed twice on a fresh topology gives the same failures, cycle by cycle
 * (what lets the differential campaign run the same scenario on two
 * kernels), and other seeds give other ones (8 cycles: two equal patterns
 * by chance one time in 256 per seed).
 */
TEST_F_TIMEOUT(hidden, draws_seed_repeats_failures, PMA_CASE_TIMEOUT)
{
	char pa[NR_DRAWS + 1], pb[NR_DRAWS + 1];
	char pc[NR_DRAWS + 1], pd[NR_DRAWS + 1];
	int err = 0;

	hidden_pattern(&self->c, &self->draws, 7, pa);
	hidden_pattern(&self->c, &self->draws, 7, pb);
	hidden_pattern(&self->c, &self->draws, 8, pc);
	hidden_pattern(&self->c, &self->draws, 9, pd);
	if (strchr(pa, 'x') || strchr(pb, 'x') || strchr(pc, 'x') ||
	    strchr(pd, 'x'))
		err = 1;
	if (strcmp(pa, pb))
		err = 1;
	if (!strcmp(pa, pc) && !strcmp(pa, pd))
		err = 1;
	EXPECT_EQ(0, err)
		TH_LOG("draws 7: %s and %s, 8: %s, 9: %s", pa, pb, pc, pd);
}

/*
 * slow=200000: async ts suspend succeeds after waiting, more than 3x its
 * pm_async=0 time.
 */
TEST_F_TIMEOUT(hidden, slow_waits_3x_sync_time, PMA_CASE_TIMEOUT)
{
	long long d1 = -1, d0 = -1;
	char a[24] = "?", b[24] = "?";

	ASSERT_EQ(0, hidden_topo(&self->c, 100, ":slow=200000"));
	pma_set_pm_async(1);
	if (!pma_case_cycle(&self->c, "freeze"))
		d1 = ts_suspend_ms(&self->c.rep);
	pma_set_pm_async(0);
	if (!pma_case_cycle(&self->c, "freeze"))
		d0 = ts_suspend_ms(&self->c.rep);
	/*
	 * The hidden wait adds ten times ts's own 20 ms: async, ts takes
	 * more than three times its pm_async=0 time of the same run (TCG
	 * stretches sleeps, so no configured time).
	 */
	if (d1 >= 0)
		snprintf(a, sizeof(a), "%lld", d1);
	if (d0 >= 0)
		snprintf(b, sizeof(b), "%lld", d0);
	EXPECT_TRUE(d0 > 0 && d1 >= 0 && d1 > 3 * d0)
		TH_LOG("ts suspend: async %s ms, sync %s ms", a, b);
}

/*
 * The resume side: async, ts's resume returns -11 before gpio0 is back;
 * pm_async=0, 0; the transitions succeed.
 */
TEST_F_TIMEOUT(hidden, resume_side_async_only, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;

	ASSERT_EQ(0, pma_case_load(c,
				   "gpio0 suspend=500 resume=20000\n"
				   "ts suspend=500 resume=500 hidden=resume:gpio0\n"));
	pma_set_pm_async(1);
	EXPECT_TRUE(!pma_case_cycle(c, "freeze") &&
		    pma_case_has(c, "ts", "resume", -11) &&
		    !pma_set_pm_async(0) && !pma_case_cycle(c, "freeze") &&
		    pma_case_has(c, "ts", "resume", 0) &&
		    !pma_case_same_state(c));
	pma_set_pm_async(1);
}

/*
 * PHASE:NAME[:ERRNO|:slow=US][@P%] reads back; a later, unknown or own
 * device, prepare, @101, errno 0, slow=0 are rejected, and a rejected
 * write changes nothing.
 */
TEST_F_TIMEOUT(hidden, syntax_read_back_bad_rejected, PMA_CASE_TIMEOUT)
{
	static const char *const bad[] = {
		"x hidden=suspend:late\nlate\n",
		"x hidden=prepare:gpio0\n",
		"x hidden=suspend:gpio0@101\n",
		"x hidden=suspend:gpio0:0\n",
		"x hidden=suspend:gpio0:slow=0\n",
		"x hidden=suspend:x\n",
		"x hidden=suspend\n",
		"x hidden=suspend:gpio0:abc\n",
	};
	char msg[512], *now;
	unsigned int i, j;

	ASSERT_EQ(0, pma_case_load(&self->c,
				   "gpio0\n"
				   "ts hidden=suspend_noirq:gpio0:5@50%\n"
				   "f1 hidden=resume_early:gpio0:slow=100\n"));
	hidden_lines(self->c.topo, msg, sizeof(msg));
	EXPECT_TRUE(pma_line_has(self->c.topo, "ts",
				 " hidden=suspend_noirq:gpio0:-5@50", 1) &&
		    pma_line_has(self->c.topo, "f1",
				 " hidden=resume_early:gpio0:slow=100", 1))
		TH_LOG("read back: %s", msg);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		for (j = 0; bad[i][j + 1] && j < sizeof(msg) - 1; j++)
			msg[j] = bad[i][j] == '\n' ? '|' : bad[i][j];
		msg[j] = '\0';
		EXPECT_NE(0, pma_lab_write("topology", bad[i]))
			TH_LOG("accepted: %s", msg);
	}
	now = pma_lab_read("topology");
	EXPECT_TRUE(now && !strcmp(now, self->c.topo))
		TH_LOG("topology changed");
	free(now);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * Cases of the pm_async kselftest that make system transitions with the
 * pm_async_test lab (pm_test=platform): the async knobs in sysfs, sync and
 * async devices mixed, injected failures, hibernation.  Each case loads
 * its topology, makes its transitions and asks the lab's report
 * (pm_async_case.h).  pm_async.sh runs this program as one of its cases
 * (it suspends the machine's devices: only with PM_ASYNC_SUSPEND=1), its
 * results a subtest.
 */
#define _GNU_SOURCE	/* strchrnul() */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "pm_async_case.h"

/* The sleep knobs and the lab, set up and put back for each case. */
FIXTURE(sleep) {
	struct pma_case c;
};

FIXTURE_SETUP(sleep)
{
	const char *why = pma_case_begin(&self->c);

	if (why)
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN(sleep)
{
	pma_case_end(&self->c);
}

/* Every device phase of @dev ran in @ctx ("task", "worker"). */
static int all_in(const struct pma_report *rep, const char *dev,
		  const char *ctx)
{
	char phases[] = PMA_DEV_PHASES, *ph, *save;
	const char *c;

	for (ph = strtok_r(phases, " ", &save); ph;
	     ph = strtok_r(NULL, " ", &save)) {
		c = pma_ctx(rep, dev, ph);
		if (!c || strcmp(c, ctx)) {
			printf("# %s %s ran in %s, expected %s\n", dev, ph,
			       c ? c : "nothing", ctx);
			return -1;
		}
	}
	return 0;
}

/* Some device phase of @dev ran in @ctx. */
static int some_in(const struct pma_report *rep, const char *dev,
		   const char *ctx)
{
	char phases[] = PMA_DEV_PHASES, *ph, *save;
	const char *c;

	for (ph = strtok_r(phases, " ", &save); ph;
	     ph = strtok_r(NULL, " ", &save)) {
		c = pma_ctx(rep, dev, ph);
		if (c && !strcmp(c, ctx))
			return 0;
	}
	printf("# no device phase of %s ran in a %s\n", dev, ctx);
	return -1;
}

/* Callbacks of the report that ran in a worker. */
static int in_workers(const struct pma_report *rep)
{
	int i, n = 0;

	for (i = 0; i < rep->ncb; i++)
		n += !rep->cb[i].r.task;
	return n;
}

#define SYSFS_TOPO							\
	"s.root suspend=2000 resume=2000\n"				\
	"s.a parent=s.root suspend=3000 resume=3000\n"			\
	"s.b parent=s.root async=0 suspend=20000 resume=20000\n"	\
	"s.c parent=s.a async=1 suspend=2000 resume=1000\n"		\
	"s.d async=0 suspend=1000\n"

/* power/async of each device follows async= of the topology. */
TEST_F_TIMEOUT(sleep, sysfs_power_async_follows_async, PMA_CASE_TIMEOUT)
{
	const char *l, *e;
	char name[64], path[128], *got;

	ASSERT_EQ(0, pma_case_load(&self->c, SYSFS_TOPO));
	for (l = self->c.topo; *l; l = *e ? e + 1 : e) {
		const char *want;
		char line[512];

		e = strchrnul(l, '\n');
		snprintf(line, sizeof(line), " %.*s ", (int)(e - l), l);
		want = strstr(line, " async=0 ") ? "disabled" : "enabled";
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(l, "\n "), l);
		snprintf(path, sizeof(path), PMA_BUS "/%s/power/async", name);
		got = pma_read(path);
		EXPECT_TRUE(got && !strncmp(got, want, strlen(want)))
			TH_LOG("%s: power/async is '%s', expected %s", name,
			       got ? got : "", want);
		free(got);
	}
	EXPECT_EQ(pma_nlines(self->c.topo), pma_bus_count())
		TH_LOG("device count on the bus differs");
}

/* A device switched to sync runs in the PM task, one to async in a worker. */
TEST_F_TIMEOUT(sleep, sysfs_switched_device_runs_there, PMA_CASE_TIMEOUT)
{
	char *t;

	ASSERT_EQ(0, pma_case_load(&self->c, SYSFS_TOPO));
	ASSERT_EQ(0, pma_write(PMA_BUS "/s.a/power/async", "disabled\n"));
	ASSERT_EQ(0, pma_write(PMA_BUS "/s.b/power/async", "enabled\n"));
	t = pma_lab_read("topology");
	ASSERT_NE(NULL, t);
	EXPECT_TRUE(strstr(t, "s.a parent=s.root async=0 ") &&
		    strstr(t, "s.b parent=s.root async=1 "))
		TH_LOG("topology does not show the new flags:\n%s", t);
	free(t);
	ASSERT_EQ(0, pma_case_good(&self->c, "freeze"));
	EXPECT_EQ(0, all_in(&self->c.rep, "s.a", "task"));
	EXPECT_EQ(0, some_in(&self->c.rep, "s.b", "worker"));
}

/* pm_async=0 runs every callback in the PM task, pm_async=1 uses workers. */
TEST_F_TIMEOUT(sleep, sysfs_pm_async_0_then_1, PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c, SYSFS_TOPO));
	ASSERT_EQ(0, pma_set_pm_async(0));
	ASSERT_EQ(0, pma_case_good(&self->c, "freeze"));
	EXPECT_EQ(0, in_workers(&self->c.rep))
		TH_LOG("pm_async=0: callbacks ran in a worker");
	ASSERT_EQ(0, pma_set_pm_async(1));
	ASSERT_EQ(0, pma_case_good(&self->c, "freeze"));
	EXPECT_NE(0, in_workers(&self->c.rep))
		TH_LOG("pm_async=1: no callback ran in a worker");
}

#define MIX_TOPO							\
	"# sync parent of async children (i8042 and serio in 2009)\n"	\
	"i8042 async=0 suspend=20000 resume=5000 suspend_noirq=1000"	\
	" resume_noirq=1000\n"						\
	"serio0 parent=i8042 async=1 suspend=10000 resume=10000"	\
	" suspend_late=1000 resume_early=1000\n"			\
	"serio1 parent=i8042 async=1 suspend=15000 resume=5000\n"	\
	"# async parent of sync children\n"				\
	"ap async=1 suspend=10000 resume=10000 suspend_late=1000"	\
	" resume_early=1000\n"						\
	"ap.a parent=ap async=0 suspend=5000 resume=5000\n"		\
	"ap.b parent=ap async=0 suspend=2000 resume=2000"		\
	" suspend_noirq=500\n"						\
	"# supplier links across subtrees\n"				\
	"t1 async=1 suspend=1000 resume=1000\n"				\
	"t1.x parent=t1 suspend=5000 resume=5000 suspend_late=9"	\
	" resume_early=9 suspend_noirq=9 resume_noirq=9\n"		\
	"t2 async=0\n"							\
	"t2.y parent=t2 async=1 suspend=1000 resume=8000"		\
	" suppliers=t1.x\n"						\
	"t2.z parent=t2 async=0 suspend=1000 resume=1000"		\
	" suppliers=t1.x,serio0\n"					\
	"ap.c parent=ap async=1 suspend=3000 resume=3000"		\
	" suppliers=t2.y,ap.a\n"

/* What a mix expects of the report: where a device ran, or before whom. */
struct expect {
	enum { ALL_IN, SOME_IN, FIRST } what;
	const char *dev;
	const char *other;	/* the context, or the device it suspends before */
};

static int expect(struct pma_case *c, const struct expect *e)
{
	switch (e->what) {
	case ALL_IN:
		return all_in(&c->rep, e->dev, e->other);
	case SOME_IN:
		return some_in(&c->rep, e->dev, e->other);
	default:
		return pma_case_suspends_first(c, e->dev, e->other);
	}
}

/* MIX_TOPO in one transition with pm_async=1, and what each mix expects. */
FIXTURE(mix) {
	struct pma_case c;
};

FIXTURE_VARIANT(mix) {
	const struct expect *e;	/* up to one without a device */
};

FIXTURE_SETUP(mix)
{
	const char *why = pma_case_begin(&self->c);

	if (why)
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN(mix)
{
	pma_case_end(&self->c);
}

/* A sync parent (i8042) of async children (serio0, serio1). */
FIXTURE_VARIANT_ADD(mix, sync_parent_async_children) {
	.e = (const struct expect []){
		{ ALL_IN, "i8042", "task" },
		{ SOME_IN, "serio0", "worker" },
		{ SOME_IN, "serio1", "worker" },
		{ FIRST, "serio0", "i8042" },
		{ FIRST, "serio1", "i8042" },
		{ },
	},
};

/* An async parent (ap) of sync children. */
FIXTURE_VARIANT_ADD(mix, async_parent_sync_children) {
	.e = (const struct expect []){
		{ SOME_IN, "ap", "worker" },
		{ ALL_IN, "ap.a", "task" },
		{ ALL_IN, "ap.b", "task" },
		{ FIRST, "ap.a", "ap" },
		{ FIRST, "ap.b", "ap" },
		{ FIRST, "ap.c", "ap" },
		{ },
	},
};

/* Supplier links across subtrees order their ends. */
FIXTURE_VARIANT_ADD(mix, supplier_links_across_subtrees) {
	.e = (const struct expect []){
		{ FIRST, "t2.y", "t1.x" },
		{ FIRST, "t2.z", "t1.x" },
		{ FIRST, "t2.z", "serio0" },
		{ FIRST, "ap.c", "t2.y" },
		{ FIRST, "ap.c", "ap.a" },
		{ },
	},
};

TEST_F_TIMEOUT(mix, order, PMA_CASE_TIMEOUT)
{
	const struct expect *e;

	ASSERT_EQ(0, pma_case_load(&self->c, MIX_TOPO));
	ASSERT_EQ(0, pma_case_good(&self->c, "freeze"));
	for (e = variant->e; e->dev; e++)
		EXPECT_EQ(0, expect(&self->c, e));
}

#define FAIL_TOPO							\
	"r suspend=1000 resume=1000\n"					\
	"r.a parent=r suspend=2000 resume=2000 suspend_late=500"	\
	" suspend_noirq=500\n"						\
	"r.a.1 parent=r.a suspend=3000 resume=1000 suspend_noirq=500\n"	\
	"r.a.2 parent=r.a async=0 suspend=1000 resume=1000\n"		\
	"r.b parent=r async=0 suspend=1000 resume=1000 suspend_late=500" \
	" suppliers=r.a.1\n"						\
	"r.b.1 parent=r.b suspend=2000 resume=1000 resume_early=500\n"	\
	"x suspend=5000 suppliers=r.b.1\n"

/* A callback failure injected in a suspend phase, with pm_async 0 or 1. */
FIXTURE(failure) {
	struct pma_case c;
};

FIXTURE_VARIANT(failure) {
	int pm_async;
	const char *dev;
	const char *phase;
};

FIXTURE_SETUP(failure)
{
	const char *why = pma_case_begin(&self->c);

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, pma_set_pm_async(variant->pm_async));
}

FIXTURE_TEARDOWN(failure)
{
	pma_case_end(&self->c);
}

FIXTURE_VARIANT_ADD(failure, suspend_of_r_a_pm_async_0) {
	.pm_async = 0, .dev = "r.a", .phase = "suspend",
};

FIXTURE_VARIANT_ADD(failure, suspend_late_of_r_b_pm_async_0) {
	.pm_async = 0, .dev = "r.b", .phase = "suspend_late",
};

FIXTURE_VARIANT_ADD(failure, suspend_noirq_of_r_a_1_pm_async_0) {
	.pm_async = 0, .dev = "r.a.1", .phase = "suspend_noirq",
};

FIXTURE_VARIANT_ADD(failure, suspend_of_r_a_pm_async_1) {
	.pm_async = 1, .dev = "r.a", .phase = "suspend",
};

FIXTURE_VARIANT_ADD(failure, suspend_late_of_r_b_pm_async_1) {
	.pm_async = 1, .dev = "r.b", .phase = "suspend_late",
};

FIXTURE_VARIANT_ADD(failure, suspend_noirq_of_r_a_1_pm_async_1) {
	.pm_async = 1, .dev = "r.a.1", .phase = "suspend_noirq",
};

/* The transition fails, every device comes back, the next one succeeds. */
TEST_F_TIMEOUT(failure, all_back_next_succeeds, PMA_CASE_TIMEOUT)
{
	char arm[64], *t;

	ASSERT_EQ(0, pma_case_load(&self->c, FAIL_TOPO));
	snprintf(arm, sizeof(arm), "%s %s\n", variant->dev, variant->phase);
	ASSERT_EQ(0, pma_lab_write("fail", arm));
	EXPECT_EQ(0, pma_case_fails(&self->c, variant->dev, variant->phase));
	t = pma_lab_read("topology");
	ASSERT_NE(NULL, t);
	EXPECT_FALSE(pma_line_has(t, variant->dev, " fail=", 0))
		TH_LOG("%s: failure still armed", variant->dev);
	free(t);
	EXPECT_EQ(0, pma_case_good(&self->c, "freeze"));
}

/*
 * w waits for c (device_pm_wait_for_dev()) as soon as its suspend starts,
 * before the PM task's walk reaches c behind the 30 ms sync s; c's only
 * child c.g then fails after 100 ms, so it never starts c.  An engine that
 * leaves c to its last child must still start c for the waiter that came
 * before the walk, or the waiter blocks and the phase never ends.  The
 * transition fails with c.g's -EIO, w's suspend started before s's ended
 * (else the case tested nothing), every device comes back, the next
 * transition succeeds.
 */
#define WAITED_TOPO							\
	"c suspend=1000 resume=1000\n"					\
	"c.g parent=c suspend=100000 resume=1000 fail=suspend\n"	\
	"s async=0 suspend=30000 resume=1000\n"				\
	"w suspend=1000 resume=1000 wait=suspend:c\n"

TEST_F_TIMEOUT(sleep, failure_waited_before_the_walk, PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c, WAITED_TOPO));
	EXPECT_EQ(0, pma_case_fails(&self->c, "c.g", "suspend"));
	EXPECT_EQ(0, pma_askl(&self->c.rep, "started_by", "w", "suspend", "s",
			      "suspend", NULL));
	EXPECT_EQ(0, pma_case_good(&self->c, "freeze"));
}

/* hibernation: freeze, freeze_late, freeze_noirq and back (pm_test). */
TEST_F_TIMEOUT(sleep, hibernation, PMA_CASE_TIMEOUT)
{
	char exe[PATH_MAX], path[PATH_MAX + 32], req[160], *topo;
	const char *res = "restore";
	ssize_t n;
	int i;

	if (!pma_file_has_word(PMA_PWR "state", "disk"))
		SKIP(return, "'disk' not in " PMA_PWR "state");
	if (!pma_file_has_word(PMA_PWR "pm_test", "platform"))
		SKIP(return, "no pm_test=platform");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, n);
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/profiles/laptop.topo", dirname(exe));
	topo = pma_read(path);
	ASSERT_NE(NULL, topo) TH_LOG("no %s", path);
	ASSERT_EQ(0, pma_case_load(&self->c, topo));
	free(topo);
	ASSERT_EQ(0, pma_case_cycle(&self->c, "disk"));
	/* Without an image restore follows freeze; after one, thaw does. */
	for (i = 0; i < self->c.rep.ncb; i++)
		if (!strcmp(self->c.rep.cb[i].r.phase, "thaw"))
			res = "thaw";
	snprintf(req, sizeof(req),
		 "prepare freeze freeze_late freeze_noirq %s_noirq %s_early %s complete",
		 res, res, res);
	EXPECT_EQ(0, pma_case_check(&self->c, req, "", NULL, NULL));
	EXPECT_EQ(0, pma_case_same_state(&self->c));
	printf("# hibernation: resumed with %s: ", res);
	fflush(stdout);
	pma_askl(&self->c.rep, "spans", NULL);
}

TEST_HARNESS_MAIN

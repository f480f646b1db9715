// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the dependency-driven device suspend/resume engine
 * (drivers/base/power/async.c) on small in-memory device graphs.
 *
 * Copyright (c) 2026 The pm-async developers
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/pm.h>
#include <linux/slab.h>

#include "power.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define TDEV_MAX	16
#define TSUP_MAX	2

struct tgraph;

/* A test device: what its callback does and what it saw. */
struct tdev {
	struct device dev;
	struct tgraph *g;
	int parent;			/* index, -1 for none */
	int sup[TSUP_MAX];		/* supplier indices, -1 for none */
	struct device_link *link[TSUP_MAX];
	bool async;
	unsigned int sleep_ms;
	int fail;			/* returned by the callback */
	int unregister;			/* index to unregister when run, or -1 */
	int unlink;			/* index of a device whose links to drop */
	/* Results. */
	atomic_t runs;
	int seq;			/* order of the start, from 1 */
	bool in_task;
	u64 start_ns;
	u64 end_ns;			/* 0 until done */
};

struct tgraph {
	struct kunit *test;
	int n;
	bool registered[TDEV_MAX];
	struct tdev *d[TDEV_MAX];
	atomic_t seq;
	atomic_t violations;
	bool resume;
	unsigned int split_min;		/* &dpm_walk.split_min, 0 by default */
};

static struct tdev *to_tdev(struct device *dev)
{
	return container_of(dev, struct tdev, dev);
}

static void tdev_release(struct device *dev)
{
	kfree(to_tdev(dev));
}

static bool tdev_done(struct tdev *t)
{
	/* Pairs with the release in tdev_run(): what it did is visible. */
	return smp_load_acquire(&t->end_ns) != 0;
}

/* Does @a have to be done before @b starts in this walk? */
static bool tdev_before(struct tgraph *g, int a, int b)
{
	int i, x = g->resume ? a : b, y = g->resume ? b : a;

	/* Suspend: y is a child or consumer of x; resume the other way. */
	if (g->d[y]->parent == x)
		return true;
	for (i = 0; i < TSUP_MAX; i++)
		if (g->d[y]->sup[i] == x && g->d[y]->link[i])
			return true;
	return false;
}

static int tdev_run(struct device *dev, pm_message_t state, bool async)
{
	struct tdev *t = to_tdev(dev);
	struct tgraph *g = t->g;
	int self = -1, i;

	for (i = 0; i < g->n; i++)
		if (g->d[i] == t)
			self = i;

	atomic_inc(&t->runs);
	t->seq = atomic_inc_return(&g->seq);
	t->in_task = !async;
	t->start_ns = ktime_get_ns();
	for (i = 0; i < g->n; i++)
		if (g->registered[i] && tdev_before(g, i, self) &&
		    !tdev_done(g->d[i]))
			atomic_inc(&g->violations);

	if (t->unlink >= 0) {
		struct tdev *u = g->d[t->unlink];

		for (i = 0; i < TSUP_MAX; i++) {
			if (u->link[i]) {
				device_link_del(u->link[i]);
				u->link[i] = NULL;
			}
		}
	}
	if (t->unregister >= 0) {
		g->registered[t->unregister] = false;
		device_unregister(&g->d[t->unregister]->dev);
	}
	if (t->sleep_ms)
		msleep(t->sleep_ms);

	/* Publish the end last; pairs with the acquire in tdev_done(). */
	smp_store_release(&t->end_ns, ktime_get_ns());
	return t->fail;
}

static void tgraph_unregister(void *data)
{
	struct tgraph *g = data;
	int i, j;

	for (i = g->n - 1; i >= 0; i--) {
		if (!g->registered[i])
			continue;
		for (j = 0; j < TSUP_MAX; j++)
			if (g->d[i]->link[j])
				device_link_del(g->d[i]->link[j]);
	}
	for (i = g->n - 1; i >= 0; i--)
		if (g->registered[i])
			device_unregister(&g->d[i]->dev);
}

/*
 * Build a graph from a table of "parent supplier async sleep_ms" rows,
 * parents and suppliers before the devices that need them.
 */
struct tspec {
	int parent;
	int sup;
	bool async;
	unsigned int sleep_ms;
};

static struct tgraph *tgraph_create(struct kunit *test, const struct tspec *spec,
				    int n)
{
	struct tgraph *g;
	int i, ret;

	g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	g->test = test;
	ret = kunit_add_action_or_reset(test, tgraph_unregister, g);
	KUNIT_ASSERT_EQ(test, ret, 0);

	for (i = 0; i < n; i++) {
		struct tdev *t = kzalloc(sizeof(*t), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, t);
		t->g = g;
		t->parent = spec[i].parent;
		t->sup[0] = spec[i].sup;
		t->sup[1] = -1;
		t->async = spec[i].async;
		t->sleep_ms = spec[i].sleep_ms;
		t->unregister = -1;
		t->unlink = -1;
		device_initialize(&t->dev);
		t->dev.release = tdev_release;
		if (t->parent >= 0)
			t->dev.parent = &g->d[t->parent]->dev;
		dev_set_name(&t->dev, "dpm-kunit-%d", i);
		if (t->async)
			device_enable_async_suspend(&t->dev);
		g->d[i] = t;
		ret = device_add(&t->dev);
		if (ret) {
			put_device(&t->dev);
			KUNIT_ASSERT_EQ(test, ret, 0);
		}
		g->registered[i] = true;
		g->n = i + 1;
		if (t->sup[0] >= 0) {
			t->link[0] = device_link_add(&t->dev, &g->d[t->sup[0]]->dev,
						     DL_FLAG_STATELESS);
			KUNIT_ASSERT_NOT_NULL(test, t->link[0]);
		}
	}
	return g;
}

/* Walk @g in the order the PM core would: list order, reversed to suspend. */
static int tgraph_walk(struct tgraph *g, enum dpm_phase phase,
		       struct dpm_walk *walk)
{
	int i, ret;

	g->resume = phase >= DPM_RESUME_NOIRQ;
	atomic_set(&g->seq, 0);
	atomic_set(&g->violations, 0);
	for (i = 0; i < g->n; i++) {
		atomic_set(&g->d[i]->runs, 0);
		g->d[i]->end_ns = 0;
		g->d[i]->seq = 0;
	}

	dpm_walk_init(walk, phase, g->resume ? PMSG_RESUME : PMSG_SUSPEND,
		      tdev_run);
	walk->report = false;
	/* Callbacks without a sleep are short, however slow the machine. */
	walk->inline_ns = 5 * NSEC_PER_MSEC;
	walk->split_min = g->split_min;
	for (i = 0; i < g->n; i++) {
		int k = g->resume ? i : g->n - 1 - i;

		if (g->registered[k])
			dpm_walk_add(walk, &g->d[k]->dev);
	}
	dpm_walk_link(walk);
	ret = dpm_walk_run(walk);
	return ret;
}

/*
 * A root with three children with two children each: 10 devices.  Leaves
 * sleep a little so that several are in flight together.
 */
static const struct tspec tree[] = {
	{ -1, -1, true, 0 },
	{ 0, -1, true, 1 }, { 0, -1, true, 1 }, { 0, -1, true, 1 },
	{ 1, -1, true, 3 }, { 1, -1, true, 2 },
	{ 2, -1, true, 3 }, { 2, -1, true, 2 },
	{ 3, -1, true, 3 }, { 3, -1, true, 2 },
};

/* The tree with every device's async flag and sleep replaced. */
static struct tgraph *tree_variant(struct kunit *test, bool async,
				   int sleep_ms)
{
	struct tspec spec[ARRAY_SIZE(tree)];
	int i;

	memcpy(spec, tree, sizeof(spec));
	for (i = 0; i < ARRAY_SIZE(spec); i++) {
		spec[i].async = async;
		if (sleep_ms >= 0)
			spec[i].sleep_ms = sleep_ms;
	}
	return tgraph_create(test, spec, ARRAY_SIZE(spec));
}

static void check_all_ran_once(struct kunit *test, struct tgraph *g)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (g->registered[i])
			KUNIT_EXPECT_EQ_MSG(test, atomic_read(&g->d[i]->runs), 1,
					    "device %d", i);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->violations), 0);
}

struct phase_case {
	const char *name;
	enum dpm_phase phase;
};

static const struct phase_case phase_cases[] = {
	{ "suspend", DPM_SUSPEND },
	{ "suspend_late", DPM_SUSPEND_LATE },
	{ "suspend_noirq", DPM_SUSPEND_NOIRQ },
	{ "resume_noirq", DPM_RESUME_NOIRQ },
	{ "resume_early", DPM_RESUME_EARLY },
	{ "resume", DPM_RESUME },
};

static void phase_case_desc(const struct phase_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dpm_phase, phase_cases, phase_case_desc);

/* Tests that every device of a tree runs once, after its dependencies. */
static void dpm_async_tree_order_test(struct kunit *test)
{
	const struct phase_case *c = test->param_value;
	struct tgraph *g = tgraph_create(test, tree, ARRAY_SIZE(tree));
	struct dpm_walk walk;

	KUNIT_EXPECT_EQ(test, tgraph_walk(g, c->phase, &walk), 0);
	check_all_ran_once(test, g);
	KUNIT_EXPECT_EQ(test, walk.stats.not_started, 0);
	/* The devices of one parent overlap: more than one was in flight. */
	KUNIT_EXPECT_GT(test, atomic_read(&walk.peak), 1);
	dpm_walk_finish(&walk);
}

/*
 * Sync devices in the middle of async ones: 0 sync root, async 1 and 2
 * under it, sync 3 under 1, async 4 under 3, sync 5 under 2.
 */
static const struct tspec mixed[] = {
	{ -1, -1, false, 0 },
	{ 0, -1, true, 2 }, { 0, -1, true, 0 },
	{ 1, -1, false, 1 }, { 3, -1, true, 2 }, { 2, -1, false, 1 },
};

/* Tests sync devices run in the PM task in walk order, async ones not. */
static void dpm_async_mixed_test(struct kunit *test)
{
	const struct phase_case *c = test->param_value;
	struct tgraph *g = tgraph_create(test, mixed, ARRAY_SIZE(mixed));
	struct dpm_walk walk;
	int i, last = 0;

	KUNIT_EXPECT_EQ(test, tgraph_walk(g, c->phase, &walk), 0);
	check_all_ran_once(test, g);
	KUNIT_EXPECT_EQ(test, walk.stats.task, 3);
	for (i = 0; i < g->n; i++) {
		int k = g->resume ? i : g->n - 1 - i;
		struct tdev *t = g->d[k];

		if (t->async)
			continue;
		KUNIT_EXPECT_TRUE_MSG(test, t->in_task, "sync device %d", k);
		/* Sync devices start in walk order. */
		KUNIT_EXPECT_GT(test, t->seq, last);
		last = t->seq;
	}
	dpm_walk_finish(&walk);
}

/* With every device sync the walk is the sequential walk, in order. */
static void dpm_async_all_sync_test(struct kunit *test)
{
	struct tgraph *g = tree_variant(test, false, -1);
	struct dpm_walk walk;
	int i;

	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_SUSPEND, &walk), 0);
	check_all_ran_once(test, g);
	for (i = 0; i < g->n; i++) {
		KUNIT_EXPECT_EQ(test, g->d[g->n - 1 - i]->seq, i + 1);
		KUNIT_EXPECT_TRUE(test, g->d[i]->in_task);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&walk.peak), 1);
	dpm_walk_finish(&walk);
}

/*
 * Two subtrees, 0 -> 1 -> 2 and 3 -> 4, where 4 is a supplier of 2: in
 * suspend 2 waits for nothing and 4 waits for 2; in resume 2 waits for 4.
 */
static const struct tspec linked[] = {
	{ -1, -1, true, 0 }, { 0, -1, true, 1 }, { 1, -1, true, 5 },
	{ -1, -1, true, 0 }, { 3, -1, true, 1 },
};

/* Tests that device links order devices across subtrees. */
static void dpm_async_links_test(struct kunit *test)
{
	const struct phase_case *c = test->param_value;
	struct tgraph *g;
	struct dpm_walk walk;

	g = tgraph_create(test, linked, ARRAY_SIZE(linked));
	g->d[2]->sup[0] = 4;
	g->d[2]->link[0] = device_link_add(&g->d[2]->dev, &g->d[4]->dev,
					   DL_FLAG_STATELESS);
	KUNIT_ASSERT_NOT_NULL(test, g->d[2]->link[0]);

	KUNIT_EXPECT_EQ(test, tgraph_walk(g, c->phase, &walk), 0);
	check_all_ran_once(test, g);
	if (g->resume)
		KUNIT_EXPECT_GE(test, g->d[2]->start_ns, g->d[4]->end_ns);
	else
		KUNIT_EXPECT_GE(test, g->d[4]->start_ns, g->d[2]->end_ns);
	dpm_walk_finish(&walk);
}

/*
 * The seed's stall: a slow sync device first in walk order must not hold
 * back an async device that does not depend on it.
 */
static const struct tspec stall[] = {
	{ -1, -1, true, 0 },		/* 0: async root */
	{ 0, -1, true, 30 },		/* 1: async leaf, slow */
	{ -1, -1, false, 100 },		/* 2: sync, slow, walked first */
};

/* Tests that an async device starts while the PM task runs a sync one. */
static void dpm_async_no_sync_stall_test(struct kunit *test)
{
	struct tgraph *g = tgraph_create(test, stall, ARRAY_SIZE(stall));
	struct dpm_walk walk;

	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_SUSPEND, &walk), 0);
	check_all_ran_once(test, g);
	KUNIT_EXPECT_LT(test, g->d[1]->start_ns, g->d[2]->end_ns);
	KUNIT_EXPECT_LT(test, g->d[0]->start_ns, g->d[2]->end_ns);
	dpm_walk_finish(&walk);
}

/* A chain 0 -> 1 -> 2 -> 3 -> 4 of async devices, 1 ms each. */
static const struct tspec chain[] = {
	{ -1, -1, true, 1 }, { 0, -1, true, 1 }, { 1, -1, true, 1 },
	{ 2, -1, true, 1 }, { 3, -1, true, 1 },
};

/* Tests that a worker continues along a chain instead of queueing. */
static void dpm_async_continue_test(struct kunit *test)
{
	struct tgraph *g = tgraph_create(test, chain, ARRAY_SIZE(chain));
	struct dpm_walk walk;

	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_RESUME, &walk), 0);
	check_all_ran_once(test, g);
	KUNIT_EXPECT_EQ(test, atomic_read(&walk.queued), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&walk.continued), 4);
	/* The critical path is the whole chain, and no less than its sum. */
	dpm_walk_finish(&walk);
	KUNIT_EXPECT_PTR_EQ(test, walk.stats.cp_end, &g->d[4]->dev);
	KUNIT_EXPECT_GE(test, walk.stats.cp_ns, 5 * NSEC_PER_MSEC);
}

/* Tests that short callbacks run in place the next time. */
static void dpm_async_inline_test(struct kunit *test)
{
	struct tgraph *g = tree_variant(test, true, 0);
	struct dpm_walk walk;
	int i;

	/* The first walk learns the durations... */
	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_SUSPEND, &walk), 0);
	dpm_walk_finish(&walk);
	/* ...the second one runs them in place, all in the PM task. */
	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_SUSPEND, &walk), 0);
	check_all_ran_once(test, g);
	KUNIT_EXPECT_EQ(test, atomic_read(&walk.queued), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&walk.inlined), ARRAY_SIZE(tree));
	for (i = 0; i < g->n; i++)
		KUNIT_EXPECT_TRUE(test, g->d[i]->in_task);
	dpm_walk_finish(&walk);
}

/*
 * Tests that a helper starts the second half of the async devices: in the
 * suspend walk of the tree (9, 8, ..., 0) the PM task releases 9 to 5 and
 * the helper 4 to 0, so leaf 4 runs in the helper, in place (short).
 */
static void dpm_async_split_test(struct kunit *test)
{
	struct tgraph *g = tree_variant(test, true, 0);
	bool split = num_online_cpus() > 1;
	struct dpm_walk walk;

	g->split_min = 2;
	/* The first walk learns the durations... */
	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_SUSPEND, &walk), 0);
	dpm_walk_finish(&walk);
	/* ...the second one runs them in place, in two threads. */
	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_SUSPEND, &walk), 0);
	check_all_ran_once(test, g);
	KUNIT_EXPECT_EQ(test, walk.stats.helpers, split ? 1 : 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&walk.inlined), ARRAY_SIZE(tree));
	KUNIT_EXPECT_EQ(test, g->d[4]->in_task, !split);
	KUNIT_EXPECT_TRUE(test, g->d[9]->in_task);
	dpm_walk_finish(&walk);

	/* Fewer than twice split_min async devices: no helper. */
	g->split_min = ARRAY_SIZE(tree);
	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_RESUME, &walk), 0);
	check_all_ran_once(test, g);
	KUNIT_EXPECT_EQ(test, walk.stats.helpers, 0);
	dpm_walk_finish(&walk);
}

/*
 * Tests that after an error in a suspend phase nothing starts that depends
 * on the failed device, the walk returns the error, and exactly the devices
 * that ran are reported as started.
 */
static void dpm_async_error_test(struct kunit *test)
{
	struct tgraph *g = tgraph_create(test, tree, ARRAY_SIZE(tree));
	struct dpm_walk walk;
	int i;

	g->d[4]->fail = -EIO;
	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_SUSPEND, &walk), -EIO);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->violations), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->d[1]->runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->d[0]->runs), 0);
	for (i = 0; i < g->n; i++) {
		KUNIT_EXPECT_LE(test, atomic_read(&g->d[i]->runs), 1);
		KUNIT_EXPECT_EQ_MSG(test, dpm_walk_started(&g->d[i]->dev),
				    atomic_read(&g->d[i]->runs) == 1,
				    "device %d", i);
	}
	dpm_walk_finish(&walk);
	KUNIT_EXPECT_GT(test, walk.stats.not_started, 0);
	/* Every device is completed, started or not. */
	for (i = 0; i < g->n; i++)
		KUNIT_EXPECT_TRUE(test, completion_done(&g->d[i]->dev.power.completion));

	/* The next walk works and runs everything. */
	g->d[4]->fail = 0;
	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_SUSPEND, &walk), 0);
	check_all_ran_once(test, g);
	dpm_walk_finish(&walk);
}

/* 0: sync slow, first in walk order; 1: async, unregisters 2; 2: sync. */
static const struct tspec removal[] = {
	{ -1, -1, false, 0 }, { -1, -1, true, 0 }, { -1, -1, false, 100 },
};

/* Tests that a device deleted before its turn is skipped, without a hang. */
static void dpm_async_removed_test(struct kunit *test)
{
	struct tgraph *g = tgraph_create(test, removal, ARRAY_SIZE(removal));
	struct dpm_walk walk;

	g->d[1]->unregister = 0;
	get_device(&g->d[0]->dev);
	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_SUSPEND, &walk), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->d[0]->runs), 0);
	KUNIT_EXPECT_TRUE(test, dpm_walk_removed(&g->d[0]->dev));
	KUNIT_EXPECT_EQ(test, atomic_read(&g->d[1]->runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->d[2]->runs), 1);
	dpm_walk_finish(&walk);
	put_device(&g->d[0]->dev);
}

/*
 * 0 -> 1 and 2 -> 3, 1 a consumer of 3 and slow; 2 drops the link while
 * 1 runs, so 3 is never told that 1 is done.
 */
static const struct tspec lost[] = {
	{ -1, -1, true, 0 }, { 0, -1, true, 40 }, { -1, -1, true, 0 },
	{ 2, -1, true, 0 }, { -1, -1, true, 0 },
};

/*
 * Run the lost link graph with all devices async or all sync: 4 deletes the
 * link between 1 and 3, and the walk must restart with 3 once nothing is in
 * flight (the PM task, waiting for a sync 3, must then stop waiting for it).
 */
static void lost_link_run(struct kunit *test, bool async)
{
	struct tspec spec[ARRAY_SIZE(lost)];
	struct dpm_walk walk;
	struct tgraph *g;
	int i;

	memcpy(spec, lost, sizeof(spec));
	for (i = 0; i < ARRAY_SIZE(spec); i++)
		spec[i].async = async;
	g = tgraph_create(test, spec, ARRAY_SIZE(spec));
	g->d[1]->sup[0] = 3;
	g->d[1]->link[0] = device_link_add(&g->d[1]->dev, &g->d[3]->dev,
					   DL_FLAG_STATELESS);
	KUNIT_ASSERT_NOT_NULL(test, g->d[1]->link[0]);
	g->d[4]->unlink = 1;

	KUNIT_EXPECT_EQ(test, tgraph_walk(g, DPM_SUSPEND, &walk), 0);
	check_all_ran_once(test, g);
	KUNIT_EXPECT_EQ(test, walk.stats.stalls, 1);
	/*
	 * Async, 3 still ran after 1, the device that was counted for it.
	 * Sync devices run in walk order, which puts 3 before 1 here.
	 */
	if (async)
		KUNIT_EXPECT_GE(test, g->d[3]->start_ns, g->d[1]->end_ns);
	dpm_walk_finish(&walk);
}

/* Tests that a dependency deleted during the walk cannot make it hang. */
static void dpm_async_lost_link_test(struct kunit *test)
{
	lost_link_run(test, true);
}

/* Tests the same with sync devices. */
static void dpm_async_lost_link_sync_test(struct kunit *test)
{
	lost_link_run(test, false);
}

static struct kunit_case dpm_async_cases[] = {
	KUNIT_CASE_PARAM(dpm_async_tree_order_test, dpm_phase_gen_params),
	KUNIT_CASE_PARAM(dpm_async_mixed_test, dpm_phase_gen_params),
	KUNIT_CASE(dpm_async_all_sync_test),
	KUNIT_CASE_PARAM(dpm_async_links_test, dpm_phase_gen_params),
	KUNIT_CASE(dpm_async_no_sync_stall_test),
	KUNIT_CASE(dpm_async_continue_test),
	KUNIT_CASE(dpm_async_inline_test),
	KUNIT_CASE(dpm_async_split_test),
	KUNIT_CASE(dpm_async_error_test),
	KUNIT_CASE(dpm_async_removed_test),
	KUNIT_CASE(dpm_async_lost_link_test),
	KUNIT_CASE(dpm_async_lost_link_sync_test),
	{}
};

static struct kunit_suite dpm_async_suite = {
	.name = "pm-async-engine",
	.test_cases = dpm_async_cases,
};

kunit_test_suite(dpm_async_suite);

MODULE_DESCRIPTION("KUnit tests of dependency-driven device suspend/resume");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * The contract of async device suspend/resume (pm_async.sh's case 5),
 * with the pm_async_test lab (pm_test=platform): an "async" device runs in
 * a worker (the lab counts a callback of one in the PM task as a
 * violation), async leaves (suspend) and roots (resume) start upfront, and
 * a waiter is never left behind a device nobody starts.  Each case is a
 * driver behaviour that mainline 7.3 finishes; an engine that breaks the
 * contract hangs or runs the phase behind the sync devices.
 *
 * Environment: SETUP_FILLERS (3000), the sync devices that make a
 * suspend phase's setup long in a case's first transition (each of the
 * next three that the churn misses doubles them); SETUP_TRIES (5), the
 * transitions a case makes for its churn to come during that setup.
 */
#define _GNU_SOURCE	/* asprintf(), strchrnul() */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest_harness.h"
#include "pm_async_case.h"

FIXTURE(contract) {
	struct pma_case c;
};

FIXTURE_SETUP(contract)
{
	const char *why = pma_case_begin(&self->c);

	if (why)
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN(contract)
{
	pma_case_end(&self->c);
}

/* The environment variable @var as a number, @def if unset or empty. */
static int env_int(const char *var, int def)
{
	const char *s = getenv(var);

	return s && *s ? atoi(s) : def;
}

/* Hibernation ("disk") can be made with pm_test=platform. */
static int hibernation_ok(void)
{
	return pma_file_has_word(PMA_PWR "state", "disk") &&
	       pma_file_has_word(PMA_PWR "pm_test", "platform");
}

/*
 * early_cycles: @n checked transitions in each of which @dev's @phase
 * starts before the first of the sync devices @s1, @s2, @s3 ends (see
 * starts_early in pm_async_ask.c).
 */
static int early_cycles(struct pma_case *c, int n, const char *dev,
			const char *phase, const char *s1, const char *s2,
			const char *s3)
{
	while (n-- > 0)
		if (pma_case_good(c, "freeze") ||
		    pma_case_ask(c, "starts_early", dev, phase, s1, s2, s3))
			return -1;
	return 0;
}

/*
 * failed_cycle: a transition in which @dev's @phase fails (armed with
 * fail=): the transition fails, every device comes back, the next one
 * succeeds.
 */
static int failed_cycle(struct pma_case *c, const char *dev,
			const char *phase)
{
	if (pma_case_fails(c, dev, phase) || pma_case_good(c, "freeze"))
		return -1;
	return 0;
}

/*
 * churn_start_case: load @topo, one churn cycle with @churn, which must
 * come after @a's @pa ended and before @b's @pb ended, and @dev's @phase
 * must start before @other's @phase ends.  The case's error.
 */
static int churn_start_case(struct pma_case *c, const char *topo,
			    const char *churn, const char *a, const char *pa,
			    const char *b, const char *pb, const char *dev,
			    const char *phase, const char *other)
{
	if (pma_case_load(c, topo))
		return 1;
	if (pma_churn_cycle(c, churn, a, pa, b, pb) ||
	    pma_case_ask(c, "started_by", dev, phase, other, phase))
		return 1;
	return 0;
}

/*
 * removed_cycle: one transition that must succeed, in which churn removes
 * @name; then the report and the state are checked and the churn must be
 * done.  0: all good, 1: a check failed, 2: the transition failed.  @start
 * (@len) gets when the removal started ("" if it was not done).
 */
static int removed_cycle(struct pma_case *c, const char *name, char *start,
			 size_t len)
{
	int rc = 0;

	*start = '\0';
	if (pma_case_good_cycle(c, "freeze"))
		return 2;
	pma_case_forget(c, name);
	if (pma_case_check(c, PMA_SUSPEND_ALL, "", NULL, NULL) ||
	    pma_case_same_state(c))
		rc = 1;
	if (pma_churn_started(start, len, 0))
		rc = 1;
	return rc;
}

/*
 * fillers: @n sync devices f1, f2... without callback times, as topology
 * lines, between @head and @tail (malloc'd, NULL on error).
 */
static char *with_fillers(const char *head, const char *tail, int n)
{
	int i;
	char *t = NULL;
	size_t len;
	FILE *f = open_memstream(&t, &len);

	if (!f)
		return NULL;
	fputs(head, f);
	for (i = 1; i <= n; i++)
		fprintf(f, "f%d async=0\n", i);
	fputs(tail, f);
	if (fclose(f)) {
		free(t);
		return NULL;
	}
	return t;
}

/*
 * setup_window_case: load @head, SETUP_FILLERS (3000) sync fillers and
 * @tail, and run one transition with @churn ("DELAY@l:PHASE NAME
 * [OP=OTHER]"), checked; the churn must have started after l's @ph started
 * and before @z's (the first sync device the walk runs after the setup),
 * else it missed the setup (c->window), and it is tried again with twice
 * the fillers (up to 8 times SETUP_FILLERS), SETUP_TRIES (5) times in all.
 * When the churn thread comes in is up to the scheduler: under QEMU's TCG
 * it started about 0.5 ms after l, and the series' setup took 180 us for
 * 3000 devices (9% of the transitions hit it, 90% with 20000); the case
 * skips if it never came during the setup, after *@tries transitions.
 * @dev's @ph must start before @other's ends.  The case's error.
 */
static int setup_window_case(struct pma_case *c, const char *head,
			     const char *tail, const char *churn,
			     const char *ph, const char *z, const char *dev,
			     const char *other, int *tries)
{
	int try = 0, bad = 0, err = 1, max = env_int("SETUP_TRIES", 5);
	int n = env_int("SETUP_FILLERS", 3000), fillers = n;
	char name[64], more, cs[32], *topo;

	/* A churn of two words, "DELAY NAME", removes NAME. */
	if (sscanf(churn, "%*s %63s %c", name, &more) != 1)
		name[0] = '\0';
	c->window = 1;
	while (c->window && try < max) {
		try++;
		err = 1;
		c->window = 0;
		fillers = n;
		if (try < 4)
			n *= 2;
		topo = with_fillers(head, tail, fillers);
		if (!topo || pma_case_load(c, topo) || pma_churn_arm(churn)) {
			free(topo);
			break;
		}
		free(topo);
		err = 0;
		if (pma_case_good_cycle(c, "freeze")) {
			bad = 1;
			break;
		}
		if (*name)
			pma_case_forget(c, name);
		if (pma_case_check(c, PMA_SUSPEND_ALL, "", NULL, NULL) ||
		    pma_case_same_state(c))
			bad = 1;
		if (pma_churn_started(cs, sizeof(cs), 0))
			bad = 1;
		if (pma_case_ask(c, "within", "l", ph, "start", z, ph, "start",
				 cs, cs))
			c->window = 1;
		if (!c->window &&
		    pma_case_ask(c, "started_by", dev, ph, other, ph))
			err = 1;
	}
	pma_lab_write("churn", "none\n");
	if (bad)
		err = 1;
	*tries = try;
	if (try != 1 && (err || !c->window))
		printf("# the churn came during the setup in transition %d, with %d fillers\n",
		       try, fillers);
	return err;
}

/*
 * failslab_result: why a case run after pma_failslab_arm(), which this
 * disarms, skips: no failslab, or it passed (@err 0) with no allocation
 * failed (a kernel that allocates nothing there, such as mainline, has
 * nothing to fail); NULL if it does not.
 */
static const char *failslab_skips(int err)
{
	int failed = pma_failslab_disarm();

	if (failed < 0)
		return "no failslab in debugfs";
	if (!err && !failed)
		return "no allocation failed: none made there";
	return NULL;
}

/* The device phases of a hibernation that failed in a freeze phase. */
#define HIB_FAILED_ALLOWED \
	"freeze freeze_late freeze_noirq thaw_noirq thaw_early thaw" \
	" restore_noirq restore_early restore"

/*
 * failed_in: as failed_cycle(), in suspend-to-idle (@event "freeze") or in
 * hibernation ("disk", with pm_test=platform), where @dev's @phase (a
 * suspend-side name, as fail= takes it) is a freeze one.
 */
static int failed_in(struct pma_case *c, const char *event, const char *dev,
		     const char *phase)
{
	char freeze_ph[32];
	int ret;

	if (!strcmp(event, "freeze"))
		return failed_cycle(c, dev, phase);
	ret = pma_case_cycle(c, "disk");
	if (ret <= 0) {
		if (!ret)
			printf("# hibernation succeeded despite %s %s failing\n",
			       dev, phase);
		return -1;
	}
	/*
	 * A failed freeze phase resumes with thaw callbacks (recover), the
	 * last phase with restore ones, as no image was made.
	 */
	snprintf(freeze_ph, sizeof(freeze_ph), "freeze%s",
		 phase + strlen("suspend"));
	if (pma_case_check(c, "prepare complete", HIB_FAILED_ALLOWED, dev,
			   freeze_ph) ||
	    pma_case_same_state(c) || pma_case_good(c, "disk"))
		return -1;
	return 0;
}

/*
 * failed_phases: for each suspend-side phase PH, the topology @shape(PH)
 * fails in PH at device x in a transition to @event (see failed_in()).
 * Nonzero if one of them does not pass.
 */
static int failed_phases(struct pma_case *c, const char *event,
			 char *(*shape)(const char *phase))
{
	static const char *const phases[] = {
		"suspend", "suspend_late", "suspend_noirq",
	};
	unsigned int i;
	int err = 0;
	char *topo;

	for (i = 0; i < ARRAY_SIZE(phases); i++) {
		topo = shape(phases[i]);
		if (!topo || pma_case_load(c, topo) ||
		    failed_in(c, event, "x", phases[i])) {
			printf("# %s, x failing in %s\n", event, phases[i]);
			err = 1;
		}
		free(topo);
	}
	return err;
}

/*
 * kicked_topo: the async leaf w waits in @phase for p, which the walk
 * meets after the sync x, whose @phase fails after 20 ms; p's child c is
 * sync, so the walk, stopped at x, never reaches it.  Malloc'd.
 */
static char *kicked_topo(const char *phase)
{
	char *t;

	if (asprintf(&t, "w wait=%s:p\np\nc parent=p async=0\n"
		     "x async=0 %s=20000 fail=%s\n", phase, phase, phase) < 0)
		return NULL;
	return t;
}

/*
 * deferred_topo: 100 async parents, each with one async child whose
 * @phase takes 20 ms, and the sync x, met first by the walk, whose @phase
 * fails at once: every parent is still waiting for its child.  Malloc'd.
 */
static char *deferred_topo(const char *phase)
{
	char *t = NULL;
	size_t len;
	FILE *f = open_memstream(&t, &len);
	int i;

	if (!f)
		return NULL;
	for (i = 1; i <= 100; i++)
		fprintf(f, "p%d\nc%d parent=p%d %s=20000\n", i, i, i, phase);
	fprintf(f, "x async=0 fail=%s\n", phase);
	if (fclose(f)) {
		free(t);
		return NULL;
	}
	return t;
}

/*
 * cycle_case: load @topo and run one freeze transition that must succeed,
 * every device in every phase with no violation, then the question @ask
 * (pm_async_ask.c's, NULL-terminated) if given, and the state as before.
 * The case's error.
 */
static int cycle_case(struct pma_case *c, const char *topo, char **ask)
{
	int argc = 0;

	if (!topo || pma_case_load(c, topo))
		return 1;
	while (ask && ask[argc])
		argc++;
	if (pma_case_good_cycle(c, "freeze") ||
	    pma_case_check(c, PMA_SUSPEND_ALL, "", NULL, NULL) ||
	    (ask && pma_ask(&c->rep, argc, ask)) || pma_case_same_state(c))
		return 1;
	return 0;
}

/*
 * kick_chains: 64 chains of 32 async devices, each chain's end next to a
 * sync device, and 64 async waiters, each waiting for the far end of a
 * chain; the sync z holds the walk for 10 s.  In suspend (@resume 0),
 * w<i> waits for a<i>_1, a<i>_32 is the parent of the sync s<i>, and z is
 * met first by the walk; in resume, the sync s<i> is the parent of a<i>_1,
 * w<i> waits for a<i>_32, and z comes first in the list.  With @fail, f,
 * a child of a1_32, fails its suspend after 1 s.  Malloc'd.
 */
static char *kick_chains(int resume, int fail)
{
	const int nw = 64, nd = 32;
	char *t = NULL;
	size_t len;
	FILE *f = open_memstream(&t, &len);
	int i, j;

	if (!f)
		return NULL;
	if (!resume) {
		for (i = 1; i <= nw; i++)
			fprintf(f, "w%d wait=suspend:a%d_1\n", i, i);
		for (i = 1; i <= nw; i++) {
			fprintf(f, "a%d_1\n", i);
			for (j = 2; j <= nd; j++)
				fprintf(f, "a%d_%d parent=a%d_%d\n",
					i, j, i, j - 1);
			fprintf(f, "s%d parent=a%d_%d async=0\n", i, i, nd);
		}
		if (fail)
			fputs("f parent=a1_32 suspend=1000000 fail=suspend\n",
			      f);
		fputs("z async=0 suspend=10000000\n", f);
	} else {
		fputs("z async=0 resume=10000000\n", f);
		for (i = 1; i <= nw; i++) {
			fprintf(f, "s%d async=0\na%d_1 parent=s%d\n", i, i, i);
			for (j = 2; j <= nd; j++)
				fprintf(f, "a%d_%d parent=a%d_%d\n",
					i, j, i, j - 1);
		}
		for (i = 1; i <= nw; i++)
			fprintf(f, "w%d wait=resume:a%d_%d\n", i, i, nd);
	}
	if (fclose(f)) {
		free(t);
		return NULL;
	}
	return t;
}

/*
 * A sync device whose suspend waits (device_pm_wait_for_dev()) for an
 * async leaf that takes no time, created before it: the walk meets the
 * sync device first, so only a leaf started upfront lets the wait return.
 * Four transitions: an engine that learns from earlier ones has learnt by
 * then.
 */
TEST_F_TIMEOUT(contract, sync_suspend_waits_for_short_async_leaf,
	       PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c,
				   "lf\n"
				   "s async=0 suspend=5000 wait=suspend:lf\n"));
	EXPECT_EQ(0, pma_case_goods(&self->c, 4, "freeze"));
}

/*
 * The same in resume: the sync device comes first in the list and waits
 * for an async root that takes no time.
 */
TEST_F_TIMEOUT(contract, sync_resume_waits_for_short_async_root,
	       PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c,
				   "s async=0 resume=5000 wait=resume:rt\n"
				   "rt\n"));
	EXPECT_EQ(0, pma_case_goods(&self->c, 4, "freeze"));
}

/*
 * w (a leaf, started upfront) waits for x while the walk runs the sync
 * s2, before it reaches x; x's child x.c waits for the sync s, which the
 * walk reaches last.  x must go to a worker when the walk gets to it: run
 * by the walk itself, it would wait for x.c, which waits for the walk.
 */
TEST_F_TIMEOUT(contract, waited_before_the_walk_child_waits_for_sync,
	       PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c,
				   "s async=0 suspend=20000\n"
				   "x\n"
				   "x.c parent=x wait=suspend:s\n"
				   "s2 async=0 suspend=20000\n"
				   "w wait=suspend:x\n"));
	EXPECT_EQ(0, pma_case_goods(&self->c, 4, "freeze"));
}

/*
 * A device that only the walk keeps behind a device below its no-PM
 * child: v, a leaf, waits for g at once, while the walk runs g.b.c (sync,
 * slow) under g's no-PM child g.b; in resume, w, a root, waits for h.b.c
 * at once, while the walk runs its grandparent h (sync, slow) above its
 * no-PM parent.  Mainline starts g and h.b.c only when the walk reaches
 * them, after g.b.c and h: an engine that starts a device for its waiter
 * must wait for them too.  (In each suspend phase, the sync hx lets h.b.c
 * finish before the walk reaches h, which mainline does not make wait for
 * it: see pm_async_fixes.c; in each resume phase, the sync gx lets g
 * finish before the walk reaches g.b.c, which mainline does not make wait
 * for g either.)
 */
#define PAST_NO_PM_TOPO							\
	"v wait=suspend:g\n"						\
	"g suspend=4000\n"						\
	"g.b parent=g pm=0\n"						\
	"gx async=0 resume=30000 resume_early=30000 resume_noirq=30000\n" \
	"g.b.c parent=g.b async=0 suspend=20000\n"			\
	"h async=0 resume=20000\n"					\
	"hx async=0 suspend=30000 suspend_late=30000 suspend_noirq=30000\n" \
	"h.b parent=h pm=0\n"						\
	"h.b.c parent=h.b resume=4000\n"				\
	"w wait=resume:h.b.c\n"

TEST_F_TIMEOUT(contract, waiter_starts_device_after_those_past_no_pm,
	       PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c, PAST_NO_PM_TOPO));
	ASSERT_EQ(0, pma_case_goods(&self->c, 3, "freeze"));
	EXPECT_EQ(0, pma_case_before(&self->c, "g.b.c", "suspend", "g",
				     "suspend"));
	EXPECT_EQ(0, pma_case_before(&self->c, "h", "resume", "h.b.c",
				     "resume"));
}

/*
 * x with its children x.a (fails its suspend after 1 ms) and x.b (ends
 * after 50 ms), 3000 async devices f1, f2..., and the waiter w for x,
 * last.  Malloc'd.
 */
static char *two_children_topo(void)
{
	char *t = NULL;
	size_t len;
	FILE *f = open_memstream(&t, &len);
	int i;

	if (!f)
		return NULL;
	fputs("x\nx.a parent=x suspend=1000 fail=suspend\n"
	      "x.b parent=x suspend=50000\n", f);
	for (i = 1; i <= 3000; i++)
		fprintf(f, "f%d\n", i);
	fputs("w wait=suspend:x\n", f);
	if (fclose(f)) {
		free(t);
		return NULL;
	}
	return t;
}

/*
 * w, the last device, is started while the suspend phase is still being
 * set up (3000 devices to count before x's children) and waits for x at
 * once; x.a then fails, x.b ends after the failure and so starts nothing.
 * The waiter must not be left behind x: the transition fails with x.a's
 * -EIO, every device comes back, the next one succeeds.
 */
TEST_F_TIMEOUT(contract, failed_suspend_waiter_for_two_children,
	       PMA_CASE_TIMEOUT)
{
	char *topo = two_children_topo();

	ASSERT_NE(NULL, topo);
	ASSERT_EQ(0, pma_case_load(&self->c, topo));
	free(topo);
	EXPECT_EQ(0, failed_cycle(&self->c, "x.a", "suspend"));
}

/*
 * s, sync, waits for its child w, which waits for d, which the walk has
 * not reached (it is blocked in s); d's child g fails.  d must be started
 * for w (mainline starts it when its child e is done).
 */
TEST_F_TIMEOUT(contract, sync_parent_child_waits_unreached_failed_suspend,
	       PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c,
				   "d\n"
				   "e parent=d\n"
				   "g parent=d suspend=20000 fail=suspend\n"
				   "s async=0\n"
				   "w parent=s wait=suspend:d\n"));
	EXPECT_EQ(0, failed_cycle(&self->c, "g", "suspend"));
}

/*
 * The same one level down: s waits for d, and d's worker for k, which the
 * walk has not reached either; k's child k2 fails.
 */
TEST_F_TIMEOUT(contract, sync_waits_device_child_unreached_failed_suspend,
	       PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c,
				   "d\n"
				   "e parent=d\n"
				   "k parent=d\n"
				   "k1 parent=k\n"
				   "k2 parent=k suspend=20000 fail=suspend\n"
				   "s async=0 wait=suspend:d\n"));
	EXPECT_EQ(0, failed_cycle(&self->c, "k2", "suspend"));
}

/*
 * A waiter starts a device (device_pm_wait_for_dev()) whose sync child the
 * walk never reaches, as it stops at a sync device that fails; and many
 * async parents left waiting for their children when a failure ends the
 * walk at once.  In each suspend-side phase, in suspend-to-idle and in
 * hibernation: the transition fails, every device comes back, the next
 * one succeeds (mainline completes the devices the walk did not reach
 * when a phase fails).
 */
TEST_F_TIMEOUT(contract, waiter_starts_unreached_sync_child_failed_freeze,
	       PMA_CASE_TIMEOUT)
{
	EXPECT_EQ(0, failed_phases(&self->c, "freeze", kicked_topo));
}

TEST_F_TIMEOUT(contract, parents_wait_slow_children_failed_freeze,
	       PMA_CASE_TIMEOUT)
{
	EXPECT_EQ(0, failed_phases(&self->c, "freeze", deferred_topo));
}

TEST_F_TIMEOUT(contract, waiter_starts_unreached_sync_child_failed_disk,
	       PMA_CASE_TIMEOUT)
{
	if (!hibernation_ok())
		SKIP(return, "no hibernation with pm_test=platform");
	EXPECT_EQ(0, failed_phases(&self->c, "disk", kicked_topo));
}

TEST_F_TIMEOUT(contract, parents_wait_slow_children_failed_disk,
	       PMA_CASE_TIMEOUT)
{
	if (!hibernation_ok())
		SKIP(return, "no hibernation with pm_test=platform");
	EXPECT_EQ(0, failed_phases(&self->c, "disk", deferred_topo));
}

/*
 * d takes no time and waits for e, created before it, in freeze only: two
 * suspend-to-idle transitions, then a hibernation one.  What an engine
 * learns of d in suspend must not make it run d's freeze in the PM task,
 * where it would wait for e, which the walk has not reached.
 */
TEST_F_TIMEOUT(contract, short_device_waits_in_freeze_only, PMA_CASE_TIMEOUT)
{
	if (!hibernation_ok())
		SKIP(return, "no hibernation with pm_test=platform");
	ASSERT_EQ(0, pma_case_load(&self->c, "e\nd wait=freeze:e\n"));
	ASSERT_EQ(0, pma_case_goods(&self->c, 2, "freeze"));
	ASSERT_EQ(0, pma_case_good(&self->c, "disk"));
	EXPECT_EQ(0, pma_case_goods(&self->c, 1, "freeze"));
}

/*
 * The USB companion pattern: a.ehci's resume starts waiting for b.uhci, in
 * a sibling subtree created after it, from the third transition on (as an
 * EHCI driver does once its root hub was suspended); every device takes
 * no time.
 */
TEST_F_TIMEOUT(contract, resume_wait_from_third_transition_sibling_subtree,
	       PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c,
				   "a\n"
				   "a.ehci parent=a wait=resume:b.uhci+3\n"
				   "b\n"
				   "b.uhci parent=b\n"));
	EXPECT_EQ(0, pma_case_goods(&self->c, 5, "freeze"));
}

/*
 * A slow async device whose only child takes no time, three sync devices
 * after it: the child is a leaf and starts upfront, so the parent starts
 * at once, not behind the sync devices, in each of four transitions.
 */
TEST_F_TIMEOUT(contract, slow_parent_of_short_child_suspends_upfront,
	       PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c,
				   "p suspend=200000\n"
				   "p.c parent=p\n"
				   "s1 async=0 suspend=50000\n"
				   "s2 async=0 suspend=50000\n"
				   "s3 async=0 suspend=50000\n"));
	EXPECT_EQ(0, early_cycles(&self->c, 4, "p", "suspend", "s1", "s2",
				  "s3"));
}

/*
 * Resume: a root and its child take no time, the grandchild resumes
 * slowly, three sync devices come before them in the list.
 */
TEST_F_TIMEOUT(contract, slow_grandchild_of_short_root_resumes_upfront,
	       PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c,
				   "s1 async=0 resume=50000\n"
				   "s2 async=0 resume=50000\n"
				   "s3 async=0 resume=50000\n"
				   "r\n"
				   "r.c parent=r\n"
				   "r.c.g parent=r.c resume=200000\n"));
	EXPECT_EQ(0, early_cycles(&self->c, 4, "r.c.g", "resume", "s1", "s2",
				  "s3"));
}

/*
 * p's child c1 supplies the slow k, so it waits for k; 150 ms into the
 * transition, while the walk runs the sync devices, c1 is removed.  p
 * must start then (its other child is done), not at the end of the phase,
 * after the last sync device.
 */
TEST_F_TIMEOUT(contract, child_removed_in_suspend_starts_parent,
	       PMA_CASE_TIMEOUT)
{
	char start[32];
	int err = 1, rc;

	if (!pma_case_load(&self->c,
			   "p\n"
			   "c1 parent=p\n"
			   "c2 parent=p\n"
			   "k suppliers=c1 suspend=300000\n"
			   "s1 async=0 suspend=100000\n"
			   "s2 async=0 suspend=100000\n"
			   "s3 async=0 suspend=100000\n") &&
	    !pma_churn_arm("150000 c1")) {
		err = 0;
		rc = removed_cycle(&self->c, "c1", start, sizeof(start));
		if (rc)
			err = 1;
		if (rc != 2) {
			/*
			 * The removal came after c2's suspend, before k's
			 * had ended.
			 */
			if (*start &&
			    pma_case_ask(&self->c, "within", "c2", "suspend",
					 "end", "k", "suspend", "end", start,
					 start))
				self->c.window = 1;
			if (pma_case_ask(&self->c, "started_by", "p",
					 "suspend", "s1", "suspend"))
				err = 1;
		}
		pma_lab_write("churn", "none\n");
	}
	PMA_RESULT(&self->c, NULL, err);
}

/*
 * k consumes p and suspends slowly; 150 ms into the transition its link to
 * p is deleted.  p must start before the unrelated slow z is done
 * (mainline starts p when the walk reaches it, after the sync devices),
 * not when the phase ends.
 */
TEST_F_TIMEOUT(contract, link_deleted_in_suspend_starts_supplier,
	       PMA_CASE_TIMEOUT)
{
	int err = churn_start_case(&self->c,
				   "p\n"
				   "k suppliers=p suspend=300000\n"
				   "z suspend=1000000\n"
				   "s1 async=0 suspend=150000\n"
				   "s2 async=0 suspend=150000\n"
				   "s3 async=0 suspend=150000\n",
				   "150000 k unlink=p", "k", "prepare", "k",
				   "suspend", "p", "suspend", "z");

	PMA_RESULT(&self->c, NULL, err);
}

/*
 * device_move() during resume: c, counted on its parent op when the phase
 * started, is moved under np, done already, while op still resumes.
 * Nothing that is done counts c any more, so it must start then
 * (mainline: when its worker finds its parent done), not when the phase
 * ends behind the much slower z.
 */
#define MOVED_IN_RESUME_TOPO		\
	"np resume=1000\n"		\
	"op resume=1000000\n"		\
	"c parent=op resume=1000\n"	\
	"z resume=2000000\n"

TEST_F_TIMEOUT(contract, moved_to_done_parent_in_resume_starts_before_end,
	       PMA_CASE_TIMEOUT)
{
	int err = churn_start_case(&self->c, MOVED_IN_RESUME_TOPO,
				   "400000 c move=np", "np", "resume", "op",
				   "resume", "c", "resume", "z");

	PMA_RESULT(&self->c, NULL, err);
}

/*
 * The same move while the churn thread cannot allocate (failslab's task
 * filter on it, GFP_ATOMIC only): c's start from device_move() cannot be
 * queued.  It must not run c's callback there, under dpm_list_mtx, which
 * c's wait for its parent takes (a deadlock); the end of the phase starts
 * c instead.
 */
TEST_F_TIMEOUT(contract, moved_in_resume_start_cannot_be_queued,
	       PMA_CASE_TIMEOUT)
{
	const char *why;
	int err = 1;

	if (!pma_case_load(&self->c, MOVED_IN_RESUME_TOPO) &&
	    !pma_failslab_arm()) {
		err = 0;
		if (pma_churn_cycle(&self->c, "400000 c move=np", "np",
				    "resume", "op", "resume"))
			err = 1;
	}
	why = failslab_skips(err);
	if (why)
		SKIP(return, "%s", why);
	PMA_RESULT(&self->c, NULL, err);
}

/*
 * A kick that cannot be queued runs the device in the waiter's context:
 * the sync s waits for d (device_pm_wait_for_dev(), marked for failslab),
 * deferred behind its slow parent p, so the PM task runs d.  d is the last
 * dependency of m, which waits for s: m must go to a worker, not be handed
 * to the PM task to run next, where it would wait for s, which is up the
 * same stack (a deadlock).  The lab does not count d in the PM task, in a
 * wait marked for failslab (mainline runs a device it cannot schedule
 * there too).
 */
TEST_F_TIMEOUT(contract, run_in_place_kick_not_queued_starts_in_worker,
	       PMA_CASE_TIMEOUT)
{
	const char *why, *ctx;
	int err = 1;

	if (!pma_case_load(&self->c,
			   "p resume=300000\n"
			   "d parent=p\n"
			   "s async=0 wait=resume:d\n"
			   "m parent=d wait=resume:s\n") &&
	    !pma_failslab_arm()) {
		err = 0;
		if (pma_case_good(&self->c, "freeze"))
			err = 1;
		ctx = pma_ctx(&self->c.rep, "m", "resume");
		if (!ctx || strcmp(ctx, "worker")) {
			printf("# m resume ran in: %s\n", ctx ? ctx : "");
			err = 1;
		}
	}
	why = failslab_skips(err);
	if (why)
		SKIP(return, "%s", why);
	PMA_RESULT(&self->c, NULL, err);
}

/*
 * A driver's own thread, not a callback, waits for d with
 * device_pm_wait_for_dev() (the churn thread's wait=, 50 ms into the
 * suspend of d's child c, once the phase is set up) and the kick cannot be
 * queued (failslab on that thread): d runs in that thread.  The phase must
 * not end before d is done, or the next one sets d up again and starts
 * late callbacks beside its suspend (mainline: the thread only waits).
 */
TEST_F_TIMEOUT(contract, run_in_place_by_outside_thread_ends_before_phase,
	       PMA_CASE_TIMEOUT)
{
	const char *why;
	int err = 1;

	if (!pma_case_load(&self->c,
			   "d suspend=200000\n"
			   "c parent=d suspend=100000\n"
			   "w\n") &&
	    !pma_failslab_arm() && !pma_churn_arm("50000@c:suspend w wait=d")) {
		err = 0;
		if (pma_case_good_cycle(&self->c, "freeze") ||
		    pma_case_check(&self->c, PMA_SUSPEND_ALL, "", NULL, NULL) ||
		    pma_churn_done() || pma_case_same_state(&self->c))
			err = 1;
		pma_lab_write("churn", "none\n");
	}
	why = failslab_skips(err);
	if (why)
		SKIP(return, "%s", why);
	PMA_RESULT(&self->c, NULL, err);
}

/*
 * Some drivers mark a device with device_set_pm_not_required() in their
 * probe, once it is on the PM core's list (the regulator core its class
 * device, xe an upstream bridge with no driver): the device stays on the
 * list and is resumed as any other (pm=late).  The sync x is one, with the
 * async child c; the walk is busy with the slow sync w when b, their
 * parent, is done.  c must resume after x, as mainline resumes it (the
 * walk reaches c after it has run x), not when b is done, as if x took no
 * part in PM.
 */
TEST_F_TIMEOUT(contract, child_of_sync_marked_no_pm_late_resumes_after_it,
	       PMA_CASE_TIMEOUT)
{
	EXPECT_EQ(0, cycle_case(&self->c,
				"b resume=1000\n"
				"w async=0 resume=100000\n"
				"x parent=b pm=late async=0 resume=1000\n"
				"c parent=x resume=1000\n", NULL));
}

/*
 * The same with the async x and a slow unrelated root s: x must start when
 * b is done, not when the phase ends, and c must resume after x (mainline
 * starts x when b is done, but waits for no device marked no-PM, so c
 * resumes beside x, and b suspends late beside x).
 */
TEST_F_TIMEOUT(contract, no_pm_late_async_starts_with_parent_child_after,
	       PMA_CASE_TIMEOUT)
{
	int err = cycle_case(&self->c,
			     "b resume=1000\n"
			     "s resume=200000\n"
			     "x parent=b pm=late resume=20000\n"
			     "c parent=x resume=1000\n",
			     (char *[]){ "started_by", "x", "resume", "s",
					 "resume", NULL });

	PMA_RESULT(&self->c, "no_pm_late", err);
}

/*
 * device_move() with an order puts a device behind the walk: n is moved
 * under p during the sync z's suspend, with p placed before n
 * (DPM_ORDER_PARENT_BEFORE_DEV), where the walk has been already; p's
 * child q2 then fails.  The phase must still end, p suspended or skipped
 * for the error, everything back.
 */
TEST_F_TIMEOUT(contract, moved_behind_the_walk_in_failed_suspend,
	       PMA_CASE_TIMEOUT)
{
	int err = 1;

	if (!pma_case_load(&self->c,
			   "pp\n"
			   "p parent=pp\n"
			   "q1 parent=p\n"
			   "q2 parent=p suspend=800000 fail=suspend\n"
			   "z async=0 suspend=400000\n"
			   "n\n") &&
	    !pma_churn_arm("150000 n move=p:before")) {
		err = 0;
		if (!pma_case_cycle(&self->c, "freeze")) {
			printf("# the transition succeeded despite q2 failing\n");
			err = 1;
		}
		if (pma_case_check(&self->c, "prepare complete",
				   PMA_DEV_PHASES, "q2", "suspend") ||
		    pma_churn_done() ||
		    pma_churn_within(&self->c, "n", "suspend", "z", "suspend"))
			err = 1;
		pma_lab_write("churn", "none\n");
		if (pma_case_good_cycle(&self->c, "freeze") ||
		    pma_case_check(&self->c, PMA_SUSPEND_ALL, "", NULL, NULL))
			err = 1;
	}
	PMA_RESULT(&self->c, NULL, err);
}

/*
 * A device removed or a link deleted while a suspend phase is being set
 * up: the leaf l is started then, and as its callback starts the churn
 * thread makes the change, after the setup counted the device or link.
 * The superior @dev must start when the walk would reach it, not at the
 * end of the phase, behind the slow sync s0 at the list's start.  The sync
 * fillers (between @head and @tail) make the setup long enough for l's
 * worker and the churn thread to come in.
 */
FIXTURE(setup) {
	struct pma_case c;
};

FIXTURE_VARIANT(setup) {
	const char *head;
	const char *tail;
	const char *churn;
	const char *phase;
	const char *dev;
};

FIXTURE_SETUP(setup)
{
	const char *why = pma_case_begin(&self->c);

	if (why)
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN(setup)
{
	pma_case_end(&self->c);
}

FIXTURE_VARIANT_ADD(setup, sync_child_removed_in_suspend) {
	.head = "s0 async=0 suspend=150000\n"
		"p suspend=1000\n",
	.tail = "c parent=p async=0\n"
		"z async=0 suspend=1000\n"
		"l suspend=20000\n",
	.churn = "0@l:suspend c",
	.phase = "suspend",
	.dev = "p",
};

FIXTURE_VARIANT_ADD(setup, link_deleted_in_suspend) {
	.head = "s0 async=0 suspend=150000\n"
		"y suspend=1000\n",
	.tail = "x suppliers=y suspend=50000\n"
		"z async=0 suspend=1000\n"
		"l suspend=20000\n",
	.churn = "0@l:suspend x unlink=y",
	.phase = "suspend",
	.dev = "y",
};

FIXTURE_VARIANT_ADD(setup, link_deleted_in_suspend_late) {
	.head = "s0 async=0 suspend_late=150000\n"
		"y suspend_late=1000\n",
	.tail = "x suppliers=y suspend_late=50000\n"
		"z async=0 suspend_late=1000\n"
		"l suspend_late=20000\n",
	.churn = "0@l:suspend_late x unlink=y",
	.phase = "suspend_late",
	.dev = "y",
};

TEST_F_TIMEOUT(setup, starts_what_it_leaves, PMA_CASE_TIMEOUT)
{
	int err, tries;

	err = setup_window_case(&self->c, variant->head, variant->tail,
				variant->churn, variant->phase, "z",
				variant->dev, "s0", &tries);
	if (!err && self->c.window)
		SKIP(return, "the churn missed the setup in %d transitions",
		     tries);
	PMA_RESULT(&self->c, NULL, err);
}

/*
 * A supplier with a driver removed during resume, 5 ms into the resume of
 * its parent r: its driver unbinds first, which turns its managed link to
 * the unbound consumer c dormant before the PM core hears of the removal.
 * c, counted on s when the phase started, must start then (mainline: when
 * the walk reaches it), not when the phase ends behind the slow sync z.
 */
TEST_F_TIMEOUT(contract, supplier_removed_in_resume_starts_dormant_consumer,
	       PMA_CASE_TIMEOUT)
{
	char start[32];
	int err = 1, rc;

	if (!pma_case_load(&self->c,
			   "r resume=20000\n"
			   "s parent=r driver=1\n"
			   "c driver=0 managed=s\n"
			   "z async=0 resume=150000\n") &&
	    !pma_churn_arm("5000@r:resume s")) {
		err = 0;
		rc = removed_cycle(&self->c, "s", start, sizeof(start));
		if (rc)
			err = 1;
		if (rc != 2) {
			/* The removal came within r's resume. */
			if (*start &&
			    pma_case_ask(&self->c, "within", "r", "resume",
					 "start", "r", "resume", "end", start,
					 start))
				self->c.window = 1;
			if (pma_case_ask(&self->c, "started_by", "c", "resume",
					 "z", "resume"))
				err = 1;
		}
		pma_lab_write("churn", "none\n");
	}
	PMA_RESULT(&self->c, NULL, err);
}

/*
 * s, p (s's consumer) and r with 1,100 consumers c0, c1... under p
 * through managed links, dormant as r has no driver.  Malloc'd.
 */
static char *dormant_consumers_topo(void)
{
	char *t = NULL;
	size_t len;
	FILE *f = open_memstream(&t, &len);
	int i;

	if (!f)
		return NULL;
	fputs("s async=0 resume=20000\np suppliers=s\nr driver=0\n", f);
	for (i = 0; i < 1100; i++)
		fprintf(f, "c%d parent=p managed=r\n", i);
	if (fclose(f)) {
		free(t);
		return NULL;
	}
	return t;
}

/*
 * r, with 1,100 consumers through managed links that are dormant (no
 * driver on r), is removed during resume, while their parent p still
 * waits for the slow sync s.  The links were never counted: dropping them
 * anyway started every consumer early, 1,024 workers (the pm_async
 * workqueue's max_active) slept on p and p's own work never ran (the
 * series, before it marked each link it counted, hung here).
 */
TEST_F_TIMEOUT(contract, removed_with_1100_dormant_consumers_in_resume,
	       PMA_CASE_TIMEOUT)
{
	char start[32], *topo = dormant_consumers_topo();
	int err = 1;

	if (topo && !pma_case_load(&self->c, topo) &&
	    !pma_churn_arm("0@s:resume r")) {
		err = 0;
		if (removed_cycle(&self->c, "r", start, sizeof(start)))
			err = 1;
		pma_lab_write("churn", "none\n");
	}
	free(topo);
	PMA_RESULT(&self->c, NULL, err);
}

/* The "processor" lines of /proc/cpuinfo. */
static int nr_processors(void)
{
	char *s = pma_read("/proc/cpuinfo"), *l;
	int n = 0;

	for (l = s; l && *l; l = strchrnul(l, '\n'), l += !!*l)
		n += !strncmp(l, "processor", strlen("processor"));
	free(s);
	return n;
}

/*
 * Eight async devices whose callbacks busy-wait (mdelay(), as an ACPI
 * Stall() or a polling loop does), all started upfront: with two CPUs or
 * more, some run side by side, as on mainline's unbound workqueue.  A
 * workqueue that keeps them on one CPU runs them one after another (each
 * holds up the next until it is done).  Checked in suspend and resume of
 * three transitions: in each phase one callback starts before another
 * one ends.
 */
TEST_F_TIMEOUT(contract, busy_waiting_async_devices_run_side_by_side,
	       PMA_CASE_TIMEOUT)
{
	int i;

	if (nr_processors() < 2)
		SKIP(return, "one CPU");
	ASSERT_EQ(0, pma_case_load(&self->c,
				   "b1 busy=1 suspend=4000 resume=4000\n"
				   "b2 busy=1 suspend=4000 resume=4000\n"
				   "b3 busy=1 suspend=4000 resume=4000\n"
				   "b4 busy=1 suspend=4000 resume=4000\n"
				   "b5 busy=1 suspend=4000 resume=4000\n"
				   "b6 busy=1 suspend=4000 resume=4000\n"
				   "b7 busy=1 suspend=4000 resume=4000\n"
				   "b8 busy=1 suspend=4000 resume=4000\n"));
	for (i = 1; i <= 3; i++) {
		ASSERT_EQ(0, pma_case_good_cycle(&self->c, "freeze"));
		EXPECT_EQ(0, pma_case_check(&self->c, PMA_SUSPEND_ALL, "",
					    NULL, NULL));
		EXPECT_FALSE(pma_case_ask(&self->c, "overlap", "suspend") ||
			     pma_case_ask(&self->c, "overlap", "resume"))
			TH_LOG("transition %d: no busy-waits side by side", i);
	}
}

/*
 * More devices started by waiters than the workqueue runs at once (1,024
 * workers per node by default): each waiter of kick_chains() starts the
 * far end of its chain, whose worker would start the next device and wait
 * for it, and so on down every chain while z holds the walk, 2,112
 * workers in all, with the chains' near ends queued behind the workers
 * that wait for them.  Mainline queues no device before the devices it
 * waits for, and finishes (13 s in QEMU, in suspend).  Every phase must
 * end, also when a device fails meanwhile.
 */
TEST_F_TIMEOUT(contract, waiters_start_64_chains_in_suspend,
	       PMA_CASE_TIMEOUT)
{
	char *topo = kick_chains(0, 0);

	ASSERT_NE(NULL, topo);
	EXPECT_EQ(0, cycle_case(&self->c, topo, NULL));
	free(topo);
}

TEST_F_TIMEOUT(contract, waiters_start_64_chains_in_resume, PMA_CASE_TIMEOUT)
{
	char *topo = kick_chains(1, 0);

	ASSERT_NE(NULL, topo);
	EXPECT_EQ(0, cycle_case(&self->c, topo, NULL));
	free(topo);
}

TEST_F_TIMEOUT(contract, waiters_start_64_chains_in_failed_suspend,
	       PMA_CASE_TIMEOUT)
{
	char *topo = kick_chains(0, 1);

	ASSERT_NE(NULL, topo);
	ASSERT_EQ(0, pma_case_load(&self->c, topo));
	free(topo);
	EXPECT_EQ(0, failed_cycle(&self->c, "f", "suspend"));
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0
/*
 * Cases of the pm_async kselftest of mainline's engine under real-driver
 * hazards (pm_async.sh's case 4), made with the pm_async_test lab
 * (pm_test=platform): a device moved next to its new parent during a
 * transition stays in it; a SYNC_STATE_ONLY consumer that suspends leaves
 * its direct_complete supplier alone; a link added during suspend keeps
 * the consumer in the transition, and a supplier whose link is deleted
 * then does not wait for the consumer; a device moved while its parent
 * waits for it does not deadlock, also when a sync parent waits for that
 * parent; a failed suspend_late resumes a may_skip_resume parent whose
 * late suspend ran; devices below a device that takes no part in PM
 * suspend before and resume after the device above it, which moving that
 * device during suspend hands to its new parent.
 *
 * Each case belongs to the group of the fix it tests (move_order,
 * dc_link, link_during, link_del, skip_resume_abort, no_pm_below,
 * move_during): on a kernel without the fix, such as mainline 7.3, the
 * cases of its group fail (PM_ASYNC_XFAIL names the group: they must), and
 * move_during deadlocks (PM_ASYNC_SKIP=move_during skips it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest_harness.h"
#include "pm_async_case.h"

/*
 * The lab's topology has @dev under @parent (its line starts "DEV
 * parent=PARENT"): 0, or -1 after saying it has not.
 */
static int is_under(const char *dev, const char *parent)
{
	char want[128], *topo = pma_lab_read("topology"), *l;
	int found = 0;
	size_t n;

	n = snprintf(want, sizeof(want), "%s parent=%s", dev, parent);
	for (l = topo; l && *l && !found; l = strchr(l, '\n'), l += !!l)
		found = !strncmp(l, want, n);
	free(topo);
	if (found)
		return 0;
	printf("# %s: not under %s\n", dev, parent);
	return -1;
}

/*
 * Load @topo, move mp.s under mq 100 ms into the suspend of the sync mx,
 * after mp.f's suspend: 1 if the cycle, the churn window or the new
 * parent is wrong, else 0.
 */
static int move_during_cycle(struct pma_case *c, const char *topo)
{
	int err = 0;

	if (pma_case_load(c, topo))
		return 1;
	if (pma_churn_cycle(c, "100000 mp.s move=mq", "mp.f", "suspend", "mx",
			    "suspend"))
		err = 1;
	if (is_under("mp.s", "mq"))
		err = 1;
	return err;
}

/*
 * device_move() with an order during a transition (group move_order):
 * load the topology; with a churn before, run a transition with it first
 * (to set the PM core's list up); arm the churn (a device_move() with an
 * order) and run a transition, in which every device must run every
 * callback; then one with pm_async=0, in which the two orders must hold
 * (each device's callback ended before the other's started): the PM
 * core's list as the move makes it outside of a transition.
 */
FIXTURE(move_order) {
	struct pma_case c;
};

FIXTURE_VARIANT(move_order) {
	const char *topo;
	const char *pre;	/* the churn of a transition before, or NULL */
	const char *churn;
	const char *order[2][4];	/* DEV1 PHASE1 before DEV2 PHASE2 */
};

FIXTURE_SETUP(move_order)
{
	const char *why = pma_case_begin(&self->c);

	if (why)
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN(move_order)
{
	pma_case_end(&self->c);
}

/*
 * device_move() with an order during suspend: n, suspended already (the
 * walk starts at the end of the list), is moved under p while the sync z
 * suspends, with p placed right before n (DPM_ORDER_PARENT_BEFORE_DEV).
 * p, sync, is yet to suspend: moving it next to n, among the devices
 * handled, skips its suspend (mainline; were p a child itself, its parent
 * would wait for it for ever).  It must suspend in this transition, and
 * the PM core's list must end as the move makes it outside of one (z, p,
 * n): with pm_async=0 the next suspend runs n, p, z.
 */
FIXTURE_VARIANT_ADD(move_order, during_suspend_parent_before) {
	.topo = "p async=0\nz async=0 suspend=200000\nn\n",
	.churn = "0@z:suspend n move=p:before",
	.order = {
		{ "n", "suspend", "p", "suspend" },
		{ "p", "suspend", "z", "suspend" },
	},
};

/*
 * The same in resume, the device placed right after its new parent
 * (DPM_ORDER_DEV_AFTER_PARENT): p has resumed, the sync n has not when it
 * is moved under p, during the sync z's resume.  Moving n next to p,
 * among the devices handled, skips n's resume (mainline).  The next
 * resume, with pm_async=0, runs p, n, z.
 */
FIXTURE_VARIANT_ADD(move_order, during_resume_dev_after_parent) {
	.topo = "p\nz async=0 resume=200000\nn async=0\n",
	.churn = "0@z:resume n move=p:after",
	.order = {
		{ "p", "resume", "n", "resume" },
		{ "n", "resume", "z", "resume" },
	},
};

/*
 * A device placed after a new parent that comes after it in the PM core's
 * list: a link to s added while s completes (after a and p did) moves a
 * and its child p behind c (s, c, a, p).  Then, while the sync a
 * suspends, c is moved under p, which has suspended
 * (DPM_ORDER_DEV_AFTER_PARENT).  The move must be made before
 * suspend_late starts: an engine that counts on children coming after
 * their parent would start p first, whose worker waits for the sync c,
 * which the walk, waiting for a to finish, never reaches.  Mainline moves
 * c among the devices handled: c's suspend is skipped.
 */
FIXTURE_VARIANT_ADD(move_order, during_suspend_parent_behind) {
	.topo = "s async=0\na async=0 suspend=200000\np parent=a\n"
		"c async=0\n",
	.pre = "0@s:complete a link=s",
	.churn = "0@a:suspend c move=p:after",
	.order = {
		{ "c", "suspend", "p", "suspend" },
		{ "p", "suspend", "a", "suspend" },
	},
};

/*
 * The moved device or parent still runs its callback in the transition,
 * and the PM core's list ends as after such a move outside of one.
 */
TEST_F_TIMEOUT(move_order, runs_then_list_as_outside, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int i, err = 1;

	if (!pma_case_load(c, variant->topo)) {
		err = 0;
		if (variant->pre &&
		    (pma_churn_arm(variant->pre) ||
		     pma_case_good_cycle(c, "freeze") || pma_churn_done()))
			err = 1;
		if (pma_churn_arm(variant->churn) ||
		    pma_case_good_cycle(c, "freeze") ||
		    pma_case_check(c, PMA_SUSPEND_ALL, "", NULL, NULL) ||
		    pma_churn_done())
			err = 1;
		if (pma_set_pm_async(0) || pma_case_good_cycle(c, "freeze") ||
		    pma_case_check(c, PMA_SUSPEND_ALL, "", NULL, NULL))
			err = 1;
		else
			for (i = 0; i < 2 && !err; i++)
				err = pma_case_before(c, variant->order[i][0],
						      variant->order[i][1],
						      variant->order[i][2],
						      variant->order[i][3]);
	}
	PMA_RESULT(c, "move_order", err);
}

/* The other cases: each loads its own topology. */
FIXTURE(fixes) {
	struct pma_case c;
};

FIXTURE_SETUP(fixes)
{
	const char *why = pma_case_begin(&self->c);

	if (why)
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN(fixes)
{
	pma_case_end(&self->c);
}

/*
 * A direct_complete supplier of a SYNC_STATE_ONLY link: the link does not
 * move it after its consumer c, so the walk meets it first and it takes
 * the direct_complete path; c's suspend must not clear that afterwards
 * (mainline then runs s's late, noirq and resume callbacks and leaves
 * runtime PM of s disabled).  pm_async 1 and 0.
 */
TEST_F_TIMEOUT(fixes, dc_link_consumer_leaves_supplier_alone,
	       PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int mode, err = 1;

	if (!pma_case_load(c, "c suspend=20000 resume=1000\n"
			   "s direct_complete=1 sync_consumers=c\n")) {
		err = 0;
		for (mode = 1; mode >= 0; mode--) {
			pma_set_pm_async(mode);
			if (pma_case_good_cycle(c, "freeze") ||
			    pma_case_check(c, PMA_SUSPEND_ALL, "", NULL, NULL) ||
			    pma_case_lines(c, "s", "prepare complete") ||
			    pma_case_lines(c, "c", PMA_SUSPEND_ALL) ||
			    pma_case_same_state(c))
				err = 1;
		}
	}
	PMA_RESULT(c, "dc_link", err);
}

/*
 * device_link_add() during suspend, from a kernel thread: lc has
 * suspended, ls is still in its 400 ms callback.  lc must go on through
 * the transition (mainline moves it to dpm_list, out of it: lc misses
 * every later callback), and the next transitions keep the new order,
 * sync and async.
 */
TEST_F_TIMEOUT(fixes, link_during_suspend_keeps_consumer, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int mode, err = 1;
	char *topo;

	if (!pma_case_load(c, "ls suspend=400000 resume=1000\n"
			   "lc resume=1000\n")) {
		err = 0;
		if (pma_churn_cycle(c, "100000 lc link=ls", "lc", "suspend",
				    "ls", "suspend") ||
		    pma_case_lines(c, "lc", PMA_SUSPEND_ALL))
			err = 1;
	}
	if (!err) {
		topo = pma_lab_read("topology");
		if (!topo || !pma_line_has(topo, "lc", "suppliers=ls", 0)) {
			TH_LOG("lc: no link to ls");
			err = 1;
		}
		free(topo);
		for (mode = 0; mode <= 1; mode++) {
			pma_set_pm_async(mode);
			if (pma_case_good_cycle(c, "freeze") ||
			    pma_case_check(c, PMA_SUSPEND_ALL, "", NULL, NULL) ||
			    pma_case_before(c, "lc", "suspend", "ls", "suspend") ||
			    pma_case_before(c, "ls", "resume", "lc", "resume"))
				err = 1;
		}
	}
	PMA_RESULT(c, "link_during", err);
}

/*
 * The same with sync devices and pm_async=0: lc is yet to suspend when the
 * link is added during the 400 ms suspend of mx, created after it.  lc
 * still suspends in this transition, and the PM core's list has it last
 * afterwards, where device_link_add() puts it outside of a transition: the
 * next transition suspends lc before mx and resumes it after mx.
 */
TEST_F_TIMEOUT(fixes, link_during_suspend_consumer_last, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int err = 1;

	if (!pma_case_load(c, "ls async=0 resume=1000\n"
			   "lc async=0 resume=1000\n"
			   "mx async=0 suspend=400000 resume=1000\n")) {
		err = 0;
		pma_set_pm_async(0);
		if (pma_churn_cycle(c, "100000 lc link=ls", "ls", "prepare",
				    "mx", "suspend") ||
		    pma_case_lines(c, "lc", PMA_SUSPEND_ALL))
			err = 1;
	}
	if (!err &&
	    (pma_case_good_cycle(c, "freeze") ||
	     pma_case_check(c, PMA_SUSPEND_ALL, "", NULL, NULL) ||
	     pma_case_before(c, "lc", "suspend", "mx", "suspend") ||
	     pma_case_before(c, "mx", "resume", "lc", "resume") ||
	     pma_case_before(c, "lc", "suspend", "ls", "suspend")))
		err = 1;
	PMA_RESULT(c, "link_during", err);
}

/*
 * A device link deleted during suspend: p, k's supplier, is started when
 * the link is deleted, 50 ms into k's slow suspend, and must not wait for
 * k, which it no longer depends on (mainline starts p when the walk
 * reaches it and waits for k through the link).  The start races with the
 * deletion of the link: 4 transitions.
 */
TEST_F_TIMEOUT(fixes, link_del_supplier_does_not_wait, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int i, err = 0;

	for (i = 0; i < 4; i++) {
		if (pma_case_load(c, "e\np\nk suppliers=p suspend=300000\n") ||
		    pma_churn_cycle(c, "50000@k:suspend k unlink=p", "e",
				    "suspend", "k", "suspend") ||
		    pma_case_ask(c, "ended_by", "p", "suspend", "k", "suspend",
				 "end", "ended")) {
			err = 1;
			break;
		}
	}
	PMA_RESULT(c, "link_del", err);
}

/*
 * A failed suspend_late: mp (DPM_FLAG_MAY_SKIP_RESUME) has finished its
 * late suspend when f, which the walk reaches after it, fails.  No noirq
 * suspend has run, so nothing has decided that mp may stay in suspend: its
 * early resume must run before its child's (mainline skips it and resumes
 * mc early under a parent still suspended_late).  Then a failed
 * freeze_late in hibernation, resumed as "recover".  pm_async 1 and 0; f's
 * 30 ms leave mp and mc time to finish first.
 */
TEST_F_TIMEOUT(fixes, skip_resume_abort_resumes_parent_early,
	       PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int mode, err = 1;

	if (!pma_case_load(c, "f async=0 suspend_late=30000\n"
			   "mp driver=1 may_skip_resume=1 suspend=1000 suspend_late=1000 resume_early=1000\n"
			   "mc parent=mp suspend=1000 suspend_late=1000 resume_early=1000\n")) {
		err = 0;
		for (mode = 1; mode >= 0; mode--) {
			pma_set_pm_async(mode);
			if (pma_lab_write("fail", "f suspend_late\n"))
				err = 1;
			if (!pma_case_cycle(c, "freeze")) {
				TH_LOG("the transition succeeded despite f failing");
				err = 1;
			}
			if (pma_case_check(c, "prepare complete", PMA_DEV_PHASES,
					   "f", "suspend_late") ||
			    pma_case_same_state(c))
				err = 1;
			if (!pma_ctx(&c->rep, "mp", "suspend_late")) {
				TH_LOG("mp: no late suspend before f failed");
				err = 1;
			}
			if (!pma_ctx(&c->rep, "mp", "resume_early")) {
				TH_LOG("mp: no early resume (pm_async %d)", mode);
				err = 1;
			}
			if (pma_case_good(c, "freeze"))
				err = 1;
			/*
			 * The same in hibernation: a failed freeze_late
			 * resumes with PM_EVENT_RECOVER, where the same
			 * power.must_resume decides.
			 */
			if (pma_lab_write("fail", "f suspend_late\n"))
				err = 1;
			if (!pma_case_cycle(c, "disk")) {
				TH_LOG("hibernation succeeded despite f failing");
				err = 1;
			}
			/*
			 * (The early phase resumes as "recover", with thaw
			 * callbacks; the last one with restore callbacks, as
			 * no image was made.)
			 */
			if (pma_case_check(c, "prepare complete",
					   "freeze freeze_late freeze_noirq thaw_noirq thaw_early thaw restore",
					   "f", "freeze_late") ||
			    pma_case_same_state(c))
				err = 1;
			if (!pma_ctx(&c->rep, "mp", "thaw_early")) {
				TH_LOG("mp: no thaw_early (pm_async %d)", mode);
				err = 1;
			}
			if (pma_case_good(c, "disk"))
				err = 1;
		}
	}
	PMA_RESULT(c, "skip_resume_abort", err);
}

/*
 * Devices below a device that takes no part in PM: g's child g.b does
 * not, its child g.b.c (sync, slow) does; g's other child g.a is a leaf
 * that is done at once and starts g.  In resume, h.b.c's parent takes no
 * part in PM: its supplier r, a root that is done at once, starts it while
 * its grandparent h (sync, slow) still resumes; so does the walk for j.b.c
 * right after its async grandparent j.  Mainline waits for none of them
 * (it skips the no-PM device); the lab checks through it.  k's driver lets
 * the PM core skip its resume (DPM_FLAG_MAY_SKIP_RESUME), but k.b.c, below
 * its no-PM child, must resume, so k must too: mainline marks the no-PM
 * k.b instead, skips k's noirq and early resume and resumes k.b.c under
 * it.
 */
#define NO_PM_BELOW_TOPO						\
	"g suspend=4000\ng.a parent=g\ng.b parent=g pm=0\n"		\
	"g.b.c parent=g.b async=0 suspend=20000\n"			\
	"h async=0 resume=20000\nh.b parent=h pm=0\nr\n"		\
	"h.b.c parent=h.b suppliers=r resume=4000\n"			\
	"j resume=20000\nj.b parent=j pm=0\nj.b.c parent=j.b resume=4000\n" \
	"k driver=1 may_skip_resume=1\nk.b parent=k pm=0\nk.b.c parent=k.b\n"

TEST_F_TIMEOUT(fixes, no_pm_below_suspend_before_resume_after,
	       PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int mode, err = 1;

	if (!pma_case_load(c, NO_PM_BELOW_TOPO)) {
		err = 0;
		for (mode = 1; mode >= 0; mode--) {
			pma_set_pm_async(mode);
			if (pma_case_good(c, "freeze")) {
				err = 1;
				break;
			}
			if (pma_case_before(c, "g.b.c", "suspend", "g",
					    "suspend") ||
			    pma_case_before(c, "h", "resume", "h.b.c",
					    "resume") ||
			    pma_case_before(c, "j", "resume", "j.b.c", "resume"))
				err = 1;
		}
	}
	PMA_RESULT(c, "no_pm_below", err);
}

/*
 * 1100 async devices below a's no-PM child a.n, more than the PM core's
 * workqueue runs at once (WQ_DFL_ACTIVE, 1024): a's resume waits for its
 * supplier x, slow in resume_noirq.  They must resume after a, and not by
 * taking every worker to wait for it, which would leave none for a (an
 * engine that waits for a without counting on it hangs here).
 */
#define NR_BELOW	1100

/* The topology of that case. */
static const char *many_below_topo(void)
{
	static char topo[NR_BELOW * 24 + 64];
	size_t n;
	int i;

	n = snprintf(topo, sizeof(topo),
		     "x resume_noirq=100000\na suppliers=x\na.n parent=a pm=0\n");
	for (i = 1; i <= NR_BELOW; i++)
		n += snprintf(topo + n, sizeof(topo) - n, "d%d parent=a.n\n", i);
	return topo;
}

TEST_F_TIMEOUT(fixes, no_pm_below_1100_devices_slow_supplier,
	       PMA_CASE_TIMEOUT)
{
	static const char *const devs[] = { "d1", "d550", "d1100" };
	struct pma_case *c = &self->c;
	int cyc, err = 1;
	unsigned int i;

	if (!pma_case_load(c, many_below_topo())) {
		err = 0;
		for (cyc = 0; cyc < 2; cyc++) {
			if (pma_case_good(c, "freeze")) {
				err = 1;
				break;
			}
			for (i = 0; i < ARRAY_SIZE(devs); i++)
				if (pma_case_before(c, "a", "resume_noirq",
						    devs[i], "resume_noirq"))
					err = 1;
		}
	}
	PMA_RESULT(c, "no_pm_below", err);
}

/*
 * device_move() of a device that takes no part in PM, during suspend: p.n
 * is moved from the async p to the sync q while the sync z suspends,
 * before p.n's child p.n.c (async, slow) is done.  p no longer waits for
 * p.n.c and must suspend now, not when p.n.c is done or at the end of the
 * phase (an engine that lets p.n.c start p, or drop its count on q, leaves
 * p behind it); q, reached by the PM task after z, waits for p.n.c through
 * p.n (mainline does not).  p's start races with the move: 4 transitions.
 */
TEST_F_TIMEOUT(fixes, no_pm_below_move_during_suspend, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int i, err = 0;

	for (i = 0; i < 4; i++) {
		if (pma_case_load(c, "q async=0\nz async=0 suspend=200000\n"
				  "e\np\np.n parent=p pm=0\n"
				  "p.n.c parent=p.n suspend=300000\n") ||
		    pma_churn_cycle(c, "50000@z:suspend p.n move=q", "e",
				    "suspend", "p.n.c", "suspend") ||
		    is_under("p.n", "q") ||
		    pma_case_ask(c, "ended_by", "p", "suspend", "p.n.c",
				 "suspend", "end", "ended") ||
		    pma_case_before(c, "p.n.c", "suspend", "q", "suspend")) {
			err = 1;
			break;
		}
	}
	PMA_RESULT(c, "no_pm_below", err);
}

/*
 * device_move() of a no-PM device during resume: x, below the slow p, is
 * moved under n, done already, while p still resumes.  c, below x, was
 * counted on p, which no longer starts it: it must start then, not when
 * the phase ends behind the slower z (mainline resumes c without waiting
 * for p at all).
 */
TEST_F_TIMEOUT(fixes, no_pm_below_move_during_resume, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int err = 0;

	if (pma_case_load(c, "n\np resume=300000\nx parent=p pm=0\n"
			  "c parent=x\nz resume=1500000\n") ||
	    pma_churn_cycle(c, "50000@n:resume x move=n", "n", "resume", "p",
			    "resume") ||
	    pma_case_ask(c, "started_by", "c", "resume", "z", "resume"))
		err = 1;
	if (is_under("x", "n"))
		err = 1;
	PMA_RESULT(c, "no_pm_below", err);
}

/*
 * device_move() during suspend: mp is started when its fast child mp.f is
 * done and waits for its sync child mp.s, which the PM task reaches after
 * the 400 ms sync mx.  mp.s is moved to mq meanwhile: device_move() must
 * not wait for mp, which must not wait for the PM task (mainline
 * deadlocks: mp holds mp.s's node in its list of children, device_move()
 * holds dpm_list_mtx).
 */
TEST_F_TIMEOUT(fixes, move_during_child_its_parent_waits_for,
	       PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int err;

	PMA_GROUP(return, "move_during");
	err = move_during_cycle(c, "mq\n"
				"mp suspend=1000 resume=1000\n"
				"mp.f parent=mp\n"
				"mp.s parent=mp async=0 resume=1000\n"
				"mx async=0 suspend=400000\n");
	PMA_RESULT(c, "move_during", err);
}

/*
 * The same under a sync parent g: once mp.s is moved, mp's last child
 * never comes, so an engine that leaves mp to its last child has to start
 * it when the PM task reaches g and waits for mp.
 */
TEST_F_TIMEOUT(fixes, move_during_under_a_sync_parent, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int err;

	PMA_GROUP(return, "move_during");
	err = move_during_cycle(c, "mq\n"
				"g async=0\n"
				"mp parent=g suspend=1000 resume=1000\n"
				"mp.f parent=mp\n"
				"mp.s parent=mp async=0 resume=1000\n"
				"mx async=0 suspend=400000\n");
	if (!err && pma_case_before(c, "mp", "suspend", "g", "suspend"))
		err = 1;
	PMA_RESULT(c, "move_during", err);
}

TEST_HARNESS_MAIN

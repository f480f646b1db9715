// SPDX-License-Identifier: GPL-2.0
/*
 * Cases of the pm_async kselftest about dependencies that take no part in
 * PM, real drivers and the stock order of pm_async=0 (pm_async.sh's case
 * 3), made with the pm_async_test lab (pm_test=platform).  Each case
 * loads its own topology, makes its transitions and asks the lab's report
 * (pm_async_case.h).  It suspends the machine's devices: run it only where
 * pm_async.sh would run (PM_ASYNC_SUSPEND=1).
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "pm_async_case.h"

/*
 * The lines of @text that match the basic regular expression @re, as
 * grep has it: how many, printed ("# LINE") if @print; -1 for a bad @re.
 */
static int grep_lines(const char *text, const char *re, int print)
{
	const char *l, *e;
	regex_t rx;
	char *line;
	int n = 0;

	if (regcomp(&rx, re, REG_NOSUB)) {
		printf("# bad regular expression '%s'\n", re);
		return -1;
	}
	for (l = text; l && *l; l = *e ? e + 1 : e) {
		e = strchr(l, '\n');
		if (!e)
			e = l + strlen(l);
		line = strndup(l, e - l);
		if (line && !regexec(&rx, line, 0, NULL, 0)) {
			n++;
			if (print)
				printf("# %s\n", line);
		}
		free(line);
	}
	regfree(&rx);
	return n;
}

/* Some line of @text matches @re (grep -q). */
static int has_line(const char *text, const char *re)
{
	return grep_lines(text, re, 0) > 0;
}

/*
 * @dev's @phase started before the first of the sync devices' (s1, s2,
 * s3) @phase callbacks ended.  An order, not a time: behind the sync
 * devices @dev would start after all of them ended.
 */
static int starts_early(struct pma_case *c, const char *dev,
			const char *phase)
{
	return pma_case_ask(c, "starts_early", dev, phase, "s1", "s2",
			    "s3") ? 1 : 0;
}

/* The cases of this file but those of "modes" below. */
FIXTURE(drivers) {
	struct pma_case c;
};

FIXTURE_SETUP(drivers)
{
	const char *why = pma_case_begin(&self->c);

	if (why)
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN(drivers)
{
	pma_case_end(&self->c);
}

/*
 * Dependencies that take no part in PM.  A device that starts late (a
 * kernel without the fix, such as mainline 7.3) fails the case as a failed
 * transition or check does: the cases of group no_pm.
 *
 * Suspend: w's only child and l's only consumer take no part in PM (like
 * the wakeupN device of a wakeup source); the sync devices come after w
 * and l in dpm_list, so the suspend walk meets them first.  g's child
 * takes no part in PM either, but has a sync child of its own, which the
 * walk meets before g: g still follows it.
 */
#define NO_PM_CHILD_TOPO						\
	"w suspend=40000 suspend_late=4000 suspend_noirq=4000\n"	\
	"w.wakeup parent=w pm=0\n"					\
	"l suspend=40000\n"						\
	"l.c pm=0 suppliers=l\n"					\
	"g suspend=4000\n"						\
	"g.b parent=g pm=0\n"						\
	"g.b.c parent=g.b async=0 suspend=20000\n"			\
	"s1 async=0 suspend=30000 suspend_late=10000 suspend_noirq=10000\n" \
	"s2 async=0 suspend=30000 suspend_late=10000 suspend_noirq=10000\n" \
	"s3 async=0 suspend=30000 suspend_late=10000 suspend_noirq=10000\n"

/*
 * A no-PM child or consumer: the device starts each suspend phase at
 * once, not behind the sync devices.
 */
TEST_F_TIMEOUT(drivers, no_pm_child_or_consumer_suspends_at_once,
	       PMA_CASE_TIMEOUT)
{
	static const char *const ph[] = {
		"suspend", "suspend_late", "suspend_noirq",
	};
	struct pma_case *c = &self->c;
	unsigned int i;
	int err = 1;

	if (!pma_case_load(c, NO_PM_CHILD_TOPO) &&
	    !pma_case_good(c, "freeze")) {
		err = 0;
		if (!has_line(c->topo, "^w.wakeup .* async=0 .*pm=0$")) {
			printf("# pm=0 not read back\n");
			err = 1;
		}
		for (i = 0; i < ARRAY_SIZE(ph); i++)
			err |= starts_early(c, "w", ph[i]);
		err |= starts_early(c, "l", "suspend");
		err |= pma_case_before(c, "g.b.c", "suspend", "g", "suspend");
	}
	PMA_RESULT(&self->c, "no_pm", err);
}

/*
 * Resume: d's parent takes no part in PM (an ACPI device object, a faux
 * device); the sync devices come before d in dpm_list.  h.b.c's parent
 * takes no part in PM either, but its grandparent h is a sync device that
 * the walk meets first: h.b.c still follows it.  In each suspend phase,
 * the sync hx lets h.b.c finish before the walk reaches h, which mainline
 * does not make wait for it (see pm_async_fixes.c).
 */
#define NO_PM_PARENT_TOPO						\
	"acpi pm=0\n"							\
	"h async=0 resume=20000\n"					\
	"hx async=0 suspend=30000 suspend_late=30000 suspend_noirq=30000\n" \
	"h.b parent=h pm=0\n"						\
	"h.b.c parent=h.b resume=4000\n"				\
	"s1 async=0 resume=30000 resume_early=10000 resume_noirq=10000\n" \
	"s2 async=0 resume=30000 resume_early=10000 resume_noirq=10000\n" \
	"s3 async=0 resume=30000 resume_early=10000 resume_noirq=10000\n" \
	"d parent=acpi resume=40000 resume_early=4000 resume_noirq=4000\n"

/*
 * A no-PM parent: the device starts each resume phase at once, not behind
 * the sync devices.
 */
TEST_F_TIMEOUT(drivers, no_pm_parent_resumes_at_once, PMA_CASE_TIMEOUT)
{
	static const char *const ph[] = {
		"resume_noirq", "resume_early", "resume",
	};
	struct pma_case *c = &self->c;
	unsigned int i;
	int err = 1;

	if (!pma_case_load(c, NO_PM_PARENT_TOPO) &&
	    !pma_case_good(c, "freeze")) {
		err = 0;
		for (i = 0; i < ARRAY_SIZE(ph); i++)
			err |= starts_early(c, "d", ph[i]);
		err |= pma_case_before(c, "h", "resume", "h.b.c", "resume");
	}
	PMA_RESULT(&self->c, "no_pm", err);
}

/*
 * Real drivers.  Drivers and links: sup and con have drivers (an
 * active managed link), unb has none (so dor's managed link to it is
 * dormant), ssc is registered before its supplier ssp and unbound (a
 * SYNC_STATE_ONLY link, as fw_devlink makes them).
 */
#define DRIVERS_TOPO							\
	"sup driver=1 suspend=20000 resume=20000 suspend_noirq=5000"	\
	" resume_noirq=5000\n"						\
	"con driver=1 managed=sup suspend=5000 resume=5000"		\
	" suspend_noirq=1000 resume_noirq=1000\n"			\
	"unb driver=0 suspend=20000 resume=20000\n"			\
	"dor driver=1 managed=unb suspend=1000 resume=1000\n"		\
	"ssc suspend=3000 resume=3000\n"				\
	"ssp async=0 sync_consumers=ssc suspend=3000 resume=3000\n"

/*
 * Device @dev of the lab's bus has a driver if @bound, none if not: 0, or
 * -1 after saying which.
 */
static int driver_is(const char *dev, int bound)
{
	char path[128];

	snprintf(path, sizeof(path), PMA_BUS "/%s/driver", dev);
	if ((access(path, F_OK) == 0) == bound)
		return 0;
	printf("# %s %s\n", dev, bound ? "has no driver" : "has a driver");
	return -1;
}

/*
 * The driver core's state of the link from @sup to @con into @buf ("" if
 * there is none).
 */
static const char *link_status(const char *sup, const char *con, char *buf,
			       size_t len)
{
	char path[192], *s;

	snprintf(path, sizeof(path),
		 "/sys/class/devlink/pm_async_test:%s--pm_async_test:%s/status",
		 sup, con);
	s = pma_read(path);
	snprintf(buf, len, "%s", s ? s : "");
	buf[strcspn(buf, "\n")] = '\0';
	free(s);
	return buf;
}

/*
 * driver= binds per device; managed links are active or dormant, a
 * SYNC_STATE_ONLY link exists.
 */
TEST_F_TIMEOUT(drivers, binding_per_device_link_states, PMA_CASE_TIMEOUT)
{
	static const char *const dev[] = {
		"sup", "con", "dor", "unb", "ssc", "ssp",
	};
	char st[64];
	unsigned int i;

	ASSERT_EQ(0, pma_case_load(&self->c, DRIVERS_TOPO));
	/* The first three are bound, the others not. */
	for (i = 0; i < ARRAY_SIZE(dev); i++)
		EXPECT_EQ(0, driver_is(dev[i], i < 3));
	EXPECT_STREQ("active", link_status("sup", "con", st, sizeof(st)))
		TH_LOG("sup--con is '%s', expected active", st);
	EXPECT_STREQ("dormant", link_status("unb", "dor", st, sizeof(st)))
		TH_LOG("unb--dor is '%s', expected dormant", st);
	EXPECT_STRNE("", link_status("ssp", "ssc", st, sizeof(st)))
		TH_LOG("no SYNC_STATE_ONLY link ssp--ssc");
}

/* The cases run with pm_async 0 and with 1. */
FIXTURE(modes) {
	struct pma_case c;
};

FIXTURE_VARIANT(modes) {
	int pm_async;
};

FIXTURE_SETUP(modes)
{
	const char *why = pma_case_begin(&self->c);

	if (why)
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN(modes)
{
	pma_case_end(&self->c);
}

FIXTURE_VARIANT_ADD(modes, pm_async_0) {
	.pm_async = 0,
};

FIXTURE_VARIANT_ADD(modes, pm_async_1) {
	.pm_async = 1,
};

/*
 * A managed link orders its ends, SYNC_STATE_ONLY and dormant links
 * finish: the devices of DRIVERS_TOPO (loaded again).
 */
TEST_F_TIMEOUT(modes, links_managed_orders_others_finish, PMA_CASE_TIMEOUT)
{
	ASSERT_EQ(0, pma_case_load(&self->c, DRIVERS_TOPO));
	ASSERT_EQ(0, pma_set_pm_async(variant->pm_async));
	ASSERT_EQ(0, access(PMA_BUS "/sup", F_OK));
	ASSERT_EQ(0, pma_case_good(&self->c, "freeze"));
	EXPECT_EQ(0, pma_case_suspends_first(&self->c, "con", "sup"));
}

/*
 * device_pm_wait_for_dev(), the USB companion pattern: ehci's resume waits
 * for comp, a device of a sibling subtree created before it; its suspend
 * waits for late1, created after it; the same in the noirq phases.  All
 * async, short callbacks for a few cycles: 3, with pm_async 1 and 0.
 */
#define WAIT_TOPO							\
	"hc suspend=1000 resume=1000\n"					\
	"hc.port parent=hc suspend=1000 resume=1000\n"			\
	"comp resume=30000 resume_noirq=10000\n"			\
	"comp.port parent=comp resume=1000\n"				\
	"ehci parent=hc"						\
	" wait=resume:comp,suspend:late1,resume_noirq:comp,suspend_noirq:late1\n" \
	"late1 suspend=30000 suspend_noirq=10000\n"

/* device_pm_wait_for_dev() in suspend, resume and noirq phases, 3 cycles. */
TEST_F_TIMEOUT(modes, wait_suspend_resume_noirq_3_cycles, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int i;

	ASSERT_EQ(0, pma_case_load(c, WAIT_TOPO));
	ASSERT_EQ(0, pma_set_pm_async(variant->pm_async));
	for (i = 1; i <= 3; i++) {
		ASSERT_EQ(0, pma_case_good(c, "freeze"))
			TH_LOG("cycle %d", i);
		ASSERT_EQ(0, pma_case_ends_before(c, "comp", "resume", "ehci", "resume"))
			TH_LOG("cycle %d", i);
		ASSERT_EQ(0, pma_case_ends_before(c, "late1", "suspend",
						  "ehci", "suspend"))
			TH_LOG("cycle %d", i);
		ASSERT_EQ(0, pma_case_ends_before(c, "comp", "resume_noirq",
						  "ehci", "resume_noirq"))
			TH_LOG("cycle %d", i);
		ASSERT_EQ(0, pma_case_ends_before(c, "late1", "suspend_noirq",
						  "ehci", "suspend_noirq"))
			TH_LOG("cycle %d", i);
	}
}

/*
 * Devices whose callbacks the PM core may skip (direct_complete, smart
 * suspend, may skip resume), with pm_async 1 and then 0 in each case.
 */
/*
 * direct_complete: dc is left alone; dcp is not, because its child
 * suspends; dcs is not, because its consumer suspends; top waits for its
 * direct_complete child dc2.
 */
#define DIRECT_COMPLETE_TOPO						\
	"dc direct_complete=1 suspend=1000 resume=1000\n"		\
	"dcp direct_complete=1 suspend=1000 resume=1000\n"		\
	"dcc parent=dcp suspend=1000 resume=1000\n"			\
	"dcs direct_complete=1 suspend=1000\n"				\
	"dcu suppliers=dcs suspend=1000 resume=1000\n"			\
	"top suspend=2000 suspend_late=1000 suspend_noirq=1000\n"	\
	"dc2 parent=top direct_complete=1 async=0\n"

/*
 * direct_complete: only prepare and complete run, unless a child or
 * consumer suspends, pm_async 1 and 0.
 */
TEST_F_TIMEOUT(drivers, direct_complete_only_prepare_complete,
	       PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int mode, err;

	ASSERT_EQ(0, pma_case_load(c, DIRECT_COMPLETE_TOPO));
	EXPECT_TRUE(has_line(c->state, "^dc state=active rpm=enabled depth=0"))
		TH_LOG("dc: runtime PM not enabled");
	for (mode = 1; mode >= 0; mode--) {
		ASSERT_EQ(0, pma_set_pm_async(mode));
		err = pma_case_good(c, "freeze") ||
		      pma_case_lines(c, "dc", "prepare complete") ||
		      pma_case_lines(c, "dc2", "prepare complete") ||
		      pma_case_lines(c, "dcp", PMA_SUSPEND_ALL) ||
		      pma_case_lines(c, "dcs", PMA_SUSPEND_ALL);
		EXPECT_EQ(0, err) TH_LOG("pm_async=%d", mode);
		EXPECT_TRUE(pma_case_has(c, "dc", "prepare", 1))
			TH_LOG("dc prepare did not return 1");
	}
}

/*
 * Smart suspend and skipped resume: the PM core skips the driver's late
 * and noirq suspend callbacks of the runtime-suspended ss, the noirq and
 * early resume callbacks of msk, both of sm; mp must resume because its
 * child does.
 */
#define SMART_SUSPEND_TOPO						\
	"ssp suspend=1000 suspend_late=1000 suspend_noirq=1000"		\
	" resume_noirq=1000\n"						\
	"ss parent=ssp driver=1 smart_suspend=1 suspend=1000"		\
	" suspend_late=1000\n"						\
	"msk driver=1 may_skip_resume=1 suspend=1000 resume_noirq=1000" \
	" resume_early=1000\n"						\
	"sm driver=1 smart_suspend=1 may_skip_resume=1 suspend=1000"	\
	" resume=1000\n"						\
	"mp driver=1 may_skip_resume=1 suspend=1000 resume_noirq=1000\n" \
	"mc parent=mp suspend=1000 resume_noirq=1000\n"
/* What ss and msk run: all but the callbacks the PM core skips. */
#define SS_RAN	"prepare suspend resume_noirq resume_early resume complete"
#define MSK_RAN	"prepare suspend suspend_late suspend_noirq resume complete"

/*
 * Smart suspend, may skip resume: exactly the driver callbacks the PM core
 * may skip are skipped, pm_async 1 and 0.
 */
TEST_F_TIMEOUT(drivers, smart_suspend_may_skip_resume, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	int mode, err;

	ASSERT_EQ(0, pma_case_load(c, SMART_SUSPEND_TOPO));
	for (mode = 1; mode >= 0; mode--) {
		ASSERT_EQ(0, pma_set_pm_async(mode));
		err = pma_case_good(c, "freeze") ||
		      pma_case_lines(c, "ss", SS_RAN) ||
		      pma_case_lines(c, "msk", MSK_RAN) ||
		      pma_case_lines(c, "sm", "prepare suspend resume complete") ||
		      pma_case_lines(c, "mp", PMA_SUSPEND_ALL) ||
		      pma_case_lines(c, "ssp", PMA_SUSPEND_ALL);
		EXPECT_EQ(0, err) TH_LOG("pm_async=%d", mode);
	}
}

/* Durations and topologies that change: jitter= and churn. */
/* Durations that change from cycle to cycle. */
#define JITTER_TOPO							\
	"j jitter=20000 suspend=1000 resume=1000 suspend_late=1000"	\
	" resume_early=1000 suspend_noirq=1000 resume_noirq=1000\n"

/*
 * jitter: callback durations vary from cycle to cycle: the 12 device
 * callbacks of 2 cycles spread over more than 4 ms.
 */
TEST_F_TIMEOUT(drivers, jitter_varies_durations, PMA_CASE_TIMEOUT)
{
	struct pma_case *c = &self->c;
	long long dur, lo = 0, hi = 0;
	int i, n = 0, cyc;

	ASSERT_EQ(0, pma_case_load(c, JITTER_TOPO));
	for (cyc = 1; cyc <= 2; cyc++) {
		if (pma_case_good(c, "freeze"))
			break;
		for (i = 0; i < c->rep.ncb; i++) {
			const struct pma_rec *r = &c->rep.cb[i].r;

			if (!strcmp(r->phase, "prepare") ||
			    !strcmp(r->phase, "complete"))
				continue;
			dur = r->end - r->start;
			if (!n || dur < lo)
				lo = dur;
			if (!n || dur > hi)
				hi = dur;
			n++;
		}
	}
	printf("# jitter: %d callbacks from %lld to %lld us\n", n, lo / 1000,
	       hi / 1000);
	EXPECT_EQ(12, n);
	EXPECT_LT(4000000, hi - lo);
}

/*
 * Churn during a transition: device_move() to another parent and a
 * stateless link deleted; the device and every other one still run every
 * callback once, in order, and the topology shows the change afterwards.
 * (A link added then, and a move that deadlocks mainline, are cases of
 * pm_async_fixes.c.)
 */
#define CHURN_TOPO							\
	"a suspend=3000 resume=3000\n"					\
	"b parent=a suspend=3000 resume=3000\n"				\
	"c suspend=100000 resume=20000 suspend_late=5000"		\
	" resume_early=5000\n"						\
	"d parent=c suspend=3000 resume=3000 suppliers=b"		\
	" suspend_late=5000 resume_early=5000\n"			\
	"e suspend=1000 resume=1000 suspend_late=5000 resume_early=5000\n"

/*
 * churn: device_move() and a link deleted during a transition, pm_async 1
 * and 0: each operation armed in turn, pm_async 1, 0, 1, and the line of
 * the topology that shows it.
 */
TEST_F_TIMEOUT(drivers, churn_move_and_unlink, PMA_CASE_TIMEOUT)
{
	static const struct {
		const char *op;
		const char *shows;
	} op[] = {
		{ "d move=a", "^d parent=a " },
		{ "d unlink=b", "^d .*resume_noirq=0$" },
		{ "e move=d", "^e parent=d " },
	};
	struct pma_case *c = &self->c;
	char armed[64], *t;
	unsigned int i;
	int mode = 1;

	ASSERT_EQ(0, pma_case_load(c, CHURN_TOPO));
	for (i = 0; i < ARRAY_SIZE(op); i++) {
		ASSERT_EQ(0, pma_set_pm_async(mode));
		mode = 1 - mode;
		snprintf(armed, sizeof(armed), "40000 %s", op[i].op);
		ASSERT_EQ(0, pma_churn_arm(armed));
		EXPECT_EQ(0, pma_case_good(c, "freeze"));
		EXPECT_EQ(0, pma_churn_done());
		t = pma_lab_read("topology");
		EXPECT_TRUE(t && has_line(t, op[i].shows)) {
			TH_LOG("churn %s: not in the topology", op[i].op);
			if (t)
				grep_lines(t, "^[de] ", 1);
		}
		free(c->topo);
		c->topo = t;
	}
}

/*
 * pm_async=0 is stock order: on a topology with links, waits and
 * mixed flags, every callback runs in the PM task, one at a time, in
 * exactly the PM core's list order (creation order; reversed for
 * suspend-side phases and complete).
 */
#define STOCK_ORDER_TOPO						\
	"o1 driver=1 suspend=200 resume=200\n"				\
	"o2 parent=o1 async=0 suspend=300 resume=100 suspend_noirq=100\n" \
	"o3 managed=o1 driver=1 suspend=100 resume=300\n"		\
	"o4 suspend=100 resume=100 direct_complete=1\n"			\
	"o5 parent=o2 suppliers=o3 suspend=100 resume_early=200\n"	\
	"o6 pm=0 parent=o5\n"						\
	"o7 parent=o6 suspend=100 resume=100 wait=resume:o3,suspend:o9\n" \
	"o8 driver=1 may_skip_resume=1 suspend=100 resume=100"		\
	" suspend_late=100\n"						\
	"o9 sync_consumers=o4 suspend=300 resume=100 jitter=500\n"	\
	"o10 parent=o9 async=0 suspend=100 resume=100\n"

/* The devices of @n callback lines @v, separated by spaces (malloc'd). */
static char *names_of(const struct pma_rec **v, int n, int reverse)
{
	size_t len = 1, off = 0;
	char *s;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(v[i]->name) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	*s = '\0';
	for (i = 0; i < n; i++)
		off += sprintf(s + off, "%s%s", i ? " " : "",
			       v[reverse ? n - 1 - i : i]->name);
	return s;
}

/*
 * The callbacks of @phase, sorted by start time, ran one at a time and
 * through the PM core's list (the report's order, creation order),
 * backwards on the suspend side and for complete: 0, or -1 after saying
 * how they ran.
 */
static int in_list_order(struct pma_case *c, const char *phase)
{
	int back = !strncmp(phase, "suspend", 7) || !strcmp(phase, "complete");
	const struct pma_rec **v;
	char *want, *got;
	int i, n = 0, err = 0;

	v = calloc(c->rep.ncb + 1, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < c->rep.ncb; i++)
		if (!strcmp(c->rep.cb[i].r.phase, phase))
			v[n++] = &c->rep.cb[i].r;
	want = names_of(v, n, back);
	if (pma_serial(&c->rep, phase, &got))
		err = -1;
	if (!want || strcmp(got, want)) {
		printf("# %s ran '%s', list order '%s'\n", phase, got,
		       want ? want : "");
		err = -1;
	}
	free(want);
	free(got);
	free(v);
	return err;
}

/*
 * pm_async=0: every callback in the PM task, one at a time, in exact list
 * order (links, waits, mixed flags).
 */
TEST_F_TIMEOUT(drivers, stock_order_pm_async_0_one_at_a_time_in_list_order,
	       PMA_CASE_TIMEOUT)
{
	char phases[] = PMA_SUSPEND_ALL, *ph, *save;
	struct pma_case *c = &self->c;
	int i, in_worker = 0, err;

	ASSERT_EQ(0, pma_set_pm_async(0));
	ASSERT_EQ(0, pma_case_load(c, STOCK_ORDER_TOPO));
	ASSERT_EQ(0, pma_case_good(c, "freeze"));
	for (i = 0; i < c->rep.ncb; i++) {
		const struct pma_rec *r = &c->rep.cb[i].r;

		if (r->task)
			continue;
		printf("# ran in a worker: %s %s %s\n", r->name, r->phase,
		       pma_rec_ctx(r));
		in_worker++;
	}
	EXPECT_EQ(0, in_worker);
	/*
	 * The report lists devices in creation order, the PM core's list
	 * order: each phase, sorted by start time, must run through it
	 * (backwards on the suspend side and for complete), one callback at
	 * a time.
	 */
	for (ph = strtok_r(phases, " ", &save); ph;
	     ph = strtok_r(NULL, " ", &save))
		EXPECT_EQ(0, in_list_order(c, ph));
	/* And waited as stock: o7 waits for o3 (resume) and o9 (suspend). */
	err = pma_case_ends_before(c, "o3", "resume", "o7", "resume") ||
	      pma_case_ends_before(c, "o9", "suspend", "o7", "suspend");
	EXPECT_EQ(0, err);
}

TEST_HARNESS_MAIN

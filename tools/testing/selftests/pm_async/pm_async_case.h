/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a C case of the pm_async kselftest works on (pm_async_case.c): the
 * sleep knobs it sets and puts back, the topology it loads, the lab's
 * report of its last transition, the checks every transition gets, the
 * lab's churn, and the groups of cases that belong to a fix of the series
 * (PM_ASYNC_SKIP, PM_ASYNC_XFAIL).  Built on pm_async_lab.h.
 */
#ifndef PM_ASYNC_CASE_H
#define PM_ASYNC_CASE_H

#include "pm_async_lab.h"

#define PMA_DEV_PHASES \
	"suspend suspend_late suspend_noirq resume_noirq resume_early resume"
#define PMA_SUSPEND_ALL	"prepare " PMA_DEV_PHASES " complete"
/* The phases of a hibernation that resumes with thaw callbacks. */
#define PMA_HIB_THAW \
	"prepare freeze freeze_late freeze_noirq thaw_noirq thaw_early thaw" \
	" complete"
/*
 * Seconds a case may take: transitions under emulation with lock
 * debugging take far longer than the harness's default 30.
 */
#define PMA_CASE_TIMEOUT	600

/**
 * struct pma_case - what a case works on
 * @knobs: The sleep knobs as the case found them.
 * @rep: The report of the last transition.
 * @topo: The topology read back after loading (or after churn changed it).
 * @state: The devices' state after loading (less the devices churn took).
 * @knobs_set: @knobs are to be restored.
 * @window: A churn missed its window: the case tested nothing.
 */
struct pma_case {
	struct pma_knobs knobs;
	struct pma_report rep;
	char *topo;
	char *state;
	int knobs_set;
	int window;
};

/*
 * Set a case up (pm_test=platform, pm_test_delay=0, pm_async=1): NULL, or
 * why it cannot run here (the case skips).
 */
const char *pma_case_begin(struct pma_case *c);
/* Put the knobs back, disarm churn and failslab, remove the devices. */
void pma_case_end(struct pma_case *c);

/* Load @text as the topology: 0, or -1 after saying why. */
int pma_case_load(struct pma_case *c, const char *text);
/*
 * The transition @state ("freeze", "disk"), its report in c->rep: 0 if it
 * succeeded, 1 if it failed, -1 without a report.
 */
int pma_case_cycle(struct pma_case *c, const char *state);
/*
 * A transition that must succeed (good_cycle): 0, or -1 after printing
 * the failed lab callbacks or the kernel's log of the transition.  Not
 * retried: an abort the lab did not inject may come from the PM core.
 */
int pma_case_good_cycle(struct pma_case *c, const char *state);
/*
 * "check" of the report against c->topo: each device has one line for
 * each phase of @required, none but those and @allowed, results 0 but
 * @dev's @phase (-EIO; NULL: none), no violation (pm_async_ask.c).
 */
int pma_case_check(struct pma_case *c, const char *required,
		   const char *allowed, const char *dev, const char *phase);
/* Every device is in the state it had after loading: 0, or -1. */
int pma_case_same_state(struct pma_case *c);
/*
 * pma_case_good_cycle(), then a full report (PMA_SUSPEND_ALL for
 * "freeze"; for "disk" the freeze phases and thaw or restore ones) and
 * the state as before: 0, or -1.
 */
int pma_case_good(struct pma_case *c, const char *state);
/* @n transitions to @state, each checked as by pma_case_good(). */
int pma_case_goods(struct pma_case *c, int n, const char *state);
/*
 * A transition to "freeze" in which @dev's @phase fails (armed with
 * fail=): it fails, the report has that failure and no other, every
 * device is back.  0, or -1.
 */
int pma_case_fails(struct pma_case *c, const char *dev, const char *phase);

/* The report's answer to a pm_async_ask.c question (NULL-terminated). */
#define pma_case_ask(c, cmd, ...) pma_askl(&(c)->rep, cmd, __VA_ARGS__, NULL)
/* @dev1's @ph1 ended before @dev2's @ph2 started: 0, or 1. */
int pma_case_before(struct pma_case *c, const char *dev1, const char *ph1,
		    const char *dev2, const char *ph2);
/*
 * @dev1's @ph1 ended before @dev2's @ph2 ended (@dev2 waited for @dev1
 * inside its callback): 0, or 1.
 */
int pma_case_ends_before(struct pma_case *c, const char *dev1,
			 const char *ph1, const char *dev2, const char *ph2);
/* A callback line of @dev's @phase returned @result. */
int pma_case_has(struct pma_case *c, const char *dev, const char *phase,
		 int result);
/*
 * @dev ran exactly @phases (words) in the last transition, in report
 * order: 0, or -1 after saying what it ran.
 */
int pma_case_lines(struct pma_case *c, const char *dev, const char *phases);
/*
 * @dev ended each suspend phase before @after started it, @after each
 * resume phase before @dev started it.
 */
int pma_case_suspends_first(struct pma_case *c, const char *dev,
			    const char *after);

/*
 * The lab's churn (Documentation/power/pm-async-lab.rst): arm @armed
 * ("DELAY NAME [OP=OTHER]", "none"): 0, or -1 after saying why.
 */
int pma_churn_arm(const char *armed);
/*
 * The churn file split into words (@buf, @len) at @w (at most @max):
 * how many.
 */
int pma_churn_read(char *buf, size_t len, char **w, int max);
/* The churn file's words @w (@n), on one line ("# churn: ..."). */
void pma_churn_print(char **w, int n);
/*
 * The armed churn ran (a removal, or with @op only an OP=OTHER operation,
 * which must have succeeded): 0, or -1 after saying why.  When it started
 * (ns, as the churn file has it; "" if it does not say) goes into @start
 * (@len; NULL: not wanted) either way.
 */
int pma_churn_started(char *start, size_t len, int op);
/* The armed operation ran and succeeded: pma_churn_started(NULL, 0, 1). */
int pma_churn_done(void);
/*
 * The last churn operation ran after @a's @pa ended and before @b's @pb
 * ended: 0; else c->window is set (the case tested nothing) and 1.
 */
int pma_churn_within(struct pma_case *c, const char *a, const char *pa,
		     const char *b, const char *pb);
/*
 * One transition with @armed churn, checked (report, churn done, in its
 * window, state); churn disarmed after.  0, or -1.
 */
int pma_churn_cycle(struct pma_case *c, const char *armed, const char *a,
		    const char *pa, const char *b, const char *pb);
/*
 * Churn took device @name away: it leaves c->topo (read again) and
 * c->state.
 */
void pma_case_forget(struct pma_case *c, const char *name);

/*
 * Fail every GFP_ATOMIC slab allocation of the tasks marked for fault
 * injection (the lab's churn thread and waits, with the lab's nomem), 1000
 * at most: 0, or -1 without failslab.
 */
int pma_failslab_arm(void);
/* Disarm it: how many allocations failed (-1 without failslab). */
int pma_failslab_disarm(void);

/* $PM_ASYNC_SKIP names @group: its cases would hang this kernel. */
int pma_group_skipped(const char *group);
/* $PM_ASYNC_XFAIL names @group: this kernel lacks its fix. */
int pma_group_xfail(const char *group);

/*
 * The last statement of a case of @group (NULL: none) whose checks left
 * @err (0: good): a missed churn window fails it; a case of a group that
 * $PM_ASYNC_XFAIL names must fail (XFAIL, the reason names the group) and
 * fails if it passed.  Such a case must not fail before (no ASSERT_*() or
 * EXPECT_*() on what the fix changes): it collects @err.
 */
#define PMA_RESULT(c, group, err) do {					\
	const char *__g = (group);					\
	int __e = (err);						\
									\
	if ((c)->window) {						\
		TH_LOG("the churn missed its window: the case tested nothing"); \
		__e = 1;						\
	}								\
	if (__g && pma_group_xfail(__g) && __e) {			\
		snprintf(_metadata->results->reason,			\
			 sizeof(_metadata->results->reason),		\
			 "[%s] fails without the fix, as expected", __g); \
		_metadata->exit_code = KSFT_XFAIL;			\
	} else if (__g && pma_group_xfail(__g)) {			\
		TH_LOG("[%s] passed, but this kernel lacks the fix", __g); \
		_metadata->exit_code = KSFT_FAIL;			\
	} else {							\
		ASSERT_EQ(0, __e);					\
	}								\
} while (0)

/*
 * At the start of a case of @group: if $PM_ASYNC_SKIP names it, skip the
 * case and run @statement (as SKIP(): usually "return").
 */
#define PMA_GROUP(statement, group) do {				\
	const char *__g = (group);					\
									\
	if (pma_group_skipped(__g))					\
		SKIP(statement, "[%s] PM_ASYNC_SKIP: it would hang this kernel", \
		     __g);						\
} while (0)

#endif /* PM_ASYNC_CASE_H */

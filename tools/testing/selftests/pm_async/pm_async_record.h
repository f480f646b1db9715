/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one reader of a line of the pm_async_test lab's report
 * (Documentation/power/pm-async-lab.rst, "report"), shared by the
 * kselftest's checker (pm_async_check) and pm-async-report: the fields of
 * a callback line are named here and nowhere else.
 */
#ifndef PM_ASYNC_RECORD_H
#define PM_ASYNC_RECORD_H

#include <stddef.h>

enum pma_rec_kind {
	PMA_REC_CALLBACK,	/* NAME PHASE START_NS END_NS CPU CTX RESULT */
	PMA_REC_VIOLATIONS,	/* violations N */
	PMA_REC_VIOLATION,	/* violation: TEXT */
	PMA_REC_BLANK,		/* nothing but white space */
};

/**
 * struct pma_rec - one line of the report
 * @name: Device name (callback lines; points into the parsed line).
 * @phase: Callback name, e.g. "suspend_late" (idem).
 * @start: ktime_get() in ns before the callback's delay.
 * @end: ktime_get() in ns after it.
 * @cpu: CPU the callback ended on.
 * @task: 1 if it ran in the task that started the transition ("task"),
 *	0 in any other thread ("worker").
 * @result: The callback's return value.
 * @violations: N of a "violations N" line.
 * @text: TEXT of a "violation: TEXT" line (points into the line).
 */
struct pma_rec {
	const char *name;
	const char *phase;
	long long start;
	long long end;
	int cpu;
	int task;
	int result;
	long long violations;
	const char *text;
};

/*
 * Parse @line (cut into fields in place); return its enum pma_rec_kind, or
 * -1 with a reason in @err ("report line needs 7 fields, got 3").
 */
int pma_rec_parse(char *line, struct pma_rec *r, char *err, size_t errlen);

/* "task" or "worker", as in the report. */
static inline const char *pma_rec_ctx(const struct pma_rec *r)
{
	return r->task ? "task" : "worker";
}

#endif /* PM_ASYNC_RECORD_H */

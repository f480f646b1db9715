/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one reader of the pm_async_test lab's report
 * (Documentation/power/pm-async-lab.rst, "report"), shared by the
 * kselftest's checker (pm_async_check) and pm-async-report: the report's
 * version, its line kinds and their fields are named here and nowhere
 * else.
 */
#ifndef PM_ASYNC_RECORD_H
#define PM_ASYNC_RECORD_H

#include <stddef.h>

/* The report version this reader reads. */
#define PMA_REC_VERSION	2

enum pma_rec_kind {
	PMA_REC_HEADER,		/* pm_async_test report version=2 event=E */
	PMA_REC_CALLBACK,	/* name= phase= start= end= cpu= ctx= result= */
	PMA_REC_VIOLATIONS,	/* violations=N */
	PMA_REC_VIOLATION,	/* violation=TEXT */
	PMA_REC_BLANK,		/* nothing but white space */
};

/**
 * struct pma_rec - one line of the report
 * @event: The transition's event of a header line: "suspend",
 *	"hibernate" or "none" (points into the parsed line).
 * @name: Device name (callback lines; points into the parsed line).
 * @phase: Callback name, e.g. "suspend_late" (idem).
 * @start: ktime_get() in ns before the callback's delay.
 * @end: ktime_get() in ns after it.
 * @cpu: CPU the callback ended on.
 * @task: 1 if it ran in the task that started the transition ("task"),
 *	0 in any other thread ("worker").
 * @result: The callback's return value.
 * @violations: N of a "violations=N" line.
 * @text: TEXT of a "violation=TEXT" line (points into the line).
 */
struct pma_rec {
	const char *event;
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

/**
 * struct pma_reader - where a reader is in one report
 * @state: What the next line may be: the header first, then callback
 *	lines, then the violations line, then violation lines.
 *
 * Zero it (or call pma_rec_begin()) before the first line of a report.
 */
struct pma_reader {
	int state;
};

static inline void pma_rec_begin(struct pma_reader *rd)
{
	rd->state = 0;
}

/*
 * Parse @line, the next line of @rd's report (cut into fields in place);
 * return its enum pma_rec_kind, or -1 with a reason in @err ("callback
 * line without 'cpu='").  A line out of order is an error too.
 */
int pma_rec_parse(struct pma_reader *rd, char *line, struct pma_rec *r,
		  char *err, size_t errlen);

/* A decimal integer in [@min, @max], the whole of @s: 0, else -1. */
int pma_rec_number(const char *s, long long min, long long max,
		   long long *v);

/* "task" or "worker", as in the report. */
static inline const char *pma_rec_ctx(const struct pma_rec *r)
{
	return r->task ? "task" : "worker";
}

#endif /* PM_ASYNC_RECORD_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab's report of the last transition, read whole, and the pm_async
 * kselftest's questions about it (pm_async_ask.c): asked by pm_async.sh
 * through pm_async_check and by the C cases directly.
 */
#ifndef PM_ASYNC_ASK_H
#define PM_ASYNC_ASK_H

#include <stdio.h>

#include "pm_async_record.h"

/**
 * struct pma_cb - a callback line of the report
 * @line: The line as read, for messages.
 * @r: Its fields, pointing into @copy.
 * @copy: The line, cut into fields.
 */
struct pma_cb {
	char *line;
	struct pma_rec r;
	char *copy;
};

/**
 * struct pma_report - a report, read whole
 * @cb: Its callback lines, in order.
 * @ncb: How many.
 * @violations: The violation count; -1 without a violations line.
 * @viol: The text of the "violation=" lines.
 * @nviol: How many.
 */
struct pma_report {
	struct pma_cb *cb;
	int ncb;
	long long violations;
	char **viol;
	int nviol;
};

/* Read the report at @path into @rep: 0, or -1 after saying why. */
int pma_report_read(const char *path, struct pma_report *rep);
void pma_report_free(struct pma_report *rep);

/*
 * Ask @rep the question @argv[0] with its @argc - 1 arguments (the
 * commands of pm_async_check, pm_async_ask.c's head comment): 0 yes, 1 no,
 * 2 a usage error.
 */
int pma_ask(const struct pma_report *rep, int argc, char **argv);

/*
 * The devices whose @phase callbacks @rep has, in start order, into
 * *@order (malloc'd, words): 0 if they ran one at a time, else 1 after
 * saying which overlap.
 */
int pma_serial(const struct pma_report *rep, const char *phase,
	       char **order);

/* The commands and their arguments, a line each, to @f. */
void pma_ask_usage(FILE *f);

#endif /* PM_ASYNC_ASK_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Line input with bounded memory, shared by the pm-async host tools.  A
 * line longer than the reader's limit is read through to its newline and
 * dropped, and counted: a file without a newline (or a hostile one with
 * a line of megabytes) never sits in memory whole, as it would with
 * getline().
 */
#ifndef PM_ASYNC_LINEREAD_H
#define PM_ASYNC_LINEREAD_H

#include <stdio.h>

/*
 * Longest line the tools keep, in bytes without the newline.  Kernel log
 * lines are at most about 1 KiB (printk), ftrace lines less; a journal
 * entry in JSON holds a few KiB of fields.
 */
#define LINE_MAX_BYTES	8192

struct line_reader {
	FILE *f;
	size_t max;		/* longest line kept */
	char *line;		/* the current line, NUL-terminated, no '\n' */
	size_t len;		/* its length (it may hold a NUL) */
	long too_long;		/* lines dropped so far */
	/* private */
	char *buf;
	size_t bpos, blen;
	int eof;
};

enum { LR_EOF = 0, LR_LINE = 1, LR_TOO_LONG = 2, LR_ERROR = -1 };

FILE *lr_open(const char *path, char *err, size_t errlen);
void lr_init(struct line_reader *r, FILE *f, size_t max);
int lr_next(struct line_reader *r);
void lr_free(struct line_reader *r);

#endif /* PM_ASYNC_LINEREAD_H */

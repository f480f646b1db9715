// SPDX-License-Identifier: GPL-2.0
/*
 * Line input with bounded memory: see lineread.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lineread.h"
#include "xalloc.h"

#define LR_BLOCK	65536

/**
 * lr_open() - open an input file
 * @path: the file, "-" for standard input
 * @err: gets "PATH: why" if it cannot be read
 * @errlen: size of @err
 *
 * A directory opens (fopen() succeeds) but reads as an empty file: it is
 * refused here with "is a directory".
 *
 * Return: the stream, or NULL with @err set.
 */
FILE *lr_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;

	if (!strcmp(path, "-"))
		return stdin;
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
			 strerror(errno));
		return NULL;
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		snprintf(err, errlen, "%s: is a directory, not a file", path);
		errno = EISDIR;
		return NULL;
	}
	return f;
}

/**
 * lr_init() - start reading lines of a stream
 * @r: the reader
 * @f: the stream (not closed by lr_free())
 * @max: longest line kept, in bytes without the newline
 */
void lr_init(struct line_reader *r, FILE *f, size_t max)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->max = max;
	r->line = xmalloc(max + 1);
	r->line[0] = 0;
	r->buf = xmalloc(LR_BLOCK);
}

/**
 * lr_next() - read the next line
 * @r: the reader
 *
 * The line, without its newline, is in r->line (r->len bytes and a NUL);
 * a last line without a newline counts as a line.  A line longer than
 * r->max is read to its end and dropped: r->line is then empty and
 * r->too_long counts it.  Memory stays r->max bytes plus one block.
 *
 * Return: LR_LINE, LR_TOO_LONG, LR_EOF at the end of the input, or
 * LR_ERROR if reading failed (ferror(r->f) is set).
 */
int lr_next(struct line_reader *r)
{
	int dropping = 0, any = 0;

	r->len = 0;
	r->line[0] = 0;
	for (;;) {
		char *nl;
		size_t n;

		if (r->bpos == r->blen) {
			if (r->eof)
				break;
			r->blen = fread(r->buf, 1, LR_BLOCK, r->f);
			r->bpos = 0;
			if (r->blen < LR_BLOCK) {
				r->eof = 1;
				if (ferror(r->f))
					return LR_ERROR;
			}
			if (!r->blen)
				break;
		}
		any = 1;
		nl = memchr(r->buf + r->bpos, '\n', r->blen - r->bpos);
		n = (nl ? (size_t)(nl - r->buf) : r->blen) - r->bpos;
		if (!dropping && r->len + n > r->max)
			dropping = 1;
		if (!dropping) {
			memcpy(r->line + r->len, r->buf + r->bpos, n);
			r->len += n;
		}
		r->bpos += n;
		if (nl) {
			r->bpos++;	/* the newline */
			break;
		}
	}
	if (!any)
		return LR_EOF;
	if (dropping) {
		r->len = 0;
		r->line[0] = 0;
		r->too_long++;
		return LR_TOO_LONG;
	}
	r->line[r->len] = 0;
	return LR_LINE;
}

/**
 * lr_free() - release the reader's buffers
 * @r: the reader
 */
void lr_free(struct line_reader *r)
{
	free(r->line);
	free(r->buf);
	r->line = NULL;
	r->buf = NULL;
}

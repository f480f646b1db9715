/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON writer of both tools: it tracks where commas and line breaks
 * go, writes strings through json_quote() (valid UTF-8 whatever the input
 * holds) and null for numbers that do not exist (NaN is not JSON).
 *
 * A container is a block (one member a line, indented two spaces a
 * level) or flat (members on one line, ", " between them); a container
 * inside a flat one is flat.  @key is NULL for an array's element and for
 * the outermost value.
 */
#ifndef PM_ASYNC_JSONW_H
#define PM_ASYNC_JSONW_H

#include <stdio.h>

#define JW_DEPTH	16
#define JW_BLOCK	0
#define JW_FLAT		1

struct jw {
	FILE *f;
	const char *num_format;	/* printf format of jw_num(); NULL: "%.10g" */
	int depth;
	int count[JW_DEPTH];	/* members written at each level */
	unsigned char flat[JW_DEPTH];
	char close[JW_DEPTH];
	int keyed;		/* a key was just written */
};

void jw_obj(struct jw *w, const char *key, int how);
void jw_arr(struct jw *w, const char *key, int how);
void jw_end(struct jw *w);
void jw_str(struct jw *w, const char *key, const char *val);
void jw_num(struct jw *w, const char *key, double v);
void jw_int(struct jw *w, const char *key, long v);
void jw_bool(struct jw *w, const char *key, int v);

#endif /* PM_ASYNC_JSONW_H */

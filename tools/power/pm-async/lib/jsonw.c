// SPDX-License-Identifier: GPL-2.0
/* The JSON writer of both tools (see jsonw.h). */
#include <math.h>

#include "jsonw.h"
#include "quote.h"

/* Before a value: the comma and line break it needs, unless it has a key. */
static void jw_sep(struct jw *w)
{
	if (w->keyed) {
		w->keyed = 0;
		return;
	}
	if (w->count[w->depth]++)
		fputs(w->flat[w->depth] ? ", " : ",", w->f);
	if (w->depth && !w->flat[w->depth])
		fprintf(w->f, "\n%*s", 2 * w->depth, "");
}

static void jw_key(struct jw *w, const char *key)
{
	if (!key)
		return;
	jw_sep(w);
	json_quote(w->f, key);
	fputs(": ", w->f);
	w->keyed = 1;
}

static void jw_open(struct jw *w, const char *key, char open, char close,
		    int how)
{
	int flat = how == JW_FLAT || w->flat[w->depth];

	jw_key(w, key);
	jw_sep(w);
	fputc(open, w->f);
	if (w->depth + 1 < JW_DEPTH)
		w->depth++;
	w->count[w->depth] = 0;
	w->flat[w->depth] = flat;
	w->close[w->depth] = close;
}

void jw_obj(struct jw *w, const char *key, int how)
{
	jw_open(w, key, '{', '}', how);
}

void jw_arr(struct jw *w, const char *key, int how)
{
	jw_open(w, key, '[', ']', how);
}

void jw_end(struct jw *w)
{
	int had = w->count[w->depth], flat = w->flat[w->depth];
	char close = w->close[w->depth];

	if (w->depth)
		w->depth--;
	if (had && !flat)
		fprintf(w->f, "\n%*s", 2 * w->depth, "");
	fputc(close, w->f);
}

void jw_str(struct jw *w, const char *key, const char *val)
{
	jw_key(w, key);
	jw_sep(w);
	json_quote(w->f, val);
}

void jw_num(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	jw_sep(w);
	if (isnan(v) || isinf(v))
		fputs("null", w->f);
	else
		fprintf(w->f, w->num_format ? w->num_format : "%.10g", v);
}

void jw_int(struct jw *w, const char *key, long v)
{
	jw_key(w, key);
	jw_sep(w);
	fprintf(w->f, "%ld", v);
}

void jw_bool(struct jw *w, const char *key, int v)
{
	jw_key(w, key);
	jw_sep(w);
	fputs(v ? "true" : "false", w->f);
}

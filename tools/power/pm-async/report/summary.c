// SPDX-License-Identifier: GPL-2.0
/*
 * Group cycles by profile and by (mode, kernel) row and compute the
 * statistics every output shows.  Only complete cycles enter the means;
 * incomplete ones are counted so that nobody mistakes a thin row for a
 * full one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Mean, sample standard deviation, median, min and max (lib/stats.c);
 * NaNs skipped.
 */
void stat_compute(struct stats *st, const double *v, int n)
{
	double *s = xmalloc(n * sizeof(*s) + 1);
	int i, m = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[m++] = v[i];
	memset(st, 0, sizeof(*st));
	st->n = m;
	stats_d(s, m, &st->mean, &st->sd, &st->median, &st->min, &st->max);
	free(s);
}

/* Seed order first: sync stock, sync pm-async, async stock, async pm-async. */
static int row_rank(const char *mode, const char *kernel)
{
	static const char *const order[][2] = {
		{ "sync", "stock" }, { "sync", "patched" },
		{ "async", "stock" }, { "async", "patched" },
	};
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(mode, order[i][0]) && !strcmp(kernel, order[i][1]))
			return i;
	return 4;
}

char *row_label(const struct row *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s", r->mode, kernel_label(r->kernel));
	return buf;
}

/* Append @v to a ", "-separated list of distinct values. */
static void add_version(char **list, const char *v)
{
	size_t n = *list ? strlen(*list) : 0, vl;
	const char *p = *list;

	if (!v)
		return;
	vl = strlen(v);
	while (p && (p = strstr(p, v))) {
		if ((p == *list || p[-1] == ' ') && (!p[vl] || p[vl] == ','))
			return;
		p += vl;
	}
	*list = xrealloc(*list, n + vl + 3);
	sprintf(*list + n, "%s%s", n ? ", " : "", v);
}

static struct profile *get_profile(struct summary *s, const char *name)
{
	struct profile *p;
	int i;

	for (i = 0; i < s->nprof; i++)
		if (!strcmp(s->prof[i].name, name))
			return &s->prof[i];
	GROW(s->prof, s->nprof, s->capprof);
	p = &s->prof[s->nprof++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(name);
	p->over_stock[0] = NAN;
	p->over_stock[1] = NAN;
	return p;
}

static struct row *get_row(struct profile *p, const struct cycle *c)
{
	struct row *r;
	int i, s;

	for (i = 0; i < p->nrow; i++)
		if (!strcmp(p->row[i].mode, c->mode) &&
		    !strcmp(p->row[i].kernel, c->kernel))
			return &p->row[i];
	GROW(p->row, p->nrow, p->caprow);
	r = &p->row[p->nrow++];
	memset(r, 0, sizeof(*r));
	r->mode = xstrdup(c->mode);
	r->kernel = xstrdup(c->kernel);
	/* Known rows in seed order, any others after them as they come. */
	r->rank = row_rank(c->mode, c->kernel) * 100000 + p->nrow;
	for (s = 0; s < NPHASES; s++)
		r->phname[s] = cycle_phase_name(c, s);
	return r;
}

static void add_cycle(struct summary *s, struct cycle *c)
{
	struct profile *p = get_profile(s, c->profile);
	struct row *r = get_row(p, c);

	if (!p->first)
		p->first = c;
	p->ncycles++;
	p->violations += c->violations;
	r->violations += c->violations;
	add_version(&s->versions, c->version);
	add_version(&p->versions, c->version);
	add_version(&r->versions, c->version);
	if (!c->complete) {
		p->incomplete++;
		r->incomplete++;
		return;
	}
	GROW(r->cyc, r->n, r->cap);
	r->cyc[r->n++] = c;
}

static void row_stats(struct row *r)
{
	double *v = xmalloc(r->n * sizeof(*v) + 1);
	int i, side, s;

	for (side = 0; side < 2; side++) {
		for (i = 0; i < r->n; i++)
			v[i] = r->cyc[i]->side_ms[side];
		stat_compute(&r->side[side], v, r->n);
		for (i = 0; i < r->n; i++)
			v[i] = r->cyc[i]->ratio[side];
		stat_compute(&r->ratio[side], v, r->n);
		for (i = 0; i < r->n; i++)
			v[i] = r->cyc[i]->side_bound_ms[side];
		stat_compute(&r->bound[side], v, r->n);
	}
	for (s = 0; s < NPHASES; s++) {
		for (i = 0; i < r->n; i++)
			v[i] = r->cyc[i]->pm_ms[s];
		stat_compute(&r->phase[s], v, r->n);
	}
	free(v);
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->rank - y->rank;
}

const struct row *profile_row(const struct profile *p, const char *mode,
			      const char *kernel)
{
	int i;

	for (i = 0; i < p->nrow; i++)
		if (!strcmp(p->row[i].mode, mode) &&
		    !strcmp(p->row[i].kernel, kernel))
			return &p->row[i];
	return NULL;
}

/* The async row the bound line and the CP chains come from. */
static const struct row *async_row(const struct profile *p)
{
	const struct row *r = profile_row(p, "async", "patched");
	int i;

	if (r && r->n)
		return r;
	for (i = 0; i < p->nrow; i++)
		if (strcmp(p->row[i].mode, "sync") && p->row[i].n)
			return &p->row[i];
	return NULL;
}

static const struct row *sort_row;
static int sort_side;

static int cmp_side(const void *a, const void *b)
{
	const struct cycle *x = sort_row->cyc[*(const int *)a];
	const struct cycle *y = sort_row->cyc[*(const int *)b];

	return cmp_double(&x->side_ms[sort_side], &y->side_ms[sort_side]);
}

/* The (lower) median cycle by side time: a real cycle, not an average. */
static const struct cycle *median_cycle(const struct row *r, int side)
{
	int *idx = xmalloc(r->n * sizeof(*idx)), i;
	const struct cycle *c;

	for (i = 0; i < r->n; i++)
		idx[i] = i;
	sort_row = r;
	sort_side = side;
	qsort(idx, r->n, sizeof(*idx), cmp_side);
	c = r->cyc[idx[(r->n - 1) / 2]];
	free(idx);
	return c;
}

static void pick_cp(struct profile *p, struct cycle **cyc, int n)
{
	int side, i;

	p->bound_row = async_row(p);
	p->cp_row = p->bound_row;
	for (side = 0; side < 2; side++) {
		if (p->cp_row) {
			p->cp_cyc[side] = median_cycle(p->cp_row, side);
			continue;
		}
		/* No complete async cycle: any async one still shows a chain. */
		for (i = 0; i < n; i++) {
			if (!strcmp(cyc[i]->profile, p->name) && !cyc[i]->sync) {
				p->cp_cyc[side] = cyc[i];
				break;
			}
		}
	}
}

static void over_stock(struct profile *p)
{
	const struct row *pa = profile_row(p, "async", "patched");
	const struct row *st = profile_row(p, "async", "stock");
	int side;

	for (side = 0; side < 2; side++)
		if (pa && st && pa->n && st->n && st->side[side].mean > 0)
			p->over_stock[side] = pa->side[side].mean /
					      st->side[side].mean;
}

void summarise(struct summary *s, struct cycle **cyc, int n, int limit)
{
	int i, j;

	memset(s, 0, sizeof(*s));
	s->limit = limit;
	for (i = 0; i < n; i++)
		add_cycle(s, cyc[i]);
	for (i = 0; i < s->nprof; i++) {
		struct profile *p = &s->prof[i];

		qsort(p->row, p->nrow, sizeof(*p->row), cmp_row);
		for (j = 0; j < p->nrow; j++)
			row_stats(&p->row[j]);
		pick_cp(p, cyc, n);
		over_stock(p);
	}
}

void summary_free(struct summary *s)
{
	int i, j;

	for (i = 0; i < s->nprof; i++) {
		struct profile *p = &s->prof[i];

		for (j = 0; j < p->nrow; j++) {
			free(p->row[j].mode);
			free(p->row[j].kernel);
			free(p->row[j].cyc);
			free(p->row[j].versions);
		}
		free(p->row);
		free(p->name);
		free(p->versions);
	}
	free(s->prof);
	free(s->versions);
	memset(s, 0, sizeof(*s));
}

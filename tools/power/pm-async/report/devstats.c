// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics per device and phase over the complete cycles of the input
 * (a machine's log of many cycles, a pm-async-measure run or lab cycles):
 * n, median, worst and spread (worst - best: with the few cycles a laptop
 * owner runs, a quartile range would rest on one or two values), slowest
 * first; and the comparison of two inputs: the devices and phases whose
 * medians moved by more than a threshold.
 *
 * A device is its phase, name and parent name: two "card0" under
 * different parents are two rows, labelled with their parents.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"
#include "strmap.h"

static int add_row(struct dstat **arr, int *n, int *cap, struct strmap *map,
		   const char *phase, const char *name, const char *parent)
{
	size_t len = strlen(phase) + (name ? strlen(name) : 0) +
		     strlen(parent) + 3;
	char *key = xmalloc(len);
	int i;

	snprintf(key, len, "%s\t%s\t%s", phase, name ? name : "", parent);
	i = strmap_get(map, key, -1);
	if (i < 0) {
		GROW(*arr, *n, *cap);
		i = (*n)++;
		memset(&(*arr)[i], 0, sizeof((*arr)[i]));
		(*arr)[i].phase = xstrdup(phase);
		(*arr)[i].name = name ? xstrdup(name) : NULL;
		(*arr)[i].parent = xstrdup(parent);
		strmap_set(map, key, i);
	}
	free(key);
	return i;
}

static void add_value(struct dstat *d, double v)
{
	GROW(d->v, d->n, d->cap);
	d->v[d->n++] = v;
}

static void finish(struct dstat *d)
{
	d->median = median_d(d->v, d->n);	/* sorts */
	d->best = d->n ? d->v[0] : NAN;
	d->worst = d->n ? d->v[d->n - 1] : NAN;
}

static int cmp_worst(const void *a, const void *b)
{
	const struct dstat *x = a, *y = b;
	int r;

	if (x->worst != y->worst)
		return x->worst > y->worst ? -1 : 1;
	if (x->median != y->median)
		return x->median > y->median ? -1 : 1;
	r = strcmp(x->name, y->name);
	if (r)
		return r;
	r = strcmp(x->phase, y->phase);
	return r ? r : strcmp(x->parent, y->parent);
}

/* mark the rows whose phase and name are another's too (then: parents) */
static void mark_shared(struct devstats *ds)
{
	struct strmap first;
	int i;

	strmap_init(&first);
	for (i = 0; i < ds->n; i++) {
		struct dstat *d = &ds->d[i];
		size_t len = strlen(d->phase) + strlen(d->name) + 2;
		char *key = xmalloc(len);
		int j;

		snprintf(key, len, "%s\t%s", d->phase, d->name);
		j = strmap_get(&first, key, -1);
		if (j < 0) {
			strmap_set(&first, key, i);
		} else {
			ds->d[j].shared = 1;
			d->shared = 1;
		}
		free(key);
	}
	strmap_free(&first);
}

/*
 * The rows of the complete cycles of @cyc: callback durations (end -
 * start) and the kernel's phase times.  Incomplete cycles are counted,
 * not used, as in the tables.
 */
void devstats_build(struct devstats *ds, struct cycle **cyc, int n)
{
	struct strmap rows, phases;
	int k, i, s;

	memset(ds, 0, sizeof(*ds));
	strmap_init(&rows);
	strmap_init(&phases);
	for (k = 0; k < n; k++) {
		const struct cycle *c = cyc[k];

		if (!c->complete) {
			ds->incomplete++;
			continue;
		}
		ds->ncycles++;
		for (i = 0; i < c->ncb; i++) {
			const struct cb *cb = &c->cb[i];
			const struct dev *d = &c->dev[cb->dev];
			int r;

			r = add_row(&ds->d, &ds->n, &ds->cap, &rows,
				    cycle_phase_name(c, cb->slot), d->name,
				    d->parent >= 0 ? c->dev[d->parent].name : "");
			add_value(&ds->d[r], (double)(cb->end - cb->start) / 1e6);
		}
		for (s = 0; s < NPHASES; s++) {
			int r;

			if (!c->have_pm[s])
				continue;
			r = add_row(&ds->ph, &ds->nph, &ds->capph, &phases,
				    cycle_phase_name(c, s), NULL, "");
			add_value(&ds->ph[r], c->pm_ms[s]);
		}
	}
	strmap_free(&rows);
	strmap_free(&phases);
	for (i = 0; i < ds->n; i++)
		finish(&ds->d[i]);
	for (i = 0; i < ds->nph; i++)
		finish(&ds->ph[i]);
	qsort(ds->d, ds->n, sizeof(*ds->d), cmp_worst);
	mark_shared(ds);
}

static void free_rows(struct dstat *d, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(d[i].phase);
		free(d[i].name);
		free(d[i].parent);
		free(d[i].v);
	}
	free(d);
}

void devstats_free(struct devstats *ds)
{
	free_rows(ds->d, ds->n);
	free_rows(ds->ph, ds->nph);
	memset(ds, 0, sizeof(*ds));
}

/* "NAME", or "NAME (parent P)" if another device of its phase is NAME */
const char *dstat_label(const struct dstat *d, char *buf, size_t len)
{
	if (!d->name)
		snprintf(buf, len, "(phase)");
	else if (d->shared)
		snprintf(buf, len, "%s (parent %s)", d->name,
			 *d->parent ? d->parent : "none");
	else
		snprintf(buf, len, "%s", d->name);
	return buf;
}

static int label_width(const struct dstat *d, int n, int min)
{
	char buf[512];
	int i, w = min;

	for (i = 0; i < n; i++) {
		int l = (int)strlen(dstat_label(&d[i], buf, sizeof(buf)));

		if (l > w)
			w = l;
	}
	return w > 48 ? 48 : w;
}

/*
 * The table, slowest first; @top rows at most (0: all).  Names are the
 * log's bytes, printed as they are (a terminal table, not a command).
 */
void print_devstats(FILE *out, const struct devstats *ds, int top)
{
	int i, n = top > 0 && top < ds->n ? top : ds->n;
	int w = label_width(ds->d, n, 6);
	char buf[512];

	fprintf(out,
		"device statistics: %d device-phases over %d complete cycle%s%s (ms; spread = worst - best), slowest first%s\n",
		ds->n, ds->ncycles, ds->ncycles == 1 ? "" : "s",
		ds->incomplete ? " (incomplete ones not counted)" : "",
		n < ds->n ? "" : ":");
	if (n < ds->n)
		fprintf(out, "(the %d slowest of %d; --top 0 shows all):\n", n,
			ds->n);
	fprintf(out, "%-*s  %-14s %4s %10s %10s %10s\n", w, "device", "phase",
		"n", "median", "worst", "spread");
	for (i = 0; i < n; i++) {
		const struct dstat *d = &ds->d[i];

		fprintf(out, "%-*s  %-14s %4d %10.3f %10.3f %10.3f\n", w,
			dstat_label(d, buf, sizeof(buf)), d->phase, d->n,
			d->median, d->worst, d->worst - d->best);
	}
}

static int same_row(const struct dstat *a, const struct dstat *b)
{
	if (!a->name != !b->name)
		return 0;
	return !strcmp(a->phase, b->phase) && !strcmp(a->parent, b->parent) &&
	       (!a->name || !strcmp(a->name, b->name));
}

/* the row of @ds for the device and phase of @like, or NULL */
const struct dstat *dstat_find(const struct devstats *ds,
			       const struct dstat *like)
{
	const struct dstat *arr = like->name ? ds->d : ds->ph;
	int i, n = like->name ? ds->n : ds->nph;

	for (i = 0; i < n; i++)
		if (same_row(&arr[i], like))
			return &arr[i];
	return NULL;
}

/* median of a row, 0 if the input has none (a device only in the other) */
static double row_median(const struct dstat *d)
{
	return d ? d->median : 0;
}

/* 1 if the medians of @a and @b (either may be NULL) differ by > @thr */
int dstat_moved(const struct dstat *a, const struct dstat *b, double thr)
{
	return fabs(row_median(b) - row_median(a)) > thr;
}

static void cmp_side(FILE *out, const struct dstat *d)
{
	if (d)
		fprintf(out, " %10.3f %4d", d->median, d->n);
	else
		fprintf(out, " %10s %4s", "-", "0");
}

static void cmp_line(FILE *out, int w, const struct dstat *a,
		     const struct dstat *b, int moved)
{
	const struct dstat *d = a ? a : b;
	char buf[512];

	fprintf(out, "%-*s  %-14s", w, d->name ? dstat_label(d, buf, sizeof(buf)) :
		d->phase, d->name ? d->phase : "");
	cmp_side(out, a);
	cmp_side(out, b);
	fprintf(out, " %+10.3f%s\n", row_median(b) - row_median(a),
		moved ? "  MOVED" : "");
}

/*
 * Medians of @a against @b: every phase total, then the devices whose
 * median moved by more than @thr ms (a device only in one input counts
 * as 0 ms in the other), the cycle counts behind each.  Returns how many
 * moved.
 */
int print_compare(FILE *out, const struct devstats *a, const char *alabel,
		  const struct devstats *b, const char *blabel, double thr)
{
	int i, w, moved = 0, ndev = 0, nph = 0;

	fprintf(out,
		"compare: medians over complete cycles, ms; MOVED = changed by more than %.3f ms\n",
		thr);
	fprintf(out, "  A: %s (%d complete cycle%s)\n", alabel, a->ncycles,
		a->ncycles == 1 ? "" : "s");
	fprintf(out, "  B: %s (%d complete cycle%s)\n", blabel, b->ncycles,
		b->ncycles == 1 ? "" : "s");
	if (a->ncycles < 5 || b->ncycles < 5)
		fprintf(out,
			"  (fewer than 5 cycles on a side: a median of so few can move by chance)\n");
	w = label_width(a->d, a->n, 14);
	w = fmax(w, label_width(b->d, b->n, 14));
	fprintf(out, "\n%-*s  %-14s %10s %4s %10s %4s %10s\n", w, "phase", "",
		"A median", "n", "B median", "n", "B - A");
	for (i = 0; i < a->nph + b->nph; i++) {
		const struct dstat *x = i < a->nph ? &a->ph[i] : NULL;
		const struct dstat *y = x ? dstat_find(b, x) : &b->ph[i - a->nph];

		if (!x && dstat_find(a, y))
			continue;
		nph += dstat_moved(x, y, thr);
		cmp_line(out, w, x, y, dstat_moved(x, y, thr));
	}
	fprintf(out, "\n%-*s  %-14s %10s %4s %10s %4s %10s\n", w, "device",
		"phase", "A median", "n", "B median", "n", "B - A");
	for (i = 0; i < a->n + b->n; i++) {
		const struct dstat *x = i < a->n ? &a->d[i] : NULL;
		const struct dstat *y = x ? dstat_find(b, x) : &b->d[i - a->n];

		if (!x && dstat_find(a, y))
			continue;
		if (!dstat_moved(x, y, thr))
			continue;
		ndev++;
		cmp_line(out, w, x, y, 1);
	}
	if (!ndev)
		fprintf(out, "(no device's median moved by more than %.3f ms)\n",
			thr);
	moved = nph + ndev;
	fprintf(out, "\n%d moved: %d phase%s, %d device-phase%s\n", moved, nph,
		nph == 1 ? "" : "s", ndev, ndev == 1 ? "" : "s");
	return moved;
}

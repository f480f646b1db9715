// SPDX-License-Identifier: GPL-2.0
/*
 * Per-phase lower bounds of a cycle.
 *
 * No scheduler can finish a phase faster than its critical path (CP): the
 * longest chain of callbacks that must run one after the other, using the
 * durations measured in this very cycle.  Callbacks must wait for
 *
 *  - dependencies: in suspend-type phases a device's children and
 *    consumers finish first, in resume-type phases its parent and
 *    suppliers;
 *  - the PM task (async modes only): sync devices (async=0 in the
 *    topology) run in the PM task one after another, in START order,
 *    whatever the engine.  Async devices an engine chose to run in the
 *    task do not count: that was the engine's choice, not a constraint.
 *
 * With more work than workers the worker limit dominates instead, so the
 * bound is max(CP, async devices' callback time / LIMIT).  For mode=sync cycles
 * the bound is the all-async one (no task order, all callbacks / LIMIT):
 * it says how far sync is from what async could achieve.
 *
 * This file says what the edges and the work of a lab cycle are; the path
 * and the bound are lib/cpath.c's, the same as pm-async-advise's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpath.h"
#include "report.h"

static double cb_dur(const struct cycle *c, int dev, int slot)
{
	int i = c->dev[dev].cb[slot];

	return i < 0 ? 0 : (double)(c->cb[i].end - c->cb[i].start);
}

/* Edges between devices that both ran @slot, pointing the way work flows. */
static void dep_edges(const struct cycle *c, int slot, struct cp_graph *g)
{
	int resume = slot_side(slot) == SIDE_RESUME;
	int d, i;

	for (d = 0; d < c->ndev; d++) {
		const struct dev *dv = &c->dev[d];

		if (dv->cb[slot] < 0)
			continue;
		if (dv->parent >= 0 && c->dev[dv->parent].cb[slot] >= 0) {
			if (resume)
				cp_graph_edge(g, dv->parent, d);
			else
				cp_graph_edge(g, d, dv->parent);
		}
		for (i = 0; i < dv->nsup; i++) {
			if (c->dev[dv->sup[i]].cb[slot] < 0)
				continue;
			if (resume)
				cp_graph_edge(g, dv->sup[i], d);
			else
				cp_graph_edge(g, d, dv->sup[i]);
		}
	}
}

static const struct cycle *sort_cycle;

static int cmp_start(const void *a, const void *b)
{
	const struct cb *x = &sort_cycle->cb[*(const int *)a];
	const struct cb *y = &sort_cycle->cb[*(const int *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->dev - y->dev;
}

/* Chain the callbacks of sync devices, in the order they started. */
static void sync_edges(const struct cycle *c, int slot, struct cp_graph *g)
{
	int *idx = xmalloc(c->ncb * sizeof(*idx) + 1);
	int i, n = 0;

	for (i = 0; i < c->ncb; i++)
		if (c->cb[i].slot == slot && !c->dev[c->cb[i].dev].async)
			idx[n++] = i;
	sort_cycle = c;
	qsort(idx, n, sizeof(*idx), cmp_start);
	for (i = 1; i < n; i++)
		cp_graph_edge(g, c->cb[idx[i - 1]].dev, c->cb[idx[i]].dev);
	free(idx);
}

static double limited_total(const struct cycle *c, int slot)
{
	double total = 0;
	int i;

	/* mode=sync: what all callbacks would cost if they were async */
	for (i = 0; i < c->ncb; i++)
		if (c->cb[i].slot == slot &&
		    (c->sync || c->dev[c->cb[i].dev].async))
			total += (double)(c->cb[i].end - c->cb[i].start);
	return total;
}

/* CP, chain and bound of one phase (lib/cpath.c). */
void critical_path(struct cycle *c, int slot, int limit, FILE *warn)
{
	struct cp_graph g;
	struct cpath cp;
	int d, ndep;

	cp_graph_init(&g, c->ndev);
	for (d = 0; d < c->ndev; d++) {
		g.w[d] = cb_dur(c, d, slot);
		g.ran[d] = c->dev[d].cb[slot] >= 0;
	}
	dep_edges(c, slot, &g);
	ndep = g.nedge;
	if (!c->sync)
		sync_edges(c, slot, &g);
	if (cp_solve(&g, NULL, limited_total(c, slot), limit, &cp)) {
		/*
		 * Only task order can close a loop (the lab creates parents
		 * and suppliers before their dependents), i.e. the task ran
		 * a callback before one it depends on: a violation.  The
		 * dependency edges alone still give a valid bound.
		 */
		if (warn)
			fprintf(warn,
				"%s:%d: warning: cycle %ld (%s/%s/%s): task order contradicts dependencies in %s, ignoring it\n",
				c->file, c->line, c->number, c->kernel,
				c->profile, c->mode, cycle_phase_name(c, slot));
		cpath_free(&cp);
		g.nedge = ndep;
		cp_solve(&g, NULL, limited_total(c, slot), limit, &cp);
	}
	free(c->chain[slot]);
	c->chain[slot] = cp.chain;
	c->nchain[slot] = cp.nchain;
	c->cp_ns[slot] = cp.cp;
	c->total_ns[slot] = cp.work;
	c->bound_ns[slot] = cp.bound;
	cp_graph_free(&g);
}

/*
 * List what is missing from a cycle (a few device-phases, then a count).
 * With @out NULL just count.  Returns the number of missing items.
 */
static int list_missing(const struct cycle *c, FILE *out)
{
	int d, s, n = 0;

	/*
	 * pm=0: the PM core runs none of its callbacks.  A machine's log
	 * shows the callbacks its devices have: none of a phase is missing.
	 */
	for (d = 0; d < c->ndev && !c->from_log; d++) {
		if (c->dev[d].no_pm)
			continue;
		for (s = 0; s < NPHASES; s++) {
			if (c->dev[d].cb[s] >= 0)
				continue;
			if (out && n < 5)
				fprintf(out, "%s%s %s", n ? ", " : "report line ",
					c->dev[d].name, cycle_phase_name(c, s));
			n++;
		}
	}
	if (out && n > 5)
		fprintf(out, " and %d more", n - 5);
	for (s = 0; s < NPHASES; s++) {
		if (c->have_pm[s] && !c->pm_aborted[s])
			continue;
		if (out)
			fprintf(out, "%sPM line for %s%s", n ? "; " : "",
				cycle_phase_name(c, s),
				c->have_pm[s] ? " (phase aborted)" : "");
		n++;
	}
	if (!c->ndev) {
		if (out)
			fprintf(out, "%sdevices", n ? "; " : "");
		n++;
	}
	return n;
}

static void warn_prefix(const struct cycle *c, FILE *warn)
{
	fprintf(warn, "%s:%d: warning: cycle %ld (%s/%s/%s): ", c->file,
		c->line, c->number, c->kernel, c->profile, c->mode);
}

static void side_totals(struct cycle *c)
{
	int side, s;

	for (side = 0; side < 2; side++) {
		c->side_ms[side] = 0;
		c->side_bound_ms[side] = 0;
		for (s = 3 * side; s < 3 * side + 3; s++) {
			c->side_ms[side] += c->pm_ms[s];
			c->side_bound_ms[side] += c->bound_ns[s] / 1e6;
		}
		c->ratio[side] = c->side_bound_ms[side] > 0 ?
			c->side_ms[side] / c->side_bound_ms[side] : NAN;
	}
}

/*
 * Compute bounds and ratios of @c and decide whether it is complete.
 * Incomplete cycles are kept (the SVG can still draw them) but must
 * never be averaged in; warnings go to @warn unless it is NULL.
 */
void cycle_analyse(struct cycle *c, int limit, FILE *warn)
{
	int s;

	for (s = 0; s < NPHASES; s++)
		critical_path(c, s, limit, warn);
	side_totals(c);
	c->complete = !list_missing(c, NULL);
	if (!c->complete && warn) {
		warn_prefix(c, warn);
		fprintf(warn, "missing ");
		list_missing(c, warn);
		fprintf(warn, "; not averaged\n");
	}
	if (c->violations && warn) {
		warn_prefix(c, warn);
		fprintf(warn, "%d ordering violation%s reported by the lab\n",
			c->violations, c->violations == 1 ? "" : "s");
	}
}

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
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct edges {
	int *from, *to;
	int n, cap, capto;
};

static void add_edge(struct edges *e, int a, int b)
{
	GROW(e->from, e->n, e->cap);
	GROW(e->to, e->n, e->capto);
	e->from[e->n] = a;
	e->to[e->n++] = b;
}

static double cb_dur(const struct cycle *c, int dev, int slot)
{
	int i = c->dev[dev].cb[slot];

	return i < 0 ? 0 : (double)(c->cb[i].end - c->cb[i].start);
}

/* Edges between devices that both ran @slot, pointing the way work flows. */
static void dep_edges(const struct cycle *c, int slot, struct edges *e)
{
	int resume = slot_side(slot) == SIDE_RESUME;
	int d, i;

	for (d = 0; d < c->ndev; d++) {
		const struct dev *dv = &c->dev[d];

		if (dv->cb[slot] < 0)
			continue;
		if (dv->parent >= 0 && c->dev[dv->parent].cb[slot] >= 0) {
			if (resume)
				add_edge(e, dv->parent, d);
			else
				add_edge(e, d, dv->parent);
		}
		for (i = 0; i < dv->nsup; i++) {
			if (c->dev[dv->sup[i]].cb[slot] < 0)
				continue;
			if (resume)
				add_edge(e, dv->sup[i], d);
			else
				add_edge(e, d, dv->sup[i]);
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
static void sync_edges(const struct cycle *c, int slot, struct edges *e)
{
	int *idx = xmalloc(c->ncb * sizeof(*idx) + 1);
	int i, n = 0;

	for (i = 0; i < c->ncb; i++)
		if (c->cb[i].slot == slot && !c->dev[c->cb[i].dev].async)
			idx[n++] = i;
	sort_cycle = c;
	qsort(idx, n, sizeof(*idx), cmp_start);
	for (i = 1; i < n; i++)
		add_edge(e, c->cb[idx[i - 1]].dev, c->cb[idx[i]].dev);
	free(idx);
}

/* Successor lists in compressed form: succ[off[v] .. off[v + 1]). */
static void build_csr(int n, const struct edges *e, int *off, int *succ)
{
	int *pos = xmalloc((n + 1) * sizeof(*pos));
	int i;

	for (i = 0; i < e->n; i++)
		off[e->from[i] + 1]++;
	for (i = 0; i < n; i++)
		off[i + 1] += off[i];
	memcpy(pos, off, (n + 1) * sizeof(*pos));
	for (i = 0; i < e->n; i++)
		succ[pos[e->from[i]]++] = e->to[i];
	free(pos);
}

/*
 * Longest path by Kahn's topological sort, node weight = duration.
 * Returns 0, or -1 if the edges contain a cycle.
 */
static int longest_path(const struct cycle *c, int slot,
			const struct edges *e, double *dist, int *pred)
{
	int n = c->ndev, i, head = 0, tail = 0;
	int *off = xcalloc(n + 1, sizeof(*off));
	int *succ = xmalloc(e->n * sizeof(*succ) + 1);
	int *indeg = xcalloc(n + 1, sizeof(*indeg));
	int *queue = xmalloc(n * sizeof(*queue) + 1);

	build_csr(n, e, off, succ);
	for (i = 0; i < e->n; i++)
		indeg[e->to[i]]++;
	for (i = 0; i < n; i++) {
		dist[i] = cb_dur(c, i, slot);
		pred[i] = -1;
		if (!indeg[i])
			queue[tail++] = i;
	}
	while (head < tail) {
		int v = queue[head++], k;

		for (k = off[v]; k < off[v + 1]; k++) {
			int w = succ[k];
			double d = dist[v] + cb_dur(c, w, slot);

			if (d > dist[w]) {
				dist[w] = d;
				pred[w] = v;
			}
			if (!--indeg[w])
				queue[tail++] = w;
		}
	}
	free(off);
	free(succ);
	free(indeg);
	free(queue);
	return tail == n ? 0 : -1;
}

/* Walk the predecessors back from the end of the longest path. */
static void record_chain(struct cycle *c, int slot, const double *dist,
			 const int *pred)
{
	int best = -1, d, n = 0;

	for (d = 0; d < c->ndev; d++)
		if (c->dev[d].cb[slot] >= 0 && (best < 0 || dist[d] > dist[best]))
			best = d;
	free(c->chain[slot]);
	c->chain[slot] = NULL;
	c->nchain[slot] = 0;
	c->cp_ns[slot] = best < 0 ? 0 : dist[best];
	if (best < 0)
		return;
	for (d = best; d >= 0; d = pred[d])
		n++;
	c->chain[slot] = xmalloc(n * sizeof(int));
	c->nchain[slot] = n;
	for (d = best; d >= 0; d = pred[d])
		c->chain[slot][--n] = d;
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

/* CP, chain and bound of one phase. */
void critical_path(struct cycle *c, int slot, int limit, FILE *warn)
{
	double *dist = xmalloc(c->ndev * sizeof(*dist) + 1);
	int *pred = xmalloc(c->ndev * sizeof(*pred) + 1);
	struct edges e = { 0 };
	int ndep;

	dep_edges(c, slot, &e);
	ndep = e.n;
	if (!c->sync)
		sync_edges(c, slot, &e);
	if (longest_path(c, slot, &e, dist, pred)) {
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
		e.n = ndep;
		longest_path(c, slot, &e, dist, pred);
	}
	record_chain(c, slot, dist, pred);
	c->total_ns[slot] = limited_total(c, slot);
	c->bound_ns[slot] = fmax(c->cp_ns[slot], c->total_ns[slot] / limit);
	free(e.from);
	free(e.to);
	free(dist);
	free(pred);
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
		for (s = 0; s < NSLOT; s++) {
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
	for (s = 0; s < NSLOT; s++) {
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

	for (s = 0; s < NSLOT; s++)
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

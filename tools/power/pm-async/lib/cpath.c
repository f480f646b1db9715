// SPDX-License-Identifier: GPL-2.0
/*
 * The critical path and the lower bound of a phase (see cpath.h), for
 * both tools.
 */
#include <stdlib.h>
#include <string.h>

#include "cpath.h"
#include "xalloc.h"

void cp_graph_init(struct cp_graph *g, int n)
{
	memset(g, 0, sizeof(*g));
	g->n = n;
	g->w = xcalloc((size_t)n + 1, sizeof(*g->w));
	g->ran = xcalloc((size_t)n + 1, sizeof(*g->ran));
}

void cp_graph_edge(struct cp_graph *g, int before, int after)
{
	xgrow((void **)&g->from, g->nedge, &g->cap_from, sizeof(*g->from));
	xgrow((void **)&g->to, g->nedge, &g->cap_to, sizeof(*g->to));
	g->from[g->nedge] = before;
	g->to[g->nedge++] = after;
}

void cp_graph_free(struct cp_graph *g)
{
	free(g->w);
	free(g->ran);
	free(g->from);
	free(g->to);
	memset(g, 0, sizeof(*g));
}

void cpath_free(struct cpath *cp)
{
	free(cp->chain);
	memset(cp, 0, sizeof(*cp));
}

/*
 * Kahn's topological sort, ties by index, into @seq.  Nodes on a loop
 * never become free: they are appended by index.  Returns 0, or -1 if
 * there was a loop.
 */
static int topo_order(const struct cp_graph *g, const int *off,
		      const int *succ, int *seq)
{
	int *indeg = xcalloc((size_t)g->n + 1, sizeof(*indeg));
	int i, k, head = 0, tail = 0, ret = 0;

	for (i = 0; i < g->nedge; i++)
		indeg[g->to[i]]++;
	for (i = 0; i < g->n; i++)
		if (!indeg[i])
			seq[tail++] = i;
	while (head < tail) {
		int v = seq[head++];

		for (k = off[v]; k < off[v + 1]; k++)
			if (!--indeg[succ[k]])
				seq[tail++] = succ[k];
	}
	if (tail < g->n) {
		ret = -1;
		for (i = 0; i < g->n; i++)
			if (indeg[i] > 0)
				seq[tail++] = i;
	}
	free(indeg);
	return ret;
}

/* The chain that ends at @last, first to last. */
static void record_chain(struct cpath *cp, const int *pred, int last)
{
	int i, n = 0;

	for (i = last; i >= 0; i = pred[i])
		n++;
	cp->chain = xmalloc(sizeof(*cp->chain) * (size_t)(n + 1));
	cp->nchain = n;
	for (i = last; i >= 0; i = pred[i])
		cp->chain[--n] = i;
}

/**
 * cp_solve() - critical path, chain and bound of one phase
 * @g: the phase's nodes, weights and edges
 * @order: a topological order of all @g's nodes to follow, or NULL for
 *	one by index
 * @work: the callback time the worker limit divides
 * @limit: the number of workers; 0 or less for no limit
 * @cp: filled in; cpath_free() it
 *
 * A node's chain goes through its predecessor that finishes last; on a
 * tie the first one that ran a callback is kept.  The chain ends at the
 * node that ran a callback and finishes last (the first in @order on a
 * tie); with none, it is empty and the critical path 0.  On a loop (or
 * an @order that is not topological) a node is never delayed by one that
 * comes after it in the order, so the chains stay finite; the time is
 * then a bound of the edges that agree with the order.
 *
 * Return: 0, or -1 if @order is NULL and the edges have a loop.
 */
int cp_solve(const struct cp_graph *g, const int *order, double work,
	     int limit, struct cpath *cp)
{
	int n = g->n, i, k, best = -1, ret = 0;
	int *off = xcalloc((size_t)n + 2, sizeof(*off));
	int *succ = xmalloc(sizeof(*succ) * (size_t)(g->nedge + 1));
	int *seq = xmalloc(sizeof(*seq) * (size_t)(n + 1));
	int *pred = xmalloc(sizeof(*pred) * (size_t)(n + 1));
	unsigned char *done = xcalloc((size_t)n + 1, 1);
	double *start = xcalloc((size_t)n + 1, sizeof(*start));

	memset(cp, 0, sizeof(*cp));
	/* successor lists, in the order the edges came: succ[off[v]..off[v + 1]) */
	for (i = 0; i < g->nedge; i++)
		off[g->from[i] + 2]++;
	for (i = 0; i < n; i++)
		off[i + 2] += off[i + 1];
	for (i = 0; i < g->nedge; i++)
		succ[off[g->from[i] + 1]++] = g->to[i];

	if (order)
		memcpy(seq, order, sizeof(*seq) * (size_t)n);
	else
		ret = topo_order(g, off, succ, seq);

	for (i = 0; i < n; i++)
		pred[i] = -1;
	for (k = 0; k < n; k++) {
		int v = seq[k];
		double fin = start[v] + g->w[v];

		done[v] = 1;
		if (g->ran[v] && (best < 0 || fin > start[best] + g->w[best]))
			best = v;
		for (i = off[v]; i < off[v + 1]; i++) {
			int x = succ[i];

			if (done[x])
				continue;
			if (fin > start[x] || (pred[x] < 0 && g->ran[v])) {
				start[x] = fin;
				pred[x] = v;
			}
		}
	}
	if (best >= 0) {
		cp->cp = start[best] + g->w[best];
		record_chain(cp, pred, best);
	}
	cp->work = work;
	cp->bound = limit > 0 && work / limit > cp->cp ? work / limit : cp->cp;
	free(off);
	free(succ);
	free(seq);
	free(pred);
	free(done);
	free(start);
	return ret;
}

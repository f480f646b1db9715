/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lower bound of a phase, shared by pm-async-report (lab cycles) and
 * pm-async-advise (a machine's log): the one place where the critical
 * path and the bound are computed.
 *
 * No scheduler finishes a phase faster than its critical path: the
 * longest chain of callbacks that must run one after the other, with
 * each callback's measured time as its node's weight.  With more work
 * than workers the worker limit dominates instead, hence
 *
 *	bound = max(critical path, work / limit)
 *
 * What an edge is (a parent, a supplier, the PM task's order) and which
 * callbacks count as work is each tool's to say; the units are the
 * caller's (report: ns, advise: us).
 */
#ifndef PM_ASYNC_CPATH_H
#define PM_ASYNC_CPATH_H

/* A phase as a graph: node i is device i, edge from -> to means "from first". */
struct cp_graph {
	int n;
	double *w;		/* node weight: its callback's time, 0 if none */
	unsigned char *ran;	/* it ran a callback in the phase */
	int *from, *to;
	int nedge, cap_from, cap_to;
};

struct cpath {
	double cp;		/* the longest chain's time */
	double work;		/* the callback time the worker limit divides */
	double bound;		/* max(cp, work / limit) */
	int *chain, nchain;	/* the chain's nodes, first to last */
};

void cp_graph_init(struct cp_graph *g, int n);	/* n nodes, no weight, no edge */
void cp_graph_edge(struct cp_graph *g, int before, int after);
void cp_graph_free(struct cp_graph *g);

int cp_solve(const struct cp_graph *g, const int *order, double work,
	     int limit, struct cpath *cp);
void cpath_free(struct cpath *cp);

#endif /* PM_ASYNC_CPATH_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-advise: which sync devices to make async.
 *
 * The saving of a device is the drop of the stock prediction (the policy of
 * the log's kernel, p->stock: 6.12 or mainline), summed
 * over the six phases, when that device alone gets power/async enabled
 * (what a user can do today).  The best set under a size limit is found
 * greedily: repeatedly add the device with the largest extra saving, stop
 * when none saves at least min_gain_us (--min-gain-ms, default 0.05 ms:
 * flipping a flag for a few microseconds is not worth the risk).  Greedy is
 * not exhaustive: two devices that only help together (a sync parent and its sync grandparent) are
 * missed; the report says so.  A device's saving alone is simulated in the
 * phases it has a callback in; the set's in all six after each pick, so
 * that what a pick changes in a phase without its callback (the PM task no
 * longer waiting there for its dependencies) is not credited to the next
 * device simulated in that phase.
 *
 * Only the sync devices on the critical path of the simulated schedule
 * are simulated (sim_out.trig: the callbacks that follow each other back
 * to back from the start of the phase to its end, and sim_out.qtrig:
 * what queued those that waited for a slot).  A device off that path
 * does not delay the phase's end, so making it async cannot bring the
 * end closer: it saves nothing and is not simulated.  Of the devices
 * on the path, those holding it longest are simulated first, at most
 * cand_max per step (default: as many as keep a step's work near
 * ADV_BUDGET device callbacks, at least ADV_MIN_CAND), so a step costs
 * O(cand_max * n log n) whatever the size of the log; struct advice says
 * when devices were left out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmadv.h"

/* device callbacks simulated per greedy step, by default */
#define ADV_BUDGET	400000
#define ADV_MIN_CAND	32

/* the simulated critical path of each phase under the current flags */
struct paths {
	unsigned char *on[NPHASES];	/* on the phase's critical path */
	double *hold[NPHASES];		/* how long it holds it, us */
	double *start, *end, *ready, *reach;	/* scratch for sim_out */
	int *trig, *qtrig, *stack;
};

static void paths_init(struct paths *pa, int n)
{
	int ph;

	for (ph = 0; ph < NPHASES; ph++) {
		pa->on[ph] = xcalloc((size_t)n + 1, 1);
		pa->hold[ph] = xcalloc((size_t)n + 1, sizeof(double));
	}
	pa->start = xmalloc(sizeof(double) * ((size_t)n + 1));
	pa->end = xmalloc(sizeof(double) * ((size_t)n + 1));
	pa->ready = xmalloc(sizeof(double) * ((size_t)n + 1));
	pa->reach = xmalloc(sizeof(double) * ((size_t)n + 1));
	pa->trig = xmalloc(sizeof(int) * ((size_t)n + 1));
	pa->qtrig = xmalloc(sizeof(int) * ((size_t)n + 1));
	pa->stack = xmalloc(sizeof(int) * ((size_t)n + 1));
}

static void paths_free(struct paths *pa)
{
	int ph;

	for (ph = 0; ph < NPHASES; ph++) {
		free(pa->on[ph]);
		free(pa->hold[ph]);
	}
	free(pa->start);
	free(pa->end);
	free(pa->ready);
	free(pa->reach);
	free(pa->trig);
	free(pa->qtrig);
	free(pa->stack);
}

/**
 * trace_phase() - simulate one phase and mark its critical path
 * @g: the graph
 * @ph: the phase
 * @p: parameters (p->stock is the policy)
 * @flags: async flags, one per device
 * @pa: gets the path of @ph in ->on[ph] and ->hold[ph]
 *
 * The path runs from the device that ends last back through trig[] to a
 * device started at time 0, and through qtrig[] to what queued a device
 * that waited for a slot (its place in the queue set when it got one).
 * A device's hold estimates how much earlier the path could go on if it
 * were async: the time it held the PM task (from when the walk reached
 * it to its end) or, if a device that waits for it follows it on the
 * path, how late it started after its dependencies were done.  It only
 * orders the devices to simulate.
 *
 * Return: the makespan, NAN if the phase never ends (no path).
 */
static double trace_phase(const struct graph *g, int ph,
			  const struct sim_params *p,
			  const unsigned char *flags, struct paths *pa)
{
	unsigned char *on = pa->on[ph];
	double *hold = pa->hold[ph], m;
	int i, last = -1, n = 0, side = phase_is_suspend(ph) ? 0 : 1;
	struct sim_out o;

	memset(&o, 0, sizeof(o));
	o.start = pa->start;
	o.end = pa->end;
	o.ready = pa->ready;
	o.reach = pa->reach;
	o.trig = pa->trig;
	o.qtrig = pa->qtrig;
	m = sim_phase(g, ph, p->stock, flags, p, &o);
	memset(on, 0, (size_t)g->n);
	if (isnan(m))
		return m;
	for (i = 0; i < g->n; i++)
		if (!isnan(pa->end[i]) &&
		    (last < 0 || pa->end[i] > pa->end[last]))
			last = i;
	if (last >= 0) {
		on[last] = 1;
		pa->stack[n++] = last;
	}
	while (n) {
		int x = pa->stack[--n], k;
		int from[2] = { pa->trig[x], pa->qtrig[x] };

		hold[x] = !isnan(pa->reach[x]) && pa->reach[x] <= pa->end[x] ?
			pa->end[x] - pa->reach[x] : 0;
		for (k = 0; k < 2; k++)
			if (from[k] >= 0 && !on[from[k]]) {
				on[from[k]] = 1;
				pa->stack[n++] = from[k];
			}
	}
	/* a dependency the path goes on from: how late it started */
	for (i = 0; i < g->n; i++) {
		int t = pa->trig[i], k;

		if (!on[i] || t < 0)
			continue;
		for (k = g->dep_off[side][i]; k < g->dep_off[side][i + 1]; k++)
			if (g->dep_idx[side][k] == t &&
			    pa->start[t] - pa->ready[t] > hold[t])
				hold[t] = pa->start[t] - pa->ready[t];
	}
	return m;
}

/* on a critical path in a phase where it has a callback; *hold summed */
static int on_path(const struct graph *g, const struct paths *pa, int dev,
		   double *hold)
{
	int ph, on = 0;

	*hold = 0;
	for (ph = 0; ph < NPHASES; ph++)
		if (g->d[dev].has_cb[ph] && pa->on[ph][dev]) {
			on = 1;
			*hold += pa->hold[ph][dev];
		}
	return on;
}

static double stock_total(const struct graph *g, const struct sim_params *p,
			  const unsigned char *flags, int dev,
			  const double *base, double *per_ph)
{
	double tot = 0;
	int ph;

	for (ph = 0; ph < NPHASES; ph++) {
		double t = base[ph];

		if (g->has_phase[ph] && (dev < 0 || g->d[dev].has_cb[ph]))
			t = sim_phase(g, ph, p->stock, flags, p, NULL);
		if (isnan(t))
			t = base[ph];
		if (per_ph)
			per_ph[ph] = t;
		tot += t;
	}
	return tot;
}

static const struct graph *sort_g;

static int cmp_item(const void *a, const void *b)
{
	const struct advice_item *x = a, *y = b;

	if (x->saving_us != y->saving_us)
		return x->saving_us > y->saving_us ? -1 : 1;
	return strcmp(sort_g->d[x->dev].name, sort_g->d[y->dev].name);
}

struct cand {
	int item;
	double hold;
};

/* longest hold first, then in item order */
static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->hold != y->hold)
		return x->hold > y->hold ? -1 : 1;
	return x->item - y->item;
}

static int candidate(const struct dev *d)
{
	int ph;

	if (d->async || d->placeholder)
		return 0;
	for (ph = 0; ph < NPHASES; ph++)
		if (d->has_cb[ph])
			return 1;
	return 0;
}

/**
 * advice_cand_max() - how many devices a ranking step simulates
 * @g: the graph
 * @cand_max: --candidates, 0 for the default
 *
 * Return: @cand_max, or by default ADV_BUDGET device callbacks' worth
 * (ADV_BUDGET / devices, at least ADV_MIN_CAND).
 */
int advice_cand_max(const struct graph *g, int cand_max)
{
	int k;

	if (cand_max > 0)
		return cand_max;
	k = g->n > 0 ? ADV_BUDGET / g->n : ADV_BUDGET;
	return k > ADV_MIN_CAND ? k : ADV_MIN_CAND;
}

/**
 * rank_singles() - the saving of each sync device made async alone
 * @g: the graph
 * @p: parameters
 * @flags: the async flags of the log
 * @pa: the critical paths under @flags
 * @t_ph: gets, per item, the phase times with that device async
 * @a: the advice: ->items filled in (unsorted), ->on_path, ->simulated
 */
static void rank_singles(const struct graph *g, const struct sim_params *p,
			 unsigned char *flags, const struct paths *pa,
			 double *t_ph, struct advice *a)
{
	struct cand *c = xmalloc(sizeof(*c) * ((size_t)a->nitems + 1));
	int k, nc = 0, ph;

	for (k = 0; k < a->nitems; k++) {
		a->items[k].on_path = on_path(g, pa, a->items[k].dev,
					      &c[nc].hold);
		if (a->items[k].on_path)
			c[nc++].item = k;
		for (ph = 0; ph < NPHASES; ph++)
			t_ph[k * NPHASES + ph] = a->base_us[ph];
	}
	qsort(c, (size_t)nc, sizeof(*c), cmp_cand);
	a->on_path = nc;
	a->simulated = nc < a->cand_max ? nc : a->cand_max;
	for (k = 0; k < a->simulated; k++) {
		struct advice_item *it = &a->items[c[k].item];
		double *t = &t_ph[c[k].item * NPHASES];

		it->simulated = 1;
		flags[it->dev] = 1;
		stock_total(g, p, flags, it->dev, a->base_us, t);
		flags[it->dev] = 0;
		for (ph = 0; ph < NPHASES; ph++) {
			it->ph_saving_us[ph] = a->base_us[ph] - t[ph];
			it->saving_us += it->ph_saving_us[ph];
			it->side_saving_us[!phase_is_suspend(ph)] +=
				it->ph_saving_us[ph];
		}
	}
	free(c);
}

void advice_compute(const struct graph *g, const struct sim_params *p,
		    int max, double min_gain_us, int cand_max,
		    struct advice *a)
{
	unsigned char *flags = xcalloc((size_t)g->n + 1, 1);
	unsigned char *chosen = xcalloc((size_t)g->n + 1, 1);
	double cur[NPHASES], cur_tot, base_tot, *t_ph, *tsort;
	struct advice_item *orig;
	struct paths pa;
	int i, ph, step, *pos;

	memset(a, 0, sizeof(*a));
	a->max = max;
	a->min_gain_us = min_gain_us;
	a->cand_max = advice_cand_max(g, cand_max);
	paths_init(&pa, g->n);
	for (i = 0; i < g->n; i++)
		flags[i] = (unsigned char)(g->d[i].async ? 1 : 0);
	for (ph = 0; ph < NPHASES; ph++) {
		a->base_us[ph] = g->has_phase[ph] ?
			trace_phase(g, ph, p, flags, &pa) : 0;
		if (isnan(a->base_us[ph]))
			a->base_us[ph] = 0;
	}

	a->items = xcalloc((size_t)g->n + 1, sizeof(*a->items));
	for (i = 0; i < g->n; i++)
		if (candidate(&g->d[i]))
			a->items[a->nitems++].dev = i;
	t_ph = xmalloc(sizeof(double) * NPHASES * ((size_t)a->nitems + 1));
	rank_singles(g, p, flags, &pa, t_ph, a);
	/* sort the items, their phase times with them */
	orig = xmalloc(sizeof(*orig) * ((size_t)a->nitems + 1));
	memcpy(orig, a->items, sizeof(*orig) * (size_t)a->nitems);
	sort_g = g;
	qsort(a->items, (size_t)a->nitems, sizeof(*a->items), cmp_item);
	pos = xmalloc(sizeof(int) * ((size_t)g->n + 1));
	for (i = 0; i < a->nitems; i++)
		pos[orig[i].dev] = i;
	tsort = xmalloc(sizeof(double) * NPHASES * ((size_t)a->nitems + 1));
	for (i = 0; i < a->nitems; i++)
		memcpy(&tsort[i * NPHASES],
		       &t_ph[pos[a->items[i].dev] * NPHASES],
		       sizeof(double) * NPHASES);
	free(t_ph);
	free(orig);
	free(pos);

	/* greedy set */
	a->best = xmalloc(sizeof(int) * (size_t)(max > 0 ? max : 1));
	a->best_cum_us = xmalloc(sizeof(double) * (size_t)(max > 0 ? max : 1));
	memcpy(cur, a->base_us, sizeof(cur));
	base_tot = 0;
	for (ph = 0; ph < NPHASES; ph++)
		base_tot += cur[ph];
	cur_tot = base_tot;
	for (step = 0; step < max; step++) {
		int k, bi = -1, nsim = 0;
		double bt = cur_tot, tph[NPHASES], bph[NPHASES], hold;

		for (k = 0; k < a->nitems && nsim < a->cand_max; k++) {
			int d = a->items[k].dev;
			double t = 0;

			if (chosen[d])
				continue;
			if (!step) {
				/* alone: rank_singles() simulated it already */
				if (!a->items[k].simulated)
					continue;
				memcpy(tph, &tsort[k * NPHASES], sizeof(tph));
				for (ph = 0; ph < NPHASES; ph++)
					t += tph[ph];
			} else {
				if (!on_path(g, &pa, d, &hold))
					continue;
				flags[d] = 1;
				t = stock_total(g, p, flags, d, cur, tph);
				flags[d] = 0;
			}
			nsim++;
			if (t < bt - min_gain_us) {
				bt = t;
				bi = d;
				memcpy(bph, tph, sizeof(bph));
			}
		}
		if (bi < 0)
			break;
		chosen[bi] = 1;
		flags[bi] = 1;
		memcpy(cur, bph, sizeof(cur));
		/*
		 * The pick also changes the phases it has no callback in
		 * (it no longer holds the PM task there while it waits for
		 * its dependencies): the set's times and paths from now on.
		 */
		cur_tot = 0;
		for (ph = 0; ph < NPHASES; ph++) {
			if (g->has_phase[ph]) {
				double t = trace_phase(g, ph, p, flags, &pa);

				if (!isnan(t))
					cur[ph] = t;
			}
			cur_tot += cur[ph];
		}
		a->best[a->nbest] = bi;
		a->best_cum_us[a->nbest] = base_tot - cur_tot;
		a->nbest++;
	}
	a->best_saving_us = base_tot - cur_tot;
	free(tsort);
	paths_free(&pa);
	free(flags);
	free(chosen);
}

void advice_free(struct advice *a)
{
	free(a->items);
	free(a->best);
	free(a->best_cum_us);
	memset(a, 0, sizeof(*a));
}

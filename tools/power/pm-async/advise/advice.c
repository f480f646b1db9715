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
 * missed; the report says so.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmadv.h"

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

void advice_compute(const struct graph *g, const struct sim_params *p,
		    int max, double min_gain_us, struct advice *a)
{
	unsigned char *flags = xcalloc((size_t)g->n + 1, 1);
	unsigned char *chosen = xcalloc((size_t)g->n + 1, 1);
	double cur[NPHASES], cur_tot, base_tot;
	int i, ph, step;

	memset(a, 0, sizeof(*a));
	a->max = max;
	a->min_gain_us = min_gain_us;
	for (i = 0; i < g->n; i++)
		flags[i] = (unsigned char)(g->d[i].async ? 1 : 0);
	for (ph = 0; ph < NPHASES; ph++)
		a->base_us[ph] = g->has_phase[ph] ?
			sim_phase(g, ph, p->stock, flags, p, NULL) : 0;
	for (ph = 0; ph < NPHASES; ph++)
		if (isnan(a->base_us[ph]))
			a->base_us[ph] = 0;

	a->items = xcalloc((size_t)g->n + 1, sizeof(*a->items));
	for (i = 0; i < g->n; i++) {
		struct advice_item *it;
		double t[NPHASES];

		if (!candidate(&g->d[i]))
			continue;
		it = &a->items[a->nitems++];
		it->dev = i;
		flags[i] = 1;
		stock_total(g, p, flags, i, a->base_us, t);
		flags[i] = 0;
		for (ph = 0; ph < NPHASES; ph++) {
			it->ph_saving_us[ph] = a->base_us[ph] - t[ph];
			it->saving_us += it->ph_saving_us[ph];
		}
	}
	sort_g = g;
	qsort(a->items, (size_t)a->nitems, sizeof(*a->items), cmp_item);

	/* greedy set */
	a->best = xmalloc(sizeof(int) * (size_t)(max > 0 ? max : 1));
	a->best_cum_us = xmalloc(sizeof(double) * (size_t)(max > 0 ? max : 1));
	memcpy(cur, a->base_us, sizeof(cur));
	base_tot = 0;
	cur_tot = 0;
	for (ph = 0; ph < NPHASES; ph++)
		base_tot += cur[ph];
	cur_tot = base_tot;
	for (step = 0; step < max; step++) {
		int k, bi = -1;
		double bt = cur_tot, tph[NPHASES], bph[NPHASES];

		for (k = 0; k < a->nitems; k++) {
			int d = a->items[k].dev;
			double t;

			if (chosen[d])
				continue;
			flags[d] = 1;
			t = stock_total(g, p, flags, d, cur, tph);
			flags[d] = 0;
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
		cur_tot = bt;
		a->best[a->nbest] = bi;
		a->best_cum_us[a->nbest] = base_tot - cur_tot;
		a->nbest++;
	}
	a->best_saving_us = base_tot - cur_tot;
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

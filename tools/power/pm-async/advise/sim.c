// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-advise: discrete-event model of one device phase.
 *
 * Simulated time starts at 0 when the phase starts.  Every device of the
 * list takes part in every phase, as in the kernel: with a callback it runs
 * for (measured duration + overhead), without one for 0 us, but a sync one
 * still holds the PM task while it waits for its dependencies and an async
 * one still takes a worker slot.  Devices seen only as parents (sync/async
 * unknown, not in the log's walk) complete the moment their dependencies
 * do.  Dependencies: suspend side, a device waits for its children and
 * consumers; resume side, for its parent and suppliers.
 *
 * Device links flagged SYNC_STATE_ONLY or dormant are not waited on (the
 * graph leaves them out of the dependency lists).
 *
 * POL_SYNC     every device in the PM task, in walk order, one at a time.
 * POL_612      Linux 6.12 (drivers/base/power/main.c), and the kernels
 *              before it back to 3.15 at least, which queued the same way:
 *              suspend: the PM task walks the list; an async device is
 *              queued as work (it takes one of `limit` slots as soon as one
 *              is free and sleeps in it until its children/consumers are
 *              done); a sync device is run by the PM task itself after
 *              waiting for its children/consumers.
 *              resume: all async devices are queued upfront in list order
 *              (same slots, sleeping until parent/suppliers are done), then
 *              the PM task walks the list running the sync ones.
 * POL_MAINLINE mainline since 6.16 (the 7.3 base's main.c: dpm_suspend(),
 *              dpm_leaf_device(), dpm_async_suspend_superior(), dpm_resume(),
 *              dpm_root_device(), dpm_async_resume_subordinate()):
 *              suspend: async leaf devices (no children, no consumer links
 *              of any kind) are started upfront; a finished device, sync
 *              or async, starts its parent and its suppliers over links
 *              that are not dormant (SYNC_STATE_ONLY ones included), if
 *              they are async and not started yet; a started device takes
 *              a slot and sleeps in it until all its children/consumers are
 *              done, so it starts on its FIRST finished dependent.  The PM
 *              task walks the list: a started device is skipped, an async
 *              one not started yet is started then (and sleeps in its slot
 *              if it must), a sync one is run by the PM task itself after
 *              waiting for its children/consumers.
 *              resume: the same with roots (no parent, no supplier links)
 *              upfront, and a finished device starting its children and
 *              consumers.  Devices seen only as parents complete when their
 *              dependencies do and start the next ones like any other.
 * POL_PMASYNC  each device starts the moment its dependencies are done:
 *              async ones take a free slot only then (ready order, ties in
 *              walk order); sync ones run in the PM task in walk order as
 *              soon as their own dependencies are done.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmadv.h"

const char *const policy_key[NPOLICIES] = {
	"sync", "6.12", "mainline", "pm-async"
};

const char *const policy_name[NPOLICIES] = {
	"sync", "Linux 6.12", "mainline (since 6.16)", "pm-async"
};

/*
 * Mainline's policy arrived in 6.16 (0cbef962ce1f, aa7a9275ab81,
 * 443046d1ad66); before, every kernel back to 3.15 queued async work in
 * list order with workers sleeping on completions, as 6.12 does.
 */
enum policy policy_of_release(const char *release, const char **why)
{
	static char buf[160];
	long major, minor;

	if (!release_version(release, &major, &minor)) {
		if (why)
			*why = "no kernel version found for the log: assuming mainline";
		return POL_MAINLINE;
	}
	if (major > 6 || (major == 6 && minor >= 16)) {
		snprintf(buf, sizeof(buf), "kernel %ld.%ld >= 6.16: mainline policy", major, minor);
		if (why)
			*why = buf;
		return POL_MAINLINE;
	}
	snprintf(buf, sizeof(buf),
		 "kernel %ld.%ld < 6.16: queued in list order like 6.12",
		 major, minor);
	if (why)
		*why = buf;
	return POL_612;
}

/* ---------------------------------------------------------- heaps */

struct ev {
	double t, k2;
	long seq;
	int node;
};

struct eheap {
	struct ev *e;
	int n, cap;
	long seq;
};

static int ev_less(const struct ev *a, const struct ev *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->k2 != b->k2)
		return a->k2 < b->k2;
	return a->seq < b->seq;
}

static void eh_push(struct eheap *h, double t, double k2, int node)
{
	int i;

	GROW(h->e, h->n, h->cap);
	i = h->n++;
	h->e[i].t = t;
	h->e[i].k2 = k2;
	h->e[i].seq = h->seq++;
	h->e[i].node = node;
	while (i && ev_less(&h->e[i], &h->e[(i - 1) / 2])) {
		struct ev tmp = h->e[i];

		h->e[i] = h->e[(i - 1) / 2];
		h->e[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
}

static struct ev eh_pop(struct eheap *h)
{
	struct ev r = h->e[0];
	int i = 0;

	h->e[0] = h->e[--h->n];
	for (;;) {
		int l = 2 * i + 1, s = i;

		if (l < h->n && ev_less(&h->e[l], &h->e[s]))
			s = l;
		if (l + 1 < h->n && ev_less(&h->e[l + 1], &h->e[s]))
			s = l + 1;
		if (s == i)
			break;
		{
			struct ev tmp = h->e[i];

			h->e[i] = h->e[s];
			h->e[s] = tmp;
		}
		i = s;
	}
	return r;
}

/* ---------------------------------------------------------- state */

struct sim {
	const struct graph *g;
	int ph, side;
	enum policy pol;
	const unsigned char *async;
	const struct sim_params *p;
	int *left, *pos, *walk, nwalk, widx;
	double *ready, *startt, *endt;
	unsigned char *done, *in_slot, *on_pm, *started;
	int free_slots;
	int *fifo, fhead, ftail;	/* stock: works waiting for a slot */
	struct eheap events;		/* callback completions */
	struct eheap readyq;		/* pm-async: ready async devices */
	int pm_busy, pm_blocked;
	int *stack, nstack;
	int cur;			/* the device whose end is handled */
	int *trig, *qtrig;		/* optional, see struct sim_out */
	double *reach;			/* optional, see struct sim_out */
};

/* takes part in the walk (everything but parent-only placeholders) */
static int is_cb(const struct sim *s, int i)
{
	return !s->g->d[i].placeholder;
}

static int queues(const struct sim *s)	/* works wait in slots */
{
	return s->pol == POL_612 || s->pol == POL_MAINLINE;
}

static int is_async(const struct sim *s, int i)
{
	if (s->pol == POL_SYNC)
		return 0;
	return s->async ? s->async[i] : s->g->d[i].async;
}

static void start_run(struct sim *s, int i, double t, int on_pm)
{
	const struct dev *d = &s->g->d[i];

	s->startt[i] = t;
	if (s->trig)
		s->trig[i] = s->cur;
	s->on_pm[i] = (unsigned char)on_pm;
	eh_push(&s->events, t + (d->has_cb[s->ph] ?
				 d->dur[s->ph] + s->p->overhead_us : 0), 0, i);
	if (on_pm)
		s->pm_busy = 1;
}

/* pm-async: start ready async devices on free slots at time now */
static void dispatch_ready(struct sim *s, double now)
{
	while (s->free_slots > 0 && s->readyq.n) {
		struct ev e = eh_pop(&s->readyq);

		s->free_slots--;
		start_run(s, e.node, e.t > now ? e.t : now, 0);
	}
}

/* device i's dependencies are all done at time t */
static void became_ready(struct sim *s, int i, double t)
{
	if (!is_cb(s, i)) {
		s->stack[s->nstack++] = i;	/* completes now */
		return;
	}
	if (queues(s) && s->in_slot[i])
		start_run(s, i, t, 0);
	else if (s->pol == POL_PMASYNC && is_async(s, i))
		eh_push(&s->readyq, t, s->pos[i], i);
	else if (s->pm_blocked == i)
		s->pm_blocked = -1;
}

static void queue_work(struct sim *s, int i, double t);

/* mainline: dpm_async_with_cleanup(), an async device not started yet */
static void start_async(struct sim *s, int i, double t)
{
	if (i < 0 || s->started[i] || s->done[i] || !is_cb(s, i) || !is_async(s, i))
		return;
	s->started[i] = 1;
	queue_work(s, i, t);
}

/*
 * mainline: a finished device starts its parent and suppliers (suspend,
 * dpm_async_suspend_superior) or its children and consumers (resume,
 * dpm_async_resume_subordinate), over links that are not dormant.
 */
static void start_next(struct sim *s, int x, double t)
{
	const struct dev *d = &s->g->d[x];
	int k;

	if (s->side == 0) {
		start_async(s, d->parent, t);
		for (k = 0; k < d->nsup; k++)
			if (!(d->supfl[k] & LINK_DORMANT))
				start_async(s, d->sup[k], t);
	} else {
		for (k = 0; k < d->nchildren; k++)
			start_async(s, d->children[k], t);
		for (k = 0; k < d->ncon; k++)
			if (!(d->confl[k] & LINK_DORMANT))
				start_async(s, d->con[k], t);
	}
}

static void node_done(struct sim *s, int i, double t)
{
	const struct graph *g = s->g;
	int k;

	s->stack[s->nstack++] = i;
	while (s->nstack) {
		int x = s->stack[--s->nstack];

		s->done[x] = 1;
		s->endt[x] = t;
		if (!is_cb(s, x)) {	/* a placeholder: with what ended */
			s->startt[x] = t;
			if (s->trig)
				s->trig[x] = s->cur;
		}
		if (s->pol == POL_MAINLINE)
			start_next(s, x, t);
		for (k = g->wait_off[s->side][x]; k < g->wait_off[s->side][x + 1]; k++) {
			int w = g->wait_idx[s->side][k];

			if (t > s->ready[w])
				s->ready[w] = t;
			if (!--s->left[w])
				became_ready(s, w, t);
		}
	}
}

static void got_slot(struct sim *s, int i, double t)
{
	if (!s->left[i])
		start_run(s, i, t, 0);
	else
		s->in_slot[i] = 1;
}

static void queue_work(struct sim *s, int i, double t)
{
	if (s->free_slots > 0) {
		s->free_slots--;
		got_slot(s, i, t);
	} else {
		s->fifo[s->ftail++] = i;
		if (s->qtrig)
			s->qtrig[i] = s->cur;
	}
}

static void pm_advance(struct sim *s, double t)
{
	while (!s->pm_busy && s->pm_blocked < 0 && s->widx < s->nwalk) {
		int i = s->walk[s->widx];

		if (s->reach && isnan(s->reach[i]))
			s->reach[i] = t;
		if (s->pol == POL_MAINLINE && (s->started[i] || s->done[i])) {
			s->widx++;	/* dpm_async_fn(): started already */
			continue;
		}
		if (is_async(s, i)) {
			if (s->pol == POL_612 && s->side == 0)
				queue_work(s, i, t);
			else if (s->pol == POL_MAINLINE)
				start_async(s, i, t);
			s->widx++;
			continue;
		}
		if (s->left[i]) {
			s->pm_blocked = i;
			return;
		}
		s->widx++;
		start_run(s, i, t, 1);
	}
}

/**
 * sim_stuck() - why a simulated phase did not end
 * @s: the simulation, its event queue empty with devices not done
 * @out: gets in ->stuck a device that waits for ever and in ->stuck_on
 *	 one of its dependencies that is not done
 *
 * With slots (6.12, mainline) a started device sleeps in its slot until
 * its dependencies are done.  Mainline starts a parent on its first
 * finished child, so a parent can take the last free slot while another
 * child is still queued behind it: once every slot is held that way, no
 * queued device ever runs.  The device reported is the first in walk
 * order that holds a slot (else the one the PM task waits for, else any
 * device not done).
 */
static void sim_stuck(const struct sim *s, struct sim_out *out)
{
	const struct graph *g = s->g;
	int k, i, w = -1;

	for (k = 0; k < s->nwalk && w < 0; k++)
		if (s->in_slot[s->walk[k]] && !s->done[s->walk[k]])
			w = s->walk[k];
	if (w < 0 && s->pm_blocked >= 0)
		w = s->pm_blocked;
	for (i = 0; i < g->n && w < 0; i++)
		if (!s->done[i])
			w = i;
	out->stuck = w;
	out->stuck_slots = s->free_slots;
	if (w < 0)		/* not called then */
		return;
	out->stuck_in_slot = s->in_slot[w];
	for (k = g->dep_off[s->side][w]; k < g->dep_off[s->side][w + 1]; k++)
		if (!s->done[g->dep_idx[s->side][k]]) {
			out->stuck_on = g->dep_idx[s->side][k];
			break;
		}
}

double sim_phase(const struct graph *g, int ph, enum policy pol,
		 const unsigned char *async, const struct sim_params *p,
		 struct sim_out *out)
{
	struct sim s;
	int i, n = g->n, ndone;
	double makespan = 0;

	memset(&s, 0, sizeof(s));
	s.g = g;
	s.ph = ph;
	s.side = phase_is_suspend(ph) ? 0 : 1;
	s.pol = pol;
	s.async = async;
	s.p = p;
	s.left = xcalloc((size_t)n + 1, sizeof(int));
	s.pos = xcalloc((size_t)n + 1, sizeof(int));
	s.walk = xmalloc(sizeof(int) * (size_t)(n + 1));
	s.fifo = xmalloc(sizeof(int) * (size_t)(n + 1));
	s.stack = xmalloc(sizeof(int) * (size_t)(n + 1));
	s.ready = xcalloc((size_t)n + 1, sizeof(double));
	s.startt = xmalloc(sizeof(double) * (size_t)(n + 1));
	s.endt = xmalloc(sizeof(double) * (size_t)(n + 1));
	s.done = xcalloc((size_t)n + 1, 1);
	s.in_slot = xcalloc((size_t)n + 1, 1);
	s.on_pm = xcalloc((size_t)n + 1, 1);
	s.started = xcalloc((size_t)n + 1, 1);
	s.free_slots = p->limit > 0 ? p->limit : 1;
	s.pm_blocked = -1;
	s.cur = -1;
	s.trig = out ? out->trig : NULL;
	s.qtrig = out ? out->qtrig : NULL;
	s.reach = out ? out->reach : NULL;

	for (i = 0; i < n; i++) {
		s.left[i] = g->dep_off[s.side][i + 1] - g->dep_off[s.side][i];
		s.startt[i] = NAN;
		s.endt[i] = NAN;
		if (s.trig)
			s.trig[i] = -1;
		if (s.qtrig)
			s.qtrig[i] = -1;
		if (s.reach)
			s.reach[i] = NAN;
	}
	for (i = 0; i < n; i++) {
		int x = g->topo[ph][i];

		if (is_cb(&s, x)) {
			s.pos[x] = s.nwalk;
			s.walk[s.nwalk++] = x;
		}
	}
	/* devices without dependencies */
	for (i = 0; i < n; i++) {
		int x = g->topo[ph][i];

		/* initial dependency count: propagation below changes left[] */
		if (g->dep_off[s.side][x + 1] != g->dep_off[s.side][x])
			continue;
		if (!is_cb(&s, x))
			node_done(&s, x, 0);
		else if (pol == POL_PMASYNC && is_async(&s, x))
			eh_push(&s.readyq, 0, s.pos[x], x);
	}
	if (pol == POL_612 && s.side == 1)	/* async resumes upfront */
		for (i = 0; i < s.nwalk; i++)
			if (is_async(&s, s.walk[i]))
				queue_work(&s, s.walk[i], 0);
	if (pol == POL_MAINLINE)	/* async leaves (suspend), roots (resume) */
		for (i = 0; i < s.nwalk; i++) {
			const struct dev *d = &g->d[s.walk[i]];

			if (s.side == 0 ? !d->nchildren && !d->ncon
					: d->parent < 0 && !d->nsup)
				start_async(&s, s.walk[i], 0);
		}
	if (pol == POL_PMASYNC)
		dispatch_ready(&s, 0);
	pm_advance(&s, 0);

	while (s.events.n) {
		struct ev e = eh_pop(&s.events);
		int x = e.node;

		s.cur = x;
		node_done(&s, x, e.t);
		if (s.on_pm[x]) {
			s.pm_busy = 0;
		} else {
			s.free_slots++;
			if (queues(&s) && s.fhead < s.ftail) {
				s.free_slots--;
				got_slot(&s, s.fifo[s.fhead++], e.t);
			}
		}
		if (pol == POL_PMASYNC)
			dispatch_ready(&s, e.t);
		pm_advance(&s, e.t);
	}

	ndone = 0;
	for (i = 0; i < n; i++) {
		if (s.done[i]) {
			ndone++;
			if (s.endt[i] > makespan)
				makespan = s.endt[i];
		}
	}
	if (ndone < n)
		makespan = NAN;	/* never ends: see sim_stuck() */
	if (out) {
		out->makespan_us = makespan;
		out->stuck = -1;
		out->stuck_on = -1;
		out->stuck_in_slot = 0;
		if (ndone < n)
			sim_stuck(&s, out);
		if (out->start)
			memcpy(out->start, s.startt, sizeof(double) * (size_t)n);
		if (out->end)
			memcpy(out->end, s.endt, sizeof(double) * (size_t)n);
		if (out->ready)
			memcpy(out->ready, s.ready, sizeof(double) * (size_t)n);
	}
	free(s.left);
	free(s.pos);
	free(s.walk);
	free(s.fifo);
	free(s.stack);
	free(s.ready);
	free(s.startt);
	free(s.endt);
	free(s.done);
	free(s.in_slot);
	free(s.on_pm);
	free(s.started);
	free(s.events.e);
	free(s.readyq.e);
	return makespan;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-advise: the device graph rebuilt from callback records.
 *
 * Identity: a device is its full path where the log prints one, else
 * (name, driver string, parent name).  The old log format prints no
 * driver, and some names exist twice (an ACPI device and the platform/PNP
 * device of the same name under different parents), so the parent is part
 * of the identity.  Parent references carry only a name.  If the log
 * prints the child's full path ("input: NAME as /devices/..."), the parent
 * is the device at the path above it, or a new placeholder there of the
 * class the path names (the ALSA card0 has no callback, the DRM card0 has
 * one); else, if several devices have the name, the first one in log order
 * is used, a note says so and the phases of the child are marked
 * uncertain.  Devices seen only as parents are "placeholders": no
 * callbacks, zero durations, and in the simulation they complete as soon
 * as their own dependencies do (they never hold the PM task or a slot).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lineread.h"
#include "pmadv.h"

void graph_init(struct graph *g)
{
	memset(g, 0, sizeof(*g));
	strmap_init(&g->byname);
	strmap_init(&g->bykey);
	g->pm_pid = -1;
	g->scale = 1.0;
	g->topo_ok = 1;
}

void graph_free(struct graph *g)
{
	int i, s;

	for (i = 0; i < g->n; i++) {
		struct dev *d = &g->d[i];

		free(d->name);
		free(d->driver);
		free(d->parent_name);
		free(d->path);
		free(d->children);
		free(d->sup);
		free(d->con);
		free(d->supfl);
		free(d->confl);
	}
	free(g->d);
	for (i = 0; i < NPHASES; i++)
		free(g->topo[i]);
	free(g->listpos);
	for (s = 0; s < 2; s++) {
		free(g->dep_off[s]);
		free(g->dep_idx[s]);
		free(g->wait_off[s]);
		free(g->wait_idx[s]);
	}
	for (i = 0; i < g->nnotes; i++)
		free(g->notes[i].text);
	free(g->notes);
	strmap_free(&g->byname);
	strmap_free(&g->bykey);
	memset(g, 0, sizeof(*g));
}

void graph_note(struct graph *g, int line, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	GROW(g->notes, g->nnotes, g->capnotes);
	g->notes[g->nnotes].line = line;
	g->notes[g->nnotes].text = xstrdup(buf);
	g->nnotes++;
}

/*
 * "NAME\x1f" then "-" or "PPARENT" (no parent or its name): the key of
 * g->bykey, in @buf if it fits (@n bytes), else allocated (free it if it
 * is not @buf)
 */
static char *dev_key(const char *name, const char *parent, char *buf,
		     size_t n)
{
	size_t ln = strlen(name), lp = parent ? strlen(parent) : 0;
	char *k = ln + lp + 3 <= n ? buf : xmalloc(ln + lp + 3);

	memcpy(k, name, ln);
	k[ln] = '\x1f';
	k[ln + 1] = parent ? 'P' : '-';
	memcpy(k + ln + 2, parent ? parent : "", lp);
	k[ln + 2 + lp] = 0;
	return k;
}

int graph_add_dev(struct graph *g, const char *name, const char *driver,
		  const char *parent_name)
{
	struct dev *d;
	int i, ph, first;
	char buf[256], *key;

	GROW(g->d, g->n, g->cap);
	i = g->n++;
	d = &g->d[i];
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	d->driver = xstrdup(driver ? driver : "");
	d->parent_name = parent_name ? xstrdup(parent_name) : NULL;
	d->parent = -1;
	d->async = 1;
	d->next_same_name = -1;
	d->next_same_key = -1;
	d->last_same_name = i;
	d->last_same_key = i;
	d->same_count = 1;
	for (ph = 0; ph < NPHASES; ph++) {
		d->order[ph] = -1;
		d->pid[ph] = -1;
	}
	/* chains in log order, appended at their last (no walk) */
	first = strmap_get(&g->byname, name, -1);
	if (first < 0) {
		strmap_set(&g->byname, name, i);
	} else {
		g->d[g->d[first].last_same_name].next_same_name = i;
		g->d[first].last_same_name = i;
		g->d[first].same_count++;
	}
	key = dev_key(name, parent_name, buf, sizeof(buf));
	first = strmap_get(&g->bykey, key, -1);
	if (first < 0) {
		strmap_set(&g->bykey, key, i);
	} else {
		g->d[g->d[first].last_same_key].next_same_key = i;
		g->d[first].last_same_key = i;
	}
	if (key != buf)
		free(key);
	return i;
}

int graph_find(const struct graph *g, const char *name)
{
	return strmap_get(&g->byname, name, -1);
}

static int same_parent(const char *a, const char *b)
{
	if (!a || !b)
		return !a && !b;
	return !strcmp(a, b);
}

/*
 * find the device of a callback record; any_parent: parent not known.
 * The first in log order: a known parent looks only at the devices with
 * that name and parent name.
 */
static int lookup_rec(struct graph *g, const struct cbrec *r, int any_parent)
{
	char buf[256], *key = NULL;
	int i;

	if (any_parent) {
		i = graph_find(g, r->dev);
	} else {
		key = dev_key(r->dev, r->parent, buf, sizeof(buf));
		i = strmap_get(&g->bykey, key, -1);
		if (key != buf)
			free(key);
	}
	for (; i >= 0;
	     i = any_parent ? g->d[i].next_same_name : g->d[i].next_same_key) {
		struct dev *d = &g->d[i];

		if (d->placeholder)
			continue;
		if (*d->driver && *r->driver && strcmp(d->driver, r->driver))
			continue;
		if (!any_parent && (strcmp(d->name, r->dev) ||
				    !same_parent(d->parent_name, r->parent)))
			continue;
		if (!*d->driver && *r->driver) {
			free(d->driver);
			d->driver = xstrdup(r->driver);
		}
		return i;
	}
	return -1;
}

/* the components of a device path after its "devices/": count, in @c */
static int path_split(char *p, char **c, int max)
{
	char *d = strstr(p, "devices/"), *save = NULL, *t;
	int n = 0;

	if (d)
		p = d + 8;
	for (t = strtok_r(p, "/", &save); t && n < max; t = strtok_r(NULL, "/", &save))
		if (strcmp(t, ".") && strcmp(t, ".."))
			c[n++] = t;
	return n;
}

/* @p from its "devices/" on, for comparing paths given in two forms */
static const char *path_tail(const char *p)
{
	const char *d = strstr(p, "devices/");

	return d ? d : p;
}

/* the nearest component above c[k] naming a device of the graph, -1 */
static int path_up(const struct graph *g, char **c, int k)
{
	int j;

	for (j = k - 1; j >= 0; j--)
		if (graph_find(g, c[j]) >= 0)
			return j;
	return -1;
}

/* is @name one of c[from..k-1] (what may lie between a device and its parent) */
static int path_has(char **c, int from, int k, const char *name)
{
	int j;

	for (j = from < 0 ? 0 : from; j < k; j++)
		if (!strcmp(c[j], name))
			return 1;
	return 0;
}

#define PATH_MAX_DEPTH	64

/*
 * A device of the graph named like the last component of @path: the one
 * with that path, else those whose parent (if known) is above it in the
 * path, no higher than the nearest component that names a device (if no
 * component does, the path says nothing against any): the first of them
 * (-1: none) and in *nmatch how many there are.
 */
int graph_find_path(const struct graph *g, const char *path, int *nmatch)
{
	char *p = xstrdup(path), *c[PATH_MAX_DEPTH];
	int n = path_split(p, c, PATH_MAX_DEPTH), i, first = -1, up;

	*nmatch = 0;
	if (!n) {
		free(p);
		return -1;
	}
	up = path_up(g, c, n - 1);
	for (i = graph_find(g, c[n - 1]); i >= 0; i = g->d[i].next_same_name) {
		const struct dev *d = &g->d[i];

		if (d->path) {
			if (strcmp(path_tail(d->path), path_tail(path)))
				continue;
			*nmatch = 1;	/* the same path: that one */
			free(p);
			return i;
		}
		if (d->parent_name && up >= 0 &&
		    !path_has(c, up, n - 1, d->parent_name))
			continue;
		if (first < 0)
			first = i;
		(*nmatch)++;
	}
	free(p);
	return first;
}

/* the log's "... as /devices/PATH" lines: the devices they name get it */
static void graph_apply_paths(struct graph *g, const struct pmlog *log)
{
	int k;

	for (k = 0; k < log->npaths; k++) {
		int nm, found = graph_find_path(g, log->paths[k].path, &nm);

		if (found >= 0 && nm == 1 && !g->d[found].path)
			g->d[found].path = xstrdup(path_tail(log->paths[k].path));
	}
}

int graph_from_log(struct graph *g, const struct pmlog *log, int cycle,
		   double scale)
{
	int i, ph, counter[NPHASES] = { 0 };

	g->scale = scale;
	g->pm_pid = pmlog_pm_task(log, cycle, &g->pm_pid_phase,
				  &g->pm_pid_count, &g->pm_pid_total);
	if (g->pm_pid_count < 3)
		graph_note(g, 0,
			   "the PM task PID %d is a guess from only %d callback(s); sync/async may be wrong",
			   g->pm_pid, g->pm_pid_count);

	for (i = 0; i < log->ncb; i++) {
		const struct cbrec *r = &log->cb[i];
		int di, any = !r->line_call;
		struct dev *d;

		if (r->cycle != cycle || r->phase < 0)
			continue;
		ph = r->phase;
		di = lookup_rec(g, r, any);
		if (di < 0)
			di = graph_add_dev(g, r->dev, r->driver,
					   any ? NULL : r->parent);
		d = &g->d[di];
		if (d->has_cb[ph]) {
			graph_note(g, r->line_call ? r->line_call : r->line_ret,
				   "%s ran twice in phase %s (lines %d and %d); kept the first",
				   r->dev, phase_key[ph], d->line[ph],
				   r->line_call ? r->line_call : r->line_ret);
			continue;
		}
		d->has_cb[ph] = 1;
		d->order[ph] = counter[ph]++;
		d->pid[ph] = r->pid;
		d->err[ph] = r->err;
		d->line[ph] = r->line_call ? r->line_call : r->line_ret;
		if (isnan(r->dur_us)) {
			d->dur[ph] = 0;
			d->dur_missing[ph] = 1;
		} else {
			d->dur[ph] = r->dur_us * scale;
		}
		g->has_phase[ph] = 1;
	}
	/* sync / async: async if any callback ran outside the PM task */
	for (i = 0; i < g->n; i++) {
		struct dev *d = &g->d[i];
		int in = 0, out = 0;

		for (ph = 0; ph < NPHASES; ph++) {
			if (!d->has_cb[ph] || d->pid[ph] < 0)
				continue;
			if (d->pid[ph] == g->pm_pid)
				in++;
			else
				out++;
		}
		d->async = out > 0;
		d->mixed = in > 0 && out > 0;
		d->pid_unknown = !in && !out;
		if (d->pid_unknown)
			graph_note(g, d->line[0],
				   "%s: no calling line, so sync/async is unknown; taken as sync",
				   d->name);
	}
	graph_apply_paths(g, log);
	return graph_resolve(g);
}

/**
 * loop_breaks() - the parent edges that would close a loop
 * @g: the graph, g->d[].parent set where known
 * @tent: the parent each other device is to get (-1: none), per device
 * @drop: gets 1 for the devices whose @tent edge is refused
 *
 * Edges taken in device order, one that would close a loop refused (what
 * a walk up from the new parent at each device would find): out of each
 * loop the parents form, that is the edge of its last device in that
 * order.  O(n): each device is walked once.
 */
static void loop_breaks(const struct graph *g, const int *tent,
			unsigned char *drop)
{
	unsigned char *state = xcalloc((size_t)g->n + 1, 1);
	int *walk = xmalloc(sizeof(int) * ((size_t)g->n + 1));
	int s, x, n, k;

	for (s = 0; s < g->n; s++) {
		for (n = 0, x = s; x >= 0 && !state[x];
		     x = g->d[x].parent >= 0 ? g->d[x].parent : tent[x]) {
			state[x] = 1;	/* on this walk */
			walk[n++] = x;
		}
		if (x >= 0 && state[x] == 1) {
			int last = -1;

			/* a loop: walk[k] == x to the end; its last new edge */
			for (k = n - 1; k >= 0; k--) {
				if (g->d[walk[k]].parent < 0 && walk[k] > last)
					last = walk[k];
				if (walk[k] == x)
					break;
			}
			if (last >= 0)
				drop[last] = 1;
		}
		for (k = 0; k < n; k++)
			state[walk[k]] = 2;
	}
	free(state);
	free(walk);
}

/*
 * The parent of device @i from its path: the device at the path above it,
 * or a new placeholder there, of the class the path names between it and
 * the nearest device of the graph above (".../0000:00:1f.3/sound/card0":
 * "sound").  -1 if the path does not decide (then the parent name does).
 */
static int parent_by_path(struct graph *g, int i)
{
	char *pp = xstrdup(g->d[i].path), *p = NULL, *c[PATH_MAX_DEPTH], *slash;
	const char *cls = NULL;
	int n, nm, r = -1, up;

	slash = strrchr(pp, '/');
	if (!slash)
		goto out;
	*slash = 0;
	p = xstrdup(pp);
	n = path_split(p, c, PATH_MAX_DEPTH);
	if (!n || strcmp(c[n - 1], g->d[i].parent_name))
		goto out;
	r = graph_find_path(g, pp, &nm);
	if (nm == 1 && r != i) {
		if (!g->d[r].path)
			g->d[r].path = xstrdup(pp);
		goto out;
	}
	r = -1;
	if (nm)
		goto out;	/* two or more: the name decides, noted */
	up = path_up(g, c, n - 1);
	if (up >= 0 && up < n - 2)
		cls = c[n - 2];
	r = graph_add_dev(g, c[n - 1], cls ? cls : "", up >= 0 ? c[up] : NULL);
	g->d[r].placeholder = 1;
	g->d[r].async = 1;
	g->d[r].path = xstrdup(pp);
out:
	free(p);
	free(pp);
	return r;
}

/* phase predictions that rest on device @i (its callbacks) are uncertain */
static void mark_uncertain(struct graph *g, int i, unsigned int why)
{
	int ph;

	for (ph = 0; ph < NPHASES; ph++)
		if (g->d[i].has_cb[ph] || (g->d[i].placeholder && g->has_phase[ph]))
			g->uncertain[ph] |= why;
}

int graph_resolve(struct graph *g)
{
	int i, n0 = g->n, *tent, *amb;
	unsigned char *drop;

	tent = xmalloc(sizeof(int) * ((size_t)g->n + 1));
	amb = xcalloc((size_t)g->n + 1, sizeof(int));
	/*
	 * The parent of each device: the first other device of that name,
	 * else a placeholder.  Placeholders are added as the loop goes, so
	 * later devices find them; they have no parent name themselves.
	 */
	for (i = 0; i < g->n; i++) {
		struct dev *d = &g->d[i];
		int c, cand = -1, ncand = 0;

		if (i >= n0) {		/* a placeholder added below */
			tent = xrealloc(tent, sizeof(int) * ((size_t)g->n + 1));
			amb = xrealloc(amb, sizeof(int) * ((size_t)g->n + 1));
			amb[i] = 0;
		}
		tent[i] = -1;
		if (d->parent >= 0 || !d->parent_name)
			continue;
		if (d->path) {
			c = parent_by_path(g, i);
			if (c >= 0) {	/* a new placeholder: sized at its turn */
				g->path_parents++;
				tent[i] = c;
				continue;
			}
			d = &g->d[i];
		}
		c = graph_find(g, d->parent_name);
		if (c >= 0) {
			ncand = g->d[c].same_count;
			if (!strcmp(d->name, d->parent_name))
				ncand--;	/* itself */
			cand = c == i ? g->d[c].next_same_name : c;
		}
		if (cand < 0) {
			/* seen only as a parent */
			char *pn = xstrdup(d->parent_name);

			cand = graph_add_dev(g, pn, "", NULL);
			g->d[cand].placeholder = 1;
			g->d[cand].async = 1;
			free(pn);
		} else if (ncand > 1) {
			amb[i] = ncand;	/* devices of that name */
		}
		tent[i] = cand;
	}
	/* refuse parent loops from a malformed log */
	drop = xcalloc((size_t)g->n + 1, 1);
	loop_breaks(g, tent, drop);
	for (i = 0; i < g->n; i++) {
		struct dev *d = &g->d[i];

		if (tent[i] < 0)
			continue;
		if (amb[i]) {
			g->ambiguous_parents++;
			graph_note(g, d->line[0] ? d->line[0] : 0,
				   "parent name '%s' of %s is ambiguous (%d devices); used the first in log order",
				   d->parent_name, d->name, amb[i]);
			mark_uncertain(g, i, UNC_AMBIGUOUS);
		}
		if (drop[i]) {
			graph_note(g, 0, "parent loop at %s; parent dropped",
				   d->name);
			continue;
		}
		d->parent = tent[i];
	}
	free(tent);
	free(amb);
	free(drop);
	for (i = 0; i < g->n; i++)
		g->d[i].nchildren = 0;
	for (i = 0; i < g->n; i++) {
		int p = g->d[i].parent;

		if (p < 0)
			continue;
		GROW(g->d[p].children, g->d[p].nchildren,
		     g->d[p].capchildren);
		g->d[p].children[g->d[p].nchildren++] = i;
	}
	return 0;
}

/* does `from` (transitively) wait for `to` in suspend (children/consumers)? */
static int waits_for(const struct graph *g, int from, int to)
{
	int *stack, *seen, n = 0, r = 0, k;

	stack = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	seen = xcalloc((size_t)g->n, sizeof(int));
	stack[n++] = from;
	seen[from] = 1;
	while (n && !r) {
		int x = stack[--n];
		const struct dev *d = &g->d[x];

		if (x == to) {
			r = 1;
			break;
		}
		for (k = 0; k < d->nchildren; k++)
			if (!seen[d->children[k]]) {
				seen[d->children[k]] = 1;
				stack[n++] = d->children[k];
			}
		for (k = 0; k < d->ncon; k++)
			if (!seen[d->con[k]]) {
				seen[d->con[k]] = 1;
				stack[n++] = d->con[k];
			}
	}
	free(stack);
	free(seen);
	return r;
}

/*
 * 0 ok, 1 duplicate, -1 would create a dependency cycle.  flags: LINK_*;
 * a link with flags is not waited on (build_adj leaves it out) but still
 * makes its ends non-leaf / non-root and, unless dormant, starts the other
 * end in mainline's policy.
 */
int graph_add_link_flags(struct graph *g, int consumer, int supplier,
			 int flags)
{
	struct dev *c = &g->d[consumer], *s;
	int k;

	if (consumer == supplier)
		return -1;
	for (k = 0; k < c->nsup; k++)
		if (c->sup[k] == supplier)
			return 1;
	/* like device_link_add(): refuse if the supplier depends on the consumer */
	if (waits_for(g, consumer, supplier))
		return -1;
	GROW(c->sup, c->nsup, c->capsup);
	c->supfl = xrealloc(c->supfl, (size_t)c->capsup);
	c->supfl[c->nsup] = (unsigned char)flags;
	c->sup[c->nsup++] = supplier;
	s = &g->d[supplier];
	GROW(s->con, s->ncon, s->capcon);
	s->confl = xrealloc(s->confl, (size_t)s->capcon);
	s->confl[s->ncon] = (unsigned char)flags;
	s->con[s->ncon++] = consumer;
	g->nlinks++;
	return 0;
}

int graph_add_link(struct graph *g, int consumer, int supplier)
{
	return graph_add_link_flags(g, consumer, supplier, 0);
}

/* a flag word of a links line: LINK_* or -1 if not one */
static int link_flag_word(const char *w)
{
	if (!strcmp(w, "-") || !strcmp(w, "sync_state_only=0"))
		return 0;
	if (!strcmp(w, "sync_state_only") || !strcmp(w, "sync_state_only=1"))
		return LINK_SYNC_STATE_ONLY;
	if (!strcmp(w, "dormant") || !strcmp(w, "status=dormant"))
		return LINK_DORMANT;
	if (!strncmp(w, "status=", 7))
		return 0;
	return -1;
}

/* add the link CONS -> SUP with flags; a note if it cannot be */
/*
 * a link end: a name, or a path (sysfs link targets) that tells devices of
 * one name apart; *amb set if the end still names two or more devices
 */
static int link_end_dev(const struct graph *g, const char *end, int *amb)
{
	int i, nm;

	if (!strchr(end, '/')) {
		i = graph_find(g, end);
		*amb = i >= 0 && g->d[i].next_same_name >= 0;
		return i;
	}
	i = graph_find_path(g, end, &nm);
	*amb = nm > 1;
	return i;
}

int graph_link_by_name(struct graph *g, const char *cons, const char *sup,
		       int flags, const char *where, int quiet)
{
	int ca, sa, ci = link_end_dev(g, cons, &ca), si = link_end_dev(g, sup, &sa), r;

	if (ci < 0 || si < 0) {
		if (!quiet)
			graph_note(g, 0, "%s: %s '%s' is not in the log; link skipped",
				   where, ci < 0 ? "consumer" : "supplier",
				   ci < 0 ? cons : sup);
		return -2;
	}
	if (ca || sa) {
		graph_note(g, 0, "%s: device name is ambiguous; linked the first in log order",
			   where);
		mark_uncertain(g, ci, UNC_AMBIGUOUS);
		mark_uncertain(g, si, UNC_AMBIGUOUS);
	}
	r = graph_add_link_flags(g, ci, si, flags);
	if (r < 0)
		graph_note(g, 0, "%s: link %s -> %s would create a dependency cycle; skipped",
			   where, cons, sup);
	return r;
}

/*
 * Links file: one link per line, either "CONSUMER SUPPLIER" (separated by
 * tabs if the names contain blanks) or the name of a /sys/class/devlink
 * entry "BUS:SUPPLIER--BUS:CONSUMER", then optional flag words:
 * "sync_state_only" and "dormant" (also "sync_state_only=0|1",
 * "status=STATUS" and "-"), as pm-async-measure writes them in links.txt.
 * '#' starts a comment.
 *
 * Returns 0, -1 if the file cannot be read (err says why: also for a
 * directory) or -2 if it is not a links file: empty, or lines but none
 * of them a link or a comment.
 */
int graph_read_links(struct graph *g, const char *path, char *err,
		     size_t errlen)
{
	FILE *f = lr_open(path, err, errlen);
	struct line_reader lr;
	int lineno = 0, rc, nlink = 0, ncomment = 0;

	if (!f)
		return -1;
	g->links_given = 1;
	lr_init(&lr, f, LINE_MAX_BYTES);
	while ((rc = lr_next(&lr)) > 0) {
		char *p, *hash, *fld[8], *cons, *sup, *dd, *save = NULL, where[300];
		char *line = lr.line;
		const char *sep;
		int n = 0, k, fl, flags = 0, bad = 0;

		lineno++;
		if (rc == LR_TOO_LONG) {
			graph_note(g, lineno,
				   "%s:%d: longer than %d bytes; skipped",
				   path, lineno, LINE_MAX_BYTES);
			continue;
		}
		if (strchr(line, '#'))
			ncomment++;
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		p = trim(line);
		if (!*p)
			continue;
		/* tabs keep blanks in names */
		sep = strchr(p, '\t') ? "\t" : " \t";
		for (p = strtok_r(p, sep, &save); p && n < 8; p = strtok_r(NULL, sep, &save)) {
			p = trim(p);
			if (*p)
				fld[n++] = p;
		}
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		dd = n >= 1 ? strstr(fld[0], "--") : NULL;
		if (dd && (n == 1 || link_flag_word(fld[1]) >= 0)) {
			char *col;

			*dd = 0;
			col = strchr(fld[0], ':');
			sup = col ? col + 1 : fld[0];
			col = strchr(dd + 2, ':');
			cons = col ? col + 1 : dd + 2;
			k = 1;
		} else if (n >= 2) {
			cons = fld[0];
			sup = fld[1];
			k = 2;
		} else {
			graph_note(g, lineno, "%s: cannot parse link line; skipped", where);
			continue;
		}
		for (; k < n; k++) {
			fl = link_flag_word(fld[k]);
			if (fl < 0)
				bad = 1;
			else
				flags |= fl;
		}
		if (bad) {
			graph_note(g, lineno, "%s: unknown link flag; link skipped", where);
			continue;
		}
		nlink++;
		graph_link_by_name(g, cons, sup, flags, where, 0);
	}
	lr_free(&lr);
	if (rc == LR_ERROR) {
		snprintf(err, errlen, "%s: read error after line %d", path,
			 lineno);
		if (f != stdin)
			fclose(f);
		return -1;
	}
	if (f != stdin)
		fclose(f);
	if (!lineno) {
		snprintf(err, errlen, "%s: empty: not a links file", path);
		return -2;
	}
	if (!nlink && !ncomment) {
		snprintf(err, errlen,
			 "%s: not a links file: none of its %d lines is a link ('CONSUMER SUPPLIER [sync_state_only] [dormant]' or 'bus:SUPPLIER--bus:CONSUMER') or a comment",
			 path, lineno);
		return -2;
	}
	return 0;
}

/* ---------------------------------------------------------- adjacency */

static void build_adj(struct graph *g)
{
	int s, i, k;

	for (s = 0; s < 2; s++) {
		int *dc = xcalloc((size_t)g->n + 1, sizeof(int));
		int *wc = xcalloc((size_t)g->n + 1, sizeof(int));
		int *dpos, *wpos;

		free(g->dep_off[s]);
		free(g->dep_idx[s]);
		free(g->wait_off[s]);
		free(g->wait_idx[s]);
		/* count: edge "x waits for y" */
		for (i = 0; i < g->n; i++) {
			const struct dev *d = &g->d[i];

			for (k = -1; k < d->nsup; k++) {
				int sup = k < 0 ? d->parent : d->sup[k];

				if (sup < 0 || (k >= 0 && d->supfl[k]))
					continue;	/* not waited on */
				/* resume: i waits for sup; suspend: sup waits for i */
				if (s == 1) {
					dc[i]++;
					wc[sup]++;
				} else {
					dc[sup]++;
					wc[i]++;
				}
			}
		}
		g->dep_off[s] = xcalloc((size_t)g->n + 1, sizeof(int));
		g->wait_off[s] = xcalloc((size_t)g->n + 1, sizeof(int));
		for (i = 0; i < g->n; i++) {
			g->dep_off[s][i + 1] = g->dep_off[s][i] + dc[i];
			g->wait_off[s][i + 1] = g->wait_off[s][i] + wc[i];
		}
		g->dep_idx[s] = xmalloc(sizeof(int) * (size_t)(g->dep_off[s][g->n] + 1));
		g->wait_idx[s] = xmalloc(sizeof(int) * (size_t)(g->wait_off[s][g->n] + 1));
		dpos = dc;
		wpos = wc;
		for (i = 0; i < g->n; i++) {
			dpos[i] = g->dep_off[s][i];
			wpos[i] = g->wait_off[s][i];
		}
		for (i = 0; i < g->n; i++) {
			const struct dev *d = &g->d[i];

			for (k = -1; k < d->nsup; k++) {
				int sup = k < 0 ? d->parent : d->sup[k];

				if (sup < 0 || (k >= 0 && d->supfl[k]))
					continue;
				if (s == 1) {
					g->dep_idx[s][dpos[i]++] = sup;
					g->wait_idx[s][wpos[sup]++] = i;
				} else {
					g->dep_idx[s][dpos[sup]++] = i;
					g->wait_idx[s][wpos[i]++] = sup;
				}
			}
		}
		free(dc);
		free(wc);
	}
}

/* ---------------------------------------------------------- walk order */

struct iheap {
	int *k1, *k2, *v, n;
};

static int ih_less(const struct iheap *h, int a, int b)
{
	if (h->k1[a] != h->k1[b])
		return h->k1[a] < h->k1[b];
	return h->k2[a] < h->k2[b];
}

static void ih_swap(struct iheap *h, int a, int b)
{
	int t;

	t = h->k1[a]; h->k1[a] = h->k1[b]; h->k1[b] = t;
	t = h->k2[a]; h->k2[a] = h->k2[b]; h->k2[b] = t;
	t = h->v[a]; h->v[a] = h->v[b]; h->v[b] = t;
}

static void ih_push(struct iheap *h, int k1, int k2, int v)
{
	int i = h->n++;

	h->k1[i] = k1;
	h->k2[i] = k2;
	h->v[i] = v;
	while (i && ih_less(h, i, (i - 1) / 2)) {
		ih_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static int ih_pop(struct iheap *h)
{
	int r = h->v[0], i = 0;

	h->n--;
	if (h->n) {
		h->k1[0] = h->k1[h->n];
		h->k2[0] = h->k2[h->n];
		h->v[0] = h->v[h->n];
		for (;;) {
			int l = 2 * i + 1, s = i;

			if (l < h->n && ih_less(h, l, s))
				s = l;
			if (l + 1 < h->n && ih_less(h, l + 1, s))
				s = l + 1;
			if (s == i)
				break;
			ih_swap(h, i, s);
			i = s;
		}
	}
	return r;
}

/*
 * Stable topological sort of all devices: key[] orders devices that are
 * free at the same time; side 0 puts children/consumers first (suspend),
 * side 1 parents/suppliers first (resume and list order).  Returns 0 if
 * the dependencies have a cycle (then the rest is appended by key).
 */
static int topo_sort(const struct graph *g, int side, const int *key, int *out)
{
	int i, k, n = 0, ok = 1;
	int *left = xcalloc((size_t)g->n + 1, sizeof(int));
	struct iheap h;

	h.k1 = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	h.k2 = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	h.v = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	h.n = 0;
	for (i = 0; i < g->n; i++) {
		left[i] = g->dep_off[side][i + 1] - g->dep_off[side][i];
		if (!left[i])
			ih_push(&h, key[i], i, i);
	}
	while (h.n) {
		int x = ih_pop(&h);

		out[n++] = x;
		for (k = g->wait_off[side][x]; k < g->wait_off[side][x + 1]; k++) {
			int w = g->wait_idx[side][k];

			if (!--left[w])
				ih_push(&h, key[w], w, w);
		}
	}
	if (n < g->n) {
		ok = 0;
		for (i = 0; i < g->n; i++)
			if (left[i] > 0)
				out[n++] = i;
	}
	free(left);
	free(h.k1);
	free(h.k2);
	free(h.v);
	return ok;
}

/*
 * Merge step of a list being built in next[] from head: device @d, unless it
 * is in the list already (inl[]), goes right after *prev (or first); either
 * way it becomes the predecessor of the next device merged.
 */
static void merge_after(int d, int *prev, int *head, int *next, int *inl)
{
	if (!inl[d]) {
		inl[d] = 1;
		if (*prev < 0) {
			next[d] = *head;
			*head = d;
		} else {
			next[d] = next[*prev];
			next[*prev] = d;
		}
	}
	*prev = d;
}

/*
 * The PM core walks one list (dpm_list) in every phase: backwards in the
 * suspend phases, forwards in the resume phases.  The log shows, per phase,
 * the order in which callbacks started: exactly the walk for the PM task's
 * sync devices, and close to it for async devices (which start when queued
 * unless they wait for dependencies).  The list is rebuilt from the phase
 * with the most callbacks (reversed for a suspend phase); devices seen only
 * in other phases are inserted after their nearest predecessor there (phases
 * in decreasing number of callbacks); devices seen only as parents go first;
 * finally parents are put before children and suppliers before consumers.
 */
static void build_list(struct graph *g)
{
	int *next = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	int *inl = xcalloc((size_t)g->n + 1, sizeof(int));
	int *seq = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	int *key = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	int *out = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	int cnt[NPHASES] = { 0 }, done[NPHASES] = { 0 };
	int head = -1, i, k, step, pos;

	for (i = 0; i < g->n; i++)
		for (k = 0; k < NPHASES; k++)
			cnt[k] += g->d[i].has_cb[k];
	for (step = 0; step < NPHASES; step++) {
		int ph = -1, m = 0, prev = -1;

		for (k = 0; k < NPHASES; k++)
			if (!done[k] && cnt[k] > 0 && (ph < 0 || cnt[k] > cnt[ph]))
				ph = k;
		if (ph < 0)
			break;
		done[ph] = 1;
		for (i = 0; i < g->n; i++)
			if (g->d[i].has_cb[ph])
				seq[g->d[i].order[ph]] = i, m++;
		for (k = 0; k < m; k++) {
			int d = seq[phase_is_suspend(ph) ? m - 1 - k : k];

			merge_after(d, &prev, &head, next, inl);
		}
	}
	for (i = 0; i < g->n; i++)
		key[i] = -1;	/* parent-only devices first */
	for (pos = 0, i = head; i >= 0; i = next[i])
		key[i] = pos++;
	topo_sort(g, 1, key, out);
	free(g->listpos);
	g->listpos = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	for (i = 0; i < g->n; i++)
		g->listpos[out[i]] = i;
	free(next);
	free(inl);
	free(seq);
	free(key);
	free(out);
}

/*
 * Walk order of a phase: the phase's own log order for the devices with a
 * callback in it (reversed for suspend phases, to get list order), the
 * other devices merged in from the rebuilt list after their nearest
 * predecessor; then walked backwards for suspend phases, forwards for
 * resume phases, with dependencies enforced.
 */
static void compute_topo(struct graph *g)
{
	int *key = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	int *next = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	int *inl = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	int *seq = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	int *lst = xmalloc(sizeof(int) * (size_t)(g->n + 1));
	int ph, i, k;

	g->topo_ok = 1;
	build_list(g);
	for (i = 0; i < g->n; i++)
		lst[g->listpos[i]] = i;
	for (ph = 0; ph < NPHASES; ph++) {
		int s = phase_is_suspend(ph) ? 0 : 1, m = 0, head = -1, prev = -1;
		int pos;

		for (i = 0; i < g->n; i++) {
			inl[i] = 0;
			if (g->d[i].has_cb[ph])
				seq[g->d[i].order[ph]] = i, m++;
		}
		/* own callbacks in list direction */
		for (k = m - 1; k >= 0; k--) {
			int d = seq[s ? k : m - 1 - k];

			next[d] = head;
			head = d;
			inl[d] = 1;
		}
		for (k = 0; k < g->n; k++)
			merge_after(lst[k], &prev, &head, next, inl);
		for (pos = 0, i = head; i >= 0; i = next[i], pos++)
			key[i] = s ? pos : g->n - pos;
		free(g->topo[ph]);
		g->topo[ph] = xmalloc(sizeof(int) * (size_t)(g->n + 1));
		if (!topo_sort(g, s, key, g->topo[ph]))
			g->topo_ok = 0;
	}
	free(key);
	free(next);
	free(inl);
	free(seq);
	free(lst);
}

int graph_finalize(struct graph *g)
{
	build_adj(g);
	compute_topo(g);
	return g->topo_ok ? 0 : -1;
}

/* ---------------------------------------------------------- labels */

const char *dev_label(const struct graph *g, int i, char *buf, size_t n)
{
	const struct dev *d = &g->d[i];

	if (graph_find(g, d->name) == i && d->next_same_name < 0)
		snprintf(buf, n, "%s", d->name);
	else
		snprintf(buf, n, "%s@%s", d->name,
			 d->parent_name ? d->parent_name : "none");
	return buf;
}

/* ---------------------------------------------------------- overhead */

/*
 * Per-callback dispatch overhead: the median, over consecutive callbacks of
 * the PM task in one phase, of (start of the next - start of this - its
 * duration).  It is the time the PM core (and printk) spends per callback
 * outside the measured callback itself.
 */
double graph_overhead_from_log(const struct graph *g, const struct pmlog *log,
			       int cycle, int *samples)
{
	double *gap = xmalloc(sizeof(double) * (size_t)(log->ncb + 1)), r;
	int ph, i, n = 0;

	for (ph = 0; ph < NPHASES; ph++) {
		const struct cbrec *prev = NULL;

		for (i = 0; i < log->ncb; i++) {
			const struct cbrec *c = &log->cb[i];

			if (c->cycle != cycle || c->phase != ph || !c->line_call)
				continue;
			if (c->pid != g->pm_pid)
				continue;
			if (prev && !isnan(prev->ts_call) && !isnan(c->ts_call) &&
			    !isnan(prev->dur_us))
				gap[n++] = (c->ts_call - prev->ts_call) * 1e6 -
					prev->dur_us * g->scale;
			prev = c;
		}
	}
	*samples = n;
	r = n >= 5 ? median_d(gap, n) : 0;
	free(gap);
	return r > 0 ? r : 0;
}

/* ---------------------------------------------------------- sysfs */

static int known_root(const char *s)
{
	static const char *const roots[] = { "platform", "pnp0", "LNXSYSTM:00",
		"system", "virtual", "ACPI_CPU", NULL };
	int i;

	for (i = 0; roots[i]; i++)
		if (!strcmp(s, roots[i]))
			return 1;
	return !strncmp(s, "pci", 3) && strlen(s) == 10 && s[7] == ':';
}

/*
 * "/sys/devices/<root>/.../<dev>" from the parent chain, from the nearest
 * device on it whose path the log printed if one is
 */
char *sysfs_path(const struct graph *g, int i, int *complete)
{
	int chain[256], n = 0, k;
	size_t len = 16;
	char *p;

	for (k = i; k >= 0 && n < 256; k = g->d[k].parent) {
		if (g->d[k].path)	/* the log printed it: from there */
			break;
		chain[n++] = k;
		len += strlen(g->d[k].name) + 1;
	}
	if (k >= 0 && g->d[k].path) {
		len += strlen(g->d[k].path) + 1;
		*complete = 1;
		p = xmalloc(len);
		strcpy(p, "/sys/");
		strcat(p, g->d[k].path);
	} else {
		*complete = known_root(g->d[chain[n - 1]].name);
		p = xmalloc(len);
		strcpy(p, "/sys/devices");
	}
	while (n--) {
		strcat(p, "/");
		strcat(p, g->d[chain[n]].name);
	}
	return p;
}

/* ---------------------------------------------------------- critical path */

/* The phase as lib/cpath.c's graph: parent and link edges, the walk order. */
void cpath_phase(const struct graph *g, int ph, int limit, struct cpath *cp)
{
	int s = phase_is_suspend(ph) ? 0 : 1, x, j;
	struct cp_graph cg;
	double work = 0;

	cp_graph_init(&cg, g->n);
	for (x = 0; x < g->n; x++) {
		cg.ran[x] = g->d[x].has_cb[ph];
		cg.w[x] = cg.ran[x] ? g->d[x].dur[ph] : 0;
		work += cg.w[x];
		for (j = g->dep_off[s][x]; j < g->dep_off[s][x + 1]; j++)
			cp_graph_edge(&cg, g->dep_idx[s][j], x);
	}
	cp_solve(&cg, g->topo[ph], work, limit, cp);
	cp_graph_free(&cg);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A machine's own kernel log as report cycles: lib/pmlog.c (the parser
 * pm-async-advise uses) reads the pm_print_times callbacks and the phase
 * lines of dmesg, "dmesg -x" or "journalctl -o json", and each suspend or
 * hibernation cycle of the log becomes a struct cycle like a lab one, so
 * that the bounds, critical paths, tables and the SVG timeline are the
 * lab's.
 *
 * What a log does not say is not made up: a callback's start and end are
 * the timestamps of its "calling" and "returned" lines; a device is sync
 * if all its callbacks ran in the PM task (the PID most callbacks of the
 * cycle's first phase ran in), async otherwise; a parent that has no
 * callback of its own in the cycle is a row without callbacks (pm=0).
 * Devices are told apart by name and parent name: two "card0" under
 * different parents are two devices.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lineread.h"
#include "pmlog.h"
#include "report.h"
#include "strmap.h"

/* the callback family of a phase verb of dpm_show_time() */
static int verb_family(const char *verb)
{
	int fam;

	return pm_verb_lookup(verb, &fam, NULL) ? FAM_SUSPEND : fam;
}

static void hdr_add(struct cycle *c, int *cap, const char *key,
		    const char *val)
{
	GROW(c->hdr, c->nhdr, *cap);
	c->hdr[c->nhdr].key = xstrdup(key);
	c->hdr[c->nhdr++].val = xstrdup(val);
}

static int new_dev(struct cycle *c, char ***pname, int *cappn,
		   const char *name, const char *parent)
{
	struct dev *d;
	int s;

	GROW(c->dev, c->ndev, c->capdev);
	GROW(*pname, c->ndev, *cappn);
	d = &c->dev[c->ndev];
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	d->parent = -1;
	for (s = 0; s < NPHASES; s++)
		d->cb[s] = -1;
	(*pname)[c->ndev] = parent ? xstrdup(parent) : NULL;
	return c->ndev++;
}

/* the device of record @r: by name and parent name, new if needed */
static int dev_of(struct cycle *c, struct strmap *bykey, char ***pname,
		  int *cappn, const struct cbrec *r)
{
	size_t len = strlen(r->dev) + (r->parent ? strlen(r->parent) : 0) + 2;
	char *key = xmalloc(len);
	int d;

	snprintf(key, len, "%s\t%s", r->dev, r->parent ? r->parent : "");
	d = strmap_get(bykey, key, -1);
	/* the same name and parent twice in a phase: two devices */
	if (d < 0 || c->dev[d].cb[r->phase] >= 0) {
		d = new_dev(c, pname, cappn, r->dev, r->parent);
		strmap_set(bykey, key, d);
	}
	free(key);
	return d;
}

static void add_cb(struct cycle *c, int d, const struct cbrec *r, int pm_pid)
{
	struct cb *cb;

	GROW(c->cb, c->ncb, c->capcb);
	cb = &c->cb[c->ncb];
	cb->dev = d;
	cb->slot = r->phase;
	cb->start = llround(r->ts_call * 1e9);
	cb->end = llround(r->ts_ret * 1e9);
	if (cb->end < cb->start)
		cb->end = cb->start;
	cb->cpu = -1;
	cb->pid = r->pid;
	cb->task = r->pid >= 0 && r->pid == pm_pid;
	cb->result = r->err;
	cb->line = r->line_call;
	if (!cb->task)
		c->dev[d].async = 1;
	c->dev[d].cb[r->phase] = c->ncb++;
}

/*
 * Parents by name (the first device of that name; a parent without a
 * callback becomes a row of its own), then the rows in tree order: a
 * parent above its children, indented by depth, as the lab's topology.
 */
static void resolve_parents(struct cycle *c, char ***pname, int *cappn)
{
	struct strmap byname;
	int n = c->ndev, d;

	strmap_init(&byname);
	for (d = 0; d < n; d++)
		if (strmap_get(&byname, c->dev[d].name, -1) < 0)
			strmap_set(&byname, c->dev[d].name, d);
	for (d = 0; d < n; d++) {
		const char *pn = (*pname)[d];
		int p;

		if (!pn)
			continue;
		p = strmap_get(&byname, pn, -1);
		if (p < 0) {
			p = new_dev(c, pname, cappn, pn, NULL);
			c->dev[p].no_pm = 1;
			c->dev[p].async = 1;	/* not known to be sync */
			strmap_set(&byname, pn, p);
		}
		c->dev[d].parent = p == d ? -1 : p;
	}
	strmap_free(&byname);
}

static void tree_order(struct cycle *c)
{
	int n = c->ndev, d, root, top = 0, nout = 0;
	int *first = xmalloc((n + 1) * sizeof(int));
	int *next = xmalloc((n + 1) * sizeof(int));
	int *newi = xmalloc((n + 1) * sizeof(int));
	int *stack = xmalloc((2 * n + 1) * sizeof(int));
	int *sdep = xmalloc((2 * n + 1) * sizeof(int));
	struct dev *out = xcalloc(n + 1, sizeof(*out));

	for (d = 0; d < n; d++) {
		first[d] = -1;
		next[d] = -1;
		newi[d] = -1;
	}
	/* children lists in log order: insert from the end */
	for (d = n - 1; d >= 0; d--) {
		int p = c->dev[d].parent;

		if (p >= 0) {
			next[d] = first[p];
			first[p] = d;
		}
	}
	for (root = 0; nout < n; root++) {
		if (root == n) {
			/* only parent loops are left: cut one at its first */
			for (root = 0; newi[root] >= 0; root++)
				;
			c->dev[root].parent = -1;
		} else if (newi[root] >= 0 || c->dev[root].parent >= 0) {
			continue;
		}
		stack[top] = root;
		sdep[top++] = 0;
		while (top) {
			int v = stack[--top], dep = sdep[top], w, k = 0;

			if (newi[v] >= 0)
				continue;
			newi[v] = nout;
			out[nout] = c->dev[v];
			out[nout++].depth = dep;
			/* push the children so that the first one pops first */
			for (w = first[v]; w >= 0; w = next[w])
				k++;
			top += k;
			k = 0;
			for (w = first[v]; w >= 0; w = next[w]) {
				k++;
				stack[top - k] = w;
				sdep[top - k] = dep + 1;
			}
		}
	}
	for (d = 0; d < n; d++)
		if (out[d].parent >= 0)
			out[d].parent = newi[out[d].parent];
	for (d = 0; d < c->ncb; d++)
		c->cb[d].dev = newi[c->cb[d].dev];
	free(c->dev);
	c->dev = out;
	c->capdev = n + 1;
	free(first);
	free(next);
	free(newi);
	free(stack);
	free(sdep);
}

/* "Linux version X" or pm-graph's "# suspend-DATE HOST MODE X" header */
static void log_release(FILE *f, char *rel, size_t n)
{
	struct line_reader lr;
	int lineno = 0;

	rel[0] = 0;
	if (fseek(f, 0, SEEK_SET))
		return;
	lr_init(&lr, f, LINE_MAX_BYTES);
	while (!rel[0] && lr_next(&lr) > 0) {
		const char *p = strstr(lr.line, "Linux version ");
		char w[4][64];

		lineno++;
		if (p)
			sscanf(p + 14, "%63s", w[3]);
		else if (lineno > 1 || strncmp(lr.line, "# suspend-", 10) ||
			 sscanf(lr.line, "# %63s %63s %63s %63s", w[0], w[1],
				w[2], w[3]) != 4)
			continue;
		if (lab_name_ok(w[3]))
			snprintf(rel, n, "%s", w[3]);
	}
	lr_free(&lr);
}

/* the header of log cycle @k, numbered @number in the whole input */
static void log_header(struct cycle *c, const char *path, const char *rel,
		       long number)
{
	const char *base = strrchr(path, '/');
	char num[24];
	int cap = 0;

	base = base && base[1] ? base + 1 : path;
	snprintf(num, sizeof(num), "%ld", number);
	hdr_add(c, &cap, "kernel", *rel ? rel : "log");
	hdr_add(c, &cap, "profile", lab_name_ok(base) ? base : "log");
	hdr_add(c, &cap, "mode", "log");
	hdr_add(c, &cap, "cycle", num);
	hdr_add(c, &cap, "transition",
		c->fam[0] == FAM_SUSPEND ? "suspend" : "hibernate");
	hdr_add(c, &cap, "file", path);
	if (*rel)
		hdr_add(c, &cap, "version", rel);
	c->number = number;
	hdr_fields(c);
	c->file = hdr_get(c, "file");
}

/* phase lines of cycle @k: times, families, the line of the first */
static void log_phases(struct cycle *c, const struct pmlog *log, int k)
{
	int i, s;

	for (i = 0; i < log->nbd; i++) {
		const struct boundary *b = &log->bd[i];

		if (b->cycle != k || b->phase < 0 || b->phase >= NPHASES)
			continue;
		if (!c->line || b->line < c->line)
			c->line = b->line;
		if (c->fam[slot_side(b->phase)] < 0)
			c->fam[slot_side(b->phase)] = verb_family(b->verb);
	}
	for (s = 0; s < 2; s++)
		if (c->fam[s] < 0)
			c->fam[s] = c->fam[!s] < 0 ? FAM_SUSPEND : c->fam[!s];
	for (s = 0; s < NPHASES; s++) {
		c->pm_ms[s] = pmlog_observed(log, k, s, &c->pm_aborted[s]);
		c->have_pm[s] = !isnan(c->pm_ms[s]);
		if (!c->have_pm[s])
			c->pm_ms[s] = 0;
	}
}

/* cycle @k of @log, or NULL if no callback of it has both timestamps */
static struct cycle *log_cycle(const struct pmlog *log, int k,
			       const char *path, const char *rel, long number)
{
	struct cycle *c = xcalloc(1, sizeof(*c));
	struct strmap bykey;
	char **pname = NULL;
	int i, cappn = 0, pm_pid = pmlog_pm_task(log, k, NULL, NULL, NULL);

	c->fam[0] = -1;
	c->fam[1] = -1;
	c->from_log = 1;
	strmap_init(&bykey);
	for (i = 0; i < log->ncb; i++) {
		const struct cbrec *r = &log->cb[i];

		if (r->cycle != k || r->phase < 0 || r->phase >= NPHASES)
			continue;
		if (!r->line_call || !r->line_ret || isnan(r->ts_call) ||
		    isnan(r->ts_ret)) {
			c->skipped++;
			continue;
		}
		if (!c->line || r->line_call < c->line)
			c->line = r->line_call;
		add_cb(c, dev_of(c, &bykey, &pname, &cappn, r), r, pm_pid);
	}
	strmap_free(&bykey);
	log_phases(c, log, k);
	resolve_parents(c, &pname, &cappn);
	for (i = 0; i < c->ndev; i++)
		free(pname[i]);
	free(pname);
	tree_order(c);
	log_header(c, path, rel, number);
	if (!c->ncb) {
		cycle_free(c);
		return NULL;
	}
	return c;
}

/*
 * Append the cycles of the kernel log @f (read from its start) to @in,
 * numbered on from the log cycles already there.  Returns 0, or -1 with
 * "FILE: reason" in @err if the log holds no cycle to draw.
 */
int klog_read(struct input *in, const char *path, FILE *f, const char *rel,
	      char *err, size_t errlen)
{
	struct pmlog log;
	char release[64];
	int k, n = 0, ret;

	if (rel) {
		snprintf(release, sizeof(release), "%s", rel);
	} else {
		log_release(f, release, sizeof(release));
		if (!lab_name_ok(release))
			release[0] = 0;
	}
	if (fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: cannot read it again from its start",
			 path);
		return -1;
	}
	ret = pmlog_parse_dmesg(f, path, &log, err, errlen);
	if (ret) {
		pmlog_free(&log);
		return -1;
	}
	for (k = 0; k < log.ncycles; k++) {
		struct cycle *c = log_cycle(&log, k, path, release,
					    in->nlog + 1);

		if (!c)
			continue;
		GROW(in->cyc, in->n, in->cap);
		in->cyc[in->n++] = c;
		in->nlog++;
		n++;
	}
	pmlog_free(&log);
	if (!n) {
		snprintf(err, errlen,
			 "%s: no pm_print_times callback with the timestamps of both its 'calling' and 'returned' lines",
			 path);
		return -1;
	}
	return 0;
}

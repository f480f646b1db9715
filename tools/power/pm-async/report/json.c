// SPDX-License-Identifier: GPL-2.0
/*
 * The numbers of the tables, machine-readable, through lib/jsonw.c (the
 * writer pm-async-advise uses too): strings valid UTF-8 whatever the
 * input's header values hold, null for values that do not exist.
 */
#include <math.h>
#include <string.h>

#include "jsonw.h"
#include "report.h"

static void json_stats(struct jw *w, const char *key, const struct stats *st)
{
	jw_obj(w, key, JW_BLOCK);
	jw_num(w, "n", st->n);
	jw_num(w, "mean", st->mean);
	jw_num(w, "sd", st->sd);
	jw_num(w, "median", st->median);
	jw_num(w, "min", st->min);
	jw_num(w, "max", st->max);
	jw_end(w);
}

static void json_row(struct jw *w, const struct row *r)
{
	char key[256];
	int s;

	snprintf(key, sizeof(key), "%s/%s", r->mode, r->kernel);
	jw_obj(w, key, JW_BLOCK);
	jw_str(w, "label", row_label(r, key, sizeof(key)));
	jw_str(w, "version", r->versions);
	jw_num(w, "cycles", r->n);
	jw_num(w, "incomplete", r->incomplete);
	jw_num(w, "violations", r->violations);
	json_stats(w, "suspend_ms", &r->side[SIDE_SUSPEND]);
	json_stats(w, "resume_ms", &r->side[SIDE_RESUME]);
	json_stats(w, "suspend_ratio", &r->ratio[SIDE_SUSPEND]);
	json_stats(w, "resume_ratio", &r->ratio[SIDE_RESUME]);
	jw_obj(w, "phases", JW_BLOCK);
	for (s = 0; s < NPHASES; s++) {
		jw_obj(w, r->phname[s], JW_BLOCK);
		jw_num(w, "mean", r->phase[s].mean);
		jw_num(w, "sd", r->phase[s].sd);
		jw_end(w);
	}
	jw_end(w);
	jw_num(w, "bound_suspend_ms", r->bound[SIDE_SUSPEND].mean);
	jw_num(w, "bound_resume_ms", r->bound[SIDE_RESUME].mean);
	jw_end(w);
}

static void json_summary(struct jw *w, const struct profile *p)
{
	char key[256];
	int i;

	jw_obj(w, "summary", JW_BLOCK);
	jw_num(w, "patched_over_stock_suspend", p->over_stock[SIDE_SUSPEND]);
	jw_num(w, "patched_over_stock_resume", p->over_stock[SIDE_RESUME]);
	jw_obj(w, "time_over_bound", JW_BLOCK);
	for (i = 0; i < p->nrow; i++) {
		const struct row *r = &p->row[i];

		snprintf(key, sizeof(key), "%s/%s", r->mode, r->kernel);
		jw_obj(w, key, JW_BLOCK);
		jw_num(w, "suspend", r->ratio[SIDE_SUSPEND].mean);
		jw_num(w, "resume", r->ratio[SIDE_RESUME].mean);
		jw_end(w);
	}
	jw_end(w);
	if (p->bound_row) {
		snprintf(key, sizeof(key), "%s/%s", p->bound_row->mode,
			 p->bound_row->kernel);
		jw_str(w, "bound_row", key);
	} else {
		jw_str(w, "bound_row", NULL);
	}
	jw_end(w);
}

static void json_cp(struct jw *w, const struct profile *p)
{
	int side, s, i;

	jw_obj(w, "critical_path", JW_BLOCK);
	for (side = 0; side < 2; side++) {
		const struct cycle *c = p->cp_cyc[side];

		for (s = 3 * side; c && s < 3 * side + 3; s++) {
			jw_arr(w, cycle_phase_name(c, s), JW_BLOCK);
			for (i = 0; i < c->nchain[s]; i++)
				jw_str(w, NULL, c->dev[c->chain[s][i]].name);
			jw_end(w);
		}
	}
	jw_end(w);
	jw_obj(w, "critical_path_cycle", JW_BLOCK);
	for (side = 0; side < 2; side++) {
		const struct cycle *c = p->cp_cyc[side];

		if (!c)
			continue;
		jw_obj(w, side ? "resume" : "suspend", JW_BLOCK);
		jw_str(w, "kernel", c->kernel);
		jw_str(w, "mode", c->mode);
		jw_num(w, "cycle", c->number);
		jw_str(w, "file", c->file);
		jw_num(w, "line", c->line);
		jw_num(w, "complete", c->complete);
		jw_end(w);
	}
	jw_end(w);
}

static void json_profile(struct jw *w, const struct profile *p)
{
	int i;

	jw_obj(w, p->name, JW_BLOCK);
	jw_str(w, "version", p->versions);
	jw_num(w, "cycles", p->ncycles);
	jw_num(w, "incomplete", p->incomplete);
	jw_num(w, "violations", p->violations);
	jw_obj(w, "rows", JW_BLOCK);
	for (i = 0; i < p->nrow; i++)
		json_row(w, &p->row[i]);
	jw_end(w);
	json_summary(w, p);
	json_cp(w, p);
	jw_end(w);
}

static void json_dstat(struct jw *w, const struct dstat *d)
{
	jw_obj(w, NULL, JW_BLOCK);
	if (d->name) {
		jw_str(w, "device", d->name);
		jw_str(w, "parent", *d->parent ? d->parent : NULL);
	}
	jw_str(w, "phase", d->phase);
	jw_num(w, "n", d->n);
	jw_num(w, "median_ms", d->median);
	jw_num(w, "worst_ms", d->worst);
	jw_num(w, "best_ms", d->best);
	jw_num(w, "spread_ms", d->worst - d->best);
	jw_end(w);
}

static void json_devstats(struct jw *w, const char *key,
			  const struct devstats *ds)
{
	int i;

	jw_obj(w, key, JW_BLOCK);
	jw_num(w, "cycles", ds->ncycles);
	jw_num(w, "incomplete", ds->incomplete);
	jw_str(w, "spread", "worst - best");
	jw_arr(w, "phases", JW_BLOCK);
	for (i = 0; i < ds->nph; i++)
		json_dstat(w, &ds->ph[i]);
	jw_end(w);
	jw_arr(w, "devices", JW_BLOCK);
	for (i = 0; i < ds->n; i++)
		json_dstat(w, &ds->d[i]);
	jw_end(w);
	jw_end(w);
}

/* @ds: also the statistics per device and phase (--stats), or NULL */
void print_json(FILE *out, const struct summary *s, const struct devstats *ds)
{
	struct jw w = { .f = out };
	int i;

	jw_obj(&w, NULL, JW_BLOCK);
	jw_str(&w, "tool", "pm-async-report");
	jw_str(&w, "version", s->versions);
	jw_num(&w, "limit", s->limit);
	jw_obj(&w, "profiles", JW_BLOCK);
	for (i = 0; i < s->nprof; i++)
		json_profile(&w, &s->prof[i]);
	jw_end(&w);
	if (ds)
		json_devstats(&w, "device_stats", ds);
	jw_end(&w);
	fputc('\n', out);
}

static void json_moved(struct jw *w, const struct dstat *a,
		       const struct dstat *b, double thr)
{
	const struct dstat *d = a ? a : b;

	jw_obj(w, NULL, JW_BLOCK);
	if (d->name) {
		jw_str(w, "device", d->name);
		jw_str(w, "parent", *d->parent ? d->parent : NULL);
	}
	jw_str(w, "phase", d->phase);
	jw_num(w, "a_median_ms", a ? a->median : NAN);
	jw_num(w, "a_n", a ? a->n : 0);
	jw_num(w, "b_median_ms", b ? b->median : NAN);
	jw_num(w, "b_n", b ? b->n : 0);
	jw_num(w, "change_ms", (b ? b->median : 0) - (a ? a->median : 0));
	jw_bool(w, "moved", dstat_moved(a, b, thr));
	jw_end(w);
}

/* rows of @a and @b (phase totals or devices), each once; moved only? */
static void json_rows(struct jw *w, const char *key, const struct devstats *a,
		      const struct devstats *b, int phases, double thr)
{
	const struct dstat *ra = phases ? a->ph : a->d;
	const struct dstat *rb = phases ? b->ph : b->d;
	int na = phases ? a->nph : a->n, nb = phases ? b->nph : b->n, i;

	jw_arr(w, key, JW_BLOCK);
	for (i = 0; i < na + nb; i++) {
		const struct dstat *x = i < na ? &ra[i] : NULL;
		const struct dstat *y = x ? dstat_find(b, x) : &rb[i - na];

		if ((!x && dstat_find(a, y)) ||
		    (!phases && !dstat_moved(x, y, thr)))
			continue;
		json_moved(w, x, y, thr);
	}
	jw_end(w);
}

/* --compare A B --json FILE: the phases and the devices that moved */
void print_compare_json(FILE *out, const struct devstats *a,
			const char *alabel, const struct devstats *b,
			const char *blabel, double thr)
{
	struct jw w = { .f = out };

	jw_obj(&w, NULL, JW_BLOCK);
	jw_str(&w, "tool", "pm-async-report");
	jw_num(&w, "threshold_ms", thr);
	jw_str(&w, "a", alabel);
	jw_num(&w, "a_cycles", a->ncycles);
	jw_str(&w, "b", blabel);
	jw_num(&w, "b_cycles", b->ncycles);
	json_rows(&w, "phases", a, b, 1, thr);
	json_rows(&w, "moved_devices", a, b, 0, thr);
	jw_end(&w);
	fputc('\n', out);
}

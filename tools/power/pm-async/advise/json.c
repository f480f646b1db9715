// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-advise: JSON output.  The keys documented in README.rst
 * ("devices", "phases" -> PHASE -> "observed_ms", "bound_ms",
 * "predicted_ms" -> "sync" / "stock" / "pm-async", "advice" -> "device",
 * "saving_ms") are read by other tools and stay stable; keys may be added.
 * Every string goes through json_quote() (lib/quote.c): the output is
 * valid UTF-8 and valid JSON whatever bytes the log's names hold.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmadv.h"

static const char *format_name(const struct analysis *a)
{
	if (a->topology)
		return "topology";
	if (a->cblog->format & FMT_FTRACE)
		return "ftrace";
	if ((a->cblog->format & FMT_OLD) && (a->cblog->format & FMT_NEW))
		return "mixed";
	if (a->cblog->format & FMT_OLD)
		return "old";
	return "6.x";
}

static void json_chain(struct jw *w, const struct graph *g,
		       const struct cpath *cp, int ph)
{
	char lb[300];
	int k;

	jw_arr(w, "critical_path", JW_FLAT);
	for (k = 0; k < cp->nchain; k++) {
		int i = cp->chain[k];

		jw_obj(w, NULL, JW_FLAT);
		jw_str(w, "device", dev_label(g, i, lb, sizeof(lb)));
		jw_num(w, "ms", g->d[i].has_cb[ph] ? g->d[i].dur[ph] / 1e3 : 0);
		jw_end(w);
	}
	jw_end(w);
}

/* "no_prediction": {POLICY: why, ...} for the predictions not made */
static void json_stuck(struct jw *w, const struct analysis *a, int ph)
{
	char why[1024];
	int pol, n = 0;

	for (pol = 0; pol < NPOLICIES; pol++) {
		if (!a->g->has_phase[ph] || !isnan(a->pred[ph][pol]))
			continue;
		if (!n++)
			jw_obj(w, "no_prediction", JW_FLAT);
		stuck_text(a, ph, pol, why, sizeof(why));
		jw_str(w, policy_key[pol], why);
	}
	if (n)
		jw_end(w);
}

/*
 * "uncertain": BOOL, "uncertain_reasons": [KEY, ...], "uncertain_why":
 * TEXT|null of a phase: keys ambiguous_name, parent_without_callback,
 * idle_gap
 */
static void json_uncertain(struct jw *w, const struct analysis *a, int ph)
{
	static const char *const key[] = {
		"ambiguous_name", "parent_without_callback", "idle_gap"
	};
	unsigned int u = a->uncertain[ph];
	char why[1024];
	int k;

	jw_bool(w, "uncertain", u);
	jw_arr(w, "uncertain_reasons", JW_FLAT);
	for (k = 0; k < 3; k++)
		if (u & (1u << k))
			jw_str(w, NULL, key[k]);
	jw_end(w);
	if (u)
		uncertain_text(a, ph, why, sizeof(why));
	jw_str(w, "uncertain_why", u ? why : NULL);
}

static int phase_seen(const struct analysis *a, int ph)
{
	return a->g->has_phase[ph] || !isnan(a->observed[ph]);
}

/* "predicted_ms": {"stock": ..., POLICY: ...}: @v / @div ms */
static void json_predicted(struct jw *w, const struct analysis *a,
			   const double *v, double div)
{
	int pol;

	jw_obj(w, "predicted_ms", JW_FLAT);
	jw_num(w, "stock", v[a->sp.stock] / div);
	for (pol = 0; pol < NPOLICIES; pol++)
		jw_num(w, policy_key[pol], v[pol] / div);
	jw_end(w);
}

static void json_input(struct jw *w, const struct analysis *a)
{
	jw_obj(w, "input", JW_FLAT);
	jw_str(w, "dmesg", a->input);
	jw_str(w, "ftrace", a->ftrace);
	jw_str(w, "topology", a->topology);
	jw_str(w, "format", format_name(a));
	if (a->cblog) {
		jw_int(w, "cycle", a->cycle + 1);
		jw_int(w, "cycles", a->cblog->ncycles);
		jw_int(w, "lines", a->cblog->nlines);
		jw_int(w, "used_lines", a->cblog->used);
		jw_int(w, "skipped_lines", a->cblog->skipped);
		jw_int(w, "too_long_lines", a->cblog->too_long);
		jw_bool(w, "journal_json", a->cblog->format & FMT_JOURNAL);
	}
	jw_end(w);
}

static void json_phases(struct jw *w, const struct analysis *a)
{
	const struct graph *g = a->g;
	int i, ph;

	jw_obj(w, "phases", JW_BLOCK);
	for (ph = 0; ph < NPHASES; ph++) {
		const struct cpath *cp = &a->cp[ph];
		double err;
		int n = 0;

		if (!phase_seen(a, ph))
			continue;
		for (i = 0; i < g->n; i++)
			n += g->d[i].has_cb[ph];
		jw_obj(w, phase_key[ph], JW_FLAT);
		jw_num(w, "observed_ms", a->observed[ph]);
		jw_bool(w, "aborted", a->observed_aborted[ph]);
		jw_num(w, "bound_ms", cp->bound / 1e3);
		json_predicted(w, a, a->pred[ph], 1e3);
		err = (a->pred[ph][a->sp.stock] / 1e3 - a->observed[ph]) /
			a->observed[ph] * 100;
		jw_num(w, "stock_error_pct", a->observed[ph] > 0 ? err : NAN);
		jw_int(w, "callbacks", n);
		jw_num(w, "critical_path_ms", cp->cp / 1e3);
		jw_num(w, "total_callback_ms", cp->work / 1e3);
		json_chain(w, g, cp, ph);
		json_stuck(w, a, ph);
		json_uncertain(w, a, ph);
		jw_str(w, "name", a->phase_name[ph]);
		jw_end(w);
	}
	jw_end(w);
}

static void json_totals(struct jw *w, const struct analysis *a)
{
	int ph, pol, side;

	jw_obj(w, "totals", JW_BLOCK);
	for (side = 0; side < 2; side++) {
		double obs = 0, bound = 0, pr[NPOLICIES] = { 0 };
		unsigned int unc = 0;

		for (ph = side ? PH_RESUME_NOIRQ : PH_SUSPEND;
		     ph <= (side ? PH_RESUME : PH_SUSPEND_NOIRQ); ph++) {
			unc |= a->uncertain[ph];
			obs += a->observed[ph];	/* NAN if one is missing */
			bound += a->cp[ph].bound / 1e3;
			for (pol = 0; pol < NPOLICIES; pol++)
				pr[pol] += a->pred[ph][pol] / 1e3;
		}
		jw_obj(w, side ? "resume" : "suspend", JW_FLAT);
		jw_num(w, "observed_ms", obs);
		jw_num(w, "bound_ms", bound);
		json_predicted(w, a, pr, 1);
		jw_bool(w, "uncertain", unc);
		jw_str(w, "name", a->side_name[side]);
		jw_end(w);
	}
	jw_end(w);
}

static void json_advice(struct jw *w, const struct analysis *a)
{
	const struct graph *g = a->g;
	char lb[300];
	int i;

	jw_obj(w, "ranking", JW_FLAT);
	jw_int(w, "sync_devices", a->adv.nitems);
	jw_int(w, "on_critical_path", a->adv.on_path);
	jw_int(w, "simulated", a->adv.simulated);
	jw_int(w, "candidates_per_step", a->adv.cand_max);
	jw_end(w);
	jw_arr(w, "advice", JW_BLOCK);
	for (i = 0; i < a->adv.nitems; i++) {
		const struct advice_item *it = &a->adv.items[i];
		char *path, *full;
		int complete;

		if (it->saving_us < 0.5)
			continue;
		path = sysfs_path(g, it->dev, &complete);
		full = xasprintf("%s/power/async", path);
		jw_obj(w, NULL, JW_FLAT);
		jw_str(w, "device", dev_label(g, it->dev, lb, sizeof(lb)));
		jw_num(w, "saving_ms", it->saving_us / 1e3);
		jw_num(w, "suspend_side_ms", it->side_saving_us[0] / 1e3);
		jw_num(w, "resume_side_ms", it->side_saving_us[1] / 1e3);
		jw_str(w, "sysfs", full);
		jw_bool(w, "sysfs_reconstructed", 1);
		jw_bool(w, "sysfs_root_known", complete);
		jw_end(w);
		free(full);
		free(path);
	}
	jw_end(w);
	jw_obj(w, "best_set", JW_FLAT);
	jw_int(w, "max", a->adv.max);
	jw_str(w, "method", "greedy");
	jw_num(w, "min_gain_ms", a->adv.min_gain_us / 1e3);
	jw_num(w, "saving_ms", a->adv.best_saving_us / 1e3);
	jw_arr(w, "devices", JW_FLAT);
	for (i = 0; i < a->adv.nbest; i++) {
		jw_obj(w, NULL, JW_FLAT);
		jw_str(w, "device", dev_label(g, a->adv.best[i], lb, sizeof(lb)));
		jw_num(w, "cumulative_saving_ms", a->adv.best_cum_us[i] / 1e3);
		jw_end(w);
	}
	jw_end(w);
	jw_end(w);
}

static void json_problems(struct jw *w, const struct analysis *a)
{
	int i;

	jw_arr(w, "problems", JW_BLOCK);
	for (i = 0; a->cblog && i < a->cblog->nprob; i++) {
		const struct problem *p = &a->cblog->prob[i];

		jw_obj(w, NULL, JW_FLAT);
		jw_int(w, "line", p->line);
		jw_str(w, "kind", p->kind);
		jw_str(w, "device", p->dev);
		jw_end(w);
	}
	jw_end(w);
	jw_arr(w, "failures", JW_FLAT);
	for (i = 0; a->obslog && i < a->obslog->nfail; i++) {
		const struct failure *fl = &a->obslog->fail[i];

		if (fl->cycle != a->cycle)
			continue;
		jw_obj(w, NULL, JW_FLAT);
		jw_int(w, "line", fl->line);
		jw_str(w, "device", fl->dev);
		jw_int(w, "error", fl->err);
		jw_str(w, "message", fl->msg);
		jw_end(w);
	}
	jw_end(w);
	jw_arr(w, "notes", JW_FLAT);
	for (i = 0; i < a->g->nnotes; i++)
		jw_str(w, NULL, a->g->notes[i].text);
	jw_end(w);
}

void report_json(FILE *f, const struct analysis *a)
{
	struct jw w = { .f = f, .num_format = JSON_NUM_FORMAT };
	const struct graph *g = a->g;
	char lb[300];
	int i, ncb = 0;

	for (i = 0; i < g->n; i++)
		if (!g->d[i].placeholder)
			ncb++;
	jw_obj(&w, NULL, JW_BLOCK);
	jw_str(&w, "tool", "pm-async-advise");
	jw_str(&w, "version", PMADV_VERSION);
	json_input(&w, a);
	jw_str(&w, "transition", a->hibernation ? "hibernation" : "suspend");
	jw_int(&w, "devices", g->n);
	jw_int(&w, "devices_with_callbacks", ncb);
	jw_int(&w, "devices_parent_only", g->n - ncb);
	jw_int(&w, "pm_task_pid", g->pm_pid);
	jw_num(&w, "duration_scale", a->units.scale);
	jw_str(&w, "duration_scale_reason", a->units.why);
	jw_num(&w, "overhead_us", a->sp.overhead_us);
	jw_int(&w, "slot_limit", a->sp.limit);
	jw_bool(&w, "links_given", g->links_given);
	jw_int(&w, "links", g->nlinks);
	jw_str(&w, "links_from", a->links_from);
	jw_str(&w, "kernel", a->kernel);
	jw_str(&w, "kernel_from", a->kernel_from);
	jw_str(&w, "policy", policy_key[a->sp.stock]);
	jw_str(&w, "policy_reason", a->policy_why ? a->policy_why : "--policy");
	jw_arr(&w, "sync_devices", JW_FLAT);
	for (i = 0; i < g->n; i++)
		if (!g->d[i].async && !g->d[i].placeholder)
			jw_str(&w, NULL, dev_label(g, i, lb, sizeof(lb)));
	jw_end(&w);
	json_phases(&w, a);
	json_totals(&w, a);
	json_advice(&w, a);
	json_problems(&w, a);
	jw_end(&w);
	fputc('\n', f);
}

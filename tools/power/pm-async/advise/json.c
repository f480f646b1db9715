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

void json_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.3f", v);
}

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

static void json_chain(FILE *f, const struct graph *g, const struct cpath *cp,
		       int ph)
{
	int k;
	char lb[300];

	fputc('[', f);
	for (k = 0; k < cp->nchain; k++) {
		int i = cp->chain[k];

		fputs(k ? ", {\"device\": " : "{\"device\": ", f);
		json_quote(f, dev_label(g, i, lb, sizeof(lb)));
		fputs(", \"ms\": ", f);
		json_num(f, g->d[i].has_cb[ph] ? g->d[i].dur[ph] / 1e3 : 0);
		fputc('}', f);
	}
	fputc(']', f);
}

/* ', "no_prediction": {POLICY: why, ...}' for the predictions not made */
static void json_stuck(FILE *f, const struct analysis *a, int ph)
{
	char why[1024];
	int pol, n = 0;

	for (pol = 0; pol < NPOLICIES; pol++) {
		if (!a->g->has_phase[ph] || !isnan(a->pred[ph][pol]))
			continue;
		stuck_text(a, ph, pol, why, sizeof(why));
		fprintf(f, "%s\"%s\": ", n++ ? ", " : ", \"no_prediction\": {",
			policy_key[pol]);
		json_quote(f, why);
	}
	if (n)
		fputc('}', f);
}

/*
 * ', "uncertain": BOOL, "uncertain_reasons": [KEY, ...], "uncertain_why":
 * TEXT|null' of a phase: keys ambiguous_name, parent_without_callback,
 * idle_gap
 */
static void json_uncertain(FILE *f, const struct analysis *a, int ph)
{
	static const char *const key[] = {
		"ambiguous_name", "parent_without_callback", "idle_gap"
	};
	unsigned int u = a->uncertain[ph];
	char why[1024];
	int k, n = 0;

	fprintf(f, ", \"uncertain\": %s, \"uncertain_reasons\": [", u ? "true" : "false");
	for (k = 0; k < 3; k++)
		if (u & (1u << k))
			fprintf(f, "%s\"%s\"", n++ ? ", " : "", key[k]);
	fputs("], \"uncertain_why\": ", f);
	if (u) {
		uncertain_text(a, ph, why, sizeof(why));
		json_quote(f, why);
	} else {
		fputs("null", f);
	}
}

static int phase_seen(const struct analysis *a, int ph)
{
	return a->g->has_phase[ph] || !isnan(a->observed[ph]);
}

void report_json(FILE *f, const struct analysis *a)
{
	const struct graph *g = a->g;
	int i, ph, first, ncb = 0, nph = 0, pol, side;
	char lb[300];

	for (i = 0; i < g->n; i++)
		if (!g->d[i].placeholder)
			ncb++;
	fprintf(f, "{\n  \"tool\": \"pm-async-advise\",\n  \"version\": \"%s\",\n",
		PMADV_VERSION);
	fputs("  \"input\": {\"dmesg\": ", f);
	json_quote(f, a->input);
	fputs(", \"ftrace\": ", f);
	json_quote(f, a->ftrace);
	fputs(", \"topology\": ", f);
	json_quote(f, a->topology);
	fputs(", \"format\": ", f);
	json_quote(f, format_name(a));
	if (a->cblog) {
		fprintf(f,
			", \"cycle\": %d, \"cycles\": %d, \"lines\": %d, \"used_lines\": %d, \"skipped_lines\": %d",
			a->cycle + 1, a->cblog->ncycles, a->cblog->nlines,
			a->cblog->used, a->cblog->skipped);
		fprintf(f, ", \"too_long_lines\": %d, \"journal_json\": %s",
			a->cblog->too_long,
			a->cblog->format & FMT_JOURNAL ? "true" : "false");
	}
	fputs("},\n", f);
	fprintf(f, "  \"transition\": \"%s\",\n",
		a->hibernation ? "hibernation" : "suspend");
	fprintf(f,
		"  \"devices\": %d,\n  \"devices_with_callbacks\": %d,\n  \"devices_parent_only\": %d,\n",
		g->n, ncb, g->n - ncb);
	fprintf(f, "  \"pm_task_pid\": %d,\n", g->pm_pid);
	fputs("  \"duration_scale\": ", f);
	json_num(f, a->units.scale);
	fputs(",\n  \"duration_scale_reason\": ", f);
	json_quote(f, a->units.why);
	fputs(",\n  \"overhead_us\": ", f);
	json_num(f, a->sp.overhead_us);
	fprintf(f, ",\n  \"slot_limit\": %d,\n", a->sp.limit);
	fprintf(f, "  \"links_given\": %s,\n  \"links\": %d,\n",
		g->links_given ? "true" : "false", g->nlinks);
	fputs("  \"links_from\": ", f);
	json_quote(f, a->links_from);
	fputs(",\n  \"kernel\": ", f);
	json_quote(f, a->kernel);
	fputs(",\n  \"kernel_from\": ", f);
	json_quote(f, a->kernel_from);
	fputs(",\n  \"policy\": ", f);
	json_quote(f, policy_key[a->sp.stock]);
	fputs(",\n  \"policy_reason\": ", f);
	json_quote(f, a->policy_why ? a->policy_why : "--policy");
	fputs(",\n", f);
	fputs("  \"sync_devices\": [", f);
	for (i = 0, first = 1; i < g->n; i++) {
		if (g->d[i].async || g->d[i].placeholder)
			continue;
		fputs(first ? "" : ", ", f);
		json_quote(f, dev_label(g, i, lb, sizeof(lb)));
		first = 0;
	}
	fputs("],\n  \"phases\": {", f);
	for (ph = 0; ph < NPHASES; ph++) {
		const struct cpath *cp = &a->cp[ph];
		double err;
		int n = 0;

		if (!phase_seen(a, ph))
			continue;
		for (i = 0; i < g->n; i++)
			n += g->d[i].has_cb[ph];
		fprintf(f, "%s\n    ", nph++ ? "," : "");
		json_quote(f, phase_key[ph]);
		fputs(": {\"observed_ms\": ", f);
		json_num(f, a->observed[ph]);
		fprintf(f, ", \"aborted\": %s", a->observed_aborted[ph] ? "true" : "false");
		fputs(", \"bound_ms\": ", f);
		json_num(f, cp->bound / 1e3);
		fputs(", \"predicted_ms\": {", f);
		fputs("\"stock\": ", f);
		json_num(f, a->pred[ph][a->sp.stock] / 1e3);
		for (pol = 0; pol < NPOLICIES; pol++) {
			fprintf(f, ", \"%s\": ", policy_key[pol]);
			json_num(f, a->pred[ph][pol] / 1e3);
		}
		err = (a->pred[ph][a->sp.stock] / 1e3 - a->observed[ph]) /
			a->observed[ph] * 100;
		fputs("}, \"stock_error_pct\": ", f);
		json_num(f, a->observed[ph] > 0 ? err : NAN);
		fprintf(f, ", \"callbacks\": %d, \"critical_path_ms\": ", n);
		json_num(f, cp->cp / 1e3);
		fputs(", \"total_callback_ms\": ", f);
		json_num(f, cp->work / 1e3);
		fputs(", \"critical_path\": ", f);
		json_chain(f, g, cp, ph);
		json_stuck(f, a, ph);
		json_uncertain(f, a, ph);
		fputs(", \"name\": ", f);
		json_quote(f, a->phase_name[ph]);
		fputc('}', f);
	}
	fputs("\n  },\n  \"totals\": {", f);
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
		fprintf(f, "%s\n    \"%s\": {\"observed_ms\": ", side ? "," : "",
			side ? "resume" : "suspend");
		json_num(f, obs);
		fputs(", \"bound_ms\": ", f);
		json_num(f, bound);
		fputs(", \"predicted_ms\": {\"stock\": ", f);
		json_num(f, pr[a->sp.stock]);
		for (pol = 0; pol < NPOLICIES; pol++) {
			fprintf(f, ", \"%s\": ", policy_key[pol]);
			json_num(f, pr[pol]);
		}
		fprintf(f, "}, \"uncertain\": %s, \"name\": ", unc ? "true" : "false");
		json_quote(f, a->side_name[side]);
		fputc('}', f);
	}
	fprintf(f,
		"\n  },\n  \"ranking\": {\"sync_devices\": %d, \"on_critical_path\": %d, \"simulated\": %d, \"candidates_per_step\": %d},\n",
		a->adv.nitems, a->adv.on_path, a->adv.simulated,
		a->adv.cand_max);
	fputs("  \"advice\": [", f);
	for (i = 0, first = 1; i < a->adv.nitems; i++) {
		const struct advice_item *it = &a->adv.items[i];
		double ss = 0, rs = 0;
		char *path;
		int complete;

		if (it->saving_us < 0.5)
			continue;
		for (ph = 0; ph < NPHASES; ph++) {
			if (phase_is_suspend(ph))
				ss += it->ph_saving_us[ph];
			else
				rs += it->ph_saving_us[ph];
		}
		path = sysfs_path(g, it->dev, &complete);
		fputs(first ? "\n    {\"device\": " : ",\n    {\"device\": ", f);
		json_quote(f, dev_label(g, it->dev, lb, sizeof(lb)));
		fputs(", \"saving_ms\": ", f);
		json_num(f, it->saving_us / 1e3);
		fputs(", \"suspend_side_ms\": ", f);
		json_num(f, ss / 1e3);
		fputs(", \"resume_side_ms\": ", f);
		json_num(f, rs / 1e3);
		fputs(", \"sysfs\": ", f);
		{
			char *full = xasprintf("%s/power/async", path);

			json_quote(f, full);
			free(full);
		}
		fprintf(f, ", \"sysfs_reconstructed\": true, \"sysfs_root_known\": %s}",
			complete ? "true" : "false");
		free(path);
		first = 0;
	}
	fprintf(f,
		"%s],\n  \"best_set\": {\"max\": %d, \"method\": \"greedy\", \"min_gain_ms\": %.3f, \"saving_ms\": ",
		first ? "" : "\n  ", a->adv.max, a->adv.min_gain_us / 1e3);
	json_num(f, a->adv.best_saving_us / 1e3);
	fputs(", \"devices\": [", f);
	for (i = 0; i < a->adv.nbest; i++) {
		fputs(i ? ", {\"device\": " : "{\"device\": ", f);
		json_quote(f, dev_label(g, a->adv.best[i], lb, sizeof(lb)));
		fputs(", \"cumulative_saving_ms\": ", f);
		json_num(f, a->adv.best_cum_us[i] / 1e3);
		fputc('}', f);
	}
	fputs("]},\n  \"problems\": [", f);
	if (a->cblog) {
		for (i = 0; i < a->cblog->nprob; i++) {
			const struct problem *p = &a->cblog->prob[i];

			fprintf(f, "%s\n    {\"line\": %d, \"kind\": ", i ? "," : "", p->line);
			json_quote(f, p->kind);
			fputs(", \"device\": ", f);
			json_quote(f, p->dev);
			fputc('}', f);
		}
		if (a->cblog->nprob)
			fputs("\n  ", f);
	}
	fputs("],\n  \"failures\": [", f);
	if (a->obslog) {
		int nf = 0;

		for (i = 0; i < a->obslog->nfail; i++) {
			const struct failure *fl = &a->obslog->fail[i];

			if (fl->cycle != a->cycle)
				continue;
			fprintf(f, "%s{\"line\": %d, \"device\": ", nf++ ? ", " : "",
				fl->line);
			json_quote(f, fl->dev);
			fprintf(f, ", \"error\": %d, \"message\": ", fl->err);
			json_quote(f, fl->msg);
			fputc('}', f);
		}
	}
	fputs("],\n  \"notes\": [", f);
	for (i = 0; i < g->nnotes; i++) {
		fputs(i ? ", " : "", f);
		json_quote(f, g->notes[i].text);
	}
	fputs("]\n}\n", f);
}

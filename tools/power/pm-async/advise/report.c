// SPDX-License-Identifier: GPL-2.0
/* pm-async-advise: run the analysis and print it as text. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lineread.h"
#include "pmadv.h"

/* the name of the callbacks a printed verb runs (pm_op(), pm_verb()) */
static const char *cb_verb(const char *verb)
{
	return !strcmp(verb, "hibernate") ? "poweroff" : verb;
}

/**
 * hibernation_verb() - is a phase verb of the log a hibernation one
 * @verb: as pm_verb() prints it ("suspend", "freeze", "thaw", ...)
 *
 * Return: 1 for freeze, quiesce, hibernate, thaw, restore and recover.
 */
int hibernation_verb(const char *verb)
{
	return verb && *verb && strcmp(verb, "suspend") &&
	       strcmp(verb, "resume");
}

/**
 * phase_names() - the six phases named as a cycle of the log runs them
 * @log: the log (its phase lines, "PM: late freeze of devices ...")
 * @cycle: the cycle
 * @names: gets "suspend" ... "resume", or for a hibernation "freeze",
 *	   "freeze_late", "freeze_noirq", "restore_noirq", "restore_early",
 *	   "restore" (or thaw, poweroff: the callbacks the verb runs)
 * @sides: gets the verb of each side ("suspend"/"resume", "freeze", ...)
 *
 * A phase without a line of its own takes the verb of its side.
 */
void phase_names(const struct pmlog *log, int cycle,
		 char names[NPHASES][24], char sides[2][16])
{
	static const char *const sfx[NPHASES] = {
		"", "_late", "_noirq", "_noirq", "_early", ""
	};
	const char *verb[NPHASES] = { NULL }, *side[2] = { NULL, NULL };
	int i, ph;

	for (i = 0; log && i < log->nbd; i++) {
		const struct boundary *b = &log->bd[i];

		if (b->cycle != cycle || b->phase < 0 || !b->verb[0] ||
		    verb[b->phase])
			continue;
		verb[b->phase] = b->verb;
		if (!side[phase_is_suspend(b->phase) ? 0 : 1])
			side[phase_is_suspend(b->phase) ? 0 : 1] = b->verb;
	}
	for (i = 0; i < 2; i++)
		snprintf(sides[i], 16, "%s",
			 side[i] ? cb_verb(side[i]) : i ? "resume" : "suspend");
	for (ph = 0; ph < NPHASES; ph++) {
		const char *v = verb[ph];

		if (!v)
			v = side[phase_is_suspend(ph) ? 0 : 1];

		if (!hibernation_verb(v))
			snprintf(names[ph], 24, "%s", phase_key[ph]);
		else
			snprintf(names[ph], 24, "%s%s", cb_verb(v), sfx[ph]);
	}
}

/* why the phase never ends under a policy: a->stuck*[ph][pol] */
static void why_stuck(struct analysis *a, int ph, int pol)
{
	struct sim_out o;

	memset(&o, 0, sizeof(o));
	sim_phase(a->g, ph, (enum policy)pol, NULL, &a->sp, &o);
	a->stuck[ph][pol] = o.stuck;
	a->stuck_on[ph][pol] = o.stuck_on;
	a->stuck_slots[ph][pol] = o.stuck_slots;
	a->stuck_in_slot[ph][pol] = o.stuck_in_slot;
}

/*
 * A parent with no callback over device @i whose own waits the log does not
 * show: its parent, or their parents while they have no callback, up to
 * one with no parent known.  -1 if there is none (a parent with callbacks
 * comes first: its waits are modelled).
 */
static int nocb_parent(const struct graph *g, int i)
{
	for (i = g->d[i].parent; i >= 0 && g->d[i].placeholder; i = g->d[i].parent)
		if (g->d[i].parent < 0)
			return i;
	return -1;
}

/* smallest idle time of the PM task the model must explain (us) */
#define GAP_MIN_US	1000.0

static int cmp_line(const void *x, const void *y)
{
	const int *a = x, *b = y;

	return (a[0] > b[0]) - (a[0] < b[0]);
}

/* the device of the callback printed at line @line of phase @ph, -1 */
static int dev_at_line(const int *byline, int n, int line)
{
	int key[2] = { line, 0 };
	const int *e = bsearch(key, byline, (size_t)n, sizeof(int) * 2, cmp_line);

	return e ? e[1] : -1;
}

/*
 * An unexplained idle gap of the PM task: before each of its sync
 * callbacks of a phase, the time since its previous callback returned (log
 * timestamps) minus the wait the model has there (stock policy).  More
 * than GAP_MIN_US and 1% of the phase is a wait the model does not know
 * the reason of (a parent or supplier it does not have right, or one with
 * no callback): the phase is uncertain.  The largest gap is kept.
 */
static void find_gaps(struct analysis *a, int ph)
{
	const struct pmlog *log = a->cblog;
	const struct graph *g = a->g;
	struct sim_out o;
	int *byline, n = 0, i, k, prev = -1;
	double prev_ret = NAN, lim;

	a->gap_dev[ph] = -1;
	if (!log || !g->has_phase[ph] || isnan(a->pred[ph][a->sp.stock]) ||
	    g->pm_pid < 0)
		return;
	byline = xmalloc(sizeof(int) * 2 * ((size_t)g->n + 1));
	for (i = 0; i < g->n; i++)
		if (g->d[i].has_cb[ph] && g->d[i].line[ph] > 0) {
			byline[2 * n] = g->d[i].line[ph];
			byline[2 * n++ + 1] = i;
		}
	qsort(byline, (size_t)n, sizeof(int) * 2, cmp_line);
	memset(&o, 0, sizeof(o));
	o.start = xmalloc(sizeof(double) * ((size_t)g->n + 1));
	o.end = xmalloc(sizeof(double) * ((size_t)g->n + 1));
	sim_phase(g, ph, a->sp.stock, NULL, &a->sp, &o);
	lim = fmax(GAP_MIN_US, a->pred[ph][a->sp.stock] / 100);
	for (k = 0; k < log->ncb; k++) {
		const struct cbrec *r = &log->cb[k];
		int di;
		double idle;

		if (r->cycle != a->cycle || r->phase != ph || r->pid != g->pm_pid)
			continue;
		di = dev_at_line(byline, n, r->line_call ? r->line_call : r->line_ret);
		if (di < 0 || isnan(r->ts_call) || isnan(r->ts_ret)) {
			prev = -1;
			continue;
		}
		if (prev >= 0 && !g->d[di].async && !isnan(o.start[di]) &&
		    !isnan(o.end[prev])) {
			idle = (r->ts_call - prev_ret) * 1e6 -
			       (o.start[di] - o.end[prev]);
			if (idle > lim) {
				a->ngaps[ph]++;
				if (idle > a->gap_us[ph]) {
					a->gap_us[ph] = idle;
					a->gap_dev[ph] = di;
				}
			}
		}
		prev = di;
		prev_ret = r->ts_ret;
	}
	if (a->ngaps[ph]) {
		a->uncertain[ph] |= UNC_IDLE_GAP;
		if (nocb_parent(g, a->gap_dev[ph]) >= 0)
			a->uncertain[ph] |= UNC_NOCB_PARENT;
	}
	free(o.start);
	free(o.end);
	free(byline);
}

void analysis_run(struct analysis *a, int max)
{
	const struct pmlog *log = a->cblog;
	int ph, pol;

	if (a->obslog && a->obslog->nbd)
		log = a->obslog;
	phase_names(log, a->cycle, a->phase_name, a->side_name);
	a->hibernation = hibernation_verb(a->side_name[0]) ||
			 hibernation_verb(a->side_name[1]);
	for (ph = 0; ph < NPHASES; ph++) {
		for (pol = 0; pol < NPOLICIES; pol++) {
			a->pred[ph][pol] = a->g->has_phase[ph] ?
				sim_phase(a->g, ph, (enum policy)pol, NULL,
					  &a->sp, NULL) : 0;
			a->stuck[ph][pol] = -1;
			if (isnan(a->pred[ph][pol]))
				why_stuck(a, ph, pol);
		}
		cpath_phase(a->g, ph, a->sp.limit, &a->cp[ph]);
		a->uncertain[ph] = a->g->uncertain[ph];
		a->ngaps[ph] = 0;
		a->gap_us[ph] = 0;
		find_gaps(a, ph);
	}
	advice_compute(a->g, &a->sp, max, a->min_gain_us, a->cand_max,
		       &a->adv);
}

void analysis_free(struct analysis *a)
{
	int ph;

	for (ph = 0; ph < NPHASES; ph++)
		cpath_free(&a->cp[ph]);
	advice_free(&a->adv);
}

/* a prediction in ms; one that cannot be made: "stuck" (stuck_text()) */
static void fmt_ms(char *buf, size_t n, double us)
{
	if (isnan(us))
		snprintf(buf, n, "%s", "stuck");
	else
		snprintf(buf, n, "%.3f", us / 1e3);
}

/**
 * stuck_text() - why there is no prediction of a phase under a policy
 * @a: the analysis
 * @ph: the phase
 * @pol: the policy, a->pred[ph][pol] NAN
 * @buf: gets the reason, in words
 * @n: size of @buf
 */
void stuck_text(const struct analysis *a, int ph, int pol, char *buf,
		size_t n)
{
	const struct graph *g = a->g;
	int w = a->stuck[ph][pol], on = a->stuck_on[ph][pol];
	char l1[300], l2[300];

	if (w < 0) {
		snprintf(buf, n, "no prediction: the simulation of %s did not end",
			 a->phase_name[ph]);
		return;
	}
	dev_label(g, w, l1, sizeof(l1));
	if (on >= 0)
		dev_label(g, on, l2, sizeof(l2));
	else
		snprintf(l2, sizeof(l2), "?");
	if (!a->stuck_slots[ph][pol] && a->stuck_in_slot[ph][pol] &&
	    a->sp.limit == 1)
		snprintf(buf, n,
			 "no prediction: the model's queue never drains: its only slot is held by a started device that waits for one queued behind it (%s waits for %s); more slots (--limit) may let the phase end",
			 l1, l2);
	else if (!a->stuck_slots[ph][pol] && a->stuck_in_slot[ph][pol])
		snprintf(buf, n,
			 "no prediction: the model's queue never drains: all %d slots are held by started devices that wait for devices queued behind them (%s waits for %s); more slots (--limit) may let the phase end",
			 a->sp.limit, l1, l2);
	else
		snprintf(buf, n,
			 "no prediction: the phase never ends in the model: %s%s waits for %s, which never runs",
			 a->stuck_in_slot[ph][pol] ? "" : "the PM task or ",
			 l1, l2);
}

static void print_chain(FILE *f, const struct graph *g, const struct cpath *cp,
			int ph)
{
	int k, shown = 0;
	char lb[300];

	for (k = 0; k < cp->nchain; k++) {
		int i = cp->chain[k];

		/* leading zero-time devices carry no information */
		if (!shown && k + 1 < cp->nchain &&
		    !(g->d[i].has_cb[ph] && g->d[i].dur[ph] > 0))
			continue;
		if (shown == 12) {
			fprintf(f, " -> ... (%d more)", cp->nchain - k);
			break;
		}
		fprintf(f, "%s%s (%.3f)", shown ? " -> " : "",
			dev_label(g, i, lb, sizeof(lb)),
			g->d[i].has_cb[ph] ? g->d[i].dur[ph] / 1e3 : 0.0);
		shown++;
	}
	fputc('\n', f);
}

/*
 * The first name on the sysfs path of device @d (itself, its parent, ...)
 * that no command may hold (see name_refused()), or -1; *why says why.
 */
static int path_refused(const struct graph *g, int d, const char **why)
{
	int k, n;

	for (k = d, n = 0; k >= 0 && n < 256; k = g->d[k].parent, n++) {
		*why = name_refused(g->d[k].name);
		if (*why)
			return k;
	}
	return -1;
}

/**
 * print_try() - the commands that make one device of the set async
 * @f: where to
 * @g: the graph
 * @d: the device
 *
 * "echo enabled > PATH" and, as a comment, a find command for when the
 * reconstructed path is wrong.  Names come from the log: each word is
 * single-quoted (sh_quote()), the find patterns match the names literally
 * (glob_escape()), and a device whose path holds a name no kernel device
 * has (name_refused()) gets a comment saying so instead: pasting any line
 * into a root shell runs nothing but what it shows.
 */
static void print_try(FILE *f, const struct graph *g, int d)
{
	int complete, par = g->d[d].parent, bad;
	const char *why;
	char lb[300], *p, *q;

	bad = path_refused(g, d, &why);
	if (bad >= 0) {
		fputs("  # skipped ", f);
		c_escape(f, dev_label(g, d, lb, sizeof(lb)));
		if (bad == d) {
			fprintf(f, ": its name %s", why);
		} else {
			fputs(": the name of its ancestor ", f);
			c_escape(f, g->d[bad].name);
			fprintf(f, " %s", why);
		}
		fputs(" (no kernel device name does); no command printed\n", f);
		return;
	}
	p = sysfs_path(g, d, &complete);
	q = xasprintf("%s/power/async", p);
	fputs("  echo enabled > ", f);
	sh_quote(f, q);
	fprintf(f, "\n  #   %sif absent: find /sys/devices -type d -name ",
		complete ? "" : "(chain does not reach a known /sys/devices root) ");
	free(q);
	q = glob_escape(g->d[d].name);
	sh_quote(f, q);
	free(q);
	if (par >= 0) {
		q = glob_escape(g->d[par].name);
		free(p);
		p = xasprintf("*/%s/*", q);
		fputs(" -path ", f);
		sh_quote(f, p);
		free(q);
	}
	fputc('\n', f);
	free(p);
}

static const char *fmt_label(const struct pmlog *l)
{
	if (!l)
		return "lab topology";
	if (l->format & FMT_FTRACE)
		return "ftrace device_pm_callback_start/end";
	if (l->format & FMT_JOURNAL)
		return "journal JSON, the kernel's MESSAGE fields";
	if ((l->format & FMT_OLD) && (l->format & FMT_NEW))
		return "dmesg, both formats";
	if (l->format & FMT_OLD)
		return "dmesg, old 'calling  DEV+ @ PID' format";
	return "dmesg, 'DRIVER DEV: PM: calling CB @ PID' format";
}

/* lines dropped by the length cap (lib/lineread.c), if any */
static void print_too_long(FILE *f, const struct pmlog *l)
{
	if (l->too_long)
		fprintf(f, "            %d longer than %d bytes, skipped unread\n",
			l->too_long, LINE_MAX_BYTES);
}

/* "stuck: POLICY, PHASE (and = SIDE): why" for each prediction not made */
void uncertain_text(const struct analysis *a, int ph, char *buf, size_t n)
{
	const struct graph *g = a->g;
	unsigned int u = a->uncertain[ph];
	size_t len = 0;
	char lb[300];

	buf[0] = 0;
	if (u & UNC_AMBIGUOUS)
		len += snprintf(buf + len, n - len,
				"a device name resolves to two or more devices (see notes)");
	if ((u & UNC_IDLE_GAP) && a->gap_dev[ph] >= 0 && len < n) {
		int p = nocb_parent(g, a->gap_dev[ph]);

		len += snprintf(buf + len, n - len,
				"%sPM task idle %.3f ms before sync %s not modelled (%d gap(s))",
				len ? "; " : "", a->gap_us[ph] / 1e3,
				dev_label(g, a->gap_dev[ph], lb, sizeof(lb)), a->ngaps[ph]);
		if ((u & UNC_NOCB_PARENT) && p >= 0 && len < n)
			len += snprintf(buf + len, n - len,
					"; above it %s has no callback and no known parent",
					dev_label(g, p, lb, sizeof(lb)));
	}
}

static void print_stuck(FILE *f, const struct analysis *a)
{
	char why[1024];
	int ph, pol;

	for (pol = 0; pol < NPOLICIES; pol++)
		for (ph = 0; ph < NPHASES; ph++) {
			if (!a->g->has_phase[ph] || !isnan(a->pred[ph][pol]))
				continue;
			stuck_text(a, ph, pol, why, sizeof(why));
			fprintf(f, "stuck: %s, %s (and = %s): %s\n",
				policy_key[pol], a->phase_name[ph],
				a->side_name[phase_is_suspend(ph) ? 0 : 1], why);
		}
	for (ph = 0; ph < NPHASES; ph++) {
		if (!a->uncertain[ph] || !a->g->has_phase[ph])
			continue;
		uncertain_text(a, ph, why, sizeof(why));
		fprintf(f, "uncertain: %s: %s\n", a->phase_name[ph], why);
	}
}

void report_text(FILE *f, const struct analysis *a)
{
	const struct graph *g = a->g;
	int i, ph, pol, nsync = 0, nasync = 0, nmixed = 0, nph = 0, ncb = 0;
	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32], lb[300];

	fprintf(f, "pm-async-advise %s\n", PMADV_VERSION);
	fprintf(f, "policy    : stock = %s (%s)\n", policy_name[a->sp.stock],
		a->policy_why ? a->policy_why : "--policy");
	if (a->kernel)
		fprintf(f, "kernel    : %s (%s)\n", a->kernel, a->kernel_from);
	if (a->hibernation)
		fprintf(f, "transition: hibernation (the log's phases: %s ... %s, %s ... %s)\n",
			a->phase_name[PH_SUSPEND],
			a->phase_name[PH_SUSPEND_NOIRQ],
			a->phase_name[PH_RESUME_NOIRQ],
			a->phase_name[PH_RESUME]);
	if (a->topology)
		fprintf(f, "input     : lab topology %s\n", a->topology);
	if (a->input)
		fprintf(f, "input     : %s (%s)\n", a->input,
			a->cblog == a->obslog || !a->ftrace ? fmt_label(a->cblog) :
			"dmesg: phase times and failures");
	if (a->ftrace)
		fprintf(f, "ftrace    : %s (%s)\n", a->ftrace,
			a->cblog && (a->cblog->format & FMT_FTRACE) ?
			"callbacks, PIDs and phases taken from the trace" :
			"no callback events; dmesg used");
	if (a->cblog) {
		fprintf(f, "lines     : %d read, %d used, %d skipped (not PM timing lines)%s%s\n",
			a->cblog->nlines, a->cblog->used, a->cblog->skipped,
			a->obslog != a->cblog ? " in " : "",
			a->obslog != a->cblog ? a->cblog->name : "");
		print_too_long(f, a->cblog);
		if (a->obslog && a->obslog != a->cblog && a->obslog->nlines) {
			fprintf(f, "            %d read, %d used, %d skipped in %s\n",
				a->obslog->nlines, a->obslog->used,
				a->obslog->skipped, a->obslog->name);
			print_too_long(f, a->obslog);
		}
		fprintf(f, "cycle     : %d of %d (--cycle N)\n", a->cycle + 1,
			a->cblog->ncycles);
	}
	for (i = 0; i < g->n; i++) {
		const struct dev *d = &g->d[i];

		if (d->placeholder)
			continue;
		ncb++;
		if (d->async)
			nasync++;
		else
			nsync++;
		nmixed += d->mixed;
	}
	fprintf(f, "devices   : %d (%d with callbacks, %d seen only as parents)\n",
		g->n, ncb, g->n - ncb);
	if (a->cblog) {
		fprintf(f, "PM task   : PID %d (ran %d of %d callbacks of the first phase, %s)\n",
			g->pm_pid, g->pm_pid_count, g->pm_pid_total,
			g->pm_pid_phase >= 0 ? phase_key[g->pm_pid_phase] : "-");
		fprintf(f,
			"            callbacks in that PID = sync, elsewhere = async: %d sync, %d async devices",
			nsync, nasync);
		if (nmixed)
			fprintf(f, " (%d ran in both: counted async)", nmixed);
		fputc('\n', f);
		fprintf(f, "durations : x%.3f: %s", a->units.scale, a->units.why);
		if (a->units.samples && !(a->cblog->format & FMT_FTRACE))
			fprintf(f,
				" (median timestamp/printed ratio %.4f over %d callbacks >= 1 ms)",
				a->units.ratio, a->units.samples);
		fputc('\n', f);
	} else {
		fprintf(f, "flags     : %d sync, %d async (async= of the topology)\n",
			nsync, nasync);
	}
	fprintf(f, "overhead  : %.1f us added to every callback (%s)\n",
		a->sp.overhead_us, a->overhead_why);
	fprintf(f,
		"slots     : %d async callbacks at once (WQ_DFL_ACTIVE of the async workqueue in 6.12)\n",
		a->sp.limit);
	if (g->links_given)
		fprintf(f, "links     : %d device links used (%s)\n", g->nlinks,
			a->links_from ? a->links_from : "--links");
	else
		fprintf(f,
			"links     : none found (--links FILE, links.txt of pm-async-measure, or\n"
			"            --sysfs ROOT); dependencies are parent edges only\n");
	if (a->cblog && a->cblog->nprob) {
		fprintf(f,
			"problems  : %d (not guessed; the callback keeps what its own line says)\n",
			a->cblog->nprob);
		for (i = 0; i < a->cblog->nprob && i < 20; i++)
			fprintf(f, "  line %d: %s: %s\n", a->cblog->prob[i].line,
				a->cblog->prob[i].kind,
				a->cblog->prob[i].dev ? a->cblog->prob[i].dev : "?");
		if (a->cblog->nprob > 20)
			fprintf(f, "  ... %d more (see --json)\n", a->cblog->nprob - 20);
	}
	if (a->obslog) {
		int nf = 0;

		for (i = 0; i < a->obslog->nfail; i++)
			if (a->obslog->fail[i].cycle == a->cycle)
				nf++;
		if (nf)
			fprintf(f, "failures  : %d line(s) in this cycle\n", nf);
		for (i = 0, nf = 0; i < a->obslog->nfail; i++) {
			const struct failure *fl = &a->obslog->fail[i];

			if (fl->cycle != a->cycle)
				continue;
			if (nf++ == 10) {
				fprintf(f, "  ... (see --json)\n");
				break;
			}
			fprintf(f, "  line %d: %s\n", fl->line, fl->msg);
		}
	}
	if (g->nnotes) {
		fprintf(f, "notes     : %d\n", g->nnotes);
		for (i = 0; i < g->nnotes && i < 10; i++)
			fprintf(f, "  %s\n", g->notes[i].text);
		if (g->nnotes > 10)
			fprintf(f, "  ... %d more (see --json)\n", g->nnotes - 10);
	}

	fprintf(f, "\nPredicted device phase times (ms) with the async flags seen in the log;\n"
		"stock = %s policy, error = (stock - observed) / observed;\n"
		"bound = max(critical path, total callback time / %d)\n",
		policy_name[a->sp.stock], a->sp.limit);
	fprintf(f, "%-14s %10s %10s %8s %10s %10s %10s %10s %10s %6s\n", "phase",
		"observed", "stock", "error", "sync", "6.12", "mainline",
		"pm-async", "bound", "calls");
	for (ph = 0; ph < NPHASES; ph++) {
		int n = 0;
		double obs = a->observed[ph];

		if (!g->has_phase[ph] && isnan(obs))
			continue;
		nph++;
		for (i = 0; i < g->n; i++)
			n += g->d[i].has_cb[ph];
		if (isnan(obs))
			snprintf(b1, sizeof(b1), "-");
		else
			snprintf(b1, sizeof(b1), "%.3f%s", obs,
				 a->observed_aborted[ph] ? "!" : "");
		fmt_ms(b2, sizeof(b2), a->pred[ph][a->sp.stock]);
		if (isnan(obs) || obs <= 0 || isnan(a->pred[ph][a->sp.stock]))
			snprintf(b3, sizeof(b3), "-");
		else
			snprintf(b3, sizeof(b3), "%+.1f%%",
				 (a->pred[ph][a->sp.stock] / 1e3 - obs) / obs * 100);
		fmt_ms(b4, sizeof(b4), a->pred[ph][POL_SYNC]);
		fmt_ms(b5, sizeof(b5), a->pred[ph][POL_PMASYNC]);
		fmt_ms(b6, sizeof(b6), a->pred[ph][POL_612]);
		fmt_ms(b7, sizeof(b7), a->pred[ph][POL_MAINLINE]);
		fprintf(f, "%-14s %10s %10s %8s %10s %10s %10s %10s %10.3f %6d%s\n",
			a->phase_name[ph], b1, b2, b3, b4, b6, b7, b5,
			a->cp[ph].bound / 1e3, n, a->uncertain[ph] ? "  uncertain" : "");
	}
	{
		int side;

		for (side = 0; side < 2; side++) {
			double obs = 0, pr[NPOLICIES] = { 0 }, bound = 0;
			unsigned int unc = 0;

			for (ph = side ? PH_RESUME_NOIRQ : PH_SUSPEND;
			     ph <= (side ? PH_RESUME : PH_SUSPEND_NOIRQ); ph++) {
				unc |= a->uncertain[ph];
				obs += a->observed[ph];
				bound += a->cp[ph].bound;
				for (pol = 0; pol < NPOLICIES; pol++)
					pr[pol] += a->pred[ph][pol];
			}
			snprintf(b1, sizeof(b1), isnan(obs) ? "-" : "%.3f", obs);
			fmt_ms(b2, sizeof(b2), pr[a->sp.stock]);
			if (isnan(obs) || obs <= 0 || isnan(pr[a->sp.stock]))
				snprintf(b3, sizeof(b3), "-");
			else
				snprintf(b3, sizeof(b3), "%+.1f%%",
					 (pr[a->sp.stock] / 1e3 - obs) / obs * 100);
			fmt_ms(b4, sizeof(b4), pr[POL_SYNC]);
			fmt_ms(b5, sizeof(b5), pr[POL_PMASYNC]);
			fmt_ms(b6, sizeof(b6), pr[POL_612]);
			fmt_ms(b7, sizeof(b7), pr[POL_MAINLINE]);
			snprintf(lb, sizeof(lb), "= %s", a->side_name[side]);
			fprintf(f, "%-14s %10s %10s %8s %10s %10s %10s %10s %10.3f%s\n",
				lb, b1, b2, b3, b4, b6, b7, b5, bound / 1e3,
				unc ? "         uncertain" : "");
		}
	}
	print_stuck(f, a);
	if (nph)
		fprintf(f,
			"(\"!\" = phase aborted; phases shorter than ~1 ms are dominated by list-walk\n"
			" costs of devices without callbacks, which the log does not show)\n");

	fprintf(f, "\nCritical path per phase (measured durations in ms, parent + link edges):\n");
	for (ph = 0; ph < NPHASES; ph++) {
		if (!g->has_phase[ph])
			continue;
		fprintf(f, "  %-13s %9.3f: ", a->phase_name[ph],
			a->cp[ph].cp / 1e3);
		print_chain(f, g, &a->cp[ph], ph);
	}

	fprintf(f, "\nAdvice: make ONE sync device async (stock = %s policy; saving summed\n"
		"over all phases, ms; negative = slower):\n", policy_name[a->sp.stock]);
	{
		int shown = 0, zero = 0, unsim = 0;

		fprintf(f, "  %4s %10s %10s %10s  %s\n", "rank", "saving",
			a->side_name[0], a->side_name[1], "device");
		for (i = 0; i < a->adv.nitems; i++) {
			const struct advice_item *it = &a->adv.items[i];

			if (it->on_path && !it->simulated) {
				unsim++;
				continue;
			}
			if (it->saving_us < 0.5) {
				zero++;
				continue;
			}
			if (shown >= a->top)
				continue;
			fprintf(f, "  %4d %10.3f %10.3f %10.3f  %s\n", ++shown,
				it->saving_us / 1e3,
				it->side_saving_us[0] / 1e3,
				it->side_saving_us[1] / 1e3,
				dev_label(g, it->dev, lb, sizeof(lb)));
		}
		if (!a->adv.nitems)
			fprintf(f, "  (no sync devices with callbacks)\n");
		else if (!shown)
			fprintf(f, "  (no single sync device saves 1 us or more)\n");
		if (zero)
			fprintf(f, "  %d other sync device(s) save nothing alone\n", zero);
		if (unsim)
			fprintf(f,
				"  %d other sync device(s) on a critical path not simulated: at most %d\n"
				"  per step, those holding the path longest first (--candidates N)\n",
				unsim, a->adv.cand_max);
	}
	fprintf(f, "\nBest set of at most %d (greedy: repeatedly add the device with the largest\n"
		"extra saving while it is >= %.3f ms; not exhaustive, devices that only help\n"
		"together are missed):\n", a->adv.max, a->adv.min_gain_us / 1e3);
	for (i = 0; i < a->adv.nbest; i++)
		fprintf(f, "  %d. %-40s cumulative saving %.3f ms\n", i + 1,
			dev_label(g, a->adv.best[i], lb, sizeof(lb)),
			a->adv.best_cum_us[i] / 1e3);
	if (!a->adv.nbest)
		fprintf(f, "  (empty: no device saves %.3f ms)\n", a->adv.min_gain_us / 1e3);
	else
		fprintf(f, "  predicted total saving %.3f ms per %s cycle\n",
			a->adv.best_saving_us / 1e3,
			a->hibernation ? "hibernation" : "suspend/resume");

	if (a->adv.nbest) {
		fprintf(f, "\nTo try the set (as root, before suspending):\n"
			"  # WARNING: only enable async for drivers known to be async-safe: a driver\n"
			"  # that relies on ordering not expressed by its parent or device links can\n"
			"  # hang or crash (in 2009 'sd' crashed when made async).  Test, then keep.\n"
			"  # power/async exists with CONFIG_PM_ADVANCED_DEBUG=y; /sys/power/pm_async must be 1.\n"
			"  # Paths are RECONSTRUCTED from the parent chain in the log: check they exist;\n"
			"  # class devices sit one level lower, under a directory named after the class.\n"
			"  # Names are quoted; a name no kernel device has (a control character, '/',\n"
			"  # bytes that are not UTF-8) is skipped.\n");
		for (i = 0; i < a->adv.nbest; i++)
			print_try(f, g, a->adv.best[i]);
	}
	if (a->profile_path)
		fprintf(f, "\nLab profile written to %s (durations x%g)\n",
			a->profile_path, a->profile_scale);
}

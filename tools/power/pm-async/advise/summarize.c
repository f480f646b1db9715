// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-advise summarize: one row per label over the suspend/resume
 * cycles of its logs, in the style of the 2009 measurements:
 * "mean (+/- sd)" in ms.  suspend = suspend + suspend_late +
 * suspend_noirq, resume = resume_noirq + resume_early + resume (observed
 * phase times from the "PM: ... of devices complete after" lines).  A cycle
 * whose six phases are not all present and complete, or with a device that
 * failed to suspend, is reported and left out of the statistics.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numarg.h"
#include "pmadv.h"

#define NCOL (2 + NPHASES)	/* suspend, resume, six phases */

struct serr {
	char *log;
	int cycle, line;
	char *dev, *msg;
};

struct label {
	char *name;
	char **logs;
	int nlogs, caplogs;
	double *v[NCOL];	/* per good cycle */
	int n, capn;
	double *bound[2];	/* per good cycle with callbacks */
	int nb, capb;
	char **cp[2];		/* chain string per cycle with callbacks */
	int ncp[2], capcp[2];
	int cycles, failed, bad_logs;
	struct serr *err;
	int nerr, caperr;
};

static const char *col_name(int c)
{
	return c == 0 ? "suspend" : c == 1 ? "resume" : phase_key[c - 2];
}

static void add_err(struct label *L, const char *log, int cycle, int line,
		    const char *dev, const char *msg)
{
	struct serr *e;

	GROW(L->err, L->nerr, L->caperr);
	e = &L->err[L->nerr++];
	e->log = xstrdup(log);
	e->cycle = cycle;
	e->line = line;
	e->dev = dev ? xstrdup(dev) : NULL;
	e->msg = xstrdup(msg);
}

static char *chain_key(const struct graph *g, const struct cpath *cp, int ph)
{
	size_t len = strlen(phase_key[ph]) + 4;
	char *s, lb[300];
	int k, first = 1;

	for (k = 0; k < cp->nchain; k++)
		len += strlen(dev_label(g, cp->chain[k], lb, sizeof(lb))) + 4;
	s = xmalloc(len + 1);
	snprintf(s, len, "%s: ", phase_key[ph]);
	for (k = 0; k < cp->nchain; k++) {
		int i = cp->chain[k];

		/* skip leading zero-time devices, as the main report does */
		if (first && k + 1 < cp->nchain &&
		    !(g->d[i].has_cb[ph] && g->d[i].dur[ph] > 0))
			continue;
		if (!first)
			strcat(s, " -> ");
		strcat(s, dev_label(g, i, lb, sizeof(lb)));
		first = 0;
	}
	return s;
}

static void do_cycle(struct label *L, const struct pmlog *log, int c,
		     int limit, const char *units_opt, const char *release)
{
	double obs[NPHASES];
	int ph, i, ab, any_cb = 0, failed;

	L->cycles++;
	for (ph = 0; ph < NPHASES; ph++)
		obs[ph] = pmlog_observed(log, c, ph, &ab);
	failed = pmlog_cycle_failed(log, c);
	for (i = 0; i < log->nfail; i++)
		if (log->fail[i].cycle == c)
			add_err(L, log->name, c + 1, log->fail[i].line,
				log->fail[i].dev, log->fail[i].msg);
	/* callbacks that returned an error without a "failed" line */
	for (i = 0; i < log->ncb; i++) {
		const struct cbrec *r = &log->cb[i];
		int k, named = 0;

		if (r->cycle != c || r->phase < 0 || !r->err)
			continue;
		for (k = 0; k < log->nfail; k++)
			if (log->fail[k].cycle == c && log->fail[k].dev &&
			    !strcmp(log->fail[k].dev, r->dev))
				named = 1;
		if (!named) {
			char *m = xasprintf("%s callback returned %d", phase_key[r->phase],
					    r->err);

			add_err(L, log->name, c + 1, r->line_ret, r->dev, m);
			free(m);
		}
	}
	{
		char missing[256] = "";

		for (ph = 0; ph < NPHASES; ph++) {
			pmlog_observed(log, c, ph, &ab);
			if (ab) {
				char *m = xasprintf("%s phase aborted", phase_key[ph]);

				add_err(L, log->name, c + 1, 0, NULL, m);
				free(m);
			} else if (isnan(obs[ph])) {
				strcat(missing, *missing ? ", " : "");
				strcat(missing, phase_key[ph]);
			}
		}
		if (*missing) {
			char *m = xasprintf("no phase line for %s: cycle incomplete",
					    missing);

			add_err(L, log->name, c + 1, 0, NULL, m);
			free(m);
		}
	}
	if (failed) {
		L->failed++;
		return;
	}
	GROW(L->v[0], L->n, L->capn);
	for (i = 1; i < NCOL; i++)
		L->v[i] = xrealloc(L->v[i], sizeof(double) * (size_t)L->capn);
	L->v[0][L->n] = obs[0] + obs[1] + obs[2];
	L->v[1][L->n] = obs[3] + obs[4] + obs[5];
	for (ph = 0; ph < NPHASES; ph++)
		L->v[2 + ph][L->n] = obs[ph];
	L->n++;

	for (i = 0; i < log->ncb; i++)
		if (log->cb[i].cycle == c && log->cb[i].phase >= 0)
			any_cb = 1;
	if (any_cb) {
		struct graph g;
		struct units u;
		double b[2] = { 0, 0 }, best[2] = { -1, -1 };
		int bph[2] = { -1, -1 }, side;
		struct cpath cp[NPHASES];

		detect_units(log, c, units_opt, release, &u);
		graph_init(&g);
		graph_from_log(&g, log, c, u.scale);
		graph_finalize(&g);
		for (ph = 0; ph < NPHASES; ph++) {
			side = phase_is_suspend(ph) ? 0 : 1;
			cpath_phase(&g, ph, limit, &cp[ph]);
			b[side] += cp[ph].bound / 1e3;
			if (cp[ph].bound > best[side]) {
				best[side] = cp[ph].bound;
				bph[side] = ph;
			}
		}
		GROW(L->bound[0], L->nb, L->capb);
		L->bound[1] = xrealloc(L->bound[1], sizeof(double) * (size_t)L->capb);
		L->bound[0][L->nb] = b[0];
		L->bound[1][L->nb] = b[1];
		L->nb++;
		for (side = 0; side < 2; side++) {
			GROW(L->cp[side], L->ncp[side], L->capcp[side]);
			L->cp[side][L->ncp[side]++] =
				chain_key(&g, &cp[bph[side]], bph[side]);
		}
		for (ph = 0; ph < NPHASES; ph++)
			cpath_free(&cp[ph]);
		graph_free(&g);
	}
}

/* most frequent chain, *count = its frequency */
static const char *mode_chain(struct label *L, int side, int *count)
{
	struct strmap m;
	const char *best = NULL;
	int k, bc = 0;

	strmap_init(&m);
	for (k = 0; k < L->ncp[side]; k++) {
		int c = strmap_get(&m, L->cp[side][k], 0) + 1;

		strmap_set(&m, L->cp[side][k], c);
		if (c > bc) {
			bc = c;
			best = L->cp[side][k];
		}
	}
	strmap_free(&m);
	*count = bc;
	return best;
}

static void cell(char *buf, size_t n, const double *v, int cnt)
{
	double mean, sd, med, mn, mx;

	stats_d(v, cnt, &mean, &sd, &med, &mn, &mx);
	if (!cnt)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.1f (+/- %.1f)", mean, sd);
}

static void json_stats(struct jw *w, const char *key, const double *v,
		       int cnt)
{
	double mean, sd, med, mn, mx;

	stats_d(v, cnt, &mean, &sd, &med, &mn, &mx);
	jw_obj(w, key, JW_FLAT);
	jw_int(w, "n", cnt);
	jw_num(w, "mean_ms", mean);
	jw_num(w, "sd_ms", sd);
	jw_num(w, "median_ms", med);
	jw_num(w, "min_ms", mn);
	jw_num(w, "max_ms", mx);
	jw_end(w);
}

static void print_text(struct label *L, int nl)
{
	char buf[64];
	int w[NCOL + 2], l, c, k;

	printf("pm-async-advise summarize: device phase times in ms, mean (+/- sd) over the\n"
	       "good cycles; suspend = suspend + suspend_late + suspend_noirq, resume =\n"
	       "resume_noirq + resume_early + resume (observed 'PM: ... complete after' times)\n\n");
	w[0] = 5;
	for (l = 0; l < nl; l++)
		if ((int)strlen(L[l].name) > w[0])
			w[0] = (int)strlen(L[l].name);
	w[1] = 3;
	for (c = 0; c < NCOL; c++) {
		w[c + 2] = (int)strlen(col_name(c));
		for (l = 0; l < nl; l++) {
			cell(buf, sizeof(buf), L[l].v[c], L[l].n);
			if ((int)strlen(buf) > w[c + 2])
				w[c + 2] = (int)strlen(buf);
		}
	}
	printf("%-*s %*s", w[0], "label", w[1], "n");
	for (c = 0; c < NCOL; c++)
		printf("  %-*s", w[c + 2], col_name(c));
	putchar('\n');
	for (l = 0; l < nl; l++) {
		printf("%-*s %*d", w[0], L[l].name, w[1], L[l].n);
		for (c = 0; c < NCOL; c++) {
			cell(buf, sizeof(buf), L[l].v[c], L[l].n);
			printf("  %-*s", w[c + 2], buf);
		}
		putchar('\n');
	}
	printf("\nmedian [min - max] (ms):\n");
	for (l = 0; l < nl; l++) {
		int s;

		printf("  %-*s", w[0], L[l].name);
		for (s = 0; s < 2; s++) {
			double mean, sd, med, mn, mx;

			stats_d(L[l].v[s], L[l].n, &mean, &sd, &med, &mn, &mx);
			if (L[l].n)
				printf("  %s %.1f [%.1f - %.1f]", col_name(s), med, mn, mx);
			else
				printf("  %s -", col_name(s));
		}
		putchar('\n');
	}
	printf("\nlower bound from the parsed callbacks (per phase max(critical path,\n"
	       "total / limit), summed per side) and the critical path of the longest phase of each side:\n");
	for (l = 0; l < nl; l++) {
		int s, cnt;

		printf("  %s:", L[l].name);
		if (!L[l].nb) {
			printf(" no callback lines\n");
			continue;
		}
		for (s = 0; s < 2; s++) {
			cell(buf, sizeof(buf), L[l].bound[s], L[l].nb);
			printf("  %s bound %s", col_name(s), buf);
		}
		putchar('\n');
		for (s = 0; s < 2; s++) {
			const char *ch = mode_chain(&L[l], s, &cnt);

			printf("    %s CP (%d/%d cycles): %s\n", col_name(s), cnt,
			       L[l].ncp[s], ch ? ch : "-");
		}
	}
	for (l = 0; l < nl; l++) {
		if (!L[l].nerr && !L[l].failed && !L[l].bad_logs)
			continue;
		printf("\nerrors for %s (%d of %d cycles left out", L[l].name,
		       L[l].failed, L[l].cycles);
		if (L[l].bad_logs)
			printf(", %d unusable log(s)", L[l].bad_logs);
		printf("; a cycle is left out if a phase is missing or aborted or a\n"
		       "device failed to suspend; resume errors are listed, the cycle counts):\n");
		for (k = 0; k < L[l].nerr; k++) {
			struct serr *e = &L[l].err[k];

			printf("  %s", e->log);
			if (e->cycle)
				printf(" cycle %d", e->cycle);
			if (e->line)
				printf(" line %d", e->line);
			printf(": %s%s%s\n", e->dev ? e->dev : "",
			       e->dev ? ": " : "", e->msg);
		}
	}
}

static void print_json(struct label *L, int nl, int limit)
{
	struct jw w = { .f = stdout, .num_format = JSON_NUM_FORMAT };
	int l, c, k, s;

	jw_obj(&w, NULL, JW_BLOCK);
	jw_str(&w, "tool", "pm-async-advise");
	jw_str(&w, "version", PMADV_VERSION);
	jw_str(&w, "mode", "summarize");
	jw_int(&w, "slot_limit", limit);
	jw_arr(&w, "labels", JW_BLOCK);
	for (l = 0; l < nl; l++) {
		jw_obj(&w, NULL, JW_FLAT);
		jw_str(&w, "label", L[l].name);
		jw_arr(&w, "logs", JW_FLAT);
		for (k = 0; k < L[l].nlogs; k++)
			jw_str(&w, NULL, L[l].logs[k]);
		jw_end(&w);
		jw_int(&w, "cycles", L[l].cycles);
		jw_int(&w, "good_cycles", L[l].n);
		jw_int(&w, "failed_cycles", L[l].failed);
		jw_int(&w, "bad_logs", L[l].bad_logs);
		for (c = 0; c < 2; c++)
			json_stats(&w, col_name(c), L[l].v[c], L[l].n);
		jw_obj(&w, "phases", JW_FLAT);
		for (c = 2; c < NCOL; c++)
			json_stats(&w, col_name(c), L[l].v[c], L[l].n);
		jw_end(&w);
		jw_obj(&w, "bound_ms", JW_FLAT);
		for (s = 0; s < 2; s++)
			json_stats(&w, col_name(s), L[l].bound[s], L[l].nb);
		jw_end(&w);
		jw_obj(&w, "critical_path", JW_FLAT);
		for (s = 0; s < 2; s++) {
			int cnt;
			const char *ch = mode_chain(&L[l], s, &cnt);

			jw_obj(&w, col_name(s), JW_FLAT);
			jw_str(&w, "chain", ch);
			jw_int(&w, "cycles", cnt);
			jw_int(&w, "of", L[l].ncp[s]);
			jw_end(&w);
		}
		jw_end(&w);
		jw_arr(&w, "errors", JW_FLAT);
		for (k = 0; k < L[l].nerr; k++) {
			struct serr *e = &L[l].err[k];

			jw_obj(&w, NULL, JW_FLAT);
			jw_str(&w, "log", e->log);
			jw_int(&w, "cycle", e->cycle);
			jw_int(&w, "line", e->line);
			jw_str(&w, "device", e->dev);
			jw_str(&w, "message", e->msg);
			jw_end(&w);
		}
		jw_end(&w);
		jw_end(&w);
	}
	jw_end(&w);
	jw_end(&w);
	putchar('\n');
}

int summarize_main(int argc, char **argv)
{
	struct label *L = NULL;
	int nl = 0, capl = 0, json = 0, limit = 256, i, l, k, rc = 0;
	const char *units_opt = NULL;

	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "limit", required_argument, NULL, 'L' },
		{ "units", required_argument, NULL, 'u' },
		{ "label", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	/* "-": LOGs come back as 1, in order, after the --label they follow */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "-:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = 1;
			break;
		case 'L':
			limit = (int)arg_long("summarize --limit", optarg, 1, 1000000);
			break;
		case 'u':
			units_opt = optarg;
			if (strcmp(units_opt, "auto") && strcmp(units_opt, "us") &&
			    strcmp(units_opt, "ns1024"))
				usage_error("summarize --units: '%s' is not auto, us or ns1024",
					    optarg);
			break;
		case 'l':
			GROW(L, nl, capl);
			memset(&L[nl], 0, sizeof(L[nl]));
			L[nl].name = xstrdup(optarg);
			nl++;
			break;
		case 'h':
			puts("usage: pm-async-advise summarize [--json] [--limit N]\n"
			     "         [--units auto|us|ns1024] --label L1 LOG... [--label L2 LOG...]\n"
			     "Each LOG is the dmesg (or ftrace) of one suspend/resume cycle; logs holding\n"
			     "several cycles contribute each of them.");
			return 0;
		case 1:
			if (!nl)
				usage_error("summarize: LOG %s before any --label", optarg);
			GROW(L[nl - 1].logs, L[nl - 1].nlogs, L[nl - 1].caplogs);
			L[nl - 1].logs[L[nl - 1].nlogs++] = optarg;
			break;
		case ':':
			usage_error("summarize: %s needs a value",
				    bad_option(argv, optind, optopt));
		default:
			usage_error("summarize: unknown option %s",
				    bad_option(argv, optind, optopt));
		}
	}
	if (!nl)
		usage_error("summarize: no --label L LOG...");
	for (l = 0; l < nl; l++) {
		for (k = 0; k < L[l].nlogs; k++) {
			struct pmlog log;
			char err[1024], rel[128], from[PATH_MAX + 32];
			int r, c;

			r = pmlog_parse_file(L[l].logs[k],
					     pmlog_looks_like_ftrace(L[l].logs[k]),
					     &log, err, sizeof(err));
			if (r == PARSE_IOERR || (r == PARSE_NOPM && !log.nbd)) {
				fprintf(stderr, "pm-async-advise summarize: %s\n", err);
				add_err(&L[l], L[l].logs[k], 0, 0, NULL, err);
				L[l].bad_logs++;
				if (r != PARSE_IOERR)
					pmlog_free(&log);
				continue;
			}
			if (!log_kernel_release(&log, L[l].logs[k], rel,
						sizeof(rel), from, sizeof(from)))
				*rel = 0;
			for (c = 0; c < log.ncycles; c++)
				do_cycle(&L[l], &log, c, limit, units_opt,
					 *rel ? rel : NULL);
			if (log.nprob) {
				char *m = xasprintf("%d unmatched callback lines, first at %d: %s",
						    log.nprob, log.prob[0].line,
						    log.prob[0].kind);

				add_err(&L[l], L[l].logs[k], 0, 0, NULL, m);
				free(m);
			}
			pmlog_free(&log);
		}
		if (!L[l].n)
			rc = 2;
	}
	if (json)
		print_json(L, nl, limit);
	else
		print_text(L, nl);
	for (l = 0; l < nl; l++) {
		free(L[l].name);
		free(L[l].logs);
		for (i = 0; i < NCOL; i++)
			free(L[l].v[i]);
		for (i = 0; i < 2; i++) {
			free(L[l].bound[i]);
			for (k = 0; k < L[l].ncp[i]; k++)
				free(L[l].cp[i][k]);
			free(L[l].cp[i]);
		}
		for (k = 0; k < L[l].nerr; k++) {
			free(L[l].err[k].log);
			free(L[l].err[k].dev);
			free(L[l].err[k].msg);
		}
		free(L[l].err);
	}
	free(L);
	return rc;
}

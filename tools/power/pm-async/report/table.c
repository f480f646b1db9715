// SPDX-License-Identifier: GPL-2.0
/*
 * Plain text tables in the style of the 2009 async suspend/resume mails:
 * "sync suspend 1482 (+/- 40)", so old and new numbers read alike.
 */
#include <math.h>
#include <string.h>

#include "report.h"

#define LABEL_W		24
#define CHAIN_SHOW	8	/* devices shown at each end of a long chain */

/* Whole ms from 100 ms up, one decimal below, two below 1 ms. */
static int ms_prec(double ref)
{
	ref = fabs(ref);
	return ref >= 99.95 ? 0 : ref >= 0.995 ? 1 : 2;
}

static void fmt_prec(char *buf, size_t len, double v, double ref)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", ms_prec(ref), v);
}

void fmt_ms(char *buf, size_t len, double v)
{
	fmt_prec(buf, len, v, v);
}

static void fmt_ratio(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2fx", v);
}

/* Print @line without trailing blanks. */
static void put_line(FILE *out, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

/*
 * Append "1482 (+/- 40)  1480  1430-1550  1.05x" to @line, all with the
 * precision of the mean; no ratio column if @ratio is NULL.
 */
static void add_side(char *line, size_t len, const struct stats *st,
		     const struct stats *ratio)
{
	char m[32], sd[32], med[32], lo[32], hi[32], ms[80], mm[80], r[32];
	size_t n = strlen(line);

	if (!st->n) {
		snprintf(line + n, len - n, "  %-17s %-8s %-15s %-8s", "-",
			 "-", "-", ratio ? "-" : "");
		return;
	}
	fmt_prec(m, sizeof(m), st->mean, st->mean);
	fmt_prec(sd, sizeof(sd), st->sd, st->mean);
	fmt_prec(med, sizeof(med), st->median, st->mean);
	fmt_prec(lo, sizeof(lo), st->min, st->mean);
	fmt_prec(hi, sizeof(hi), st->max, st->mean);
	fmt_ratio(r, sizeof(r), ratio ? ratio->mean : NAN);
	snprintf(ms, sizeof(ms), "%s (+/- %s)", m, sd);
	snprintf(mm, sizeof(mm), "%s-%s", lo, hi);
	snprintf(line + n, len - n, "  %-17s %-8s %-15s %-8s", ms, med, mm,
		 ratio ? r : "");
}

static void print_heading(FILE *out, const struct summary *s,
			  const struct profile *p)
{
	fprintf(out, "Profile %s, version %s: %d cycle%s, ", p->name,
		p->versions ? p->versions : "unknown", p->ncycles,
		p->ncycles == 1 ? "" : "s");
	fprintf(out, "%d incomplete%s, %d violation%s, limit %d\n\n",
		p->incomplete, p->incomplete ? " (not averaged)" : "",
		p->violations, p->violations == 1 ? "" : "s", s->limit);
	fprintf(out, "%-*s %4s  %-17s %-8s %-15s %-8s  %-17s %-8s %-15s %-8s %4s %4s\n",
		LABEL_W, "[ms]", "n", "suspend", "median", "min-max",
		"x bound", "resume", "median", "min-max", "x bound",
		"inc", "viol");
}

static void print_rows(FILE *out, const struct profile *p)
{
	char label[128], line[512];
	size_t n;
	int i, side;

	for (i = 0; i < p->nrow; i++) {
		const struct row *r = &p->row[i];

		snprintf(line, sizeof(line), "%-*s %4d", LABEL_W,
			 row_label(r, label, sizeof(label)), r->n);
		for (side = 0; side < 2; side++)
			add_side(line, sizeof(line), &r->side[side],
				 &r->ratio[side]);
		n = strlen(line);
		snprintf(line + n, sizeof(line) - n, " %4d %4d", r->incomplete,
			 r->violations);
		put_line(out, line);
	}
	if (!p->bound_row) {
		fprintf(out, "%-*s (no complete async cycle)\n", LABEL_W,
			"bound");
		return;
	}
	snprintf(label, sizeof(label), "bound (%s %s)", p->bound_row->mode,
		 kernel_label(p->bound_row->kernel));
	snprintf(line, sizeof(line), "%-*s %4d", LABEL_W, label,
		 p->bound_row->n);
	for (side = 0; side < 2; side++)
		add_side(line, sizeof(line), &p->bound_row->bound[side], NULL);
	put_line(out, line);
}

static void print_phases(FILE *out, const struct profile *p)
{
	char label[128], v[32];
	int i, s;

	fprintf(out, "\n%-*s", LABEL_W, "mean phase times [ms]");
	for (s = 0; s < NPHASES; s++)
		fprintf(out, " %14s", phase_name(p->first->fam[slot_side(s)], s));
	fprintf(out, "\n");
	for (i = 0; i < p->nrow; i++) {
		const struct row *r = &p->row[i];

		fprintf(out, "%-*s", LABEL_W, row_label(r, label, sizeof(label)));
		for (s = 0; s < NPHASES; s++) {
			fmt_ms(v, sizeof(v), r->phase[s].mean);
			fprintf(out, " %14s", v);
		}
		fprintf(out, "\n");
	}
}

static void print_summary(FILE *out, const struct profile *p)
{
	static const char *const kernels[] = { "stock", "patched" };
	char a[32], b[32];
	int i, first = 1;

	fmt_ratio(a, sizeof(a), p->over_stock[SIDE_SUSPEND]);
	fmt_ratio(b, sizeof(b), p->over_stock[SIDE_RESUME]);
	fprintf(out, "\npatched/stock async: suspend %s resume %s\n", a, b);
	fprintf(out, "async time/bound:");
	for (i = 0; i < 2; i++) {
		const struct row *r = profile_row(p, "async", kernels[i]);

		if (!r || !r->n)
			continue;
		fmt_ratio(a, sizeof(a), r->ratio[SIDE_SUSPEND].mean);
		fmt_ratio(b, sizeof(b), r->ratio[SIDE_RESUME].mean);
		fprintf(out, "%s %s suspend %s resume %s", first ? "" : ",",
			kernel_label(kernels[i]), a, b);
		first = 0;
	}
	fprintf(out, "%s\n", first ? " no complete async cycles" : "");
}

static void print_chain(FILE *out, const struct cycle *c, int slot)
{
	int i, n = c->nchain[slot];
	char cp[32];

	fmt_ms(cp, sizeof(cp), c->cp_ns[slot] / 1e6);
	fprintf(out, "  %-14s CP %7s ms:", cycle_phase_name(c, slot), cp);
	for (i = 0; i < n; i++) {
		if (n > 2 * CHAIN_SHOW && i == CHAIN_SHOW) {
			fprintf(out, " -> ... (%d more)", n - 2 * CHAIN_SHOW);
			i = n - CHAIN_SHOW;
		}
		fprintf(out, "%s%s", i ? " -> " : " ",
			c->dev[c->chain[slot][i]].name);
	}
	fprintf(out, "%s\n", n ? "" : " (no callbacks)");
}

static void print_cp(FILE *out, const struct profile *p)
{
	static const char *const sides[] = { "suspend", "resume" };
	int side, s;

	for (side = 0; side < 2; side++) {
		const struct cycle *c = p->cp_cyc[side];

		if (!c) {
			fprintf(out, "\ncritical path (%s): no async cycle\n",
				sides[side]);
			continue;
		}
		fprintf(out, "\ncritical path (%s), %s %s cycle %ld", sides[side],
			c->mode, kernel_label(c->kernel), c->number);
		if (p->cp_row)
			fprintf(out, ", median of %d by %s time:\n",
				p->cp_row->n, sides[side]);
		else
			fprintf(out, " (incomplete, no complete async cycle):\n");
		for (s = 3 * side; s < 3 * side + 3; s++)
			print_chain(out, c, s);
	}
}

void print_tables(FILE *out, const struct summary *s)
{
	int i;

	for (i = 0; i < s->nprof; i++) {
		const struct profile *p = &s->prof[i];

		if (i)
			fprintf(out, "\n\n");
		print_heading(out, s, p);
		print_rows(out, p);
		print_phases(out, p);
		print_summary(out, p);
		print_cp(out, p);
	}
	if (!s->nprof)
		fprintf(out, "no cycles found\n");
}

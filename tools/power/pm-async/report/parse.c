// SPDX-License-Identifier: GPL-2.0
/*
 * Parser for the harness output: "=== cycle" ... "=== end" blocks holding
 * the lab's topology and report files and the kernel's PM timing lines.
 *
 * Everything outside a block is boot noise and skipped.  Inside a block
 * the lab formats are stable, so anything we do not understand is an
 * error rather than something to guess around: a silently dropped line
 * would skew the numbers without anyone noticing.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lineread.h"
#include "pm_async_record.h"
#include "report.h"

enum section { SEC_NONE, SEC_TOPOLOGY, SEC_REPORT, SEC_PM };

struct parser {
	const char *path;
	int line;
	char *err;
	size_t errlen;
	struct cycle *cur;
	enum section sec;
	unsigned int seen;	/* bit per section already started */
	struct pma_reader rd;	/* where the report section is */
	int klines;		/* kernel PM lines outside blocks */
};

static int perr(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(p->err, p->errlen, "%s:%d: ", p->path, line);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Split @s in place at blanks; returns the number of tokens. */
static int split(char *s, char **tok, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static int blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s;
}

static struct cycle *cycle_new(const char *path, int line)
{
	struct cycle *c = xcalloc(1, sizeof(*c));

	c->file = path;
	c->line = line;
	c->fam[0] = -1;
	c->fam[1] = -1;
	return c;
}

void cycle_free(struct cycle *c)
{
	int i;

	for (i = 0; i < c->nhdr; i++) {
		free(c->hdr[i].key);
		free(c->hdr[i].val);
	}
	for (i = 0; i < c->ndev; i++) {
		free(c->dev[i].name);
		free(c->dev[i].sup);
	}
	for (i = 0; i < NPHASES; i++)
		free(c->chain[i]);
	free(c->hdr);
	free(c->dev);
	strmap_free(&c->names);
	free(c->cb);
	free(c);
}

void input_free(struct input *in)
{
	int i;

	for (i = 0; i < in->n; i++)
		cycle_free(in->cyc[i]);
	free(in->cyc);
	in->cyc = NULL;
	in->n = 0;
	in->cap = 0;
}

static int header_required(struct parser *p, struct cycle *c)
{
	static const char *const req[] = { "kernel", "profile", "mode",
					   "cycle" };
	long long num;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(req); i++)
		if (!hdr_get(c, req[i]))
			return perr(p, c->line,
				    "missing required header key '%s'",
				    req[i]);
	if (parse_ll(hdr_get(c, "cycle"), &num) || num < 0)
		return perr(p, c->line, "bad cycle number '%s'",
			    hdr_get(c, "cycle"));
	c->number = num;
	hdr_fields(c);
	c->sync = !strcmp(c->mode, "sync");
	return 0;
}

/* "=== cycle key=value ..." */
static int parse_header(struct parser *p, char *args)
{
	struct cycle *c = cycle_new(p->path, p->line);
	char *tok[256];
	int n, i, cap = 0;

	p->cur = c;
	p->sec = SEC_NONE;
	p->seen = 0;
	pma_rec_begin(&p->rd);
	n = split(args, tok, 255);
	if (n > 255)
		return perr(p, p->line, "too many header fields");
	for (i = 0; i < n; i++) {
		char *eq = strchr(tok[i], '=');

		if (!eq || eq == tok[i] || !eq[1])
			return perr(p, p->line,
				    "header field '%s' is not key=value",
				    tok[i]);
		*eq = '\0';
		if (hdr_get(c, tok[i]))
			return perr(p, p->line, "duplicate header key '%s'",
				    tok[i]);
		GROW(c->hdr, c->nhdr, cap);
		c->hdr[c->nhdr].key = xstrdup(tok[i]);
		c->hdr[c->nhdr++].val = xstrdup(eq + 1);
	}
	return header_required(p, c);
}

static int find_dev(struct parser *p, const char *name)
{
	return strmap_get(&p->cur->names, name, -1);
}

static int topo_suppliers(struct parser *p, struct dev *d, char *list)
{
	char *name, *save = NULL;
	int cap = 0;

	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		int idx = find_dev(p, name);

		/* The lab only links to devices that already exist. */
		if (idx < 0)
			return perr(p, p->line, "unknown supplier '%s'", name);
		GROW(d->sup, d->nsup, cap);
		d->sup[d->nsup++] = idx;
	}
	return 0;
}

/* A line of the topology the cycles ran (lib/topo.h). */
static int parse_topology(struct parser *p, char *line)
{
	struct cycle *c = p->cur;
	struct topo_dev t;
	struct dev *d;
	char err[128];
	int rc, parent = -1, s;

	rc = topo_parse(line, &t, err, sizeof(err));
	if (rc <= 0)
		return rc ? perr(p, p->line, "%s", err) : 0;
	if (find_dev(p, t.name) >= 0)
		return perr(p, p->line, "duplicate device '%s'", t.name);
	if (t.parent) {
		parent = find_dev(p, t.parent);
		if (parent < 0)
			return perr(p, p->line, "unknown parent '%s'",
				    t.parent);
	}
	GROW(c->dev, c->ndev, c->capdev);
	d = &c->dev[c->ndev];
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(t.name);
	d->parent = parent;
	d->async = t.async;
	d->no_pm = t.pm == TOPO_PM_OFF;
	d->depth = parent < 0 ? 0 : c->dev[parent].depth + 1;
	for (s = 0; s < NPHASES; s++)
		d->cb[s] = -1;
	/* Count the device now so that cycle_free() releases its name. */
	c->ndev++;
	/* Not its own supplier: named only once they are read. */
	if (t.suppliers && topo_suppliers(p, d, t.suppliers))
		return -1;
	strmap_set(&c->names, d->name, c->ndev - 1);
	return 0;
}

/*
 * Only one callback family per side is measured (the first one seen):
 * a hibernation report may hold freeze and poweroff lines, and mixing
 * them into one phase would be meaningless.
 */
static int family_ok(struct cycle *c, int fam, int slot)
{
	int side = slot_side(slot);

	if (c->fam[side] < 0)
		c->fam[side] = fam;
	return c->fam[side] == fam;
}

static int report_store(struct parser *p, int dev, int slot, int fam,
			const struct pma_rec *r)
{
	struct cycle *c = p->cur;
	struct cb *cb;

	if (slot < 0 || !family_ok(c, fam, slot))
		return 0;
	if (c->dev[dev].cb[slot] >= 0)
		return perr(p, p->line, "duplicate report line for %s %s",
			    c->dev[dev].name, phase_name(fam, slot));
	GROW(c->cb, c->ncb, c->capcb);
	cb = &c->cb[c->ncb];
	cb->dev = dev;
	cb->slot = slot;
	cb->start = r->start;
	cb->end = r->end;
	cb->cpu = r->cpu;
	cb->result = r->result;
	cb->task = r->task;
	cb->pid = -1;
	cb->line = p->line;
	c->dev[dev].cb[slot] = c->ncb++;
	return 0;
}

/* A callback line, read by the kselftest's reader (pm_async_record.c). */
static int report_callback(struct parser *p, const struct pma_rec *r)
{
	int dev, fam, slot;

	dev = find_dev(p, r->name);
	if (dev < 0)
		return perr(p, p->line, "unknown device '%s'", r->name);
	if (phase_lookup(r->phase, &fam, &slot))
		return perr(p, p->line, "unknown phase '%s'", r->phase);
	return report_store(p, dev, slot, fam, r);
}

static int parse_report(struct parser *p, char *line)
{
	struct pma_rec r;
	char err[96];

	switch (pma_rec_parse(&p->rd, line, &r, err, sizeof(err))) {
	case PMA_REC_HEADER:
	case PMA_REC_VIOLATION:
		return 0;
	case PMA_REC_VIOLATIONS:
		p->cur->violations = (int)r.violations;
		return 0;
	case PMA_REC_CALLBACK:
		return report_callback(p, &r);
	case PMA_REC_BLANK:	/* left out by parse_line() */
		return 0;
	default:
		return perr(p, p->line, "%s", err);
	}
}

/*
 * "[   12.345678] PM: late suspend of devices complete after 1.234 msecs"
 * Returns 1 and fills in the phase if @line has this form, 0 otherwise.
 */
int parse_pm_line(const char *line, int *fam, int *slot, double *ms,
		  int *aborted)
{
	const char *pm = strstr(line, "PM: ");
	char info[PM_WORD_MAX], verb[PM_WORD_MAX];
	int ph;

	if (!pm || !pm_boundary_words(pm, info, verb, ms, aborted))
		return 0;
	/* "start" and "end" lines sum phases up: no phase of their own */
	ph = phase_of_boundary(info, verb, NULL, 0);
	if (ph < 0 || pm_verb_lookup(verb, fam, NULL))
		return 0;
	*slot = ph;
	return 1;
}

/*
 * Kernel log lines; unrelated ones are expected here and skipped.  If the
 * harness dumped more log than this cycle's, the last line of a phase is
 * the most recent one, so it wins.
 */
static int parse_pm(struct parser *p, char *line)
{
	struct cycle *c = p->cur;
	int fam, slot, aborted;
	double ms;

	if (!parse_pm_line(line, &fam, &slot, &ms, &aborted))
		return 0;
	if (!family_ok(c, fam, slot))
		return 0;
	c->pm_ms[slot] = ms;
	c->have_pm[slot] = 1;
	c->pm_aborted[slot] = aborted;
	return 0;
}

static int parse_section(struct parser *p, const char *name)
{
	static const char *const names[] = {
		[SEC_TOPOLOGY] = "topology", [SEC_REPORT] = "report",
		[SEC_PM] = "pm",
	};
	int s;

	for (s = SEC_TOPOLOGY; s <= SEC_PM; s++) {
		if (strcmp(name, names[s]))
			continue;
		if (p->seen & (1u << s))
			return perr(p, p->line, "second '--- %s' section",
				    name);
		/* Report lines name devices, so the topology comes first. */
		if (s == SEC_REPORT && !(p->seen & (1u << SEC_TOPOLOGY)))
			return perr(p, p->line,
				    "'--- report' before '--- topology'");
		p->seen |= 1u << s;
		p->sec = s;
		return 0;
	}
	return perr(p, p->line, "unknown section '--- %s'", name);
}

static void cycle_add(struct input *in, struct cycle *c)
{
	GROW(in->cyc, in->n, in->cap);
	in->cyc[in->n++] = c;
}

static int parse_in_block(struct parser *p, struct input *in, char *line)
{
	if (!strncmp(line, "===", 3)) {
		char *tok[3];
		int n = split(line, tok, 2);

		if (n == 2 && !strcmp(tok[1], "end")) {
			cycle_add(in, p->cur);
			p->cur = NULL;
			return 0;
		}
		return perr(p, p->line,
			    "unexpected '%s' in cycle block of line %d (missing '=== end'?)",
			    n > 1 ? tok[1] : "===", p->cur->line);
	}
	if (!strncmp(line, "--- ", 4))
		return parse_section(p, line + 4 + strspn(line + 4, " "));
	if (p->sec == SEC_PM)
		return parse_pm(p, line);
	if (blank(line))
		return 0;
	switch (p->sec) {
	case SEC_TOPOLOGY:
		return parse_topology(p, line);
	case SEC_REPORT:
		return parse_report(p, line);
	default:
		return perr(p, p->line, "line outside a '---' section");
	}
}

/*
 * A line of a machine's kernel log that pm-async-advise reads: a
 * pm_print_times callback ("calling  DEV+ @ PID, parent: P", "DRIVER DEV:
 * PM: calling CB @ PID, parent: P", "... returned N after N usecs") or a
 * phase line ("PM: suspend of devices complete after X msecs").
 */
static int kernel_pm_line(const char *line)
{
	return strstr(line, " of devices complete after ") ||
	       strstr(line, " of devices aborted after ") ||
	       (strstr(line, "calling ") && strstr(line, " @ ") &&
		strstr(line, ", parent: ")) ||
	       (strstr(line, " returned ") && strstr(line, " usecs"));
}

static int parse_line(struct parser *p, struct input *in, char *line)
{
	size_t len = strlen(line);

	/* Serial consoles add CRs; trailing blanks carry no meaning. */
	while (len && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	if (p->cur)
		return parse_in_block(p, in, line);
	if (kernel_pm_line(line))
		p->klines++;
	if (!strncmp(line, "=== cycle", 9) &&
	    (line[9] == '\0' || line[9] == ' ' || line[9] == '\t'))
		return parse_header(p, line + 9);
	return 0;
}

/*
 * Append the cycles of @f to @in.  On error, returns -1 with "FILE:LINE:
 * reason" in @err; cycles of earlier complete blocks stay in @in.  A file
 * without "=== cycle" blocks but with kernel PM lines is a machine's log:
 * PARSE_KERNEL_LOG (klog_read() reads it).
 */
int parse_file(struct input *in, const char *path, FILE *f,
	       char *err, size_t errlen)
{
	struct parser p = { .path = path, .err = err, .errlen = errlen };
	struct line_reader lr;
	int ret = 0, rc, n0 = in->n;

	lr_init(&lr, f, REPORT_LINE_MAX);
	while ((rc = lr_next(&lr)) > 0) {
		p.line++;
		if (rc == LR_TOO_LONG) {
			ret = perr(&p, p.line, "line longer than %d bytes",
				   REPORT_LINE_MAX);
			break;
		}
		ret = parse_line(&p, in, lr.line);
		if (ret)
			break;
	}
	if (!ret && rc == LR_ERROR)
		ret = perr(&p, p.line, "read error");
	if (!ret && p.cur)
		ret = perr(&p, p.cur->line,
			   "cycle block not terminated by '=== end'");
	/* no block but pm_print_times or phase lines: read it as a log */
	if (!ret && in->n == n0 && p.klines)
		ret = PARSE_KERNEL_LOG;
	if (p.cur)
		cycle_free(p.cur);
	lr_free(&lr);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * pm-async-advise: parse a pm_print_times dmesg or a PM ftrace into
 * callback records, phase boundaries, failures and problems.
 *
 * dmesg formats (see drivers/base/power/main.c, initcall_debug_start() and
 * initcall_debug_report()):
 *   old (up to 4.x):  "calling  DEV+ @ PID, parent: PARENT"
 *                     "call DEV+ returned ERR after N usecs"
 *   dev_info (6.x):   "DRIVER DEV: PM: calling CB @ PID, parent: PARENT"
 *                     "DRIVER DEV: PM: CB returned ERR after N usecs"
 *   (DRIVER is dev_driver_string(): driver, bus or class name, or "" in which
 *   case the line starts with a blank; 4.x/5.x print the same without "PM: ")
 * Phase boundaries come from dpm_show_time():
 *   "PM: [INFO ]VERB of devices complete|aborted after X msecs"
 * A callback line belongs to the phase that the next boundary line closes.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmadv.h"

/* --------------------------------------------------------- helpers */

static const char *rstrstr(const char *hay, const char *needle)
{
	const char *r = NULL, *p = hay;
	size_t nl = strlen(needle);

	if (!nl)
		return NULL;
	while ((p = strstr(p, needle))) {
		r = p;
		p++;
	}
	return r;
}

static int starts(const char *s, const char *pfx)
{
	return !strncmp(s, pfx, strlen(pfx));
}

/* verb classes, as printed by pm_verb() */
static int verb_side(const char *v)
{
	static const char *const sus[] = { "suspend", "freeze", "quiesce",
					   "hibernate", "poweroff", NULL };
	static const char *const res[] = { "resume", "thaw", "restore",
					   "recover", NULL };
	int i;

	for (i = 0; sus[i]; i++)
		if (!strcmp(v, sus[i]))
			return 1;
	for (i = 0; res[i]; i++)
		if (!strcmp(v, res[i]))
			return 2;
	return 0;
}

int phase_of_boundary(const char *info, const char *verb, char *canon,
		      size_t n)
{
	int side = verb_side(verb);

	if (canon && n) {
		strncpy(canon, verb, n - 1);
		canon[n - 1] = 0;
	}
	/*
	 * "start" (prepare + suspend) and "end" (late + noirq) are totals
	 * printed after the phases they sum up: not boundaries.
	 */
	if (!strcmp(info, "start") || !strcmp(info, "end"))
		return PH_END;
	if (!side)
		return PH_NONE;
	if (!*info)
		return side == 1 ? PH_SUSPEND : PH_RESUME;
	if (!strcmp(info, "late") && side == 1)
		return PH_SUSPEND_LATE;
	if (!strcmp(info, "noirq"))
		return side == 1 ? PH_SUSPEND_NOIRQ : PH_RESUME_NOIRQ;
	if (!strcmp(info, "early") && side == 2)
		return PH_RESUME_EARLY;
	return PH_NONE;
}

/* ftrace info string ("noirq bus ", "late driver ", "preparing type ") */
int parse_phase_words(const char *info, const char *verb)
{
	int side = verb_side(verb);

	if (starts(info, "preparing"))
		return PH_PREPARE;
	if (starts(info, "completing"))
		return PH_COMPLETE;
	if (!side)
		return PH_NONE;
	if (starts(info, "noirq"))
		return side == 1 ? PH_SUSPEND_NOIRQ : PH_RESUME_NOIRQ;
	if (starts(info, "late"))
		return PH_SUSPEND_LATE;
	if (starts(info, "early"))
		return PH_RESUME_EARLY;
	return side == 1 ? PH_SUSPEND : PH_RESUME;
}

/* ------------------------------------------------------- log state */

struct pstate {
	struct pmlog *log;
	int *open;		/* indices of records with a calling, no return */
	int nopen, capopen;
	int pend_cb, pend_fail;	/* first record not assigned to a phase */
	int cur_cycle;
	unsigned int seen;	/* phases seen in the current cycle */
	int any_boundary;
};

static void add_problem(struct pmlog *log, int line, const char *kind,
			const char *dev)
{
	DA_GROW(log->prob, log->nprob, log->capprob);
	log->prob[log->nprob].line = line;
	log->prob[log->nprob].kind = kind;
	log->prob[log->nprob].dev = dev ? xstrdup(dev) : NULL;
	log->nprob++;
}

static struct cbrec *new_rec(struct pmlog *log)
{
	struct cbrec *r;

	DA_GROW(log->cb, log->ncb, log->capcb);
	r = &log->cb[log->ncb++];
	memset(r, 0, sizeof(*r));
	r->pid = -1;
	r->dur_us = NAN;
	r->ts_call = NAN;
	r->ts_ret = NAN;
	r->phase = PH_NONE;
	r->cycle = -1;
	return r;
}

static void open_remove(struct pstate *st, int k)
{
	st->open[k] = st->open[--st->nopen];
}

static void do_calling(struct pstate *st, int line, double ts,
		       const char *dev, const char *driver, const char *parent,
		       const char *cb, int pid, int phase)
{
	struct pmlog *log = st->log;
	struct cbrec *r;
	int k;

	/* the same device cannot run two callbacks at once */
	for (k = 0; k < st->nopen; k++) {
		struct cbrec *o = &log->cb[st->open[k]];

		if (strcmp(o->dev, dev) || strcmp(o->driver, driver))
			continue;
		if (!o->parent != !parent ||
		    (parent && strcmp(o->parent, parent)))
			continue;
		add_problem(log, o->line_call, "calling without returned",
			    o->dev);
		open_remove(st, k);
		break;
	}
	r = new_rec(log);
	r->dev = xstrdup(dev);
	r->driver = xstrdup(driver);
	r->parent = parent ? xstrdup(parent) : NULL;
	r->cb = cb ? xstrdup(cb) : NULL;
	r->pid = pid;
	r->ts_call = ts;
	r->line_call = line;
	if (phase != PH_NONE) {
		r->phase = phase;
		r->cycle = st->cur_cycle;
	}
	DA_GROW(st->open, st->nopen, st->capopen);
	st->open[st->nopen++] = log->ncb - 1;
}

/* dur < 0: compute from timestamps (ftrace) */
static void do_returned(struct pstate *st, int line, double ts,
			const char *dev, const char *driver, int err,
			double dur, int phase)
{
	struct pmlog *log = st->log;
	int k, match = -1, nmatch = 0;

	for (k = 0; k < st->nopen; k++) {
		struct cbrec *o = &log->cb[st->open[k]];

		if (strcmp(o->dev, dev))
			continue;
		if (*driver && *o->driver && strcmp(driver, o->driver))
			continue;
		nmatch++;
		match = k;
	}
	if (nmatch == 1) {
		struct cbrec *r = &log->cb[st->open[match]];

		r->err = err;
		r->ts_ret = ts;
		r->line_ret = line;
		r->dur_us = dur >= 0 ? dur : (ts - r->ts_call) * 1e6;
		open_remove(st, match);
		return;
	}
	if (nmatch > 1) {
		/* several devices of that name are running: do not guess */
		add_problem(log, line, "returned matches several open callings",
			    dev);
		return;
	}
	add_problem(log, line, "returned without calling", dev);
	{
		struct cbrec *r = new_rec(log);

		r->dev = xstrdup(dev);
		r->driver = xstrdup(driver);
		r->err = err;
		r->ts_ret = ts;
		r->line_ret = line;
		r->dur_us = dur >= 0 ? dur : NAN;
		if (phase != PH_NONE) {
			r->phase = phase;
			r->cycle = st->cur_cycle;
		}
	}
}

static int cycle_rule(struct pstate *st, int phase)
{
	const unsigned int resmask = (1u << PH_RESUME_NOIRQ) |
		(1u << PH_RESUME_EARLY) | (1u << PH_RESUME);

	if (phase >= 0) {
		if ((st->seen & (1u << phase)) ||
		    (phase == PH_SUSPEND && (st->seen & resmask))) {
			st->cur_cycle++;
			st->seen = 0;
		}
		st->seen |= 1u << phase;
	} else if (phase == PH_PREPARE && st->seen) {
		st->cur_cycle++;
		st->seen = 0;
	}
	return st->cur_cycle;
}

/* a boundary closes `phase`: pending records belong to it */
static void close_phase(struct pstate *st, int phase, int cycle)
{
	struct pmlog *log = st->log;
	int i, k;

	for (i = st->pend_cb; i < log->ncb; i++) {
		if (log->cb[i].phase != PH_NONE)
			continue;
		log->cb[i].phase = phase;
		log->cb[i].cycle = cycle;
	}
	st->pend_cb = log->ncb;
	for (i = st->pend_fail; i < log->nfail; i++) {
		log->fail[i].phase = phase;
		log->fail[i].cycle = cycle;
	}
	st->pend_fail = log->nfail;
	/* every callback of a phase returns before its boundary line */
	for (k = 0; k < st->nopen;) {
		struct cbrec *o = &log->cb[st->open[k]];

		if (o->phase == phase && o->cycle == cycle) {
			add_problem(log, o->line_call,
				    "calling without returned", o->dev);
			open_remove(st, k);
		} else {
			k++;
		}
	}
}

static void add_boundary(struct pstate *st, int line, int phase,
			 const char *verb, double ms, int aborted)
{
	struct pmlog *log = st->log;
	struct boundary *b;
	int cyc;

	if (phase == PH_END || phase == PH_NONE)
		return;
	cyc = cycle_rule(st, phase);
	close_phase(st, phase, cyc);
	st->any_boundary = 1;
	if (phase < 0)
		return;
	DA_GROW(log->bd, log->nbd, log->capbd);
	b = &log->bd[log->nbd++];
	memset(b, 0, sizeof(*b));
	b->line = line;
	b->phase = phase;
	b->cycle = cyc;
	b->aborted = aborted;
	b->ms = ms;
	snprintf(b->verb, sizeof(b->verb), "%s", verb);
	if (cyc + 1 > log->ncycles)
		log->ncycles = cyc + 1;
}

static void add_failure(struct pmlog *log, int line, const char *dev,
			int err, const char *msg)
{
	struct failure *f;

	DA_GROW(log->fail, log->nfail, log->capfail);
	f = &log->fail[log->nfail++];
	f->line = line;
	f->dev = dev ? xstrdup(dev) : NULL;
	f->err = err;
	f->msg = xstrdup(msg);
	f->phase = PH_NONE;
	f->cycle = -1;
}

static void finish(struct pstate *st)
{
	struct pmlog *log = st->log;
	int i;

	for (i = 0; i < log->ncb; i++)
		if (log->cb[i].phase == PH_NONE)
			add_problem(log, log->cb[i].line_call ?
				    log->cb[i].line_call : log->cb[i].line_ret,
				    "callback after the last phase boundary",
				    log->cb[i].dev);
	for (i = 0; i < st->nopen; i++) {
		struct cbrec *o = &log->cb[st->open[i]];

		if (o->phase != PH_NONE)	/* already closed otherwise */
			add_problem(log, o->line_call,
				    "calling without returned", o->dev);
	}
	free(st->open);
}

/* --------------------------------------------------------- dmesg */

/* strip "<6>", syslog "... kernel: ", "[ 12.345678]" and "[T123]" */
static char *strip_line(char *line, double *ts)
{
	char *p = line, *k;
	size_t l = strlen(p);

	while (l && (p[l - 1] == '\n' || p[l - 1] == '\r'))
		p[--l] = 0;
	*ts = NAN;
	k = strstr(p, "kernel: ");
	if (k && k - p < 80)
		p = k + 8;
	if (p[0] == '<') {
		char *q = p + 1;

		while (isdigit((unsigned char)*q) || *q == ',')
			q++;
		if (*q == '>' && q > p + 1)
			p = q + 1;
	}
	if (p[0] == '[') {
		char *end, *close = strchr(p, ']');

		if (close) {
			double v = strtod(p + 1, &end);

			while (end < close && *end == ' ')
				end++;
			if (end == close && end > p + 1)
				*ts = v;
			p = close + 1;
			/* CONFIG_PRINTK_CALLER: "[ T1234]" / "[C0]" */
			if (p[0] == '[') {
				char *q = p + 1;

				while (*q == ' ')
					q++;
				if ((*q == 'T' || *q == 'C') &&
				    isdigit((unsigned char)q[1])) {
					q++;
					while (isdigit((unsigned char)*q))
						q++;
					if (*q == ']')
						p = q + 1;
				}
			}
			if (*p == ' ')	/* exactly one: "[ts]  DEV:" keeps a blank */
				p++;
		}
	}
	return p;
}

/* "DRIVER DEV" (or " DEV" when the driver string is empty) */
static void split_prefix(const char *pfx, size_t n, char **driver, char **dev)
{
	const char *sp;
	char *tmp = xstrndup(pfx, n);

	if (tmp[0] == ' ') {
		*driver = xstrdup("");
		*dev = xstrdup(trim(tmp));
	} else if (strchr(tmp, ' ')) {
		sp = strchr(tmp, ' ');
		*driver = xstrndup(tmp, (size_t)(sp - tmp));
		*dev = xstrdup(trim((char *)sp));
	} else {
		*driver = xstrdup("");
		*dev = xstrdup(tmp);
	}
	free(tmp);
}

static int parse_int_strict(const char *s, long long *v, const char **end)
{
	char *e;

	*v = strtoll(s, &e, 10);
	if (e == s)
		return 0;
	if (end)
		*end = e;
	return 1;
}

/* "ERR after N usecs" */
static int parse_ret_tail(const char *s, int *err, double *dur)
{
	long long e, d;
	const char *p;

	if (!parse_int_strict(s, &e, &p))
		return 0;
	if (!starts(p, " after "))
		return 0;
	if (!parse_int_strict(p + 7, &d, &p))
		return 0;
	if (!starts(p, " usecs"))
		return 0;
	*err = (int)e;
	*dur = (double)d;
	return 1;
}

/* "@ PID, parent: PARENT" at the end of s; returns start of " @ " */
static const char *parse_call_tail(const char *s, int *pid, char **parent)
{
	const char *par = rstrstr(s, ", parent: "), *at, *p;
	long long v;
	char *tmp;

	if (!par)
		return NULL;
	/* last " @ " before ", parent: " */
	at = NULL;
	for (p = s; (p = strstr(p, " @ ")) && p < par; p++)
		at = p;
	if (!at || !parse_int_strict(at + 3, &v, &p) || p != par)
		return NULL;
	*pid = (int)v;
	tmp = xstrdup(par + 10);
	if (!strcmp(trim(tmp), "none"))
		*parent = NULL;
	else
		*parent = xstrdup(trim(tmp));
	free(tmp);
	return at;
}

static int line_dmesg(struct pstate *st, int lineno, char *raw)
{
	struct pmlog *log = st->log;
	double ts;
	char *m = strip_line(raw, &ts), *mm = m;
	const char *colon;

	if (starts(mm, "PM: calling ") || starts(mm, "PM: call "))
		mm += 4;
	/* old format */
	if (starts(mm, "calling ") && strstr(mm, "+ @ ")) {
		char *parent = NULL;
		int pid;
		const char *at = parse_call_tail(mm, &pid, &parent);
		const char *d = mm + 8;

		while (*d == ' ')
			d++;
		if (at && at > d && at[-1] == '+') {
			char *dev = xstrndup(d, (size_t)(at - 1 - d));

			do_calling(st, lineno, ts, dev, "", parent, NULL, pid,
				   PH_NONE);
			log->format |= FMT_OLD;
			free(dev);
			free(parent);
			return 1;
		}
		free(parent);
	}
	if (starts(mm, "call ")) {
		const char *r = rstrstr(mm, "+ returned ");
		int err;
		double dur;

		if (r && r > mm + 5 && parse_ret_tail(r + 11, &err, &dur)) {
			char *dev = xstrndup(mm + 5, (size_t)(r - mm - 5));

			do_returned(st, lineno, ts, dev, "", err, dur, PH_NONE);
			log->format |= FMT_OLD;
			free(dev);
			return 1;
		}
	}
	/* PM core lines */
	if (starts(m, "PM: ")) {
		const char *b = m + 4, *of = strstr(b, " of devices ");

		if (of) {
			char words[64], info[32] = "", verb[32] = "", canon[16];
			const char *t = of + 12;
			int aborted = -1, ph;
			double ms;
			size_t wl = (size_t)(of - b);

			if (starts(t, "complete after "))
				aborted = 0, t += 15;
			else if (starts(t, "aborted after "))
				aborted = 1, t += 14;
			if (aborted >= 0 && wl < sizeof(words) &&
			    sscanf(t, "%lf msecs", &ms) == 1) {
				memcpy(words, b, wl);
				words[wl] = 0;
				if (sscanf(words, "%31s %31s", info, verb) != 2) {
					snprintf(verb, sizeof(verb), "%.31s", words);
					info[0] = 0;
				}
				ph = phase_of_boundary(info, verb, canon,
						       sizeof(canon));
				if (ph != PH_NONE) {
					add_boundary(st, lineno, ph, canon, ms,
						     aborted);
					return 1;
				}
			}
		}
		if (starts(b, "Device ") && strstr(b, " failed to ")) {
			const char *f = strstr(b, " failed to ");
			char *dev = xstrndup(b + 7, (size_t)(f - b - 7));
			const char *e = strstr(f, "error ");

			add_failure(log, lineno, dev, e ? atoi(e + 6) : 0, m);
			free(dev);
			return 1;
		}
		if (strstr(b, "failed to suspend") || strstr(b, "failed to freeze")) {
			add_failure(log, lineno, NULL, 0, m);
			return 1;
		}
		return 0;
	}
	if (starts(m, "dpm_run_callback(): "))	/* old: device in next line */
		return 1;
	/* dev_info format: "DRIVER DEV: [PM: ]..." */
	colon = strstr(m, ": ");
	if (colon && colon > m) {
		const char *rest = colon + 2;
		char *driver, *dev;

		if (starts(rest, "PM: "))
			rest += 4;
		if (starts(rest, "calling ")) {
			char *parent = NULL;
			int pid;
			const char *at = parse_call_tail(rest, &pid, &parent);

			if (at && at >= rest + 8) {
				char *cb = xstrndup(rest + 8,
						    (size_t)(at - rest - 8));

				split_prefix(m, (size_t)(colon - m), &driver, &dev);
				do_calling(st, lineno, ts, dev, driver, parent,
					   cb, pid, PH_NONE);
				log->format |= FMT_NEW;
				free(cb);
				free(driver);
				free(dev);
				free(parent);
				return 1;
			}
			free(parent);
		}
		{
			const char *r = rstrstr(rest, " returned ");
			int err;
			double dur;

			if (r && parse_ret_tail(r + 10, &err, &dur)) {
				split_prefix(m, (size_t)(colon - m), &driver, &dev);
				do_returned(st, lineno, ts, dev, driver, err,
					    dur, PH_NONE);
				log->format |= FMT_NEW;
				free(driver);
				free(dev);
				return 1;
			}
		}
		if (starts(rest, "failed to ") ||
		    starts(rest, "dpm_run_callback(): ")) {
			const char *e = strstr(rest, "error ");
			int err = e ? atoi(e + 6) : 0;

			if (!e) {
				e = rstrstr(rest, " returns ");
				if (e)
					err = atoi(e + 9);
			}
			split_prefix(m, (size_t)(colon - m), &driver, &dev);
			if (starts(rest, "failed to "))
				add_failure(log, lineno, dev, err, m);
			free(driver);
			free(dev);
			return 1;
		}
	}
	return 0;
}

static void log_init(struct pmlog *log, const char *name, struct pstate *st)
{
	memset(log, 0, sizeof(*log));
	log->name = xstrdup(name ? name : "-");
	memset(st, 0, sizeof(*st));
	st->log = log;
}

int pmlog_parse_dmesg(FILE *f, const char *name, struct pmlog *log,
		      char *err, size_t errlen)
{
	struct pstate st;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;

	log_init(log, name, &st);
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		if (line_dmesg(&st, lineno, line))
			log->used++;
		else
			log->skipped++;
	}
	free(line);
	log->nlines = lineno;
	finish(&st);
	if (!log->ncb && !log->nbd) {
		snprintf(err, errlen,
			 "%s: no usable PM lines in %d lines: expected pm_print_times callback lines ('calling  DEV+ @ PID, parent: PARENT' / 'call DEV+ returned ERR after N usecs', or 'DRIVER DEV: PM: calling CB @ PID, parent: PARENT' / 'DRIVER DEV: PM: CB returned ERR after N usecs') and phase lines ('PM: suspend of devices complete after X msecs'); "
			 "enable them with 'echo 1 > /sys/power/pm_print_times' and 'echo 1 > /sys/power/pm_debug_messages'",
			 log->name, lineno);
		return PARSE_NOPM;
	}
	if (!log->nbd) {
		snprintf(err, errlen,
			 "%s: %d callback lines but no phase boundary lines ('PM: suspend of devices complete after X msecs', 'PM: late suspend ...', 'PM: noirq resume ...', ...), so callbacks cannot be assigned to phases; "
			 "enable them with 'echo 1 > /sys/power/pm_debug_messages' or pass --ftrace with suspend_resume events",
			 log->name, log->ncb);
		return PARSE_NOPM;
	}
	return PARSE_OK;
}

/* --------------------------------------------------------- ftrace */

static int ftrace_head(const char *line, const char *ev, double *ts, int *pid)
{
	const char *p, *q, *c;
	double v;
	char *e;

	/* timestamp: "  134.443939: EVENT: " */
	q = ev - 1;
	while (q > line && *q == ' ')
		q--;
	if (*q != ':')
		return 0;
	p = q;
	while (p > line && (isdigit((unsigned char)p[-1]) || p[-1] == '.'))
		p--;
	v = strtod(p, &e);
	if (e != q)
		return 0;
	*ts = v;
	/* pid: "TASK-PID  [CPU]" */
	*pid = -1;
	for (c = line; (c = strstr(c, " [")); c++) {
		const char *d = c + 2;

		while (isdigit((unsigned char)*d))
			d++;
		if (d > c + 2 && *d == ']') {
			const char *dash = c;

			while (dash > line && dash[-1] == ' ')
				dash--;
			q = dash;
			while (dash > line && isdigit((unsigned char)dash[-1]))
				dash--;
			if (dash > line && dash[-1] == '-' && dash < q)
				*pid = atoi(dash);
			break;
		}
	}
	return 1;
}

static int event_val_side(int val, char *verb, size_t n)
{
	static const struct { int v; const char *s; } ev[] = {
		{ 0x1, "freeze" }, { 0x2, "suspend" }, { 0x4, "hibernate" },
		{ 0x8, "quiesce" }, { 0x10, "resume" }, { 0x20, "thaw" },
		{ 0x40, "restore" }, { 0x80, "recover" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ev); i++)
		if (ev[i].v == val) {
			snprintf(verb, n, "%s", ev[i].s);
			return 1;
		}
	snprintf(verb, n, "%s", "?");
	return 0;
}

struct fwin {
	int phase;
	double begin;
};

static int line_ftrace(struct pstate *st, struct fwin *w, int lineno,
		       char *line)
{
	struct pmlog *log = st->log;
	const char *ev;
	double ts;
	int pid;
	size_t l = strlen(line);

	while (l && (line[l - 1] == '\n' || line[l - 1] == '\r'))
		line[--l] = 0;
	if (line[0] == '#')
		return 0;
	ev = strstr(line, " suspend_resume: ");
	if (ev && ftrace_head(line, ev + 1, &ts, &pid)) {
		static const struct { const char *a; int ph; } map[] = {
			{ "dpm_prepare", PH_PREPARE },
			{ "dpm_suspend", PH_SUSPEND },
			{ "dpm_suspend_late", PH_SUSPEND_LATE },
			{ "dpm_suspend_noirq", PH_SUSPEND_NOIRQ },
			{ "dpm_resume_noirq", PH_RESUME_NOIRQ },
			{ "dpm_resume_early", PH_RESUME_EARLY },
			{ "dpm_resume", PH_RESUME },
			{ "dpm_complete", PH_COMPLETE },
		};
		char act[64], be[16], verb[16];
		unsigned int val;
		size_t i;

		if (sscanf(ev + 17, "%63[^[][%u] %15s", act, &val, be) != 3)
			return 1;
		for (i = 0; i < ARRAY_SIZE(map); i++) {
			if (strcmp(act, map[i].a))
				continue;
			if (!strcmp(be, "begin")) {
				if (map[i].ph >= 0 || map[i].ph == PH_PREPARE)
					cycle_rule(st, map[i].ph);
				w->phase = map[i].ph;
				w->begin = ts;
			} else if (w->phase == map[i].ph) {
				event_val_side((int)val, verb, sizeof(verb));
				if (map[i].ph >= 0) {
					struct boundary *b;
					int cyc = st->cur_cycle;

					close_phase(st, map[i].ph, cyc);
					DA_GROW(log->bd, log->nbd, log->capbd);
					b = &log->bd[log->nbd++];
					memset(b, 0, sizeof(*b));
					b->line = lineno;
					b->phase = map[i].ph;
					b->cycle = cyc;
					b->ms = (ts - w->begin) * 1e3;
					snprintf(b->verb, sizeof(b->verb), "%s",
						 verb);
					if (cyc + 1 > log->ncycles)
						log->ncycles = cyc + 1;
				}
				w->phase = PH_NONE;
			}
			break;
		}
		return 1;
	}
	ev = strstr(line, " device_pm_callback_start: ");
	if (ev && ftrace_head(line, ev + 1, &ts, &pid)) {
		const char *s = ev + 27, *par = strstr(s, ", parent: ");
		const char *ie, *br, *be;
		char *driver, *dev, *parent, *info, *verb;
		int ph;

		if (!par)
			return 0;
		ie = strstr(par + 10, ", ");
		if (!ie)
			return 0;
		br = strrchr(ie, '[');
		be = br ? strchr(br, ']') : NULL;
		if (!br || !be)
			return 0;
		split_prefix(s, (size_t)(par - s), &driver, &dev);
		parent = xstrndup(par + 10, (size_t)(ie - par - 10));
		info = xstrndup(ie + 2, (size_t)(br - ie - 2));
		verb = xstrndup(br + 1, (size_t)(be - br - 1));
		ph = w->phase != PH_NONE ? w->phase :
			parse_phase_words(info, verb);
		if (ph == PH_PREPARE || ph == PH_COMPLETE)
			log->nprepare++;
		do_calling(st, lineno, ts, dev, driver,
			   strcmp(parent, "none") ? parent : NULL, trim(info),
			   pid, ph);
		log->format |= FMT_FTRACE;
		free(driver);
		free(dev);
		free(parent);
		free(info);
		free(verb);
		return 1;
	}
	ev = strstr(line, " device_pm_callback_end: ");
	if (ev && ftrace_head(line, ev + 1, &ts, &pid)) {
		const char *s = ev + 25, *e = rstrstr(s, ", err=");
		char *driver, *dev;

		if (!e)
			return 0;
		split_prefix(s, (size_t)(e - s), &driver, &dev);
		do_returned(st, lineno, ts, dev, driver, atoi(e + 6), -1,
			    w->phase);
		free(driver);
		free(dev);
		return 1;
	}
	return 0;
}

int pmlog_parse_ftrace(FILE *f, const char *name, struct pmlog *log,
		       char *err, size_t errlen)
{
	struct pstate st;
	struct fwin w = { PH_NONE, 0 };
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;

	log_init(log, name, &st);
	log->format |= FMT_FTRACE;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		if (line_ftrace(&st, &w, lineno, line))
			log->used++;
		else
			log->skipped++;
	}
	free(line);
	log->nlines = lineno;
	/* callbacks were assigned when they started */
	st.pend_cb = log->ncb;
	finish(&st);
	if (!log->ncb && !log->nbd) {
		snprintf(err, errlen,
			 "%s: no usable PM events in %d lines: expected ftrace lines with 'device_pm_callback_start:' / 'device_pm_callback_end:' and 'suspend_resume: dpm_suspend[N] begin|end' (enable events power:device_pm_callback_start, power:device_pm_callback_end, power:suspend_resume)",
			 log->name, lineno);
		return PARSE_NOPM;
	}
	return PARSE_OK;
}

int pmlog_looks_like_ftrace(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[1024];
	int n = 0, yes = 0;

	if (!f)
		return 0;
	while (n++ < 200 && fgets(buf, sizeof(buf), f)) {
		if (strstr(buf, "# tracer:") ||
		    strstr(buf, " device_pm_callback_start: ") ||
		    strstr(buf, " suspend_resume: ")) {
			yes = 1;
			break;
		}
	}
	fclose(f);
	return yes;
}

int pmlog_parse_file(const char *path, int want_ftrace, struct pmlog *log,
		     char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int r;

	if (!f) {
		memset(log, 0, sizeof(*log));
		snprintf(err, errlen, "%s: cannot open: %s", path,
			 strerror(errno));
		return PARSE_IOERR;
	}
	if (want_ftrace)
		r = pmlog_parse_ftrace(f, path, log, err, errlen);
	else
		r = pmlog_parse_dmesg(f, path, log, err, errlen);
	if (f != stdin)
		fclose(f);
	return r;
}

void pmlog_free(struct pmlog *log)
{
	int i;

	for (i = 0; i < log->ncb; i++) {
		free(log->cb[i].dev);
		free(log->cb[i].driver);
		free(log->cb[i].parent);
		free(log->cb[i].cb);
	}
	for (i = 0; i < log->nfail; i++) {
		free(log->fail[i].dev);
		free(log->fail[i].msg);
	}
	for (i = 0; i < log->nprob; i++)
		free(log->prob[i].dev);
	free(log->cb);
	free(log->bd);
	free(log->fail);
	free(log->prob);
	free(log->name);
	memset(log, 0, sizeof(*log));
}

double pmlog_observed(const struct pmlog *log, int cycle, int phase,
		      int *aborted)
{
	int i;

	if (aborted)
		*aborted = 0;
	for (i = 0; i < log->nbd; i++)
		if (log->bd[i].cycle == cycle && log->bd[i].phase == phase) {
			if (aborted)
				*aborted = log->bd[i].aborted;
			return log->bd[i].ms;
		}
	return NAN;
}

int pmlog_cycle_failed(const struct pmlog *log, int cycle)
{
	int i, ph, ab;

	for (ph = 0; ph < NPHASES; ph++)
		if (isnan(pmlog_observed(log, cycle, ph, &ab)) || ab)
			return 1;
	for (i = 0; i < log->nfail; i++)
		if (log->fail[i].cycle == cycle &&
		    phase_is_suspend(log->fail[i].phase))
			return 1;
	return 0;
}

/* --------------------------------------------------------- units */

void detect_units(const struct pmlog *log, int cycle, const char *force,
		  struct units *u)
{
	double *r = xmalloc(sizeof(double) * (size_t)(log->ncb + 1));
	int i, n = 0;
	double dflt = (log->format & FMT_OLD) ? 1.024 : 1.0;

	for (i = 0; i < log->ncb; i++) {
		const struct cbrec *c = &log->cb[i];

		if (c->cycle != cycle || c->phase < 0 || isnan(c->dur_us) ||
		    c->dur_us < 1000 || isnan(c->ts_call) || isnan(c->ts_ret))
			continue;
		r[n++] = (c->ts_ret - c->ts_call) * 1e6 / c->dur_us;
	}
	u->samples = n;
	u->ratio = median_d(r, n);
	free(r);
	if (log->format & FMT_FTRACE) {
		u->scale = 1.0;
		u->why = "durations are ftrace end - start timestamps";
		return;
	}
	if (force && !strcmp(force, "us")) {
		u->scale = 1.0;
		u->why = "forced by --units us";
		return;
	}
	if (force && !strcmp(force, "ns1024")) {
		u->scale = 1.024;
		u->why = "forced by --units ns1024";
		return;
	}
	if (n >= 3 && u->ratio >= 1.012 && u->ratio <= 1.040) {
		u->scale = 1.024;
		u->why = "timestamps show the printed 'usecs' are ns>>10 (old kernels): x1.024";
	} else if (n >= 3 && u->ratio >= 0.985 && u->ratio < 1.012) {
		u->scale = 1.0;
		u->why = "timestamps agree with the printed usecs";
	} else {
		u->scale = dflt;
		if (dflt > 1)
			u->why = "too few long callbacks to check; old format: ns>>10, x1.024";
		else
			u->why = "too few long callbacks to check; taken as usecs (ktime_us_delta)";
	}
}

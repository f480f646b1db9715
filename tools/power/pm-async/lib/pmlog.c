// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log parser of the pm-async host tools (pm-async-advise and
 * pm-async-report): a pm_print_times dmesg or a PM ftrace into
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

#include "lineread.h"
#include "pmlog.h"
#include "stats.h"
#include "strmap.h"

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

const char *const phase_key[NPHASES] = {
	"suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume",
};

static const char *const phase_names[NFAM][NPHASES] = {
	[FAM_SUSPEND] = { "suspend", "suspend_late", "suspend_noirq",
			  "resume_noirq", "resume_early", "resume" },
	[FAM_FREEZE] = { "freeze", "freeze_late", "freeze_noirq",
			 "thaw_noirq", "thaw_early", "thaw" },
	[FAM_POWEROFF] = { "poweroff", "poweroff_late", "poweroff_noirq",
			   "restore_noirq", "restore_early", "restore" },
};

const char *phase_name(int fam, int ph)
{
	return phase_names[fam < 0 ? FAM_SUSPEND : fam][ph];
}

/**
 * phase_lookup() - the family and phase of a dev_pm_ops callback name
 * @name: "suspend_late", "thaw_noirq", ...
 * @fam: gets its family (-1 for prepare and complete)
 * @ph: gets its phase (-1 for prepare and complete: valid, not measured)
 *
 * Return: 0, or -1 if @name is no callback of dev_pm_ops.
 */
int phase_lookup(const char *name, int *fam, int *ph)
{
	int f, s;

	if (!strcmp(name, "prepare") || !strcmp(name, "complete")) {
		*fam = -1;
		*ph = -1;
		return 0;
	}
	for (f = 0; f < NFAM; f++) {
		for (s = 0; s < NPHASES; s++) {
			if (!strcmp(name, phase_names[f][s])) {
				*fam = f;
				*ph = s;
				return 0;
			}
		}
	}
	return -1;
}

int phase_from_key(const char *key)
{
	int ph;

	for (ph = 0; ph < NPHASES; ph++)
		if (!strcmp(key, phase_key[ph]))
			return ph;
	return -1;
}

/**
 * pm_verb_lookup() - what a verb of the kernel's pm_verb() runs
 * @verb: "suspend", "freeze", "quiesce", "hibernate", "poweroff", "resume",
 *	  "thaw", "recover" or "restore"
 * @fam: gets the family of the callbacks (or NULL)
 * @resume: gets 1 for a resume side's verb, 0 for a suspend side's (or NULL)
 *
 * Return: 0, or -1 if @verb is none of these.
 */
int pm_verb_lookup(const char *verb, int *fam, int *resume)
{
	static const struct {
		const char *verb;
		int fam, resume;
	} verbs[] = {
		{ "suspend", FAM_SUSPEND, 0 }, { "resume", FAM_SUSPEND, 1 },
		{ "freeze", FAM_FREEZE, 0 }, { "quiesce", FAM_FREEZE, 0 },
		{ "thaw", FAM_FREEZE, 1 }, { "recover", FAM_FREEZE, 1 },
		{ "hibernate", FAM_POWEROFF, 0 },
		{ "poweroff", FAM_POWEROFF, 0 },
		{ "restore", FAM_POWEROFF, 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(verbs); i++) {
		if (strcmp(verb, verbs[i].verb))
			continue;
		if (fam)
			*fam = verbs[i].fam;
		if (resume)
			*resume = verbs[i].resume;
		return 0;
	}
	return -1;
}

/* verb classes: 1 suspend side, 2 resume side, 0 not a verb */
static int verb_side(const char *v)
{
	int resume;

	return pm_verb_lookup(v, NULL, &resume) ? 0 : 1 + resume;
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

/**
 * pm_boundary_words() - the words of a phase line of dpm_show_time()
 * @m: a message from "PM: " on
 * @info: gets the word before the verb ("noirq", "late", "end"...), "" if
 *	none
 * @verb: gets the verb (see pm_verb_lookup(); not checked here)
 * @ms: gets the time
 * @aborted: gets 1 for "aborted after", 0 for "complete after"
 *
 * "PM: [WORD ]VERB of devices complete|aborted after X msecs", X starting
 * with a digit, nothing but blanks after "msecs".  The one reader of these
 * lines: pm-async-report's lab cycles and every log this file parses.
 *
 * Return: 1 if @m has this form, 0 otherwise.
 */
int pm_boundary_words(const char *m, char info[PM_WORD_MAX],
		      char verb[PM_WORD_MAX], double *ms, int *aborted)
{
	const char *of, *t, *sp;
	char *end;
	size_t wl;

	if (!starts(m, "PM: "))
		return 0;
	m += 4;
	of = strstr(m, " of devices ");
	if (!of)
		return 0;
	t = of + 12;
	if (starts(t, "complete after "))
		*aborted = 0, t += 15;
	else if (starts(t, "aborted after "))
		*aborted = 1, t += 14;
	else
		return 0;
	if (!isdigit((unsigned char)*t))
		return 0;
	*ms = strtod(t, &end);
	if (!starts(end, " msecs"))
		return 0;
	for (end += 6; isspace((unsigned char)*end); end++)
		;
	if (*end)
		return 0;
	sp = memchr(m, ' ', (size_t)(of - m));
	if (!sp) {
		info[0] = '\0';
		sp = m - 1;
	} else {
		wl = (size_t)(sp - m);
		if (wl >= PM_WORD_MAX ||
		    memchr(sp + 1, ' ', (size_t)(of - sp - 1)))
			return 0;
		memcpy(info, m, wl);
		info[wl] = '\0';
	}
	wl = (size_t)(of - sp - 1);
	if (!wl || wl >= PM_WORD_MAX)
		return 0;
	memcpy(verb, sp + 1, wl);
	verb[wl] = '\0';
	return 1;
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
	/*
	 * The open records by name, so that a line looks at those of its
	 * device only (a log of thousands of callings without their
	 * "returned" is not quadratic): per record its place in open[] and
	 * the next and previous open record of its name; byname maps a name
	 * to its first open record (-1 if none).
	 */
	int *opos, *onext, *oprev, capo;
	struct strmap byname;
	int pend_cb, pend_fail;	/* first record not assigned to a phase */
	int cur_cycle;
	unsigned int seen;	/* phases seen in the current cycle */
	int any_boundary;
};

static void add_problem(struct pmlog *log, int line, const char *kind,
			const char *dev)
{
	GROW(log->prob, log->nprob, log->capprob);
	log->prob[log->nprob].line = line;
	log->prob[log->nprob].kind = kind;
	log->prob[log->nprob].dev = dev ? xstrdup(dev) : NULL;
	log->nprob++;
}

static struct cbrec *new_rec(struct pmlog *log)
{
	struct cbrec *r;

	GROW(log->cb, log->ncb, log->capcb);
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

static void pstate_free(struct pstate *st)
{
	free(st->open);
	free(st->opos);
	free(st->onext);
	free(st->oprev);
	strmap_free(&st->byname);
}

/* record @rec has a calling and no return yet */
static void open_add(struct pstate *st, int rec)
{
	const struct cbrec *r = &st->log->cb[rec];
	int head = strmap_get(&st->byname, r->dev, -1);

	if (rec >= st->capo) {
		int cap = st->capo;

		GROW(st->opos, rec, cap);
		st->onext = xrealloc(st->onext, sizeof(int) * (size_t)cap);
		st->oprev = xrealloc(st->oprev, sizeof(int) * (size_t)cap);
		st->capo = cap;
	}
	GROW(st->open, st->nopen, st->capopen);
	st->opos[rec] = st->nopen;
	st->open[st->nopen++] = rec;
	st->onext[rec] = head;
	st->oprev[rec] = -1;
	if (head >= 0)
		st->oprev[head] = rec;
	strmap_set(&st->byname, r->dev, rec);
}

/* record @rec is no longer open (returned, or reported) */
static void open_remove(struct pstate *st, int rec)
{
	const struct cbrec *r = &st->log->cb[rec];
	int k = st->opos[rec], last = st->open[--st->nopen];

	st->open[k] = last;
	st->opos[last] = k;
	/* names stay (-1: none open): one key per name, none deleted */
	if (st->oprev[rec] >= 0)
		st->onext[st->oprev[rec]] = st->onext[rec];
	else
		strmap_set(&st->byname, r->dev, st->onext[rec]);
	if (st->onext[rec] >= 0)
		st->oprev[st->onext[rec]] = st->oprev[rec];
}

static void do_calling(struct pstate *st, int line, double ts,
		       const char *dev, const char *driver, const char *parent,
		       const char *cb, int pid, int phase)
{
	struct pmlog *log = st->log;
	struct cbrec *r;
	int k;

	/* the same device cannot run two callbacks at once */
	for (k = strmap_get(&st->byname, dev, -1); k >= 0; k = st->onext[k]) {
		struct cbrec *o = &log->cb[k];

		if (strcmp(o->driver, driver) || !o->parent != !parent ||
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
	open_add(st, log->ncb - 1);
}

/* dur < 0: compute from timestamps (ftrace) */
static void do_returned(struct pstate *st, int line, double ts,
			const char *dev, const char *driver, int err,
			double dur, int phase)
{
	struct pmlog *log = st->log;
	int k, match = -1, nmatch = 0;

	/* the open records of that name, up to a second match */
	for (k = strmap_get(&st->byname, dev, -1); k >= 0 && nmatch < 2;
	     k = st->onext[k]) {
		struct cbrec *o = &log->cb[k];

		if (*driver && *o->driver && strcmp(driver, o->driver))
			continue;
		nmatch++;
		match = k;
	}
	if (nmatch == 1) {
		struct cbrec *r = &log->cb[match];

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
			open_remove(st, st->open[k]);
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
	GROW(log->bd, log->nbd, log->capbd);
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

	GROW(log->fail, log->nfail, log->capfail);
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
	pstate_free(st);
}

/* --------------------------------------------------------- dmesg */

/* one of @words, then blanks and a ':' at @p: the end of it, else NULL */
static char *word_colon(char *p, const char *const *words)
{
	size_t n = 0;
	int i;

	while (p[n] >= 'a' && p[n] <= 'z')
		n++;
	while (p[n] >= '0' && p[n] <= '9')	/* local0 ... local7 */
		n++;
	for (i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !strncmp(p, words[i], n))
			break;
	if (!words[i])
		return NULL;
	while (p[n] == ' ')
		n++;
	return p[n] == ':' ? p + n + 1 : NULL;
}

/**
 * strip_dmesg_x() - skip the prefix of "dmesg -x" (--decode)
 * @p: the line
 *
 * "kern  :info  : [    1.234567] ...": a syslog facility and a level,
 * each padded with blanks and followed by a ':', then a blank.
 *
 * Return: what follows the prefix, or @p if it has none.
 */
static char *strip_dmesg_x(char *p)
{
	static const char *const fac[] = {
		"kern", "user", "mail", "daemon", "auth", "syslog", "lpr",
		"news", "uucp", "cron", "authpriv", "ftp", "local0", "local1",
		"local2", "local3", "local4", "local5", "local6", "local7",
		NULL
	};
	static const char *const lvl[] = {
		"emerg", "alert", "crit", "err", "warn", "notice", "info",
		"debug", NULL
	};
	char *q;

	if (*p < 'a' || *p > 'z')	/* "[ts]", "<6>": not the prefix */
		return p;
	q = word_colon(p, fac);
	q = q ? word_colon(q, lvl) : NULL;
	return q && *q == ' ' ? q + 1 : p;
}

/*
 * strip "<6>", "dmesg -x" "kern  :info  : ", syslog "... kernel: ",
 * "[ 12.345678]" and "[T123]"
 */
static char *strip_line(char *line, double *ts)
{
	char *p = line, *k;
	size_t l = strlen(p);

	while (l && (p[l - 1] == '\n' || p[l - 1] == '\r'))
		p[--l] = 0;
	*ts = NAN;
	p = strip_dmesg_x(p);
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

/*
 * a device path of the log made of what paths of real devices are made of
 * (letters, digits, "_.:+@,=!-" and "/"): no blank, quote, control
 * character or byte that is not ASCII, since the advice prints it
 */
static int path_chars_ok(const char *p)
{
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.:+@,=!-/", *p))
			return 0;
	return 1;
}

/* one kernel message @m (prefixes stripped) printed at @ts (NAN) */
static int line_message(struct pstate *st, int lineno, char *m, double ts)
{
	struct pmlog *log = st->log;
	char *mm = m;
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
		const char *b = m + 4;
		char info[PM_WORD_MAX], verb[PM_WORD_MAX], canon[16];
		int aborted, ph;
		double ms;

		if (pm_boundary_words(m, info, verb, &ms, &aborted)) {
			ph = phase_of_boundary(info, verb, canon,
					       sizeof(canon));
			if (ph != PH_NONE) {
				add_boundary(st, lineno, ph, canon, ms,
					     aborted);
				return 1;
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
	/*
	 * "input: NAME as /devices/PATH" (input_register_device()) and other
	 * "... as /devices/PATH" lines: the full path of a device, which tells
	 * devices of one name apart (the ALSA card0 under the HDA controller
	 * and the DRM card0 under the GPU)
	 */
	{
		const char *as = rstrstr(m, " as /devices/");

		if (as && path_chars_ok(as + 4) && strchr(as + 13, '/') &&
		    as[strlen(as) - 1] != '/' && !strstr(as, "/../") &&
		    !strstr(as, "/./") && !strstr(as, "//")) {
			GROW(log->paths, log->npaths, log->cappaths);
			log->paths[log->npaths].path = xstrdup(as + 4);
			log->paths[log->npaths].line = lineno;
			log->npaths++;
			return 1;
		}
	}
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

static int line_dmesg(struct pstate *st, int lineno, char *raw)
{
	double ts;
	char *m = strip_line(raw, &ts);

	return line_message(st, lineno, m, ts);
}

/* ---------------------------------------------------- journal JSON */

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

/* append code point @cp to @out[@len] (room for @n bytes with a NUL) */
static size_t put_utf8(char *out, size_t len, size_t n, unsigned long cp)
{
	char b[4];
	size_t k, m;

	if (cp < 0x80) {
		b[0] = (char)cp;
		m = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		m = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		m = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		m = 4;
	}
	for (k = 0; k < m && len + 1 < n; k++)
		out[len++] = b[k];
	return len;
}

/* the 4 hex digits at @p, -1 if they are not */
static long hex4(const char *p)
{
	long v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		int c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* the code point of the escape after "\u" at @s; *@s moved past it */
static long json_u_escape(const char **s)
{
	long cp = hex4(*s), lo;

	if (cp < 0)
		return -1;
	*s += 4;
	if (cp < 0xd800 || cp > 0xdfff)
		return cp;
	lo = (*s)[0] == '\\' && (*s)[1] == 'u' ? hex4(*s + 2) : -1;
	if (cp <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff) {
		*s += 6;
		return 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	return 0xfffd;		/* a lone surrogate */
}

/**
 * json_string() - decode the JSON string at *@p
 * @p: at the opening quote; moved past the closing one
 * @out: gets the value as UTF-8 (cut to @n - 1 bytes), NUL-terminated
 * @n: size of @out, at least 1
 *
 * Return: 0, or -1 if the string is malformed.
 */
static int json_string(const char **p, char *out, size_t n)
{
	static const char esc[] = "\"\\/bfnrt", val[] = "\"\\/\b\f\n\r\t";
	const char *s = *p + 1, *e;
	size_t len = 0;

	for (;;) {
		unsigned char c = (unsigned char)*s++;
		long cp;

		if (!c)
			return -1;
		if (c == '"')
			break;
		if (c != '\\') {
			if (len + 1 < n)
				out[len++] = (char)c;
			continue;
		}
		c = (unsigned char)*s++;
		e = c ? strchr(esc, c) : NULL;
		if (e)
			cp = (unsigned char)val[e - esc];
		else if (c == 'u')
			cp = json_u_escape(&s);
		else
			return -1;
		if (cp < 0)
			return -1;
		len = put_utf8(out, len, n, (unsigned long)cp);
	}
	out[len] = 0;
	*p = s;
	return 0;
}

/* past the JSON value at @p (of any kind), NULL if malformed */
static const char *json_skip(const char *p)
{
	int depth = 0;
	char none[1];

	do {
		p = json_ws(p);
		if (*p == '"') {
			if (json_string(&p, none, sizeof(none)))
				return NULL;
		} else if (*p == '[' || *p == '{') {
			depth++;
			p++;
		} else if (*p == ']' || *p == '}') {
			if (!depth--)
				return NULL;
			p++;
		} else if (*p == ',' || *p == ':') {
			if (!depth)
				return NULL;
			p++;
		} else if (*p) {
			p += strcspn(p, ",:]} \t\r\n");
		} else {
			return NULL;
		}
	} while (depth);
	return p;
}

/* MESSAGE as an array of byte values (the journal's form when not UTF-8) */
static const char *json_bytes(const char *p, char *out, size_t n)
{
	size_t len = 0;

	p = json_ws(p + 1);
	while (*p != ']') {
		char *e;
		long v = strtol(p, &e, 10);

		if (e == p || v < 0 || v > 255)
			return NULL;
		if (len + 1 < n)
			out[len++] = (char)v;
		p = json_ws(e);
		if (*p == ',')
			p = json_ws(p + 1);
		else if (*p != ']')
			return NULL;
	}
	out[len] = 0;
	return p + 1;
}

/**
 * journal_entry() - a kernel message of "journalctl -o json"
 * @line: one JSON object: one journal entry
 * @msg: gets its MESSAGE (cut to @n - 1 bytes)
 * @n: size of @msg
 * @ts: gets _SOURCE_MONOTONIC_TIMESTAMP in seconds (the printk time of
 *	a kernel message), NAN if absent
 *
 * Return: 1 a kernel message, 0 an entry of another transport than
 * "kernel", -1 not a journal entry.
 */
static int journal_entry(const char *line, char *msg, size_t n, double *ts)
{
	const char *p = json_ws(line);
	int have = 0, kernel = 1;

	*ts = NAN;
	if (*p++ != '{')
		return -1;
	for (;;) {
		char key[48], val[64];

		p = json_ws(p);
		if (*p == '}')
			break;
		if (*p != '"' || json_string(&p, key, sizeof(key)))
			return -1;
		p = json_ws(p);
		if (*p++ != ':')
			return -1;
		p = json_ws(p);
		if (!strcmp(key, "MESSAGE") && *p == '"') {
			if (json_string(&p, msg, n))
				return -1;
			have = 1;
		} else if (!strcmp(key, "MESSAGE") && *p == '[') {
			p = json_bytes(p, msg, n);
			have = 1;
		} else if (!strcmp(key, "_SOURCE_MONOTONIC_TIMESTAMP") &&
			   *p == '"') {
			if (json_string(&p, val, sizeof(val)))
				return -1;
			*ts = strtod(val, NULL) / 1e6;
		} else if (!strcmp(key, "_TRANSPORT") && *p == '"') {
			if (json_string(&p, val, sizeof(val)))
				return -1;
			kernel = !strcmp(val, "kernel");
		} else {
			p = json_skip(p);
		}
		if (!p)
			return -1;
		p = json_ws(p);
		if (*p == ',')
			p++;
		else if (*p != '}')
			return -1;
	}
	return have ? kernel : -1;
}

/*
 * A line of a journal entry in JSON that is not one entry per line
 * (json-pretty): "{", "}" or '"FIELD" : ...'.
 */
static int json_like(const char *line)
{
	const char *p = json_ws(line);

	if (*p == '{' || *p == '}')
		return !*json_ws(p + 1 + (p[1] == ','));
	if (*p++ != '"')
		return 0;
	p += strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	return *p == '"' && *json_ws(p + 1) == ':';
}

/* lines longer than LINE_MAX_BYTES: " (N longer than ...)" */
static void too_long_note(const struct pmlog *log, char *buf, size_t n)
{
	if (log->too_long)
		snprintf(buf, n, " (%d longer than %d bytes: skipped unread)",
			 log->too_long, LINE_MAX_BYTES);
	else
		buf[0] = 0;
}

/* "6.12.117-1~deb12u1 ..." -> the first word, if it starts "N.N" */
int release_word(const char *p, char *rel, size_t n)
{
	size_t len = strcspn(p, " \t\r\n\"");

	if (len == 0 || len >= n || !(p[0] >= '0' && p[0] <= '9') ||
	    !strchr(p, '.') || (size_t)(strchr(p, '.') - p) > len)
		return 0;
	memcpy(rel, p, len);
	rel[len] = 0;
	return 1;
}

/*
 * The first kernel release a log names: its "Linux version" line (dmesg,
 * journal text or JSON) or pm-graph's first line, "# suspend-DATE HOST
 * MODE RELEASE".
 */
static void note_release(struct pmlog *log, int lineno, const char *line)
{
	const char *p;
	char w[4][128];

	if (log->release_line)
		return;
	p = strstr(line, "Linux version ");
	if (p && release_word(p + 14, log->release, sizeof(log->release))) {
		log->release_line = lineno;
	} else if (lineno == 1 && !strncmp(line, "# suspend-", 10) &&
		   sscanf(line, "# %127s %127s %127s %127s", w[0], w[1], w[2],
			  w[3]) == 4 &&
		   release_word(w[3], log->release, sizeof(log->release))) {
		log->release_line = 1;
		log->release_pmgraph = 1;
	}
}

static void log_init(struct pmlog *log, const char *name, struct pstate *st)
{
	memset(log, 0, sizeof(*log));
	log->name = xstrdup(name ? name : "-");
	memset(st, 0, sizeof(*st));
	strmap_init(&st->byname);
	st->log = log;
}

/*
 * The end of a parser's read loop: the line counts into @log, @lr freed.
 * Return: 0, or PARSE_IOERR (@st freed, the message in @err) if the loop
 * ended with a read error (@rc).
 */
static int log_read_end(struct pmlog *log, struct pstate *st,
			struct line_reader *lr, int rc, int lineno,
			char *err, size_t errlen)
{
	int read_errno = errno;

	log->too_long = (int)lr->too_long;
	lr_free(lr);
	log->nlines = lineno;
	if (rc != LR_ERROR)
		return 0;
	snprintf(err, errlen, "%s: read error after line %d: %s",
		 log->name, lineno, strerror(read_errno));
	pstate_free(st);
	return PARSE_IOERR;
}

/*
 * Kernel log lines: dmesg (also "dmesg -x" and "-r"), syslog or
 * "journalctl -k" text, and "journalctl -o json" (one entry per line:
 * its MESSAGE and _SOURCE_MONOTONIC_TIMESTAMP).
 */
int pmlog_parse_dmesg(FILE *f, const char *name, struct pmlog *log,
		      char *err, size_t errlen)
{
	struct line_reader lr;
	struct pstate st;
	char msg[LINE_MAX_BYTES + 1], note[96];
	int lineno = 0, rc, json = 0, jsonish = 0;

	log_init(log, name, &st);
	lr_init(&lr, f, LINE_MAX_BYTES);
	while ((rc = lr_next(&lr)) > 0) {
		double ts;
		int k, r = 0;

		lineno++;
		if (rc == LR_TOO_LONG)
			continue;
		note_release(log, lineno, lr.line);
		k = lr.line[0] == '{' ?
			journal_entry(lr.line, msg, sizeof(msg), &ts) : -1;
		if (k >= 0)
			json++;
		else if (json_like(lr.line))
			jsonish++;
		if (k > 0)
			r = line_message(&st, lineno, msg, ts);
		else if (k < 0)
			r = line_dmesg(&st, lineno, lr.line);
		if (r)
			log->used++;
		else
			log->skipped++;
	}
	if (json)
		log->format |= FMT_JOURNAL;
	if (log_read_end(log, &st, &lr, rc, lineno, err, errlen))
		return PARSE_IOERR;
	finish(&st);
	too_long_note(log, note, sizeof(note));
	if (!log->ncb && !log->nbd && jsonish > json) {
		snprintf(err, errlen,
			 "%s: no usable PM lines in %d lines%s: this is JSON but not one journal entry per line (journalctl -o json-pretty?); export the kernel log with 'journalctl -k -o short-monotonic' (or 'journalctl -k -o json')",
			 log->name, lineno, note);
		return PARSE_NOPM;
	}
	if (!log->ncb && !log->nbd) {
		snprintf(err, errlen,
			 "%s: no usable PM lines in %d lines%s: expected pm_print_times callback lines ('calling  DEV+ @ PID, parent: PARENT' / 'call DEV+ returned ERR after N usecs', or 'DRIVER DEV: PM: calling CB @ PID, parent: PARENT' / 'DRIVER DEV: PM: CB returned ERR after N usecs') and phase lines ('PM: suspend of devices complete after X msecs'); "
			 "enable them with 'echo 1 > /sys/power/pm_print_times' and 'echo 1 > /sys/power/pm_debug_messages'",
			 log->name, lineno, note);
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
					GROW(log->bd, log->nbd, log->capbd);
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
	struct line_reader lr;
	int lineno = 0, rc;
	char note[96];

	log_init(log, name, &st);
	log->format |= FMT_FTRACE;
	lr_init(&lr, f, LINE_MAX_BYTES);
	while ((rc = lr_next(&lr)) > 0) {
		lineno++;
		if (rc == LR_TOO_LONG)
			continue;
		note_release(log, lineno, lr.line);
		if (line_ftrace(&st, &w, lineno, lr.line))
			log->used++;
		else
			log->skipped++;
	}
	if (log_read_end(log, &st, &lr, rc, lineno, err, errlen))
		return PARSE_IOERR;
	/* callbacks were assigned when they started */
	st.pend_cb = log->ncb;
	finish(&st);
	too_long_note(log, note, sizeof(note));
	if (!log->ncb && !log->nbd) {
		snprintf(err, errlen,
			 "%s: no usable PM events in %d lines%s: expected ftrace lines with 'device_pm_callback_start:' / 'device_pm_callback_end:' and 'suspend_resume: dpm_suspend[N] begin|end' (enable events power:device_pm_callback_start, power:device_pm_callback_end, power:suspend_resume)",
			 log->name, lineno, note);
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
	FILE *f = lr_open(path, err, errlen);
	int r;

	if (!f) {
		memset(log, 0, sizeof(*log));
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
	for (i = 0; i < log->npaths; i++)
		free(log->paths[i].path);
	free(log->paths);
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

/**
 * pmlog_pm_task() - the PID of the PM task in a cycle
 * @log: the parsed log
 * @cycle: the cycle
 * @phase: gets the first phase with a callback in @cycle, -1 if none
 *	(or NULL)
 * @count: gets how many callbacks of that phase ran in the PID (or NULL)
 * @total: gets how many callbacks of that phase have a PID (or NULL)
 *
 * The PM task runs every sync callback of a phase and starts the async
 * ones: the PID most callbacks of the cycle's first phase ran in.
 *
 * Return: that PID, -1 if no callback of the phase has one.
 */
int pmlog_pm_task(const struct pmlog *log, int cycle, int *phase,
		  int *count, int *total)
{
	struct strmap pids;
	int i, first = -1, best = -1, bestn = 0, n = 0;
	char key[16];

	for (i = 0; i < log->ncb; i++)
		if (log->cb[i].cycle == cycle && log->cb[i].phase >= 0 &&
		    log->cb[i].phase < NPHASES &&
		    (first < 0 || log->cb[i].phase < first))
			first = log->cb[i].phase;
	strmap_init(&pids);
	for (i = 0; i < log->ncb; i++) {
		const struct cbrec *r = &log->cb[i];
		int c;

		if (r->cycle != cycle || r->phase != first || r->pid < 0)
			continue;
		snprintf(key, sizeof(key), "%d", r->pid);
		c = strmap_get(&pids, key, 0) + 1;
		strmap_set(&pids, key, c);
		n++;
		if (c > bestn) {
			bestn = c;
			best = r->pid;
		}
	}
	strmap_free(&pids);
	if (phase)
		*phase = first;
	if (count)
		*count = bestn;
	if (total)
		*total = n;
	return best;
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

int release_version(const char *release, long *major, long *minor)
{
	char *end;

	if (!release)
		return 0;
	*major = strtol(release, &end, 10);
	if (end == release || *end != '.')
		return 0;
	*minor = strtol(end + 1, &end, 10);
	return 1;
}

/*
 * initcall_debug_report() has printed ktime_us_delta() since 5.14 (a
 * linux-pm patch applied as 5.14-rc1 material), ktime_to_ns() >> 10
 * before.  Returns 1 for a release from 5.14 on, 0 for an older one, -1
 * when @release does not start with MAJOR.MINOR.
 */
static int release_prints_us(const char *release)
{
	long major, minor;

	if (!release_version(release, &major, &minor))
		return -1;
	return major > 5 || (major == 5 && minor >= 14);
}

void detect_units(const struct pmlog *log, int cycle, const char *force,
		  const char *release, struct units *u)
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
	/*
	 * A known release decides: the timestamps' ratio also moves with
	 * the clocks (printk's local_clock() against ktime_get(), skewed
	 * in a TCG guest) and with console output between the two lines.
	 */
	switch (release_prints_us(release)) {
	case 1:
		u->scale = 1.0;
		u->why = "kernel 5.14 or later: usecs from ktime_us_delta()";
		return;
	case 0:
		u->scale = 1.024;
		u->why = "kernel before 5.14: usecs are ns>>10: x1.024";
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

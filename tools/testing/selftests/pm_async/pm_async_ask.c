// SPDX-License-Identifier: GPL-2.0
/*
 * The pm_async kselftest's questions about the lab's report of the last
 * transition, asked by field name (pm_async_record.h reads the lines):
 * pma_ask(), which pm_async_check (pm_async.sh's) and the C cases ask.
 * Diagnostics are KTAP comments ("# ...") on stdout; the answer is 0 yes,
 * 1 no, 2 usage or an unreadable report.
 *
 *   check TOPO REQUIRED ALLOWED [DEV PHASE]
 *	every device of TOPO (a lab topology; pm=0 devices left out) has
 *	exactly one line for each phase of REQUIRED (words), at most one for
 *	each of ALLOWED and none for others; results are 0, except DEV's
 *	PHASE, which must be -EIO, and the prepare of a direct_complete=1
 *	device, which must be 1; there is no violation.  A device whose
 *	callbacks the PM core may skip (direct_complete=1, smart_suspend=1,
 *	may_skip_resume=1) needs only prepare and complete.
 *   cycle good|fail TOPO REQUIRED IGNORE UNEXPECTED
 *	a looser check for campaigns with failures (check_cycle()); prints
 *	"CALLBACKS VIOLATIONS ERRORS" last.
 *   select [FIELD=VALUE|FIELD!=VALUE|FIELD<N|FIELD>N]... : FIELD...
 *	print FIELDs of each callback line that passes the filters, in
 *	report order.  FIELDs: name phase start end cpu ctx result dur, and
 *	line, the whole line.
 *   violations [REGEX]
 *	the report's violation count, less the violations whose text
 *	matches REGEX (POSIX extended); -1 if the report has no count.
 *   spans
 *	"suspend X ms, resume Y ms": the device phases' wall time (from the
 *	first start to the last end of each side, prepare and complete left
 *	out).
 *   phases
 *	"PHASE START END" for each device phase (prepare and complete left
 *	out), in report order: its first start and last end.
 *   ended_by DEV1 PHASE1 DEV2 PHASE2 start|end WHAT
 *	DEV1's PHASE1 ended no later than DEV2's PHASE2 started (ended).
 *   started_by DEV1 PHASE1 DEV2 PHASE2
 *	DEV1's PHASE1 started before DEV2's PHASE2 ended.
 *   starts_early DEV PHASE SYNCDEV...
 *	DEV's PHASE started before the first of the SYNCDEVs' PHASE
 *	callbacks ended.
 *   overlap PHASE
 *	two callbacks of PHASE ran side by side: one started before the
 *	other ended.
 *   serial PHASE
 *	the callbacks of PHASE ran one at a time; prints their devices in
 *	start order (pma_serial()).
 *   within DEV1 PHASE1 start|end DEV2 PHASE2 start|end T0 T1
 *	that field of DEV1's PHASE1 is before T0 and T1 is before that
 *	field of DEV2's PHASE2 (a time window, in ns).
 *
 * A device's PHASE is its last line for the phase in the report.
 */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_async_ask.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define NR_SHOWN	5	/* lines printed per kind of problem */
#define NR_VIOL_SHOWN	20

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("pm_async_check");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		perror("pm_async_check");
		exit(2);
	}
	return d;
}

int pma_report_read(const char *path, struct pma_report *rep)
{
	char err[96], *line = NULL;
	size_t cap = 0;
	int lineno = 0, kind, cap_cb = 0, cap_viol = 0;
	struct pma_reader rd = { 0 };
	FILE *f = fopen(path, "r");

	memset(rep, 0, sizeof(*rep));
	rep->violations = -1;
	if (!f) {
		printf("# %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) >= 0) {
		struct pma_cb cb;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		cb.line = xstrdup(line);
		cb.copy = xstrdup(line);
		kind = pma_rec_parse(&rd, cb.copy, &cb.r, err, sizeof(err));
		if (kind < 0) {
			printf("# %s:%d: %s: %s\n", path, lineno, err, line);
			fclose(f);
			free(line);
			return -1;
		}
		if (kind == PMA_REC_VIOLATIONS) {
			rep->violations = cb.r.violations;
		} else if (kind == PMA_REC_VIOLATION) {
			if (rep->nviol == cap_viol) {
				cap_viol = cap_viol ? 2 * cap_viol : 16;
				rep->viol = xrealloc(rep->viol, cap_viol *
						     sizeof(*rep->viol));
			}
			rep->viol[rep->nviol++] = xstrdup(cb.r.text);
			free(cb.line);
			free(cb.copy);
			continue;
		}
		if (kind != PMA_REC_CALLBACK) {
			free(cb.line);
			free(cb.copy);
			continue;
		}
		if (rep->ncb == cap_cb) {
			cap_cb = cap_cb ? 2 * cap_cb : 256;
			rep->cb = xrealloc(rep->cb, cap_cb * sizeof(*rep->cb));
		}
		rep->cb[rep->ncb++] = cb;
	}
	free(line);
	fclose(f);
	return 0;
}

/* The last line of @dev's @phase, NULL if it has none. */
static const struct pma_rec *find(const struct pma_report *rep, const char *dev,
				  const char *phase)
{
	const struct pma_rec *found = NULL;
	int i;

	for (i = 0; i < rep->ncb; i++)
		if (!strcmp(rep->cb[i].r.name, dev) &&
		    !strcmp(rep->cb[i].r.phase, phase))
			found = &rep->cb[i].r;
	return found;
}

/* Field @field of @r as text into @buf; -1 if there is no such field. */
static int field(const struct pma_rec *r, const char *field, char *buf,
		 size_t len)
{
	if (!strcmp(field, "name"))
		snprintf(buf, len, "%s", r->name);
	else if (!strcmp(field, "phase"))
		snprintf(buf, len, "%s", r->phase);
	else if (!strcmp(field, "start"))
		snprintf(buf, len, "%lld", r->start);
	else if (!strcmp(field, "end"))
		snprintf(buf, len, "%lld", r->end);
	else if (!strcmp(field, "cpu"))
		snprintf(buf, len, "%d", r->cpu);
	else if (!strcmp(field, "ctx"))
		snprintf(buf, len, "%s", pma_rec_ctx(r));
	else if (!strcmp(field, "result"))
		snprintf(buf, len, "%d", r->result);
	else if (!strcmp(field, "dur"))
		snprintf(buf, len, "%lld", r->end - r->start);
	else
		return -1;
	return 0;
}

/* The start or end time of @r, as @which says. */
static int time_of(const struct pma_rec *r, const char *which, long long *t)
{
	if (!strcmp(which, "start"))
		*t = r->start;
	else if (!strcmp(which, "end"))
		*t = r->end;
	else
		return -1;
	return 0;
}

static int parse_ll(const char *s, long long *v)
{
	return pma_rec_number(s, LLONG_MIN, LLONG_MAX, v);
}

/* A set of words, looked up linearly: phase lists are short. */
static int word_in(const char *word, const char *list)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * Line counts per (device, phase), in a hash table: check() looks up
 * every line of reports of up to tens of thousands of lines.
 */
struct count {
	const char *dev, *phase;
	int n;
	unsigned char dev_only;	/* an entry of the topology's device set */
	unsigned char skips, dc;
	unsigned char down, up;	/* levels (bit 1-3) suspended, resumed */
};

struct counts {
	struct count *e;
	unsigned int mask;
};

static unsigned int hash(const char *a, const char *b)
{
	unsigned int h = 2166136261u;

	while (*a)
		h = (h ^ (unsigned char)*a++) * 16777619u;
	h = (h ^ 0xff) * 16777619u;
	while (b && *b)
		h = (h ^ (unsigned char)*b++) * 16777619u;
	return h;
}

/* @dev's entry (@phase NULL) or its @phase's; added if @add, else NULL. */
static struct count *slot(struct counts *c, const char *dev,
			  const char *phase, int add)
{
	unsigned int i = hash(dev, phase) & c->mask;

	for (;; i = (i + 1) & c->mask) {
		struct count *e = &c->e[i];

		if (!e->dev) {
			if (!add)
				return NULL;
			e->dev = dev;
			e->phase = phase;
			return e;
		}
		if (!strcmp(e->dev, dev) &&
		    ((!phase && !e->phase) ||
		     (phase && e->phase && !strcmp(e->phase, phase))))
			return e;
	}
}

/*
 * The devices of the topology @path that take part in PM (pm=0 left out),
 * in order, into @devs, each with its entry in @c (sized for @rep too).
 */
static int topo_load(const char *path, const struct pma_report *rep,
		     struct counts *c, char ***devs)
{
	char *line = NULL, *save;
	int ndev = 0, lines = 0;
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		printf("# %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) >= 0)
		lines++;
	rewind(f);
	/* At most a device and a phase entry per line: half full at most. */
	for (c->mask = 1024; c->mask < 2u * (lines + rep->ncb); c->mask *= 2)
		;
	c->e = calloc(c->mask, sizeof(*c->e));
	if (!c->e) {
		perror("pm_async_check");
		exit(2);
	}
	c->mask--;
	*devs = xrealloc(NULL, (lines + 1) * sizeof(**devs));
	while (getline(&line, &cap, f) >= 0) {
		char *tok, *name = NULL;
		struct count *d;
		int skips = 0, dc = 0, pm0 = 0;

		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save)) {
			if (!name) {
				name = tok;
				continue;
			}
			pm0 |= !strcmp(tok, "pm=0");
			dc |= !strcmp(tok, "direct_complete=1");
			skips |= dc || !strcmp(tok, "smart_suspend=1") ||
				 !strcmp(tok, "may_skip_resume=1");
		}
		/* pm=0: no callback of the device may run. */
		if (!name || pm0)
			continue;
		(*devs)[ndev] = xstrdup(name);
		d = slot(c, (*devs)[ndev++], NULL, 1);
		d->dev_only = 1;
		d->skips = skips;
		d->dc = dc;
	}
	fclose(f);
	free(line);
	return ndev;
}

/* The number of lines of @dev's @phase. */
static int lines_of(struct counts *c, const char *dev, const char *phase)
{
	const struct count *e = slot(c, dev, phase, 0);

	return e ? e->n : 0;
}

static int check(const struct pma_report *rep, char **argv)
{
	const char *req = argv[1], *faildev = argv[3];
	const char *failph = faildev ? argv[4] : "";
	int ndev, odd = 0, bad = 0, miss = 0, failseen = 0, err = 0, i;
	char *allow, **devs, *ph, *save;
	struct counts c;

	if (faildev && !failph)
		return 2;
	allow = xrealloc(NULL, strlen(argv[1]) + strlen(argv[2]) + 2);
	sprintf(allow, "%s %s", argv[1], argv[2]);
	ndev = topo_load(argv[0], rep, &c, &devs);
	if (ndev < 0)
		return 2;

	for (i = 0; i < rep->ncb; i++) {
		const struct pma_rec *r = &rep->cb[i].r;
		struct count *d = slot(&c, r->name, NULL, 1);
		struct count *e = slot(&c, r->name, r->phase, 1);
		int want = 0, fails;

		fails = faildev && !strcmp(r->name, faildev) &&
			!strcmp(r->phase, failph);
		if ((++e->n > 1 || !d->dev_only || !word_in(r->phase, allow)) &&
		    ++odd <= NR_SHOWN)
			printf("# unexpected line: %s\n", rep->cb[i].line);
		if (fails) {
			want = -5;
			failseen = 1;
		}
		if (d->dc && !strcmp(r->phase, "prepare"))
			want = 1;
		if (r->result != want && ++bad <= NR_SHOWN)
			printf("# result %d, expected %d: %s\n", r->result,
			       want, rep->cb[i].line);
	}
	if (rep->violations != 0) {
		printf("# violations %lld\n", rep->violations);
		err = 1;
	}
	for (i = 0; i < ndev; i++) {
		const struct count *d = slot(&c, devs[i], NULL, 0);
		char *list = xstrdup(req);

		for (ph = strtok_r(list, " ", &save); ph;
		     ph = strtok_r(NULL, " ", &save)) {
			int n = lines_of(&c, devs[i], ph);

			if (n != 1 && (!d->skips || !strcmp(ph, "prepare") ||
				       !strcmp(ph, "complete")) &&
			    ++miss <= NR_SHOWN)
				printf("# %s %s: %d lines, expected 1\n",
				       devs[i], ph, n);
		}
		free(list);
	}
	if (miss) {
		printf("# %d device/phase pairs without exactly one line\n",
		       miss);
		err = 1;
	}
	if (faildev && !failseen) {
		printf("# no line for the failing %s %s\n", faildev, failph);
		err = 1;
	}
	if (odd || bad)
		err = 1;
	for (i = 0; i < rep->nviol && i < NR_VIOL_SHOWN; i++)
		printf("# violation: %s\n", rep->viol[i]);
	return err;
}

/* The suspend level a phase takes a device to (1-3), or back from (-1..-3). */
static int level(const char *phase)
{
	static const char *const lv[] = {
		"resume_noirq", "resume_early", "resume", "",
		"suspend", "suspend_late", "suspend_noirq",
	};
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(lv); i++)
		if (i != 3 && !strcmp(phase, lv[i]))
			return i - 3;
	return 0;
}

/* Violations a caller of check_cycle() may expect: around no-PM devices. */
#define EXPECTED_VIOL \
	"each below or above a no-PM device, as expected (PM_ASYNC_XFAIL=no_pm_below)"

/* Messages of check_cycle(), the first NR_CYCLE_SHOWN of them printed. */
#define NR_CYCLE_SHOWN	30
static int nmsg;

static void msg(const char *fmt, ...)
{
	va_list ap;

	if (++nmsg > NR_CYCLE_SHOWN)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/*
 * cycle good|fail TOPO REQUIRED IGNORE UNEXPECTED: a looser check of one
 * transition, for long random campaigns that inject failures.  Every
 * device of TOPO has one line per phase of REQUIRED (in a good cycle; in
 * a failed one only prepare and complete are needed, and none may come
 * twice); results are 0 (1 for a direct_complete prepare), -EIO only in a
 * failed cycle, which must have one; a device resumed at each level it
 * suspended at and at no other; IGNORE names a device to leave out ("" for
 * none); violations are an error unless UNEXPECTED, the number of them
 * the caller does not expect, is 0.  Prints the messages, then
 * "CALLBACKS VIOLATIONS ERRORS".
 */
static int check_cycle(const struct pma_report *rep, char **argv)
{
	int good = !strcmp(argv[0], "good"), ndev, nfail = 0, err = 0;
	const char *ignore = argv[3];
	int i, l, cbs = 0, miss = 0;
	long long unexpected;
	char **devs, *ph, *save;
	struct counts c;

	if ((!good && strcmp(argv[0], "fail")) || parse_ll(argv[4], &unexpected))
		return 2;
	ndev = topo_load(argv[1], rep, &c, &devs);
	if (ndev < 0)
		return 2;
	for (i = 0; i < rep->ncb; i++) {
		const struct pma_rec *r = &rep->cb[i].r;
		const char *line = rep->cb[i].line;
		struct count *d;

		if (!strcmp(r->name, ignore))
			continue;
		d = slot(&c, r->name, NULL, 0);
		if (!d || !d->dev_only) {
			err++;
			msg("# unknown device: %s\n", line);
			continue;
		}
		slot(&c, r->name, r->phase, 1)->n++;
		if (strcmp(r->phase, "prepare") && strcmp(r->phase, "complete"))
			cbs++;
		if (r->result == -5) {
			nfail++;
		} else if (r->result &&
			   !(r->result == 1 && d->dc &&
			     !strcmp(r->phase, "prepare"))) {
			err++;
			msg("# result %d: %s\n", r->result, line);
		}
		l = level(r->phase);
		if (l > 0 && !r->result)
			d->down |= 1 << l;
		if (l < 0)
			d->up |= 1 << -l;
		if (r->result == -5 && good) {
			err++;
			msg("# failure in a good cycle: %s\n", line);
		}
	}
	for (i = 0; i < rep->nviol; i++)
		msg("# violation: %s\n", rep->viol[i]);
	if (rep->violations > 0 && !unexpected) {
		msg("# violations %lld, %s\n", rep->violations, EXPECTED_VIOL);
	} else if (rep->violations) {
		msg("# violations %lld\n", rep->violations);
		err++;
	}
	for (i = 0; i < ndev; i++) {
		const struct count *d = slot(&c, devs[i], NULL, 0);
		char *list = xstrdup(argv[2]);

		for (ph = strtok_r(list, " ", &save); ph;
		     ph = strtok_r(NULL, " ", &save)) {
			int n = lines_of(&c, devs[i], ph);
			int need = (good && !d->skips) ||
				   !strcmp(ph, "prepare") ||
				   !strcmp(ph, "complete");

			if (((need && n != 1) || n > 1) && ++miss <= NR_SHOWN)
				msg("# %s %s: %d lines\n", devs[i], ph, n);
		}
		free(list);
		for (l = 1; l <= 3 && !d->skips; l++) {
			int down = d->down & (1 << l), up = d->up & (1 << l);

			if (up && !down) {
				err++;
				msg("# %s resumed at level %d without having suspended\n",
				    devs[i], l);
			}
			if (down && !up) {
				err++;
				msg("# %s suspended at level %d and never resumed\n",
				    devs[i], l);
			}
		}
	}
	if (miss)
		err++;
	if (!good && !nfail) {
		err++;
		msg("# no callback failed\n");
	}
	printf("%d %lld %d\n", cbs,
	       rep->violations > 0 ? rep->violations : 0, err);
	return err ? 1 : 0;
}

/*
 * Does @r pass @filter, FIELD=VALUE, FIELD!=VALUE (as text) or FIELD<VALUE,
 * FIELD>VALUE (as numbers)?  -1 for a filter that is none of these.
 */
static int filter_ok(const struct pma_rec *r, const char *filter, int *ok)
{
	size_t n = strcspn(filter, "!=<>");
	const char *op = filter + n, *arg;
	char name[16], val[64];
	long long x, y;

	if (!n || !*op || n >= sizeof(name))
		return -1;
	memcpy(name, filter, n);
	name[n] = '\0';
	if (field(r, name, val, sizeof(val)))
		return -1;
	arg = op + (*op == '!' ? 2 : 1);
	if (*op == '!' && op[1] != '=')
		return -1;
	if (*op == '=' || *op == '!') {
		*ok = (strcmp(val, arg) == 0) != (*op == '!');
		return 0;
	}
	if (parse_ll(val, &x) || parse_ll(arg, &y))
		return -1;
	*ok = *op == '<' ? x < y : x > y;
	return 0;
}

static int cmd_select(const struct pma_report *rep, char **argv)
{
	int i, j, colon, ok, argc;
	char val[64];

	for (argc = 0; argv[argc]; argc++)
		;
	for (colon = 0; colon < argc && strcmp(argv[colon], ":"); colon++)
		;
	if (colon >= argc - 1)
		return 2;
	for (i = 0; i < rep->ncb; i++) {
		const struct pma_rec *r = &rep->cb[i].r;

		for (j = 0, ok = 1; j < colon && ok; j++)
			if (filter_ok(r, argv[j], &ok)) {
				printf("# bad filter '%s'\n", argv[j]);
				return 2;
			}
		if (!ok)
			continue;
		for (j = colon + 1; j < argc; j++) {
			const char *v = val;

			/* "line": the line as the report has it. */
			if (!strcmp(argv[j], "line")) {
				v = rep->cb[i].line;
			} else if (field(r, argv[j], val, sizeof(val))) {
				printf("# no field '%s'\n", argv[j]);
				return 2;
			}
			printf("%s%s", v, j + 1 < argc ? " " : "\n");
		}
	}
	return 0;
}

/*
 * The report's violation count less the violations whose text matches
 * the extended regular expression @argv[0], if given (violations a
 * caller expects); -1 without a "violations" line.
 */
static int violations(const struct pma_report *rep, char **argv)
{
	long long n = rep->violations;
	regex_t re;
	int i;

	if (argv[0] && regcomp(&re, argv[0], REG_EXTENDED | REG_NOSUB)) {
		printf("# bad regular expression '%s'\n", argv[0]);
		return 2;
	}
	for (i = 0; argv[0] && i < rep->nviol; i++)
		if (!regexec(&re, rep->viol[i], 0, NULL, 0))
			n--;
	if (argv[0])
		regfree(&re);
	printf("%lld\n", n);
	return 0;
}

/* Widen [@lo, @hi] to take in @r's callback; @first: it is the first one. */
static void widen(long long *lo, long long *hi, int first,
		  const struct pma_rec *r)
{
	if (first || r->start < *lo)
		*lo = r->start;
	if (first || r->end > *hi)
		*hi = r->end;
}

static int spans(const struct pma_report *rep)
{
	long long lo[2] = { 0, 0 }, hi[2] = { 0, 0 };
	int seen[2] = { 0, 0 }, side = 0, i;

	for (i = 0; i < rep->ncb; i++) {
		const struct pma_rec *r = &rep->cb[i].r;

		if (!strncmp(r->phase, "suspend", 7) ||
		    !strncmp(r->phase, "freeze", 6) ||
		    !strncmp(r->phase, "poweroff", 8))
			side = 0;
		else if (!strncmp(r->phase, "resume", 6) ||
			 !strncmp(r->phase, "thaw", 4) ||
			 !strncmp(r->phase, "restore", 7))
			side = 1;
		else
			continue;
		widen(&lo[side], &hi[side], !seen[side], r);
		seen[side] = 1;
	}
	printf("suspend %.1f ms, resume %.1f ms\n", (hi[0] - lo[0]) / 1e6,
	       (hi[1] - lo[1]) / 1e6);
	return 0;
}

/*
 * Each device phase of the report (prepare and complete left out), in
 * report order, with its first start and last end: "PHASE START END".
 */
static int phases(const struct pma_report *rep, char **argv)
{
	int i, j, n = 0;
	struct span {
		const char *phase;
		long long lo, hi;
	} *v;

	if (argv[0])
		return 2;
	v = xrealloc(NULL, (rep->ncb + 1) * sizeof(*v));
	for (i = 0; i < rep->ncb; i++) {
		const struct pma_rec *r = &rep->cb[i].r;
		int first;

		if (!strcmp(r->phase, "prepare") || !strcmp(r->phase, "complete"))
			continue;
		for (j = 0; j < n && strcmp(v[j].phase, r->phase); j++)
			;
		first = j == n;
		if (first)
			v[n++].phase = r->phase;
		widen(&v[j].lo, &v[j].hi, first, r);
	}
	for (j = 0; j < n; j++)
		printf("%s %lld %lld\n", v[j].phase, v[j].lo, v[j].hi);
	free(v);
	return 0;
}

/* The lines of DEV1 PHASE1 and DEV2 PHASE2; 1 after saying which is missing. */
static int pair(const struct pma_report *rep, char **argv,
		const struct pma_rec **a, const struct pma_rec **b)
{
	*a = find(rep, argv[0], argv[1]);
	*b = find(rep, argv[2], argv[3]);
	if (*a && *b)
		return 0;
	printf("# no line for %s %s\n", *a ? argv[2] : argv[0],
	       *a ? argv[3] : argv[1]);
	return 1;
}

static int ended_by(const struct pma_report *rep, char **argv)
{
	const struct pma_rec *a, *b;
	long long t;

	if (strcmp(argv[4], "start") && strcmp(argv[4], "end"))
		return 2;
	if (pair(rep, argv, &a, &b))
		return 1;
	t = !strcmp(argv[4], "start") ? b->start : b->end;
	if (a->end <= t)
		return 0;
	printf("# %s %s ended at %lld, after %s %s %s at %lld\n", argv[0],
	       argv[1], a->end, argv[2], argv[3], argv[5], t);
	return 1;
}

static int started_by(const struct pma_report *rep, char **argv)
{
	const struct pma_rec *a, *b;

	if (pair(rep, argv, &a, &b))
		return 1;
	if (a->start < b->end)
		return 0;
	printf("# %s %s started at %lld, not before %s %s ended at %lld\n",
	       argv[0], argv[1], a->start, argv[2], argv[3], b->end);
	return 1;
}

static int starts_early(const struct pma_report *rep, char **argv)
{
	const struct pma_rec *d, *first = NULL;
	int i, j;

	d = find(rep, argv[0], argv[1]);
	for (i = 0; i < rep->ncb; i++) {
		const struct pma_rec *r = &rep->cb[i].r;

		if (strcmp(r->phase, argv[1]))
			continue;
		for (j = 2; argv[j]; j++)
			if (!strcmp(r->name, argv[j]) &&
			    (!first || r->end < first->end))
				first = r;
	}
	if (!d || !first) {
		printf("# no %s line for %s or for the sync devices\n",
		       argv[1], argv[0]);
		return 1;
	}
	if (d->start < first->end)
		return 0;
	printf("# %s %s started %.1f ms after %s, the first sync device, ended\n",
	       argv[0], argv[1], (d->start - first->end) / 1e6, first->name);
	return 1;
}

static int overlap(const struct pma_report *rep, char **argv)
{
	int i, j, n = 0;

	for (i = 0; i < rep->ncb; i++) {
		const struct pma_rec *a = &rep->cb[i].r;

		if (strcmp(a->phase, argv[0]))
			continue;
		n++;
		for (j = i + 1; j < rep->ncb; j++) {
			const struct pma_rec *b = &rep->cb[j].r;

			if (!strcmp(b->phase, argv[0]) &&
			    a->start < b->end && b->start < a->end)
				return 0;
		}
	}
	printf("# %s: no two of the %d callbacks ran side by side\n", argv[0],
	       n);
	return 1;
}

static int by_start(const void *a, const void *b)
{
	const struct pma_rec *x = *(const struct pma_rec * const *)a;
	const struct pma_rec *y = *(const struct pma_rec * const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int pma_serial(const struct pma_report *rep, const char *phase, char **order)
{
	const struct pma_rec **v;
	size_t len = 1, off = 0;
	int i, n = 0, err = 0;

	v = xrealloc(NULL, (rep->ncb + 1) * sizeof(*v));
	for (i = 0; i < rep->ncb; i++) {
		if (strcmp(rep->cb[i].r.phase, phase))
			continue;
		v[n++] = &rep->cb[i].r;
		len += strlen(rep->cb[i].r.name) + 1;
	}
	qsort(v, n, sizeof(*v), by_start);
	*order = xrealloc(NULL, len);
	**order = '\0';
	for (i = 0; i < n; i++)
		off += sprintf(*order + off, "%s%s", i ? " " : "", v[i]->name);
	for (i = 1; i < n; i++) {
		if (v[i]->start < v[i - 1]->end) {
			printf("# %s and %s overlap\n", v[i - 1]->name,
			       v[i]->name);
			err = 1;
		}
	}
	free(v);
	return err;
}

static int serial(const struct pma_report *rep, char **argv)
{
	char *order;
	int err = pma_serial(rep, argv[0], &order);

	printf("%s\n", order);
	free(order);
	return err;
}

static int within(const struct pma_report *rep, char **argv)
{
	const struct pma_rec *a, *b;
	long long ta, tb, t0, t1;
	char *pa[4];

	if (parse_ll(argv[6], &t0) || parse_ll(argv[7], &t1))
		return 2;
	pa[0] = argv[0];
	pa[1] = argv[1];
	pa[2] = argv[3];
	pa[3] = argv[4];
	if (pair(rep, pa, &a, &b))
		return 1;
	if (time_of(a, argv[2], &ta) || time_of(b, argv[5], &tb))
		return 2;
	if (ta < t0 && t1 < tb)
		return 0;
	printf("# %lld to %lld: not after %s %s %s (%lld)", t0, t1, argv[0],
	       argv[1], argv[2], ta);
	printf(" and before %s %s %s (%lld)\n", argv[3], argv[4], argv[5], tb);
	return 1;
}

static int spans_cmd(const struct pma_report *rep, char **argv)
{
	return argv[0] ? 2 : spans(rep);
}

static const struct cmd {
	const char *name;
	int (*fn)(const struct pma_report *rep, char **argv);
	int min, max;		/* arguments; max -1: no limit */
	const char *args;
} cmds[] = {
	{ "check", check, 3, 5, "TOPO REQUIRED ALLOWED [DEV PHASE]" },
	{ "cycle", check_cycle, 5, 5, "good|fail TOPO REQUIRED IGNORE UNEXPECTED" },
	{ "select", cmd_select, 2, -1,
	  "[FIELD=VALUE|FIELD!=VALUE|FIELD<N|FIELD>N]... : FIELD..." },
	{ "spans", spans_cmd, 0, 0, "" },
	{ "violations", violations, 0, 1, "[REGEX]" },
	{ "phases", phases, 0, 0, "" },
	{ "ended_by", ended_by, 6, 6,
	  "DEV1 PHASE1 DEV2 PHASE2 start|end WHAT" },
	{ "started_by", started_by, 4, 4, "DEV1 PHASE1 DEV2 PHASE2" },
	{ "starts_early", starts_early, 3, -1, "DEV PHASE SYNCDEV..." },
	{ "overlap", overlap, 1, 1, "PHASE" },
	{ "serial", serial, 1, 1, "PHASE" },
	{ "within", within, 8, 8,
	  "DEV1 PHASE1 start|end DEV2 PHASE2 start|end T0 T1" },
};

void pma_ask_usage(FILE *f)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(f, "  %s%s%s\n", cmds[i].name, *cmds[i].args ? " " : "",
			cmds[i].args);
}

int pma_ask(const struct pma_report *rep, int argc, char **argv)
{
	const struct cmd *c = NULL;
	size_t i;
	int ret;

	for (i = 0; argc >= 1 && i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[0], cmds[i].name))
			c = &cmds[i];
	if (!c || argc - 1 < c->min || (c->max >= 0 && argc - 1 > c->max)) {
		fprintf(stderr, "usage: pm_async_check REPORT COMMAND ARGS...\n");
		pma_ask_usage(stderr);
		return 2;
	}
	ret = c->fn(rep, argv + 1);
	if (ret == 2)
		fprintf(stderr, "usage: pm_async_check REPORT %s %s\n", c->name,
			c->args);
	return ret;
}

void pma_report_free(struct pma_report *rep)
{
	int i;

	for (i = 0; i < rep->ncb; i++) {
		free(rep->cb[i].line);
		free(rep->cb[i].copy);
	}
	for (i = 0; i < rep->nviol; i++)
		free(rep->viol[i]);
	free(rep->cb);
	free(rep->viol);
	memset(rep, 0, sizeof(*rep));
}

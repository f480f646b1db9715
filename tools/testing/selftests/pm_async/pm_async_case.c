// SPDX-License-Identifier: GPL-2.0
/*
 * What a C case of the pm_async kselftest works on; see pm_async_case.h.
 */
#define _GNU_SOURCE	/* strchrnul() */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pm_async_case.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define FAILSLAB	"/sys/kernel/debug/failslab/"
/* What separates the churn file's words. */
#define WORD_SEP	"\n "
/* Allocations failslab fails at most in a case (its "times"). */
#define FAILSLAB_TIMES	1000

const char *pma_case_begin(struct pma_case *c)
{
	memset(c, 0, sizeof(*c));
	if (access(PMA_LAB "topology", W_OK))
		return "the pm_async_test lab is not loaded";
	if (pma_knobs_set(&c->knobs))
		return "no pm_test=platform (CONFIG_PM_DEBUG)";
	c->knobs_set = 1;
	if (pma_set_pm_async(1))
		return "cannot write /sys/power/pm_async";
	return NULL;
}

void pma_case_end(struct pma_case *c)
{
	pma_failslab_disarm();
	pma_lab_write("churn", "none\n");
	if (c->knobs_set)
		pma_knobs_restore(&c->knobs);
	pma_report_free(&c->rep);
	free(c->topo);
	free(c->state);
	c->topo = NULL;
	c->state = NULL;
	pma_lab_write("topology", "clear\n");
}

int pma_case_load(struct pma_case *c, const char *text)
{
	free(c->topo);
	free(c->state);
	c->topo = pma_load(text);
	c->state = pma_lab_read("state");
	if (c->topo && c->state)
		return 0;
	printf("# the lab refused the topology:\n%s", text);
	return -1;
}

int pma_case_cycle(struct pma_case *c, const char *state)
{
	pma_report_free(&c->rep);
	return pma_cycle(state, &c->rep);
}

/* Whether the kernel log line @l tells why a transition aborted. */
static int log_tells(const char *l)
{
	static const char *const words[] = {
		"PM: ", "reez", "ake", "abort", "error",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (strstr(l, words[i]))
			return 1;
	return 0;
}

/* The last 10 lines after @mark in the kernel log that log_tells(). */
static void print_log_since(const char *mark)
{
	char line[512], last[10][512];
	int seen = 0, n = 0, i;
	FILE *f = popen("dmesg 2>/dev/null", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, mark)) {
			seen = 1;
			n = 0;
			continue;
		}
		if (seen && log_tells(line))
			snprintf(last[n++ % 10], sizeof(last[0]), "%s", line);
	}
	pclose(f);
	for (i = n > 10 ? n - 10 : 0; i < n; i++)
		printf("# %s", last[i % 10]);
}

int pma_case_good_cycle(struct pma_case *c, const char *state)
{
	static int nmark;
	char mark[64];
	int i, n = 0, ret;

	snprintf(mark, sizeof(mark), "pm_async_case %d: transition %d\n",
		 (int)getpid(), ++nmark);
	pma_write("/dev/kmsg", mark);
	ret = pma_case_cycle(c, state);
	if (!ret)
		return 0;
	for (i = 0; i < c->rep.ncb; i++)
		n += c->rep.cb[i].r.result < 0;
	if (n) {
		printf("# %s transition failed in a lab callback:\n", state);
		for (i = 0, n = 0; i < c->rep.ncb && n < 5; i++) {
			if (c->rep.cb[i].r.result >= 0)
				continue;
			printf("# %s\n", c->rep.cb[i].line);
			n++;
		}
	} else {
		printf("# %s transition aborted, not by the lab; the kernel log:\n",
		       state);
	}
	mark[strlen(mark) - 1] = '\0';
	print_log_since(mark);
	return -1;
}

int pma_case_check(struct pma_case *c, const char *required,
		   const char *allowed, const char *dev, const char *phase)
{
	if (dev)
		return pma_askl(&c->rep, "check", PMA_LAB "topology", required,
				allowed, dev, phase, NULL) ? -1 : 0;
	return pma_askl(&c->rep, "check", PMA_LAB "topology", required,
			allowed, NULL) ? -1 : 0;
}

/* Print the lines of @a that @b lacks, prefixed @sign, 10 at most. */
static int print_missing(const char *a, const char *b, char sign, int n)
{
	const char *l, *e, *p;

	for (l = a; *l && n < 10; l = *e ? e + 1 : e) {
		int len;

		e = strchrnul(l, '\n');
		len = e - l;
		for (p = b; *p; p = strchrnul(p, '\n'), p += !!*p)
			if (!strncmp(p, l, len) && (p[len] == '\n' || !p[len]))
				break;
		if (!*p && len) {
			printf("# %c%.*s\n", sign, len, l);
			n++;
		}
	}
	return n;
}

int pma_case_same_state(struct pma_case *c)
{
	char *now = pma_lab_read("state");
	int same = now && c->state && !strcmp(now, c->state);

	if (!same) {
		printf("# device state differs from before the transition:\n");
		if (now && c->state)
			print_missing(now, c->state, '+',
				      print_missing(c->state, now, '-', 0));
	}
	free(now);
	return same ? 0 : -1;
}

/* Whether some callback of the report ran @phase. */
static int ran_phase(const struct pma_report *rep, const char *phase)
{
	int i;

	for (i = 0; i < rep->ncb; i++)
		if (!strcmp(rep->cb[i].r.phase, phase))
			return 1;
	return 0;
}

int pma_case_good(struct pma_case *c, const char *state)
{
	const char *res = "restore";
	char phases[160];

	if (pma_case_good_cycle(c, state))
		return -1;
	if (!strcmp(state, "disk")) {
		if (ran_phase(&c->rep, "thaw"))
			res = "thaw";
		snprintf(phases, sizeof(phases),
			 "prepare freeze freeze_late freeze_noirq %s_noirq %s_early %s complete",
			 res, res, res);
	} else {
		snprintf(phases, sizeof(phases), "%s", PMA_SUSPEND_ALL);
	}
	if (pma_case_check(c, phases, "", NULL, NULL) ||
	    pma_case_same_state(c))
		return -1;
	return 0;
}

int pma_case_goods(struct pma_case *c, int n, const char *state)
{
	int i;

	for (i = 1; i <= n; i++) {
		if (pma_case_good(c, state)) {
			printf("# transition %d of %d (%s)\n", i, n, state);
			return -1;
		}
	}
	return 0;
}

int pma_case_fails(struct pma_case *c, const char *dev, const char *phase)
{
	int err = 0;

	if (pma_case_cycle(c, "freeze") != 1) {
		printf("# the transition did not fail on %s %s\n", dev, phase);
		err = -1;
	}
	if (pma_case_check(c, "prepare complete", PMA_DEV_PHASES, dev,
			   phase) || pma_case_same_state(c))
		err = -1;
	return err;
}

int pma_case_before(struct pma_case *c, const char *dev1, const char *ph1,
		    const char *dev2, const char *ph2)
{
	return pma_askl(&c->rep, "ended_by", dev1, ph1, dev2, ph2, "start",
			"started", NULL) ? 1 : 0;
}

int pma_case_ends_before(struct pma_case *c, const char *dev1,
			 const char *ph1, const char *dev2, const char *ph2)
{
	return pma_askl(&c->rep, "ended_by", dev1, ph1, dev2, ph2, "end",
			"ended", NULL) ? 1 : 0;
}

int pma_case_has(struct pma_case *c, const char *dev, const char *phase,
		 int result)
{
	int i;

	for (i = 0; i < c->rep.ncb; i++)
		if (!strcmp(c->rep.cb[i].r.name, dev) &&
		    !strcmp(c->rep.cb[i].r.phase, phase) &&
		    c->rep.cb[i].r.result == result)
			return 1;
	return 0;
}

int pma_case_lines(struct pma_case *c, const char *dev, const char *phases)
{
	char got[512] = "";
	size_t n = 0;
	int i;

	for (i = 0; i < c->rep.ncb && n < sizeof(got); i++)
		if (!strcmp(c->rep.cb[i].r.name, dev))
			n += snprintf(got + n, sizeof(got) - n, "%s%s",
				      n ? " " : "", c->rep.cb[i].r.phase);
	if (!strcmp(got, phases))
		return 0;
	printf("# %s ran '%s', expected '%s'\n", dev, got, phases);
	return -1;
}

int pma_case_suspends_first(struct pma_case *c, const char *dev,
			    const char *after)
{
	static const char *const ph[] = {
		"suspend", "suspend_late", "suspend_noirq",
		"resume_noirq", "resume_early", "resume",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ph); i++) {
		const char *a = i < 3 ? dev : after, *b = i < 3 ? after : dev;

		if (pma_case_before(c, a, ph[i], b, ph[i]))
			return -1;
	}
	return 0;
}

int pma_churn_arm(const char *armed)
{
	char line[256];

	snprintf(line, sizeof(line), "%s\n", armed);
	if (!pma_lab_write("churn", line))
		return 0;
	printf("# cannot arm churn %s\n", armed);
	return -1;
}

int pma_churn_read(char *buf, size_t len, char **w, int max)
{
	char *s = pma_lab_read("churn"), *save, *t;
	int n = 0;

	snprintf(buf, len, "%s", s ? s : "");
	free(s);
	for (t = strtok_r(buf, WORD_SEP, &save); t && n < max;
	     t = strtok_r(NULL, WORD_SEP, &save))
		w[n++] = t;
	return n;
}

void pma_churn_print(char **w, int n)
{
	int i;

	printf("# churn:");
	for (i = 0; i < n; i++)
		printf(" %s", w[i]);
	printf("\n");
}

int pma_churn_started(char *start, size_t len, int op)
{
	char buf[256], *w[8];
	int n = pma_churn_read(buf, sizeof(buf), w, 8);
	int is_op = n >= 4 && strchr(w[3], '=');
	int at = is_op ? 4 : 3;

	/*
	 * "done DELAY NAME START_NS END_NS" (a removal) or "done DELAY NAME
	 * OP=OTHER START_NS END_NS RESULT".
	 */
	if (start)
		snprintf(start, len, "%s", n > at ? w[at] : "");
	if (n && !strcmp(w[0], "done") && (!op || is_op) &&
	    (is_op ? n >= 7 && !strcmp(w[6], "0") : n >= 4))
		return 0;
	pma_churn_print(w, n);
	return -1;
}

int pma_churn_done(void)
{
	return pma_churn_started(NULL, 0, 1);
}

int pma_churn_within(struct pma_case *c, const char *a, const char *pa,
		     const char *b, const char *pb)
{
	char buf[256], *w[8];
	int n = pma_churn_read(buf, sizeof(buf), w, 8);

	if (n >= 6 && !pma_askl(&c->rep, "within", a, pa, "end", b, pb, "end",
				w[4], w[5], NULL))
		return 0;
	c->window = 1;
	return 1;
}

int pma_churn_cycle(struct pma_case *c, const char *armed, const char *a,
		    const char *pa, const char *b, const char *pb)
{
	int err = 0;

	if (pma_churn_arm(armed))
		return -1;
	if (pma_case_good_cycle(c, "freeze") ||
	    pma_case_check(c, PMA_SUSPEND_ALL, "", NULL, NULL) ||
	    pma_churn_done() || pma_churn_within(c, a, pa, b, pb) ||
	    pma_case_same_state(c))
		err = -1;
	pma_lab_write("churn", "none\n");
	return err;
}

void pma_case_forget(struct pma_case *c, const char *name)
{
	size_t nl = strlen(name);
	char *l, *e, *o;

	free(c->topo);
	c->topo = pma_lab_read("topology");
	if (!c->state)
		return;
	for (l = o = c->state; *l; l = e) {
		e = strchrnul(l, '\n');
		e += !!*e;
		if (!strncmp(l, name, nl) && l[nl] == ' ')
			continue;
		memmove(o, l, e - l);
		o += e - l;
	}
	*o = '\0';
}

int pma_failslab_arm(void)
{
	static const char *const knobs[][2] = {
		{ "task-filter", "Y\n" }, { "ignore-gfp-wait", "Y\n" },
		{ "verbose", "0\n" }, { "space", "0\n" },
		{ "interval", "1\n" }, { "times", "1000\n" },
		{ "probability", "100\n" },
	};
	char path[128];
	unsigned int i;

	if (access(FAILSLAB "task-filter", W_OK) ||
	    pma_lab_write("nomem", "Y\n"))
		return -1;
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		snprintf(path, sizeof(path), FAILSLAB "%s", knobs[i][0]);
		if (pma_write(path, knobs[i][1]))
			return -1;
	}
	return 0;
}

int pma_failslab_disarm(void)
{
	char *s;
	int left;

	if (access(FAILSLAB "probability", W_OK))
		return -1;
	s = pma_read(FAILSLAB "times");
	left = s ? atoi(s) : FAILSLAB_TIMES;
	free(s);
	pma_write(FAILSLAB "probability", "0\n");
	pma_write(FAILSLAB "times", "1\n");
	pma_write(FAILSLAB "task-filter", "N\n");
	pma_lab_write("nomem", "N\n");
	return left < FAILSLAB_TIMES ? FAILSLAB_TIMES - left : 0;
}

/* The environment variable @var names the word @word. */
static int env_names(const char *var, const char *word)
{
	const char *s = getenv(var), *p;
	size_t n = strlen(word);

	for (p = s; p && (p = strstr(p, word)); p += n)
		if ((p == s || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

int pma_group_skipped(const char *group)
{
	return env_names("PM_ASYNC_SKIP", group);
}

int pma_group_xfail(const char *group)
{
	return env_names("PM_ASYNC_XFAIL", group);
}

// SPDX-License-Identifier: GPL-2.0
/* pm-async-advise: small helpers (string map, statistics). */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmadv.h"

const char *const xalloc_name = "pm-async-advise";

const char *const phase_key[NPHASES] = {
	"suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume",
};

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

char *trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* ---------------------------------------------------------- strmap */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

/* deleted slots hold this sentinel */
static char tomb_sentinel;
#define TOMB(m) ((void)(m), &tomb_sentinel)

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void strmap_free(struct strmap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->keys[i] && m->keys[i] != TOMB(m))
			free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static size_t strmap_slot(const struct strmap *m, const char *key, int *found)
{
	size_t mask = m->cap - 1, i = hash_str(key) & mask;
	size_t tomb = (size_t)-1;

	for (;;) {
		char *k = m->keys[i];

		if (!k) {
			*found = 0;
			return tomb != (size_t)-1 ? tomb : i;
		}
		if (k == TOMB(m)) {
			if (tomb == (size_t)-1)
				tomb = i;
		} else if (!strcmp(k, key)) {
			*found = 1;
			return i;
		}
		i = (i + 1) & mask;
	}
}

int strmap_get(const struct strmap *m, const char *key, int dflt)
{
	int found;
	size_t i;

	if (!m->cap)
		return dflt;
	i = strmap_slot(m, key, &found);
	return found ? m->vals[i] : dflt;
}

static void strmap_grow(struct strmap *m)
{
	struct strmap nm;
	size_t i;

	nm.cap = m->cap ? m->cap * 2 : 64;
	nm.n = 0;
	nm.keys = xcalloc(nm.cap, sizeof(char *));
	nm.vals = xcalloc(nm.cap, sizeof(int));
	for (i = 0; i < m->cap; i++) {
		char *k = m->keys[i];
		int found;
		size_t j;

		if (!k || k == TOMB(m))
			continue;
		j = strmap_slot(&nm, k, &found);
		nm.keys[j] = k;
		nm.vals[j] = m->vals[i];
		nm.n++;
	}
	free(m->keys);
	free(m->vals);
	*m = nm;
}

void strmap_set(struct strmap *m, const char *key, int val)
{
	int found;
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		strmap_grow(m);
	i = strmap_slot(m, key, &found);
	if (!found) {
		m->keys[i] = xstrdup(key);
		m->n++;
	}
	m->vals[i] = val;
}

void strmap_del(struct strmap *m, const char *key)
{
	int found;
	size_t i;

	if (!m->cap)
		return;
	i = strmap_slot(m, key, &found);
	if (found) {
		free(m->keys[i]);
		m->keys[i] = TOMB(m);
	}
}

/* ---------------------------------------------------------- stats */

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median_d(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(double), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void stats_d(const double *v, int n, double *mean, double *sd,
	     double *median, double *min, double *max)
{
	double s = 0, ss = 0, *c;
	int i;

	*mean = *sd = *median = *min = *max = NAN;
	if (n <= 0)
		return;
	for (i = 0; i < n; i++)
		s += v[i];
	*mean = s / n;
	for (i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	c = xmalloc(sizeof(double) * (size_t)n);
	memcpy(c, v, sizeof(double) * (size_t)n);
	*median = median_d(c, n);
	*min = c[0];
	*max = c[n - 1];
	free(c);
}

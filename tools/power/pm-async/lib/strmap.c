// SPDX-License-Identifier: GPL-2.0
/* String helpers of the pm-async host tools: a string -> int map, trim(). */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "xalloc.h"

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

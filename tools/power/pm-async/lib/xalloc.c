// SPDX-License-Identifier: GPL-2.0
/* Allocation helpers of the pm-async host tools, see xalloc.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static void oom(void)
{
	fprintf(stderr, "%s: out of memory\n", xalloc_name);
	exit(1);
}

/* Zero-sized requests get one byte, so NULL always means failure. */
void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* At most @n characters of @s, always terminated. */
char *xstrndup(const char *s, size_t n)
{
	char *p;

	n = strnlen(s, n);
	p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void xgrow(void **arr, int n, int *cap, size_t size)
{
	if (n < *cap)
		return;
	while (n >= *cap)
		*cap = *cap ? 2 * *cap : 16;
	*arr = xrealloc(*arr, (size_t)*cap * size);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The one reader of a line of the pm_async_test lab's report; see
 * pm_async_record.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_async_record.h"

#define MAX_FIELDS 7

static int split(char *s, char **tok, int max)
{
	int n = 0;

	for (;;) {
		s += strspn(s, " \t\r\n");
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		tok[n++] = s;
		s += strcspn(s, " \t\r\n");
		if (*s)
			*s++ = '\0';
	}
}

/* A decimal integer in [@min, @max], the whole of @s. */
static int number(const char *s, long long min, long long max, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || end == s || *end || *v < min || *v > max ? -1 : 0;
}

int pma_rec_parse(char *line, struct pma_rec *r, char *err, size_t errlen)
{
	static const char *const what[] = {
		"start time", "end time", "cpu", "result",
	};
	static const long long lo[] = { 0, 0, 0, -4095 };
	static const long long hi[] = {
		0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 65535, 0x7fffffff,
	};
	char *tok[MAX_FIELDS];
	long long v[4];
	int n, i;

	memset(r, 0, sizeof(*r));
	if (!strncmp(line, "violation:", 10)) {
		r->text = line + 10 + strspn(line + 10, " ");
		line[strcspn(line, "\r\n")] = '\0';
		return PMA_REC_VIOLATION;
	}
	n = split(line, tok, MAX_FIELDS);
	if (!n)
		return PMA_REC_BLANK;
	if (!strcmp(tok[0], "violations")) {
		if (n != 2 || number(tok[1], 0, 1000000000, &r->violations)) {
			snprintf(err, errlen, "bad violations line");
			return -1;
		}
		return PMA_REC_VIOLATIONS;
	}
	if (n != MAX_FIELDS) {
		snprintf(err, errlen, "report line needs %d fields, got %s",
			 MAX_FIELDS, n > MAX_FIELDS ? "more" : "fewer");
		return -1;
	}
	for (i = 0; i < 4; i++) {
		if (number(tok[i < 3 ? i + 2 : 6], lo[i], hi[i], &v[i])) {
			snprintf(err, errlen, "bad %s '%s'", what[i],
				 tok[i < 3 ? i + 2 : 6]);
			return -1;
		}
	}
	if (v[1] < v[0]) {
		snprintf(err, errlen, "end time before start time");
		return -1;
	}
	if (!strcmp(tok[5], "task")) {
		r->task = 1;
	} else if (strcmp(tok[5], "worker")) {
		snprintf(err, errlen, "expected task or worker, got '%s'",
			 tok[5]);
		return -1;
	}
	r->name = tok[0];
	r->phase = tok[1];
	r->start = v[0];
	r->end = v[1];
	r->cpu = (int)v[2];
	r->result = (int)v[3];
	return PMA_REC_CALLBACK;
}

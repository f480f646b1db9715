// SPDX-License-Identifier: GPL-2.0
/*
 * The one reader of the pm_async_test lab's report; see pm_async_record.h.
 *
 * Every line but the violation text is made of words; all words but the
 * header's first two are KEY=VALUE.  A key this reader does not know is
 * skipped (the lab only ever appends a field within a version); a known
 * one missing, twice or with a bad value is an error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_async_record.h"

#define MAX_WORDS	32

enum { WANT_HEADER, IN_CALLBACKS, IN_VIOLATIONS };

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

int pma_rec_number(const char *s, long long min, long long max,
		   long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || end == s || *end || *v < min || *v > max ? -1 : 0;
}

/*
 * The values of @keys (NULL-terminated) among @tok's KEY=VALUE words into
 * @val; -1 with a reason in @err if a word is not KEY=VALUE or a key is
 * missing or twice.
 */
static int fields(char **tok, int n, const char *const *keys, char **val,
		  const char *what, char *err, size_t errlen)
{
	int i, k;

	for (k = 0; keys[k]; k++)
		val[k] = NULL;
	for (i = 0; i < n; i++) {
		char *eq = strchr(tok[i], '=');

		if (!eq || eq == tok[i]) {
			snprintf(err, errlen, "%s word '%s' is not KEY=VALUE",
				 what, tok[i]);
			return -1;
		}
		for (k = 0; keys[k]; k++)
			if (eq - tok[i] == (long)strlen(keys[k]) &&
			    !strncmp(tok[i], keys[k], eq - tok[i]))
				break;
		if (!keys[k])
			continue;
		if (val[k]) {
			snprintf(err, errlen, "%s line has '%s=' twice", what,
				 keys[k]);
			return -1;
		}
		val[k] = eq + 1;
	}
	for (k = 0; keys[k]; k++) {
		if (!val[k]) {
			snprintf(err, errlen, "%s line without '%s='", what,
				 keys[k]);
			return -1;
		}
	}
	return 0;
}

static int header(char **tok, int n, struct pma_rec *r, char *err,
		  size_t errlen)
{
	static const char *const keys[] = { "version", "event", NULL };
	char *val[2];
	long long v;

	if (fields(tok + 2, n - 2, keys, val, "header", err, errlen))
		return -1;
	if (pma_rec_number(val[0], 0, 1000000, &v) || v != PMA_REC_VERSION) {
		snprintf(err, errlen, "report version '%s', this reader reads %d",
			 val[0], PMA_REC_VERSION);
		return -1;
	}
	r->event = val[1];
	return PMA_REC_HEADER;
}

static int callback(char **tok, int n, struct pma_rec *r, char *err,
		    size_t errlen)
{
	static const char *const keys[] = {
		"name", "phase", "start", "end", "cpu", "ctx", "result", NULL,
	};
	/* keys[2..6]: start, end, cpu, ctx (not a number), result */
	static const long long lo[] = { 0, 0, 0, 0, -4095 };
	static const long long hi[] = {
		0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 65535, 0,
		0x7fffffff,
	};
	char *val[7];
	long long v[5];
	int i;

	if (fields(tok, n, keys, val, "callback", err, errlen))
		return -1;
	for (i = 0; i < 5; i++) {
		if (i == 3)
			continue;
		if (pma_rec_number(val[i + 2], lo[i], hi[i], &v[i])) {
			snprintf(err, errlen, "bad %s '%s'", keys[i + 2],
				 val[i + 2]);
			return -1;
		}
	}
	if (v[1] < v[0]) {
		snprintf(err, errlen, "end before start");
		return -1;
	}
	if (!strcmp(val[5], "task")) {
		r->task = 1;
	} else if (strcmp(val[5], "worker")) {
		snprintf(err, errlen, "ctx is task or worker, not '%s'",
			 val[5]);
		return -1;
	}
	r->name = val[0];
	r->phase = val[1];
	r->start = v[0];
	r->end = v[1];
	r->cpu = (int)v[2];
	r->result = (int)v[4];
	return PMA_REC_CALLBACK;
}

static int kind_of(char *line, struct pma_rec *r, char *err, size_t errlen)
{
	char *tok[MAX_WORDS];
	int n;

	if (!strncmp(line, "violation=", 10)) {
		line[strcspn(line, "\r\n")] = '\0';
		r->text = line + 10;
		return PMA_REC_VIOLATION;
	}
	n = split(line, tok, MAX_WORDS);
	if (!n)
		return PMA_REC_BLANK;
	if (n > MAX_WORDS) {
		snprintf(err, errlen, "more than %d words", MAX_WORDS);
		return -1;
	}
	if (n >= 2 && !strcmp(tok[0], "pm_async_test") &&
	    !strcmp(tok[1], "report"))
		return header(tok, n, r, err, errlen);
	if (!strncmp(tok[0], "violations=", 11)) {
		if (n != 1 || pma_rec_number(tok[0] + 11, 0, 1000000000,
					     &r->violations)) {
			snprintf(err, errlen, "bad violations line");
			return -1;
		}
		return PMA_REC_VIOLATIONS;
	}
	if (!strncmp(tok[0], "name=", 5))
		return callback(tok, n, r, err, errlen);
	snprintf(err, errlen, "not a line of a version %d report",
		 PMA_REC_VERSION);
	return -1;
}

int pma_rec_parse(struct pma_reader *rd, char *line, struct pma_rec *r,
		  char *err, size_t errlen)
{
	/* The state a line of each kind needs, and the one it leads to. */
	static const struct {
		int need, next;
		const char *late;
	} order[] = {
		[PMA_REC_HEADER] = { WANT_HEADER, IN_CALLBACKS,
				     "second header" },
		[PMA_REC_CALLBACK] = { IN_CALLBACKS, IN_CALLBACKS,
				       "callback line after the violations" },
		[PMA_REC_VIOLATIONS] = { IN_CALLBACKS, IN_VIOLATIONS,
					 "second violations line" },
		[PMA_REC_VIOLATION] = { IN_VIOLATIONS, IN_VIOLATIONS, NULL },
	};
	int kind;

	memset(r, 0, sizeof(*r));
	kind = kind_of(line, r, err, errlen);
	if (kind < 0 || kind == PMA_REC_BLANK)
		return kind;
	if (rd->state != order[kind].need) {
		snprintf(err, errlen, "%s",
			 rd->state > order[kind].need ? order[kind].late :
			 rd->state == WANT_HEADER ?
			 "no 'pm_async_test report' header first" :
			 "violation line before the violations line");
		return -1;
	}
	rd->state = order[kind].next;
	return kind;
}

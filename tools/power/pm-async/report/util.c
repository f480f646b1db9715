// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers: a cycle's phase names and header.  Allocation, the
 * number check, the name map, the phase tables and the lab's name rule
 * are in ../lib.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

const char *const xalloc_name = "pm-async-report";

const char *cycle_phase_name(const struct cycle *c, int slot)
{
	return phase_name(c->fam[slot_side(slot)], slot);
}

const char *hdr_get(const struct cycle *c, const char *key)
{
	int i;

	for (i = 0; i < c->nhdr; i++)
		if (!strcmp(c->hdr[i].key, key))
			return c->hdr[i].val;
	return NULL;
}

/* The header's named fields of @c (NULL where the header has no such key). */
void hdr_fields(struct cycle *c)
{
	c->kernel = hdr_get(c, "kernel");
	c->profile = hdr_get(c, "profile");
	c->mode = hdr_get(c, "mode");
	c->version = hdr_get(c, "version");
	c->transition = hdr_get(c, "transition");
}

/* A selector is "key=value[,key=value...]" with non-empty keys. */
int sel_valid(const char *sel)
{
	const char *p = sel;

	for (;;) {
		const char *comma = strchr(p, ',');
		const char *eq = strchr(p, '=');

		if (!eq || eq == p || (comma && eq > comma))
			return 0;
		if (!comma)
			return 1;
		p = comma + 1;
	}
}

/* Every key=value of @sel must equal the cycle's header value. */
int cycle_match(const struct cycle *c, const char *sel)
{
	char *copy = xstrdup(sel), *tok, *save = NULL;
	int match = 1;

	for (tok = strtok_r(copy, ",", &save); tok && match;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const char *val;

		*eq = '\0';
		val = hdr_get(c, tok);
		match = val && !strcmp(val, eq + 1);
	}
	free(copy);
	return match;
}

/* The harness says "patched"; tables say what it is. */
const char *kernel_label(const char *kernel)
{
	return strcmp(kernel, "patched") ? kernel : "pm-async";
}

// SPDX-License-Identifier: GPL-2.0
/* The lab's topology file, one line at a time (see topo.h). */
#include <stdio.h>
#include <string.h>

#include "numarg.h"
#include "topo.h"

int lab_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-';
}

int lab_name_ok(const char *s)
{
	size_t n = 0;

	while (lab_name_char((unsigned char)s[n]))
		n++;
	return n >= 1 && n <= LAB_NAME_MAX && !s[n];
}

static int topo_key(struct topo_dev *t, const char *key, char *val,
		    char *err, size_t errlen)
{
	int fam, ph;

	if (!strcmp(key, "parent")) {
		t->parent = val;
	} else if (!strcmp(key, "suppliers")) {
		t->suppliers = val;
	} else if (!strcmp(key, "async")) {
		if (strcmp(val, "0") && strcmp(val, "1"))
			goto bad;
		t->async = val[0] == '1';
	} else if (!strcmp(key, "pm")) {
		if (!strcmp(val, "0"))
			t->pm = TOPO_PM_OFF;
		else if (!strcmp(val, "1"))
			t->pm = TOPO_PM_ON;
		else if (!strcmp(val, "late"))
			t->pm = TOPO_PM_LATE;
		else
			goto bad;
	} else if (!strcmp(key, "fail")) {
		if (strcmp(val, "none")) {
			if (phase_lookup(val, &fam, &ph) || ph < 0)
				goto bad;
			t->fail = ph;
		}
	} else if ((ph = phase_from_key(key)) >= 0) {
		if (parse_ll(val, &t->us[ph]) || t->us[ph] < 0)
			goto bad;
	} else {
		snprintf(err, errlen, "unknown topology key '%s'", key);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "bad value '%s=%s'", key, val);
	return -1;
}

int topo_parse(char *line, struct topo_dev *t, char *err, size_t errlen)
{
	char *hash = strchr(line, '#'), *tok, *save = NULL;

	if (hash)
		*hash = '\0';
	memset(t, 0, sizeof(*t));
	t->async = 1;
	t->pm = TOPO_PM_ON;
	t->fail = -1;
	t->name = strtok_r(line, " \t\r\n", &save);
	if (!t->name)
		return 0;
	if (!lab_name_ok(t->name)) {
		snprintf(err, errlen, "bad device name '%s'", t->name);
		return -1;
	}
	while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok) {
			snprintf(err, errlen, "field '%s' is not key=value",
				 tok);
			return -1;
		}
		*eq = '\0';
		if (topo_key(t, tok, eq + 1, err, errlen))
			return -1;
	}
	return 1;
}

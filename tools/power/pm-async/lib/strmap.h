/* SPDX-License-Identifier: GPL-2.0 */
/* String helpers of the pm-async host tools: a string -> int map, trim(). */
#ifndef PM_ASYNC_STRMAP_H
#define PM_ASYNC_STRMAP_H

#include <stddef.h>

/* string -> int map (open addressing), keys are copied */
struct strmap {
	char **keys;
	int *vals;
	size_t cap, n;
};

void strmap_init(struct strmap *m);
void strmap_free(struct strmap *m);
int strmap_get(const struct strmap *m, const char *key, int dflt);
void strmap_set(struct strmap *m, const char *key, int val);
void strmap_del(struct strmap *m, const char *key);

char *trim(char *s);	/* blanks off both ends, in place */

#endif /* PM_ASYNC_STRMAP_H */

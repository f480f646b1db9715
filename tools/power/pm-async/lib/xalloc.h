/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation helpers shared by the pm-async host tools: they print
 * "<xalloc_name>: out of memory" and exit(1) instead of returning NULL.
 */
#ifndef PM_ASYNC_XALLOC_H
#define PM_ASYNC_XALLOC_H

#include <stddef.h>

#include "compiler.h"

/* Program name for the message; each tool defines it. */
extern const char *const xalloc_name;

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/*
 * Make *arr (elements of size bytes, room for *cap of them) hold index n:
 * *cap doubles (from 16) until it does.
 */
void xgrow(void **arr, int n, int *cap, size_t size);
/* xgrow() for a dynamic array arr of any element type */
#define GROW(arr, n, cap) xgrow((void **)&(arr), (n), &(cap), sizeof((arr)[0]))

#endif /* PM_ASYNC_XALLOC_H */

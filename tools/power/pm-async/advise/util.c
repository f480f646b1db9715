// SPDX-License-Identifier: GPL-2.0
/* pm-async-advise: small helpers (the map and statistics are in lib/). */
#include <stdarg.h>

#include "pmadv.h"

const char *const xalloc_name = "pm-async-advise";

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

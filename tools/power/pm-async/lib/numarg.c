// SPDX-License-Identifier: GPL-2.0
/*
 * Checked option arguments for the pm-async host tools (see numarg.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "numarg.h"
#include "xalloc.h"

/* Whole-string decimal integer; "12x", "" and overflow are rejected. */
int parse_ll(const char *s, long long *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	return 0;
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", xalloc_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", xalloc_name);
	exit(EXIT_USAGE);
}

long arg_long(const char *opt, const char *val, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 10);
	if (end == val || *end || errno == ERANGE)
		usage_error("%s: '%s' is not an integer", opt, val);
	if (v < lo || v > hi)
		usage_error("%s: %s is out of range [%ld, %ld]", opt, val, lo, hi);
	return v;
}

double arg_double(const char *opt, const char *val, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (end == val || *end || errno == ERANGE || !isfinite(v))
		usage_error("%s: '%s' is not a number", opt, val);
	if (v < lo || v > hi)
		usage_error("%s: %s is out of range [%g, %g]", opt, val, lo, hi);
	return v;
}

const char *bad_option(char *const argv[], int optind_now, int optopt_now)
{
	static char buf[8];
	const char *a = argv[optind_now - 1];

	/* a long option, or a short one written alone ("-x") */
	if (a && a[0] == '-' && (a[1] == '-' || !optopt_now || a[2] == '\0'))
		return a;
	snprintf(buf, sizeof(buf), "-%c", optopt_now);
	return buf;
}

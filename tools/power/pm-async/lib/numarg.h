/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Option arguments shared by the pm-async host tools: every number is read
 * with strtol/strtod, the end pointer checked (the whole argument must be
 * the number) and the range enforced.  A bad value prints
 * "<xalloc_name>: OPTION: 'VALUE' is not ..." and exits with status 2,
 * the status of every usage error in these tools.
 */
#ifndef PM_ASYNC_NUMARG_H
#define PM_ASYNC_NUMARG_H

#include "compiler.h"

#define EXIT_USAGE 2

/* a whole-string decimal integer: 0, or -1 for "", "12x" or overflow */
int parse_ll(const char *s, long long *v);
/* an integer in [lo, hi] */
long arg_long(const char *opt, const char *val, long lo, long hi);
/* a finite number in [lo, hi] */
double arg_double(const char *opt, const char *val, double lo, double hi);
/* print "<name>: MSG" and "Try '<name> --help'." and exit(2) */
__printf(1, 2) __noreturn void usage_error(const char *fmt, ...);
/*
 * The option getopt_long just refused, for the message: "--max" or "-n".
 * argv and optind as getopt_long left them, optopt as it set it.
 */
const char *bad_option(char *const argv[], int optind_now, int optopt_now);

#endif /* PM_ASYNC_NUMARG_H */

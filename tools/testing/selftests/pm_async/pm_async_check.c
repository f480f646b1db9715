// SPDX-License-Identifier: GPL-2.0
/*
 * pm_async_check REPORT COMMAND ARGS...: pm_async.sh's questions about the
 * lab's report (pm_async_ask.c lists them).  Diagnostics are KTAP
 * comments ("# ...") on stdout; the exit status is the answer (0 yes,
 * 1 no, 2 usage or an unreadable report).
 */
#include <stdio.h>

#include "pm_async_ask.h"

int main(int argc, char **argv)
{
	struct pma_report rep;

	if (argc < 3) {
		fprintf(stderr, "usage: pm_async_check REPORT COMMAND ARGS...\n");
		pma_ask_usage(stderr);
		return 2;
	}
	if (pma_report_read(argv[1], &rep))
		return 2;
	return pma_ask(&rep, argc - 2, argv + 2);
}

/* SPDX-License-Identifier: GPL-2.0 */
/* Statistics of a sample of doubles, shared by the pm-async host tools. */
#ifndef PM_ASYNC_STATS_H
#define PM_ASYNC_STATS_H

double median_d(double *v, int n);	/* sorts v; NAN if n == 0 */
void stats_d(const double *v, int n, double *mean, double *sd,
	     double *median, double *min, double *max);

#endif /* PM_ASYNC_STATS_H */

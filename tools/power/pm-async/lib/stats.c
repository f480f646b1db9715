// SPDX-License-Identifier: GPL-2.0
/* Statistics of a sample of doubles, shared by the pm-async host tools. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "xalloc.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median_d(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(double), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void stats_d(const double *v, int n, double *mean, double *sd,
	     double *median, double *min, double *max)
{
	double s = 0, ss = 0, *c;
	int i;

	*mean = *sd = *median = *min = *max = NAN;
	if (n <= 0)
		return;
	for (i = 0; i < n; i++)
		s += v[i];
	*mean = s / n;
	for (i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	c = xmalloc(sizeof(double) * (size_t)n);
	memcpy(c, v, sizeof(double) * (size_t)n);
	*median = median_d(c, n);
	*min = c[0];
	*max = c[n - 1];
	free(c);
}

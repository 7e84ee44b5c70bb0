// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the Mann-Whitney U test for a handful of runs per side
 *
 * Ranks are doubled (a tie of positions 3 and 4 has mid-rank 3.5, doubled
 * 7) so that every rank sum is an integer: the exact null distribution of
 * the first side's rank sum is then a count of subsets by sum, one pass
 * of a knapsack over the ranks (Mann and Whitney 1947; with ties, the
 * permutation distribution of the mid-ranks).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util/util.h"

#define EXACT_MAX_RUNS 60

struct ranked {
	double v;
	int side;		/* 0: a, 1: b */
};

static int by_value(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;

	return a < b ? -1 : a > b;
}

double sl_mann_whitney_min_p(size_t na, size_t nb)
{
	double c = 1;

	if (!na || !nb)
		return 1;
	/* C(na + nb, na), as a double: large counts only make p smaller */
	for (size_t i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return c > 2 ? 2 / c : 1;
}

size_t sl_mann_whitney_least_runs(double confidence)
{
	size_t n = 1;

	while (n < 60 && sl_mann_whitney_min_p(n, n) >= 1 - confidence)
		n++;
	return n;
}

double sl_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	struct ranked *r;
	long *rank2;		/* doubled mid-ranks, in sorted order */
	long w = 0, mean2, dev, total = 0;
	double tie_term = 0, p;

	if (!na || !nb)
		return 1;
	r = xcalloc(n, sizeof(*r));
	rank2 = xcalloc(n, sizeof(*rank2));
	for (size_t i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 1 };
	qsort(r, n, sizeof(*r), by_value);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		/* positions i+1 .. j+1 share the mid-rank (i + j + 2) / 2 */
		for (size_t k = i; k <= j; k++)
			rank2[k] = (long)(i + j + 2);
		tie_term += pow((double)(j - i + 1), 3) - (double)(j - i + 1);
		i = j + 1;
	}
	for (size_t i = 0; i < n; i++) {
		total += rank2[i];
		if (r[i].side == 0)
			w += rank2[i];
	}
	mean2 = (long)na * (long)(n + 1);	/* doubled: na (n + 1) / 2, times 2 */
	dev = labs(w - mean2);

	if (n <= EXACT_MAX_RUNS) {
		/* count[k][s]: subsets of k ranks with doubled sum s */
		size_t cols = (size_t)total + 1;
		double *count = xcalloc((na + 1) * cols, sizeof(*count));
		double all = 0, extreme = 0;

		count[0] = 1;
		for (size_t i = 0; i < n; i++)
			for (size_t k = MIN(i + 1, na); k >= 1; k--)
				for (size_t s = cols - 1; s >= (size_t)rank2[i]; s--)
					count[k * cols + s] += count[(k - 1) * cols + s - (size_t)rank2[i]];
		for (size_t s = 0; s < cols; s++) {
			double c = count[na * cols + s];

			all += c;
			if (labs((long)s - mean2) >= dev)
				extreme += c;
		}
		free(count);
		p = all > 0 ? extreme / all : 1;
	} else {
		/* normal approximation of U with the tie correction, continuity corrected */
		double u = ((double)w / 2) - (double)na * (double)(na + 1) / 2;
		double mu = (double)na * (double)nb / 2;
		double var = (double)na * (double)nb / 12 *
			     ((double)(n + 1) - tie_term / ((double)n * (double)(n - 1)));
		double z = var > 0 ? (fabs(u - mu) - 0.5) / sqrt(var) : 0;

		p = z > 0 ? erfc(z / sqrt(2)) : 1;
	}
	free(r);
	free(rank2);
	return p > 1 ? 1 : p;
}

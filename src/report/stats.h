/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - is a change between two sets of runs more than their noise?
 *
 * A gate compares a handful of runs per side (3 to 10), whose values are
 * not normal (a p99 jumps with one stray wakeup) and often tie (counts of
 * findings).  The Mann-Whitney U test fits: it compares ranks only, and
 * its exact distribution, ties included, is cheap to count for such sizes.
 */
#ifndef SCHEDLINT_STATS_H
#define SCHEDLINT_STATS_H

#include <stddef.h>

/*
 * Two-sided p-value of the Mann-Whitney U test of a[0..na) against
 * b[0..nb): the probability, if both came from one distribution, of a rank
 * sum at least as far from its mean as the one observed.  Exact (ties
 * counted with mid-ranks) up to 60 runs in all, the normal approximation
 * with the tie correction above; 1 when a side is empty.
 */
double sl_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

/*
 * The smallest two-sided p-value na against nb runs can give (the two
 * sides entirely apart, no ties): 2 / C(na + nb, na).  Below a confidence's
 * alpha, no result of so few runs can be significant.
 */
double sl_mann_whitney_min_p(size_t na, size_t nb);

/*
 * The least runs per side (as many on each) whose smallest p-value is
 * below 1 - confidence: with fewer no result can be significant.  4 at
 * 95% (2/70 = 0.029), 5 at 99%, 7 at 99.9%.  More runs detect smaller
 * changes: at the least, only two sides entirely apart are significant.
 */
size_t sl_mann_whitney_least_runs(double confidence);

#endif /* SCHEDLINT_STATS_H */

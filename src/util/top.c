// SPDX-License-Identifier: GPL-2.0
/*
 * top.c - the first max elements of a stream by a rank (top.h)
 *
 * Until max are kept they are only appended; at the max-th they become a
 * heap whose root ranks last, and a later element that ranks before the
 * root takes its place.  n elements cost O(n log max) comparisons and
 * max elements of memory; the rank being a total order, the result is the
 * first max of a full sort, whatever the order the elements came in.
 */
#include <stdlib.h>
#include <string.h>

#include "top.h"
#include "util.h"

void sl_top_init(struct sl_top *top, size_t max, size_t size,
		 int (*cmp)(const void *, const void *))
{
	if (size > SL_TOP_MAX_SIZE)
		abort();
	*top = (struct sl_top){ .max = max, .size = size, .cmp = cmp };
}

static char *at(const struct sl_top *top, size_t i)
{
	return top->v + i * top->size;
}

static void swap(const struct sl_top *top, size_t i, size_t j)
{
	char tmp[SL_TOP_MAX_SIZE];

	memcpy(tmp, at(top, i), top->size);
	memcpy(at(top, i), at(top, j), top->size);
	memcpy(at(top, j), tmp, top->size);
}

/* sift_down - i's subtree is a heap again (its root ranking last) */
static void sift_down(const struct sl_top *top, size_t i)
{
	for (;;) {
		size_t last = i, l = 2 * i + 1, r = l + 1;

		if (l < top->nr && top->cmp(at(top, last), at(top, l)) < 0)
			last = l;
		if (r < top->nr && top->cmp(at(top, last), at(top, r)) < 0)
			last = r;
		if (last == i)
			return;
		swap(top, i, last);
		i = last;
	}
}

void sl_top_add(struct sl_top *top, const void *e)
{
	if (!top->max)
		return;
	if (top->nr < top->max) {
		grow_to((void **)&top->v, &top->alloc, top->nr + 1, top->size);
		memcpy(at(top, top->nr++), e, top->size);
		if (top->nr == top->max)	/* full: a heap from now on */
			for (size_t i = top->nr / 2; i-- > 0;)
				sift_down(top, i);
		return;
	}
	if (top->cmp(e, at(top, 0)) >= 0)
		return;		/* ranks after the last kept */
	memcpy(at(top, 0), e, top->size);
	sift_down(top, 0);
}

void sl_top_sort(struct sl_top *top)
{
	if (top->nr > 1)
		qsort(top->v, top->nr, top->size, top->cmp);
}

void sl_top_free(struct sl_top *top)
{
	free(top->v);
	top->v = NULL;
	top->nr = top->alloc = 0;
}

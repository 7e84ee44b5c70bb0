/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top.h - the first max elements of a stream by a rank, kept in memory for
 * those max, not for the whole stream (the reports' --top lists: a sort of
 * every task held a copy of every task and glibc's sort a second one)
 */
#ifndef SCHEDLINT_TOP_H
#define SCHEDLINT_TOP_H

#include <stddef.h>

struct sl_top {
	char *v;		/* nr elements of size bytes; a heap, its root the last kept, once full */
	size_t nr, alloc;
	size_t max;		/* how many to keep (SIZE_MAX: all) */
	size_t size;		/* of an element: at most SL_TOP_MAX_SIZE */
	int (*cmp)(const void *, const void *);	/* < 0: a ranks first; a total order */
};

#define SL_TOP_MAX_SIZE	64

void sl_top_init(struct sl_top *top, size_t max, size_t size,
		 int (*cmp)(const void *, const void *));
/* sl_top_add - keep a copy of e if it ranks among the first max so far */
void sl_top_add(struct sl_top *top, const void *e);
/* sl_top_sort - the kept elements in top->v[0..nr), in rank order; no sl_top_add() after it */
void sl_top_sort(struct sl_top *top);
void sl_top_free(struct sl_top *top);

#endif

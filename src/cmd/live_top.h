/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live_top.h - the refreshing summary of schedlint record --live
 */
#ifndef SCHEDLINT_LIVE_TOP_H
#define SCHEDLINT_LIVE_TOP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "schedlint/model.h"

struct sl_live_top {
	FILE *out;
	bool tty;			/* redraw the block in place (else print one per refresh) */
	int lines;			/* lines of the block on screen (tty) */
	int width;			/* the terminal's width when it was drawn */
	uint64_t prev_events;		/* model events at the previous refresh */
	uint64_t prev_wall_ns;		/* and its wall time */
	uint64_t *prev_busy;		/* per CPU busy time then */
	uint64_t *prev_known;		/* per CPU time its state was known then */
	int nr_prev;			/* entries of prev_busy and prev_known */
	int refreshes;
};

/* What the recorder knows that the model does not. */
struct sl_live_status {
	uint64_t wall_ns;		/* since recording started */
	const char *what;		/* the command recorded, or how recording ends */
	uint64_t kernel_lost;		/* ring-buffer overruns + drops (per-CPU stats) */
	uint64_t behind_ns;		/* newest event read - newest event analyzed */
	uint64_t bytes;			/* page data written so far */
};

void sl_live_top_init(struct sl_live_top *top, FILE *out, bool tty);
/* Draw the block for the model's state now; 0, or -1 when out failed (EPIPE). */
int sl_live_top_draw(struct sl_live_top *top, const struct sl_model *m,
		     const struct sl_live_status *st);
void sl_live_top_free(struct sl_live_top *top);

#endif /* SCHEDLINT_LIVE_TOP_H */

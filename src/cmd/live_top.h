/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live_top.h - the refreshing summary of schedlint record --live
 */
#ifndef SCHEDLINT_LIVE_TOP_H
#define SCHEDLINT_LIVE_TOP_H

#include <pthread.h>
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
	uint64_t prev_record_cpu_ns;	/* and our CPU times then */
	uint64_t prev_analysis_cpu_ns;
	uint64_t *prev_busy;		/* per CPU busy time then */
	uint64_t *prev_known;		/* per CPU time its state was known then */
	int nr_prev;			/* entries of prev_busy and prev_known */
	int refreshes;

	/*
	 * CMD's output on a terminal (sl_live_top_pty()): CMD writes to a
	 * pty of ours, a thread copies what it writes above the block,
	 * which is drawn again below it; lock serializes the two writers
	 */
	pthread_mutex_t lock;
	int pty;			/* the pty's master, -1 none */
	pthread_t copier;
	bool copying;			/* copier runs */
	volatile bool stop_copying;
	char *frame;			/* the block last drawn (without the erase before it) */
	size_t frame_len;
	char partial[4096];		/* CMD's line not ended yet: shown when it ends */
	size_t nr_partial;
	bool progress_shown;		/* its \r-rewritten state is on a line above the block */
	char tail[2048];		/* the end of what CMD wrote, for sl_live_top_replay() */
	size_t nr_tail;
	bool wrote;			/* CMD wrote something */
};

/* What the recorder knows that the model does not. */
struct sl_live_status {
	uint64_t wall_ns;		/* since recording started */
	const char *what;		/* the command recorded, or how recording ends */
	uint64_t kernel_lost;		/* ring-buffer overruns + drops (per-CPU stats) */
	uint64_t behind_ns;		/* newest event read - newest event analyzed */
	uint64_t bytes;			/* page data written so far */
	uint64_t record_cpu_ns;		/* our CPU time reading and writing pages, so far */
	uint64_t analysis_cpu_ns;	/* our CPU time decoding and analyzing, so far */
};

void sl_live_top_init(struct sl_live_top *top, FILE *out, bool tty);
/* Draw the block for the model's state now; 0, or -1 when out failed (EPIPE). */
int sl_live_top_draw(struct sl_live_top *top, const struct sl_model *m,
		     const struct sl_live_status *st);
void sl_live_top_free(struct sl_live_top *top);

/*
 * On a terminal, CMD's output would be erased by the next redraw (it
 * lands where the block is): CMD gets a pty of ours instead (as large as
 * the terminal), and what it writes is printed above the block, a line
 * at a time, the block drawn again below.  sl_live_top_pty() opens it
 * before CMD is forked: the fd CMD is to write to, or -1 (not a
 * terminal, or no pty: CMD writes to the terminal as before).  In the
 * parent after the fork, sl_live_top_pty_started() starts copying;
 * sl_live_top_pty_end() stops once CMD ended (all it wrote shown, an
 * unfinished last line too); sl_live_top_replay() prints its last lines
 * again (after the report, so they are on the screen at the end).
 */
int sl_live_top_pty(struct sl_live_top *top);
void sl_live_top_pty_started(struct sl_live_top *top, int cmd_fd);
void sl_live_top_pty_end(struct sl_live_top *top);
void sl_live_top_replay(struct sl_live_top *top, const char *cmd);

#endif /* SCHEDLINT_LIVE_TOP_H */

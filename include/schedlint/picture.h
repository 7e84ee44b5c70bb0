/* SPDX-License-Identifier: GPL-2.0 */
/*
 * picture.h - who ran, who waited and who idled, CPU by CPU, at one moment
 *
 * The terminal report shows, under a finding, the CPUs of its LLC at the
 * moment the finding was made.  The model keeps no history, so an
 * analyzer takes the picture then (O(CPUs of the LLC)) and keeps only a
 * few, for the most costly findings (struct sl_picture_keeper), reusing
 * the buffers of the others.
 */
#ifndef SCHEDLINT_PICTURE_H
#define SCHEDLINT_PICTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sl_model;
struct sl_task;

enum sl_picture_state {
	SL_PICTURE_UNKNOWN = 0,		/* its state is not known (no switch yet, lost events) */
	SL_PICTURE_IDLE,		/* idle task, nothing queued or pending */
	SL_PICTURE_BUSY,		/* runs a task, or has tasks queued or pending */
};

#define SL_PICTURE_WAITERS	2	/* waiting tasks named per CPU */
#define SL_PICTURE_MAX_CPUS	16	/* CPUs pictured one by one (and those asked for); the rest are counted */

struct sl_picture_cpu {
	int32_t cpu;
	uint8_t state;			/* enum sl_picture_state */
	int32_t curr_pid;		/* 0: the idle task */
	uint32_t curr_comm;
	uint16_t nr_queued, nr_pending;
	int32_t wait_pid[SL_PICTURE_WAITERS];	/* the subject first when it waits here */
	uint32_t wait_comm[SL_PICTURE_WAITERS];
	bool wait_pending[SL_PICTURE_WAITERS];	/* placed, not enqueued yet */
};

struct sl_picture {
	uint64_t ts;			/* the moment */
	int32_t subject_pid;		/* the finding's task, starred */
	uint32_t nr, alloc;
	struct sl_picture_cpu *cpus;	/* in CPU order */
	uint32_t rest_busy, rest_idle, rest_unknown;	/* CPUs beyond SL_PICTURE_MAX_CPUS */
};

/*
 * Take the picture of the CPUs sharing an LLC with cpu, now.  The CPUs in
 * must[] (negative entries ignored) are pictured even in a large LLC.
 */
void sl_picture_take(struct sl_picture *p, const struct sl_model *m, int cpu,
		     const struct sl_task *subject, const int *must, int nr_must);

/* A CPU to point at in the printout ("<- placed here"). */
struct sl_picture_mark {
	int cpu;
	const char *note;
};

/* One line per CPU, runs of plain idle (or unknown) CPUs merged, at most max_lines. */
void sl_picture_print(FILE *out, const struct sl_picture *p, const struct sl_model *m,
		      const char *indent, const struct sl_picture_mark *marks, int nr_marks,
		      int max_lines);

/* The pictures of the most costly findings, and spare buffers. */
struct sl_kept_picture {
	uint64_t cost, ts;		/* the finding's: the key is (pid, ts, cpu) */
	int32_t pid, cpu;
	struct sl_picture *pic;
};

struct sl_picture_keeper {
	struct sl_kept_picture *kept;
	size_t nr, max;
	struct sl_picture **pool;	/* buffers to reuse */
	size_t nr_pool, alloc_pool;
};

void sl_picture_keeper_init(struct sl_picture_keeper *k, size_t max);
/* A buffer to take a picture in (reused, or new). */
struct sl_picture *sl_picture_get(struct sl_picture_keeper *k);
/* Give a buffer back (NULL is fine). */
void sl_picture_put(struct sl_picture_keeper *k, struct sl_picture *p);
/* Would a finding of this cost keep its picture? */
bool sl_picture_wanted(const struct sl_picture_keeper *k, uint64_t cost);
/* Keep pic for the finding (pid, ts, cpu) of cost, or give it back if it is cheaper than all. */
void sl_picture_keep(struct sl_picture_keeper *k, struct sl_picture *pic, uint64_t cost,
		     int32_t pid, uint64_t ts, int32_t cpu);
const struct sl_picture *sl_picture_find(const struct sl_picture_keeper *k, int32_t pid,
					 uint64_t ts, int32_t cpu);
void sl_picture_keeper_free(struct sl_picture_keeper *k);

/* "1-3,5,7" from a sorted list of CPUs */
const char *sl_fmt_cpus(char *buf, size_t len, const int32_t *cpus, size_t n);

#endif /* SCHEDLINT_PICTURE_H */

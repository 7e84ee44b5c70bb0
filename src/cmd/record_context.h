/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_context.h - the scheduling context, read from the machine into the recording
 *
 * schedlint record (cmd_record.c) writes the kernel's settings and every
 * task's policy, nice or RT priority, slice and scheduling group when it
 * starts and when it ends, and re-reads a task after its exec (chrt,
 * setsid, nice and systemd-run change these, then exec); the markers go
 * to trace_marker through write().  See record_context.c, formats in
 * schedlint/context.h.
 */
#ifndef SCHEDLINT_RECORD_CONTEXT_H
#define SCHEDLINT_RECORD_CONTEXT_H

#include <stdint.h>

#include "record_affinity.h"
#include "schedlint/event.h"
#include "schedlint/strtab.h"

struct sl_rec_context;

/* One task's sched_getattr(): 0, or -errno (gone). */
struct sl_rec_attr {
	uint32_t policy;		/* SCHED_OTHER ... SCHED_EXT (the kernel's numbers) */
	int32_t nice;
	uint32_t rt_priority;
	uint64_t runtime_ns;		/* sched_runtime: a fair task's slice on 6.12+ */
};
typedef int (*sl_rec_getattr_fn)(int32_t tid, struct sl_rec_attr *out);

/*
 * root: "" for this machine, else a directory standing for / (a test's
 * fake proc, sys and cgroup trees); getattr NULL: sched_getattr(2).
 */
struct sl_rec_context *sl_rec_context_new(const char *root, sl_rec_getattr_fn getattr);
void sl_rec_context_free(struct sl_rec_context *rc);
/* The kernel marker: HZ, HRTICK, the preemption mode, each with where it came from. */
int sl_rec_context_kernel(struct sl_rec_context *rc, sl_rec_write_fn write, void *ctx);
/* Every task's context now (group markers first); 0 or write()'s first error. */
int sl_rec_context_sweep(struct sl_rec_context *rc, sl_rec_write_fn write, void *ctx);
/* The same for the tasks of a list (sl_rec_list_tasks() of root's proc). */
int sl_rec_context_sweep_tasks(struct sl_rec_context *rc, const struct sl_rec_task *tasks,
			       size_t nr, sl_rec_write_fn write, void *ctx);
/* An event of the recording: an exec asks for a re-read. */
void sl_rec_context_event(struct sl_rec_context *rc, const struct sl_event *ev,
			  const struct sl_strtab *st);
/* Re-read the tasks asked for, with the time of their exec. */
int sl_rec_context_flush(struct sl_rec_context *rc, sl_rec_write_fn write, void *ctx);
/* Re-reads asked for and not flushed yet. */
size_t sl_rec_context_pending(const struct sl_rec_context *rc);
/* What the kernel marker said, for record's summary line ("HZ 250 (config), ..."). */
const char *sl_rec_context_summary(const struct sl_rec_context *rc);

#endif /* SCHEDLINT_RECORD_CONTEXT_H */

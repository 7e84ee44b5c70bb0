/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_affinity.h - the tasks' affinity, read from /proc into the recording
 *
 * schedlint record (cmd_record.c) sweeps every task when it starts and
 * when it ends, hands the events it reads to sl_rec_affinity_event() and
 * flushes the re-reads they asked for after each drain; the markers go
 * to the instance's trace_marker through write().  See record_affinity.c.
 */
#ifndef SCHEDLINT_RECORD_AFFINITY_H
#define SCHEDLINT_RECORD_AFFINITY_H

#include <stdint.h>

#include "schedlint/event.h"
#include "schedlint/strtab.h"

struct sl_rec_affinity;

/* Write one marker's text; 0 or -errno. */
typedef int (*sl_rec_write_fn)(void *ctx, const char *text);

/* A task of the machine: its process and its thread. */
struct sl_rec_task {
	int32_t pid, tid;
};
/*
 * Every thread under proc (PROC/PID/task/TID) into *tasks (the caller
 * frees): how many, or -errno when proc cannot be read.  The sweeps at
 * the end share one list (it is half of a sweep's cost).
 */
long sl_rec_list_tasks(const char *proc, struct sl_rec_task **tasks);

/*
 * One task's allowed CPUs into mask (setsize bytes, bit N of word
 * N / bits-per-long for CPU N): 0, or -errno (the task is gone).
 */
typedef int (*sl_rec_getaffinity_fn)(int32_t tid, unsigned long *mask, size_t setsize);
/* sched_getaffinity(2): 0.2 us a task where /proc/PID/status takes 5-8 us */
int sl_rec_sched_getaffinity(int32_t tid, unsigned long *mask, size_t setsize);

/*
 * proc: where /proc is ("/proc"; a test's fake tree); getaffinity: how a
 * task's CPUs are read (names then from proc's comm files, and only in
 * the first sweep, for the stoppers), NULL: the Cpus_allowed_list and
 * Name of proc's status files.
 */
struct sl_rec_affinity *sl_rec_affinity_new(const char *proc, sl_rec_getaffinity_fn getaffinity);
void sl_rec_affinity_free(struct sl_rec_affinity *ra);
/*
 * Every task's Cpus_allowed_list now, as markers; also learns the pids of
 * the migration/N stoppers.  0, or the first error of write() (or of
 * opening proc), -errno.
 */
int sl_rec_affinity_sweep(struct sl_rec_affinity *ra, sl_rec_write_fn write, void *ctx);
/* The same for the tasks of a list (sl_rec_list_tasks() of the same proc). */
int sl_rec_affinity_sweep_tasks(struct sl_rec_affinity *ra, const struct sl_rec_task *tasks,
				size_t nr, sl_rec_write_fn write, void *ctx);
/* An event of the recording: an exec, or a stopper's move, asks for a re-read. */
void sl_rec_affinity_event(struct sl_rec_affinity *ra, const struct sl_event *ev,
			   const struct sl_strtab *st);
/* Re-read the tasks asked for and write what they may run on, with when. */
int sl_rec_affinity_flush(struct sl_rec_affinity *ra, sl_rec_write_fn write, void *ctx);
/*
 * The same for the first max of them (each costs a read of /proc, tens of
 * us); the others wait for the next flush.
 */
int sl_rec_affinity_flush_some(struct sl_rec_affinity *ra, size_t max, sl_rec_write_fn write,
			       void *ctx);
/* Re-reads asked for and not flushed yet. */
size_t sl_rec_affinity_pending(const struct sl_rec_affinity *ra);
/* mask's CPUs (nbits of them) as a list, "0-3,5" ; -ENOSPC when longer than len - 1. */
int sl_rec_cpulist(const unsigned long *mask, size_t nbits, char *buf, size_t len);

/* The start of a small /proc or cgroup file into buf, NUL-ended: bytes read or -errno. */
long sl_rec_read_small(const char *path, char *buf, size_t len);
/* How many markers were written. */
uint64_t sl_rec_affinity_markers(const struct sl_rec_affinity *ra);

#endif /* SCHEDLINT_RECORD_AFFINITY_H */

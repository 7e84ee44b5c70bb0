/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_live.h - the little of tracefs that schedlint record touches
 */
#ifndef SCHEDLINT_TRACE_LIVE_H
#define SCHEDLINT_TRACE_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "dat_write.h"
#include "schedlint/reader.h"

struct tracefs_instance;

struct sl_tracefs {
	char *dir;			/* where tracefs is mounted */
	bool we_mounted;		/* we mounted it: unmount when done */
	struct tracefs_instance *instance;	/* ours, NULL when none */
	char name[64];			/* its name under instances/ */
	int lock_fd;			/* its directory, flock()ed while we run; -1 none */
	char **removed;			/* instances left behind by dead records, removed */
	size_t nr_removed;
	int nr_cpus;			/* its per_cpu/cpuN directories: highest N + 1 */
	int page_size;			/* bytes of one ring-buffer page (sub-buffer) */
	int *pipe_fd;			/* per CPU: trace_pipe_raw (non-blocking), -1 closed */
	int (*splice_fd)[2];		/* per CPU: the pipe pages are spliced through, -1 none yet */
	char **systems;			/* event systems with a wanted event */
	size_t nr_systems;
	char **wanted;			/* enable files to write when tracing starts */
	size_t nr_wanted;
};

/* The ring buffer's counters of one CPU (per_cpu/cpuN/stats). */
struct sl_tracefs_stats {
	uint64_t entries;		/* events still in the buffer */
	uint64_t overrun;		/* overwritten before we read them */
	uint64_t commit_overrun;	/* lost because the buffer was too small for a nesting */
	uint64_t dropped;		/* refused (only when not overwriting) */
	char *text;			/* the whole file, for the trace.dat (caller frees) */
};

/*
 * Find tracefs (mounting it at /sys/kernel/tracing when it is not mounted
 * and we are root) and make libtracefs use it.  -errno with a message that
 * says what to do.
 */
int sl_tracefs_open(struct sl_tracefs *t, struct sl_error *err);

/*
 * Create our instance schedlint-PID (schedlint-PID-N if that name is
 * taken: PID namespaces) with buffer_kb per CPU (0 = the kernel's
 * default) in sub-buffers of subbuf_kb where the kernel allows (0, or a
 * kernel before 6.8: its own, a page), and lock it as ours.  Instances of records that no longer
 * run are removed first; their names are in t->removed.
 */
int sl_tracefs_create(struct sl_tracefs *t, unsigned long buffer_kb, unsigned int subbuf_kb,
		      struct sl_error *err);

/* Only remove the instances of records that no longer run (record --reset). */
int sl_tracefs_remove_left_behind(struct sl_tracefs *t, struct sl_error *err);
/*
 * Events to record: checked now, enabled by sl_tracefs_enable_wanted()
 * once tracing is on (so that a marker written first is the first event).
 * -ENOENT when this kernel has no such event.
 */
int sl_tracefs_want(struct sl_tracefs *t, const char *system, const char *event);
/*
 * What -e names: "system:event", "system/event", "system" (all its
 * events) or "event" (searched in every system); names only, no path.
 * -EINVAL or -ENOENT with err.
 */
int sl_tracefs_want_spec(struct sl_tracefs *t, const char *spec, struct sl_error *err);
int sl_tracefs_enable_wanted(struct sl_tracefs *t, struct sl_error *err);
/* Record system:event only where filter (the kernel's syntax) holds; -errno when refused. */
int sl_tracefs_filter(struct sl_tracefs *t, const char *system, const char *event,
		      const char *filter);

int sl_tracefs_tracing_on(struct sl_tracefs *t, bool on);
/* Disable every event of the instance (trace_marker still writes); -errno. */
int sl_tracefs_events_off(struct sl_tracefs *t);

/* Write text to our instance's trace_marker (an ftrace print event). */
int sl_tracefs_marker(struct sl_tracefs *t, const char *text);

/* Open every CPU's trace_pipe_raw, non-blocking. */
int sl_tracefs_open_pipes(struct sl_tracefs *t, struct sl_error *err);

/*
 * Read one page of cpu's ring buffer into buf (page_size bytes): the page
 * length, 0 when the buffer is empty now, -errno on error.
 */
ssize_t sl_tracefs_read_page(struct sl_tracefs *t, int cpu, void *buf);

/*
 * Move up to max bytes of cpu's full pages from its trace_pipe_raw to
 * out_fd through a pipe (splice(2), as trace-cmd record does: the kernel
 * hands over its pages, we never copy them).  Only full pages move; the
 * page the kernel is still filling stays for sl_tracefs_read_page().
 * Returns the bytes moved (whole pages), 0 when there is no full page,
 * -errno on failure (of the output: its errno, ENOSPC for a full disk).
 */
ssize_t sl_tracefs_splice(struct sl_tracefs *t, int cpu, int out_fd, size_t max);

/*
 * Wake a poll(2) of trace_pipe_raw only once a CPU's buffer is pct% full
 * (the instance's buffer_percent); -errno when the kernel lacks it.
 */
int sl_tracefs_wakeup_percent(struct sl_tracefs *t, int pct);

int sl_tracefs_cpu_stats(struct sl_tracefs *t, int cpu, struct sl_tracefs_stats *st);

/*
 * What a trace.dat needs besides the pages, for the systems enabled so
 * far: formats, header_page/header_event, kallsyms, printk formats, the
 * clock and uname.  sl_tracefs_meta_end() adds what is known only at the
 * end (saved cmdlines, per-CPU stats).
 */
int sl_tracefs_meta(struct sl_tracefs *t, struct sl_dat_meta *meta, struct sl_error *err);
void sl_tracefs_meta_end(struct sl_tracefs *t, struct sl_dat_meta *meta);

/*
 * Leave the kernel as we found it: close the pipes, remove our instance
 * (which disables its events and frees its buffers), unmount tracefs if
 * we mounted it.  Safe to call at any point, and more than once.  Returns
 * -errno when the instance could not be removed (then err says how to).
 */
int sl_tracefs_close(struct sl_tracefs *t, struct sl_error *err);

#endif /* SCHEDLINT_TRACE_LIVE_H */

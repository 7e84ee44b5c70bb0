// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - put events in the order a trace reader merges them, and hand
 * them to the trace.dat and text writers
 *
 * Generators emit a step's events as they compute them: a wakeup logs on
 * the waker's CPU now and on the wakee's CPU a few microseconds later, so
 * across CPUs events come a little out of order.  Readers merge the
 * per-CPU buffers by timestamp, the lower CPU first on a tie (as both the
 * kernel's trace iterator and trace-cmd do); the text must list them in
 * that same order.  A heap keyed by (timestamp, CPU, emission order) does
 * it.  A generator that knows no later event can be earlier than T lets
 * everything before T go (sg_output_flush_before), so memory stays small;
 * scenarios keep everything, because the text header counts the events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedgen.h"

struct pid_comm {
	int pid;		/* -1: free slot */
	const char *comm;
};

struct sg_output {
	struct sg_output_opts opts;
	struct sg_dat *dat;
	struct sg_text *text;
	struct sg_event *heap;
	size_t nr, alloc;
	uint64_t seq;
	uint64_t written;	/* events given to the writers */
	uint64_t entries;	/* events queued, lost markers excluded */
	/* pid -> comm, open addressing */
	struct pid_comm *tasks;
	size_t nr_tasks, task_slots;
	int err;
};

static bool before(const struct sg_event *a, const struct sg_event *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu;
	return a->seq < b->seq;
}

static void heap_push(struct sg_output *out, const struct sg_event *ev)
{
	size_t i;

	GROW(out->heap, out->alloc, out->nr + 1);
	i = out->nr++;
	while (i) {
		size_t parent = (i - 1) / 2;

		if (!before(ev, &out->heap[parent]))
			break;
		out->heap[i] = out->heap[parent];
		i = parent;
	}
	out->heap[i] = *ev;
}

static void heap_pop(struct sg_output *out, struct sg_event *ev)
{
	struct sg_event last;
	size_t i = 0;

	*ev = out->heap[0];
	last = out->heap[--out->nr];
	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= out->nr)
			break;
		if (child + 1 < out->nr && before(&out->heap[child + 1], &out->heap[child]))
			child++;
		if (!before(&out->heap[child], &last))
			break;
		out->heap[i] = out->heap[child];
		i = child;
	}
	if (out->nr)
		out->heap[i] = last;
}

static size_t task_hash(int pid, size_t slots)
{
	return ((uint32_t)pid * 2654435761u) & (slots - 1);
}

static struct pid_comm *task_slot(const struct sg_output *out, int pid)
{
	size_t i = task_hash(pid, out->task_slots);

	while (out->tasks[i].pid != -1 && out->tasks[i].pid != pid)
		i = (i + 1) & (out->task_slots - 1);
	return &out->tasks[i];
}

static void tasks_resize(struct sg_output *out, size_t slots)
{
	struct pid_comm *old = out->tasks;
	size_t old_slots = out->task_slots;

	out->tasks = xmalloc(slots * sizeof(*out->tasks));
	out->task_slots = slots;
	for (size_t i = 0; i < slots; i++)
		out->tasks[i].pid = -1;
	for (size_t i = 0; i < old_slots; i++)
		if (old[i].pid != -1)
			*task_slot(out, old[i].pid) = old[i];
	free(old);
}

int sg_output_task(struct sg_output *out, int pid, const char *comm)
{
	struct pid_comm *slot;

	if (pid <= 0)
		return 0;	/* idle is "<idle>", never a saved cmdline */
	if ((out->nr_tasks + 1) * 2 > out->task_slots)
		tasks_resize(out, out->task_slots * 2);
	slot = task_slot(out, pid);
	if (slot->pid == -1)
		out->nr_tasks++;
	slot->pid = pid;
	slot->comm = comm;
	return 0;
}

static const char *task_comm(const struct sg_output *out, int pid)
{
	const struct pid_comm *slot;

	if (pid == 0)
		return "<idle>";
	slot = task_slot(out, pid);
	return slot->pid == pid ? slot->comm : "<...>";
}

struct sg_output *sg_output_open(const struct sg_output_opts *opts)
{
	struct sg_output *out = xcalloc(1, sizeof(*out));

	out->opts = *opts;
	tasks_resize(out, 256);
	if (opts->dat_path) {
		out->dat = sg_dat_open(opts->dat_path, &opts->abi, opts->ncpus);
		if (!out->dat) {
			sg_output_abort(out);
			return NULL;
		}
	}
	return out;
}

int sg_output_event(struct sg_output *out, const struct sg_event *ev)
{
	struct sg_event e = *ev;

	if (ev->cpu < 0 || ev->cpu >= out->opts.ncpus)
		return -EINVAL;
	if (ev->type != SG_LOST) {
		/* an event this kernel does not have is simply not recorded */
		if (!sg_kernel_has(out->opts.abi.kernel, ev->type))
			return 0;
		out->entries++;
	}
	e.seq = out->seq++;
	heap_push(out, &e);
	return 0;
}

static int open_text(struct sg_output *out)
{
	uint64_t entries = out->opts.buffer_all ? out->entries : out->opts.max_events;

	if (out->opts.max_events && entries > out->opts.max_events)
		entries = out->opts.max_events;
	out->text = sg_text_open(out->opts.text_path, &out->opts.abi, out->opts.ncpus,
				 entries);
	return out->text ? 0 : -EIO;
}

static int write_one(struct sg_output *out, const struct sg_event *ev)
{
	int ret = 0;

	if (ev->type != SG_LOST) {
		if (out->opts.max_events && out->written >= out->opts.max_events)
			return 0;
		out->written++;
	}
	if (out->opts.text_path && !out->text) {
		ret = open_text(out);
		if (ret)
			return ret;
	}
	if (out->dat)
		ret = sg_dat_event(out->dat, ev);
	if (!ret && out->text)
		ret = sg_text_event(out->text, ev, task_comm(out, ev->common_pid));
	return ret;
}

int sg_output_flush_before(struct sg_output *out, uint64_t ts)
{
	struct sg_event ev;

	if (out->opts.buffer_all)
		return 0;
	while (!out->err && out->nr && out->heap[0].ts < ts) {
		heap_pop(out, &ev);
		out->err = write_one(out, &ev);
	}
	return out->err;
}

uint64_t sg_output_written(const struct sg_output *out)
{
	return out->written;
}

uint64_t sg_output_queued(const struct sg_output *out)
{
	return out->entries;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct sg_task_name *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void free_output(struct sg_output *out)
{
	free(out->heap);
	free(out->tasks);
	free(out);
}

int sg_output_close(struct sg_output *out)
{
	struct sg_task_name *names;
	struct sg_event ev;
	size_t n = 0;
	int ret;

	while (!out->err && out->nr) {
		heap_pop(out, &ev);
		out->err = write_one(out, &ev);
	}
	if (!out->err && out->opts.text_path && !out->text)
		out->err = open_text(out);	/* a trace without events */
	ret = out->err;
	if (out->text) {
		int r = sg_text_close(out->text);

		if (!ret)
			ret = r;
		if (!ret && !out->opts.buffer_all && out->written != out->opts.max_events) {
			sg_error("%s: %llu events written, the header says %llu",
				 out->opts.text_path, (unsigned long long)out->written,
				 (unsigned long long)out->opts.max_events);
			ret = -EIO;
		}
	}
	if (out->dat) {
		names = xmalloc((out->nr_tasks + 1) * sizeof(*names));
		for (size_t i = 0; i < out->task_slots; i++)
			if (out->tasks[i].pid != -1)
				names[n++] = (struct sg_task_name){ out->tasks[i].pid,
								    out->tasks[i].comm };
		qsort(names, n, sizeof(*names), cmp_pid);
		if (ret)
			sg_dat_abort(out->dat);
		else
			ret = sg_dat_close(out->dat, names, n);
		free(names);
	}
	free_output(out);
	return ret;
}

/* After an error: no half-written file is left behind. */
void sg_output_abort(struct sg_output *out)
{
	if (out->dat)
		sg_dat_abort(out->dat);
	if (out->text) {
		sg_text_close(out->text);
		unlink(out->opts.text_path);
	}
	free_output(out);
}

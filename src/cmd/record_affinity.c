// SPDX-License-Identifier: GPL-2.0
/*
 * record_affinity.c - where every task may run, written into the recording
 *
 * schedlint record reads each task's allowed CPUs (every thread of
 * /proc/PID/task/) when recording starts and when it ends, and re-reads
 * a task after its sched_process_exec and after
 * a migration/N stopper moved it (what sched_setaffinity() does to a task
 * running on a CPU it may no longer use).  What it reads goes into the
 * trace as trace_marker lines (SL_MARKER_AFFINITY in model.h), tasks of
 * one list together as pid ranges ("schedlint: affinity 1-45,47=0-3
 * 46=0"), a re-read with the time of the event that asked for it
 * ("4242=0@914354127000").  A forked task inherits its parent's mask: the
 * model knows that from sched_process_fork, so forks need no re-read,
 * but for a child forked while its parent's re-read is pending or was
 * just written (the mask it copied reaches the trace after the fork): it
 * is re-read with the fork's time.
 *
 * The CPUs come from sched_getaffinity(): the set Cpus_allowed_list of
 * /proc/PID/status shows, but for CPUs offline, at a thirtieth of the
 * cost (0.2 us a task against 5-8 us); the sweep at the end runs while
 * tracing does.  Names, for the stoppers, only in the first sweep.
 *
 * Several events asking for one re-read before it is written give it the
 * first one's time (taskset: its exec, its stopper move, its exec of the
 * command; the mask changed between the first two): early, never late.
 *
 * Blind spots: a change with no exec and no stopper move (a task already
 * on an allowed CPU, or asleep, given a new mask by another task; one
 * waiting runnable on a CPU it may no longer use, which the kernel moves
 * from the caller, logged by the caller and left out by the watch
 * instance's filter; a cpuset change) shows only at the end, for the
 * tasks still alive; a task that exits before its re-read keeps the mask
 * it had.  sched_setaffinity() on a running task by another was of the
 * second kind twice of twice on the loaded 2-CPU VM (2026-12-03): the
 * syscall's tracepoint (syscalls:sys_enter_sched_setaffinity, its pid)
 * would name every such change, where the kernel has it.  The model
 * takes a move outside the recorded mask as one (affinity.c).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record_affinity.h"
#include "schedlint/model.h"
#include "util/util.h"

#define MARKER_MAX	1000	/* bytes per trace_marker write (the kernel cuts at 1 KB or so) */
#define TOKEN_MAX	900	/* bytes per token: one must fit a marker */
#define STOPPERS_MAX	8192	/* migration/N threads remembered */
#define MASK_CPUS	8192	/* CPUs a mask holds (x86's NR_CPUS at most) */
#define LONG_BITS	(8 * sizeof(unsigned long))

struct reread {
	int32_t pid;
	uint64_t at;		/* trace time of the event that asked for it */
};

struct sl_rec_affinity {
	char *proc;			/* "/proc" */
	sl_rec_getaffinity_fn getaffinity;	/* NULL: proc's status files */
	bool swept;			/* a sweep learned the stoppers */
	int32_t *stoppers;		/* pids of the migration/N threads, sorted */
	size_t nr_stoppers, stoppers_alloc;
	struct reread *rereads;		/* asked for since the last flush */
	size_t nr_rereads, rereads_alloc;
	int32_t *last;			/* the pids re-read at the last flush */
	size_t nr_last, last_alloc;
	uint32_t exec_name;		/* the interned "sched_process_exec", 0 not met yet */
	uint64_t markers, tasks;	/* written, for the summary */
};

struct sl_rec_affinity *sl_rec_affinity_new(const char *proc, sl_rec_getaffinity_fn getaffinity)
{
	struct sl_rec_affinity *ra = xcalloc(1, sizeof(*ra));

	ra->proc = xstrdup(proc);
	ra->getaffinity = getaffinity;
	return ra;
}

int sl_rec_sched_getaffinity(int32_t tid, unsigned long *mask, size_t setsize)
{
	return sched_getaffinity((pid_t)tid, setsize, (cpu_set_t *)(void *)mask) < 0 ? -errno : 0;
}

static bool cpu_in(const unsigned long *mask, size_t cpu)
{
	return (mask[cpu / LONG_BITS] >> (cpu % LONG_BITS)) & 1;
}

int sl_rec_cpulist(const unsigned long *mask, size_t nbits, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	for (size_t cpu = 0; cpu < nbits; cpu++) {
		size_t last = cpu;
		int n;

		/* a word at a time where it is empty: 8192 bits cost 8 us a task bit by bit */
		if (!(cpu % LONG_BITS) && !mask[cpu / LONG_BITS]) {
			cpu += LONG_BITS - 1;
			continue;
		}
		if (!cpu_in(mask, cpu))
			continue;
		while (last + 1 < nbits && cpu_in(mask, last + 1))
			last++;
		n = last > cpu ? snprintf(buf + used, len - used, "%s%zu-%zu", used ? "," : "", cpu, last)
			       : snprintf(buf + used, len - used, "%s%zu", used ? "," : "", cpu);
		if (n < 0 || (size_t)n >= len - used)
			return -ENOSPC;
		used += (size_t)n;
		cpu = last;
	}
	return 0;
}

/*
 * The start of a small file (full path) into buf, NUL-ended: the bytes
 * read, or -errno.  One read(), no stdio: the sweeps at the end read
 * files of every task while tracing runs.
 */
long sl_rec_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	return (long)n;
}

void sl_rec_affinity_free(struct sl_rec_affinity *ra)
{
	if (!ra)
		return;
	free(ra->proc);
	free(ra->stoppers);
	free(ra->last);
	free(ra->rereads);
	free(ra);
}

/*
 * The Name: and Cpus_allowed_list: of /proc/.../status (path), into name
 * and list; 0, or -errno (the task is gone, or the file says neither).
 */
static int read_status(const char *path, char *name, size_t name_len, char *list, size_t list_len)
{
	char line[4096];
	bool have_list = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	name[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char *v, *end;

		if (!strncmp(line, "Name:", 5)) {
			size_t n;

			for (v = line + 5; *v == ' ' || *v == '\t'; v++)
				;
			n = MIN(strcspn(v, "\n"), name_len - 1);
			memcpy(name, v, n);
			name[n] = '\0';
		} else if (!strncmp(line, "Cpus_allowed_list:", 18)) {
			for (v = line + 18; *v == ' ' || *v == '\t'; v++)
				;
			end = v + strcspn(v, "\n");
			*end = '\0';
			if (!*v || (size_t)(end - v) >= list_len)
				break;
			memcpy(list, v, (size_t)(end - v) + 1);
			have_list = true;
		}
	}
	fclose(f);
	return have_list ? 0 : -ENOENT;
}

static bool numeric(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * Task tid (of process pid, a name in proc) into list, and, with
 * want_name, its name; 0, or -errno (gone, or nothing to say).
 */
static int task_affinity(const struct sl_rec_affinity *ra, const char *pid, int32_t tid,
			 bool want_name, char *name, size_t name_len, char *list, size_t list_len)
{
	unsigned long mask[MASK_CPUS / LONG_BITS];
	char path[1024];
	int ret;

	if (!ra->getaffinity) {
		snprintf(path, sizeof(path), "%s/%s/task/%d/status", ra->proc, pid, (int)tid);
		return read_status(path, name, name_len, list, list_len);
	}
	memset(mask, 0, sizeof(mask));
	ret = ra->getaffinity(tid, mask, sizeof(mask));
	if (ret)
		return ret;
	ret = sl_rec_cpulist(mask, MASK_CPUS, list, list_len);
	if (ret || !list[0])
		return ret ? ret : -ENOENT;
	name[0] = '\0';
	if (want_name) {
		snprintf(path, sizeof(path), "%s/%s/task/%d/comm", ra->proc, pid, (int)tid);
		if (sl_rec_read_small(path, name, name_len) < 0)
			name[0] = '\0';
		name[strcspn(name, "\n")] = '\0';
	}
	return 0;
}

/* One task's entry of a sweep. */
struct entry {
	int32_t pid;
	char *list;
};

static int by_list_then_pid(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;
	int c = strcmp(a->list, b->list);

	return c ? c : (a->pid > b->pid) - (a->pid < b->pid);
}

static int by_pid(const void *x, const void *y)
{
	int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;

	return (a > b) - (a < b);
}

/* Writes markers of tokens, each marker as full as MARKER_MAX allows. */
struct marker_out {
	char text[MARKER_MAX + 1];
	size_t len;
	sl_rec_write_fn write;
	void *ctx;
	int err;
	uint64_t *count;
};

static void out_flush(struct marker_out *o)
{
	size_t prefix = strlen(SL_MARKER_AFFINITY);

	if (o->len > prefix) {
		int ret = o->write(o->ctx, o->text);

		if (ret && !o->err)
			o->err = ret;
		(*o->count)++;
	}
	o->len = (size_t)snprintf(o->text, sizeof(o->text), "%s", SL_MARKER_AFFINITY);
}

static void out_token(struct marker_out *o, const char *tok)
{
	size_t n = strlen(tok);

	if (o->len + n + 1 > MARKER_MAX)
		out_flush(o);
	if (o->len > strlen(SL_MARKER_AFFINITY))
		o->text[o->len++] = ' ';
	memcpy(o->text + o->len, tok, n + 1);
	o->len += n;
}

/* The tokens "RANGES=LIST" for pids (sorted) that share list; each at most TOKEN_MAX. */
static void out_group(struct marker_out *o, const struct entry *e, size_t n)
{
	char tok[TOKEN_MAX + 64];
	size_t len = 0, list_len = strlen(e[0].list);

	if (list_len + 24 > TOKEN_MAX)
		return;		/* a list too long for a marker: the task's affinity stays unknown */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		int w;

		while (j + 1 < n && e[j + 1].pid == e[j].pid + 1)
			j++;
		if (len + 24 + list_len > TOKEN_MAX) {
			snprintf(tok + len, sizeof(tok) - len, "=%s", e[0].list);
			out_token(o, tok);
			len = 0;
		}
		w = j > i ? snprintf(tok + len, sizeof(tok) - len, "%s%d-%d", len ? "," : "",
				     e[i].pid, e[j].pid)
			  : snprintf(tok + len, sizeof(tok) - len, "%s%d", len ? "," : "", e[i].pid);
		len += (size_t)w;
		i = j + 1;
	}
	if (len) {
		snprintf(tok + len, sizeof(tok) - len, "=%s", e[0].list);
		out_token(o, tok);
	}
}

long sl_rec_list_tasks(const char *proc, struct sl_rec_task **tasks)
{
	struct sl_rec_task *t = NULL;
	size_t nr = 0, alloc = 0;
	struct dirent *pd, *td;
	DIR *procdir, *taskdir;
	char path[1024];

	*tasks = NULL;
	procdir = opendir(proc);
	if (!procdir)
		return -errno;
	while ((pd = readdir(procdir))) {
		long pid = strtol(pd->d_name, NULL, 10);

		if (!numeric(pd->d_name) || pid <= 0 || pid > INT32_MAX)
			continue;
		snprintf(path, sizeof(path), "%s/%s/task", proc, pd->d_name);
		taskdir = opendir(path);
		if (!taskdir)
			continue;	/* gone since */
		while ((td = readdir(taskdir))) {
			long tid = strtol(td->d_name, NULL, 10);

			if (!numeric(td->d_name) || tid <= 0 || tid > INT32_MAX)
				continue;
			GROW(t, alloc, nr + 1);
			t[nr++] = (struct sl_rec_task){ .pid = (int32_t)pid, .tid = (int32_t)tid };
		}
		closedir(taskdir);
	}
	closedir(procdir);
	*tasks = t;
	return (long)nr;
}

int sl_rec_affinity_sweep(struct sl_rec_affinity *ra, sl_rec_write_fn write, void *ctx)
{
	struct sl_rec_task *tasks;
	long nr = sl_rec_list_tasks(ra->proc, &tasks);
	int ret;

	if (nr < 0)
		return (int)nr;
	ret = sl_rec_affinity_sweep_tasks(ra, tasks, (size_t)nr, write, ctx);
	free(tasks);
	return ret;
}

int sl_rec_affinity_sweep_tasks(struct sl_rec_affinity *ra, const struct sl_rec_task *tasks,
				size_t nr_tasks, sl_rec_write_fn write, void *ctx)
{
	struct marker_out o = { .write = write, .ctx = ctx, .count = &ra->markers };
	struct entry *e = NULL;
	size_t nr = 0, alloc = 0;
	char pid[16], name[64], list[4096];

	for (size_t i = 0; i < nr_tasks; i++) {
		snprintf(pid, sizeof(pid), "%d", (int)tasks[i].pid);
		if (task_affinity(ra, pid, tasks[i].tid, !ra->swept, name, sizeof(name), list,
				  sizeof(list)))
			continue;
		GROW(e, alloc, nr + 1);
		e[nr++] = (struct entry){ .pid = tasks[i].tid, .list = xstrdup(list) };
		if (!ra->swept && !strncmp(name, "migration/", 10) && ra->nr_stoppers < STOPPERS_MAX) {
			GROW(ra->stoppers, ra->stoppers_alloc, ra->nr_stoppers + 1);
			ra->stoppers[ra->nr_stoppers++] = tasks[i].tid;
		}
	}
	if (ra->nr_stoppers && !ra->swept)	/* qsort() wants an array, even of none */
		qsort(ra->stoppers, ra->nr_stoppers, sizeof(*ra->stoppers), by_pid);
	/* the stoppers are the kernel's per-CPU threads: the first sweep's stay right */
	ra->swept = true;
	if (nr)
		qsort(e, nr, sizeof(*e), by_list_then_pid);
	out_flush(&o);
	for (size_t i = 0; i < nr;) {
		size_t j = i;

		while (j < nr && !strcmp(e[j].list, e[i].list))
			j++;
		out_group(&o, e + i, j - i);
		i = j;
	}
	out_flush(&o);
	ra->tasks += nr;
	for (size_t i = 0; i < nr; i++)
		free(e[i].list);
	free(e);
	return o.err;
}

static bool is_stopper(const struct sl_rec_affinity *ra, int32_t pid)
{
	return ra->nr_stoppers &&
	       bsearch(&pid, ra->stoppers, ra->nr_stoppers, sizeof(pid), by_pid) != NULL;
}

/*
 * Is pid's re-read pending, or just written?  Then the mask it had a
 * moment ago, which a child forked now copies, is in the trace too late.
 */
static bool reread_near(const struct sl_rec_affinity *ra, int32_t pid)
{
	for (size_t i = 0; i < ra->nr_rereads; i++)
		if (ra->rereads[i].pid == pid)
			return true;
	for (size_t i = 0; i < ra->nr_last; i++)
		if (ra->last[i] == pid)
			return true;
	return false;
}

void sl_rec_affinity_event(struct sl_rec_affinity *ra, const struct sl_event *ev,
			   const struct sl_strtab *st)
{
	int32_t pid;

	if (ev->type == SL_EV_MIGRATE && is_stopper(ra, ev->pid)) {
		pid = ev->migrate.pid;
	} else if (ev->type == SL_EV_FORK && ev->fork.child_pid > 0 &&
		   reread_near(ra, ev->fork.parent_pid)) {
		pid = ev->fork.child_pid;
	} else if (ev->type == SL_EV_OTHER && ev->pid > 0 &&
		   (ra->exec_name ? ev->name == ra->exec_name
				  : !strcmp(sl_str(st, ev->name), "sched_process_exec"))) {
		ra->exec_name = ev->name;
		pid = ev->pid;
	} else {
		return;
	}
	for (size_t i = 0; i < ra->nr_rereads; i++)
		if (ra->rereads[i].pid == pid)
			return;		/* one re-read for both: at the first */
	GROW(ra->rereads, ra->rereads_alloc, ra->nr_rereads + 1);
	ra->rereads[ra->nr_rereads++] = (struct reread){ .pid = pid, .at = ev->ts };
}

int sl_rec_affinity_flush_some(struct sl_rec_affinity *ra, size_t max, sl_rec_write_fn write,
			       void *ctx)
{
	struct marker_out o = { .write = write, .ctx = ctx, .count = &ra->markers };
	char pid[16], name[64], list[4096], tok[TOKEN_MAX + 64];
	size_t n = MIN(max, ra->nr_rereads);

	out_flush(&o);
	for (size_t i = 0; i < n; i++) {
		const struct reread *r = &ra->rereads[i];

		snprintf(pid, sizeof(pid), "%d", r->pid);
		if (task_affinity(ra, pid, r->pid, false, name, sizeof(name), list, sizeof(list)) ||
		    strlen(list) + 40 > TOKEN_MAX)
			continue;	/* gone already */
		snprintf(tok, sizeof(tok), "%d=%s@%" PRIu64, r->pid, list, r->at);
		out_token(&o, tok);
		ra->tasks++;
	}
	out_flush(&o);
	GROW(ra->last, ra->last_alloc, n);
	for (size_t i = 0; i < n; i++)
		ra->last[i] = ra->rereads[i].pid;
	ra->nr_last = n;
	/*
	 * the rest wait for the next flush, in the order they were asked for
	 * (none asked: rereads is still NULL, no memmove of it)
	 */
	if (ra->nr_rereads > n)
		memmove(ra->rereads, ra->rereads + n, (ra->nr_rereads - n) * sizeof(*ra->rereads));
	ra->nr_rereads -= n;
	return o.err;
}

int sl_rec_affinity_flush(struct sl_rec_affinity *ra, sl_rec_write_fn write, void *ctx)
{
	return sl_rec_affinity_flush_some(ra, SIZE_MAX, write, ctx);
}

size_t sl_rec_affinity_pending(const struct sl_rec_affinity *ra)
{
	return ra ? ra->nr_rereads : 0;
}

uint64_t sl_rec_affinity_markers(const struct sl_rec_affinity *ra)
{
	return ra->markers;
}

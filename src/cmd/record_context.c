// SPDX-License-Identifier: GPL-2.0
/*
 * record_context.c - policies, groups and kernel settings, written into the recording
 *
 * What the trace does not say and every share or slice depends on:
 *
 * - the kernel: HZ and the preemption model from /proc/config.gz;
 *   HRTICK and the current preemption mode from /sys/kernel/debug/sched
 *   (features, preempt) when debugfs is there and not locked down, else
 *   the command line's preempt= (PREEMPT_DYNAMIC), else config's choice,
 *   HRTICK then being the feature's default (off).  Each with its source.
 * - every task (/proc/PID/task/TID): sched_getattr()'s policy, nice or RT
 *   priority and sched_runtime (a fair task's slice on 6.12+); its cpu
 *   cgroup (v1 cpu controller, else v2 when cpu is enabled there: every
 *   level with a cpu.shares or cpu.weight file is a group), else its
 *   autogroup (/proc/PID/autogroup, when sched_autogroup_enabled) - the
 *   kernel puts a task in its autogroup only when its cgroup is the root.
 *
 * Written as markers (schedlint/context.h): the kernel's first, then a
 * group's definition before the first task in it, then tasks of one
 * context together as pid ranges.  A task is read again after its exec
 * (chrt, nice, setsid, systemd-run set these and exec), with the exec's
 * time; forks need nothing (the model copies the parent's, as the
 * kernel does), but for a child forked while its parent's re-read is
 * pending or was written lately: it is re-read too, with the fork's time.
 *
 * Blind spots: as affinity's (record_affinity.c), a change with no exec
 * shows only in the sweep at the end; a task that exits before its
 * re-read (up to a drain round, 0.1 s, after its exec) keeps what it had
 * before, and so do its children (a chrt'd perf bench of 30 ms counts as
 * fair: start such a workload from a shell that lives longer); a group's
 * weight is read once, when the group is first met.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <zlib.h>

#include "model/slice.h"
#include "record_context.h"
#include "schedlint/context.h"
#include "util/util.h"

#define MARKER_MAX	1000	/* bytes per trace_marker write */
#define RECENT_MAX	256	/* re-read pids remembered for their children's forks */

struct group_key {
	char *key;			/* "cpu:/a/b", "cpu2:/a", "autogroup:/autogroup-5 nice 0" */
	uint32_t id;
};

struct reread {
	int32_t pid;
	uint64_t at;
};

struct sl_rec_context {
	char *root;			/* "" or a fake / */
	sl_rec_getattr_fn getattr;
	char *v1_cpu;			/* the v1 cpu controller's mount, under root; NULL none */
	char *v2;			/* the v2 mount when cpu is enabled there; NULL none */
	bool autogroup;			/* sched_autogroup_enabled */
	bool mounts_read;
	struct group_key *groups;	/* met so far; ids 1.. in this order */
	size_t nr_groups, groups_alloc;
	struct reread *rereads;		/* asked for since the last flush */
	size_t nr_rereads, rereads_alloc;
	int32_t recent[RECENT_MAX];	/* the pids re-read lately, a ring */
	size_t nr_recent;		/* written so far (the ring's next slot: % RECENT_MAX) */
	uint32_t exec_name;		/* interned "sched_process_exec", 0 not met yet */
	char summary[160];
};

static int sys_getattr(int32_t tid, struct sl_rec_attr *out)
{
	struct {			/* struct sched_attr, as of 6.12 */
		uint32_t size, sched_policy;
		uint64_t sched_flags;
		int32_t sched_nice;
		uint32_t sched_priority;
		uint64_t sched_runtime, sched_deadline, sched_period;
		uint32_t util_min, util_max;
	} attr = { 0 };

	if (syscall(SYS_sched_getattr, tid, &attr, sizeof(attr), 0))
		return -errno;
	*out = (struct sl_rec_attr){ .policy = attr.sched_policy, .nice = attr.sched_nice,
				     .rt_priority = attr.sched_priority,
				     .runtime_ns = attr.sched_runtime };
	return 0;
}

struct sl_rec_context *sl_rec_context_new(const char *root, sl_rec_getattr_fn getattr)
{
	struct sl_rec_context *rc = xcalloc(1, sizeof(*rc));

	rc->root = xstrdup(root);
	rc->getattr = getattr ? getattr : sys_getattr;
	return rc;
}

void sl_rec_context_free(struct sl_rec_context *rc)
{
	if (!rc)
		return;
	for (size_t i = 0; i < rc->nr_groups; i++)
		free(rc->groups[i].key);
	free(rc->groups);
	free(rc->rereads);
	free(rc->v1_cpu);
	free(rc->v2);
	free(rc->root);
	free(rc);
}

/* The first line of root + path into buf, newline cut; 0 or -errno. */
static int read_line(const struct sl_rec_context *rc, const char *path, char *buf, size_t len)
{
	char full[1024];
	long n;

	snprintf(full, sizeof(full), "%s%s", rc->root, path);
	n = sl_rec_read_small(full, buf, len);
	if (n <= 0)
		return n < 0 ? (int)n : -EIO;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Is word one of the comma- or space-separated words of list? */
static bool has_word(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);

	for (const char *p = list; *p; p += strspn(p, seps)) {
		size_t len = strcspn(p, seps);

		if (len == n && !strncmp(p, word, n))
			return true;
		p += len;
	}
	return false;
}

/* --- the kernel --- */

struct kconfig {
	int hz;
	bool hrtick, dynamic;
	const char *model;		/* "none", "voluntary", "full", "lazy", "rt", NULL */
	bool read;
};

static void read_kconfig(const struct sl_rec_context *rc, struct kconfig *k)
{
	static const struct { const char *opt, *model; } models[] = {
		{ "CONFIG_PREEMPT_NONE=y", "none" }, { "CONFIG_PREEMPT_VOLUNTARY=y", "voluntary" },
		{ "CONFIG_PREEMPT=y", "full" }, { "CONFIG_PREEMPT_LAZY=y", "lazy" },
		{ "CONFIG_PREEMPT_RT=y", "rt" },
	};
	char path[1024], line[256];
	gzFile gz;

	memset(k, 0, sizeof(*k));
	snprintf(path, sizeof(path), "%s/proc/config.gz", rc->root);
	gz = gzopen(path, "rb");
	if (!gz)
		return;
	while (gzgets(gz, line, sizeof(line))) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "CONFIG_HZ=", 10))
			k->hz = atoi(line + 10);
		else if (!strcmp(line, "CONFIG_SCHED_HRTICK=y"))
			k->hrtick = true;
		else if (!strcmp(line, "CONFIG_PREEMPT_DYNAMIC=y"))
			k->dynamic = true;
		for (size_t i = 0; i < ARRAY_SIZE(models); i++)
			if (!strcmp(line, models[i].opt) && (!k->model || strcmp(k->model, "rt")))
				k->model = models[i].model;
	}
	k->read = true;
	gzclose(gz);
}

/* The mode debugfs's sched/preempt shows in parentheses: "none (voluntary) full". */
static bool debugfs_preempt(const struct sl_rec_context *rc, char *mode, size_t len)
{
	char line[256], *open, *close;

	if (read_line(rc, "/sys/kernel/debug/sched/preempt", line, sizeof(line)))
		return false;
	open = strchr(line, '(');
	close = open ? strchr(open, ')') : NULL;
	if (!close || close == open + 1)
		return false;
	snprintf(mode, len, "%.*s", (int)(close - open - 1), open + 1);
	return true;
}

/* HRTICK or NO_HRTICK among debugfs's sched/features. */
static int debugfs_hrtick(const struct sl_rec_context *rc)
{
	char line[4096];

	if (read_line(rc, "/sys/kernel/debug/sched/features", line, sizeof(line)))
		return -1;
	if (has_word(line, "HRTICK", " "))
		return 1;
	if (has_word(line, "NO_HRTICK", " "))
		return 0;
	return -1;
}

/* preempt= of the kernel command line. */
static bool cmdline_preempt(const struct sl_rec_context *rc, char *mode, size_t len)
{
	char line[4096];

	if (read_line(rc, "/proc/cmdline", line, sizeof(line)))
		return false;
	for (const char *p = line; *p; p += strspn(p, " ")) {
		size_t n = strcspn(p, " ");

		if (!strncmp(p, "preempt=", 8) && n > 8) {
			snprintf(mode, len, "%.*s", (int)(n - 8), p + 8);
			return true;
		}
		if (n == 2 && !strncmp(p, "--", 2))
			break;		/* the rest is init's */
		p += n;
	}
	return false;
}

static bool known_mode(const char *mode)
{
	return has_word("none,voluntary,full,lazy,rt", mode, ",");
}

int sl_rec_context_kernel(struct sl_rec_context *rc, sl_rec_write_fn write, void *ctx)
{
	char text[MARKER_MAX], mode[32];
	struct sl_rec_attr self;
	struct kconfig k;
	int n = snprintf(text, sizeof(text), "%s", SL_MARKER_KERNEL), hrtick;
	const char *hr = NULL, *hr_from = NULL, *pm = NULL, *pm_from = NULL;

	read_kconfig(rc, &k);
	hrtick = debugfs_hrtick(rc);
	if (hrtick >= 0) {
		hr = hrtick ? "on" : "off";
		hr_from = "debugfs";
	} else if (k.read) {
		hr = "off";	/* HRTICK is a sched_feat off by default; without the option there is none */
		hr_from = k.hrtick ? "default" : "config";
	}
	if (debugfs_preempt(rc, mode, sizeof(mode)) && known_mode(mode)) {
		pm = mode;
		pm_from = "debugfs";
	} else if ((!k.read || k.dynamic) && cmdline_preempt(rc, mode, sizeof(mode)) &&
		   known_mode(mode)) {
		pm = mode;
		pm_from = "cmdline";
	} else if (k.model) {
		pm = k.model;
		pm_from = "config";
	}
	rc->summary[0] = '\0';
	if (k.hz > 0 && k.hz <= 100000) {
		n += snprintf(text + n, sizeof(text) - (size_t)n, "hz=%d@config ", k.hz);
		snprintf(rc->summary, sizeof(rc->summary), "HZ %d (config)", k.hz);
	}
	if (hr) {
		size_t used = strlen(rc->summary);

		n += snprintf(text + n, sizeof(text) - (size_t)n, "hrtick=%s@%s ", hr, hr_from);
		snprintf(rc->summary + used, sizeof(rc->summary) - used, "%sHRTICK %s (%s)",
			 used ? ", " : "", hr, hr_from);
	}
	if (pm) {
		size_t used = strlen(rc->summary);

		n += snprintf(text + n, sizeof(text) - (size_t)n, "preempt=%s@%s ", pm, pm_from);
		snprintf(rc->summary + used, sizeof(rc->summary) - used, "%spreempt %s (%s)",
			 used ? ", " : "", pm, pm_from);
	}
	if (!rc->summary[0])
		snprintf(rc->summary, sizeof(rc->summary), "HZ, HRTICK, preemption unknown "
			 "(no /proc/config.gz, no debugfs)");
	/*
	 * record's own task is an ordinary fair one: its sched_runtime is
	 * the base slice (6.12+; 0 before, and then nothing is said)
	 */
	if (!rc->getattr(0, &self) && (self.policy == 0 || self.policy == 3) &&
	    self.runtime_ns >= 1000 && self.runtime_ns <= 1000000000) {
		size_t used = strlen(rc->summary);

		n += snprintf(text + n, sizeof(text) - (size_t)n, "base_slice=%" PRIu64 "@getattr ",
			      self.runtime_ns);
		snprintf(rc->summary + used, sizeof(rc->summary) - used, ", base slice %.2f ms",
			 self.runtime_ns / 1e6);
	}
	if (n > (int)strlen(SL_MARKER_KERNEL)) {
		text[n - 1] = '\0';	/* the last space */
		return write(ctx, text);
	}
	return 0;
}

const char *sl_rec_context_summary(const struct sl_rec_context *rc)
{
	return rc->summary;
}

/* --- groups --- */

static void read_mounts(struct sl_rec_context *rc)
{
	char line[1024], dev[256], dir[512], type[64], opts[512], path[1024];
	FILE *f;

	rc->mounts_read = true;
	snprintf(path, sizeof(path), "%s/proc/self/mounts", rc->root);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %511s %63s %511s", dev, dir, type, opts) != 4)
			continue;
		if (!strcmp(type, "cgroup") && has_word(opts, "cpu", ",") && !rc->v1_cpu) {
			snprintf(path, sizeof(path), "%s%s", rc->root, dir);
			rc->v1_cpu = xstrdup(path);
		} else if (!strcmp(type, "cgroup2") && !rc->v2) {
			char ctl[1024];

			snprintf(path, sizeof(path), "%s/cgroup.controllers", dir);
			if (!read_line(rc, path, ctl, sizeof(ctl)) && has_word(ctl, "cpu", " ")) {
				snprintf(path, sizeof(path), "%s%s", rc->root, dir);
				rc->v2 = xstrdup(path);
			}
		}
	}
	if (f)
		fclose(f);
	if (!read_line(rc, "/proc/sys/kernel/sched_autogroup_enabled", line, sizeof(line)))
		rc->autogroup = atoi(line) != 0;
	else
		rc->autogroup = true;	/* no sysctl: the autogroup file says whether there is one */
}

/* A number from a file (absolute path); -1 when it has none. */
static long read_number(const char *path)
{
	char line[64];
	FILE *f = fopen(path, "re");
	long v = -1;

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		v = strtol(line, NULL, 10);
	fclose(f);
	return v;
}

/*
 * The id of the group key names, written as a marker when first met
 * (parent, weight, kind, name as the marker says); 0 (the root) when
 * the ids are used up or the marker cannot be written.
 */
static uint32_t group_id(struct sl_rec_context *rc, const char *key, uint32_t parent,
			 long weight, const char *kind, const char *name,
			 sl_rec_write_fn write, void *ctx, int *err)
{
	char text[MARKER_MAX];
	int ret;

	for (size_t i = 0; i < rc->nr_groups; i++)
		if (!strcmp(rc->groups[i].key, key))
			return rc->groups[i].id;
	if (rc->nr_groups + 1 >= SL_CTX_MAX_GROUPS || weight <= 0 || weight > (1L << 30) ||
	    strlen(name) > 200)
		return parent;
	snprintf(text, sizeof(text), SL_MARKER_GROUP "%zu %" PRIu32 " %ld %s %s",
		 rc->nr_groups + 1, parent, weight, kind, name);
	for (char *c = text; *c; c++)
		if ((unsigned char)*c < ' ')
			*c = ' ';
	ret = write(ctx, text);
	if (ret) {
		if (!*err)
			*err = ret;
		return parent;
	}
	GROW(rc->groups, rc->groups_alloc, rc->nr_groups + 1);
	rc->groups[rc->nr_groups] = (struct group_key){ .key = xstrdup(key),
							.id = (uint32_t)rc->nr_groups + 1 };
	return (uint32_t)++rc->nr_groups;
}

/*
 * The levels of a cgroup path that are scheduling groups (a cpu.shares
 * or cpu.weight file there), root first; the id of the deepest, 0 none.
 */
static uint32_t cgroup_groups(struct sl_rec_context *rc, const char *mount, const char *path,
			      bool v2, sl_rec_write_fn write, void *ctx, int *err)
{
	char prefix[512], file[1024], key[600];
	uint32_t id = 0;
	const char *p = path;

	while (*p == '/')
		p++;
	while (*p) {
		size_t n = strcspn(p, "/");
		long w;

		snprintf(prefix, sizeof(prefix), "%.*s", (int)(p + n - path), path);
		snprintf(file, sizeof(file), "%s%s/%s", mount, prefix, v2 ? "cpu.weight" : "cpu.shares");
		w = read_number(file);
		if (w > 0) {
			if (v2)
				w = w * 1024 / 100;	/* sched_weight_from_cgroup() */
			snprintf(key, sizeof(key), "%s:%s", v2 ? "cpu2" : "cpu", prefix);
			id = group_id(rc, key, id, w, v2 ? "cpu2" : "cpu", prefix, write, ctx, err);
		}
		p += n;
		while (*p == '/')
			p++;
	}
	return id;
}

/* tid's scheduling group: its cpu cgroup, else its autogroup, else the root (0). */
static uint32_t task_group(struct sl_rec_context *rc, int32_t pid, int32_t tid,
			   sl_rec_write_fn write, void *ctx, int *err)
{
	char path[256], text[16384], line[1024], key[600], *next;
	uint32_t id = 0;

	if (!rc->mounts_read)
		read_mounts(rc);
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d/cgroup", rc->root, pid, tid);
	next = (rc->v1_cpu || rc->v2) && sl_rec_read_small(path, text, sizeof(text)) > 0 ? text : NULL;
	while (next && *next) {
		char *hier = next, *end = strchr(hier, '\n'), *c1, *c2;

		if (end)
			*end = '\0';
		next = end ? end + 1 : NULL;
		c1 = strchr(hier, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';	/* hier: the hierarchy id, c1 + 1: its controllers */
		if (rc->v1_cpu && has_word(c1 + 1, "cpu", ","))
			id = cgroup_groups(rc, rc->v1_cpu, c2 + 1, false, write, ctx, err);
		else if (!rc->v1_cpu && rc->v2 && !strcmp(hier, "0") && !c1[1])
			id = cgroup_groups(rc, rc->v2, c2 + 1, true, write, ctx, err);
	}
	if (id || !rc->autogroup)
		return id;
	/* "/autogroup-54 nice 0": the kernel's autogroup of a task in the root cgroup */
	snprintf(path, sizeof(path), "/proc/%d/autogroup", pid);
	if (!read_line(rc, path, line, sizeof(line))) {
		char *nice = strstr(line, " nice ");
		long v = nice ? strtol(nice + 6, NULL, 10) : 0;

		if (nice && v >= -20 && v <= 19) {
			snprintf(key, sizeof(key), "autogroup:%.200s", line);
			id = group_id(rc, key, 0, (long)sl_prio_weight(120 + (int)v), "autogroup",
				      line, write, ctx, err);
		}
	}
	return id;
}

/* --- tasks --- */

static const char *policy_word(uint32_t policy)
{
	switch (policy) {
	case 0:	return "other";
	case 1:	return "fifo";
	case 2:	return "rr";
	case 3:	return "batch";
	case 5:	return "idle";
	case 6:	return "deadline";
	case 7:	return "ext";
	}
	return NULL;
}

/* "POLICY/PRIO/SLICE/GROUP" of tid into buf; false when it cannot be read. */
static bool task_value(struct sl_rec_context *rc, int32_t pid, int32_t tid, char *buf, size_t len,
		       sl_rec_write_fn write, void *ctx, int *err)
{
	struct sl_rec_attr a;
	const char *policy;
	int32_t prio;

	if (rc->getattr(tid, &a) || !(policy = policy_word(a.policy)))
		return false;
	prio = (a.policy == 1 || a.policy == 2) ? (int32_t)a.rt_priority : a.nice;
	if (a.policy == 6)
		prio = 0;
	if (prio < -20 || prio > 99)
		return false;
	snprintf(buf, len, "%s/%d/%" PRIu64 "/%" PRIu32, policy, prio, a.runtime_ns,
		 task_group(rc, pid, tid, write, ctx, err));
	return true;
}

struct entry {
	int32_t pid;
	char value[64];
	uint64_t at;			/* 0: a sweep's */
};

static int by_value_then_pid(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;
	int c = strcmp(a->value, b->value);

	return c ? c : (a->pid > b->pid) - (a->pid < b->pid);
}

/* Markers of "RANGES=VALUE" tokens (e sorted by value, then pid), each marker as full as fits. */
static int write_entries(struct entry *e, size_t nr, sl_rec_write_fn write, void *ctx)
{
	char text[MARKER_MAX + 1], tok[160];
	size_t prefix = strlen(SL_MARKER_SCHED), len = prefix;
	int err = 0, ret;

	memcpy(text, SL_MARKER_SCHED, prefix + 1);
	for (size_t i = 0; i < nr;) {
		size_t j = i;
		int n;

		if (e[i].at) {
			n = snprintf(tok, sizeof(tok), "%d=%s@%" PRIu64, e[i].pid, e[i].value, e[i].at);
		} else {
			while (j + 1 < nr && !e[j + 1].at && e[j + 1].pid == e[j].pid + 1 &&
			       !strcmp(e[j + 1].value, e[i].value))
				j++;
			n = j > i ? snprintf(tok, sizeof(tok), "%d-%d=%s", e[i].pid, e[j].pid, e[i].value)
				  : snprintf(tok, sizeof(tok), "%d=%s", e[i].pid, e[i].value);
		}
		if (len + (size_t)n + 1 > MARKER_MAX) {
			text[len - 1] = '\0';
			ret = write(ctx, text);
			err = err ? err : ret;
			len = prefix;
		}
		memcpy(text + len, tok, (size_t)n);
		len += (size_t)n;
		text[len++] = ' ';
		text[len] = '\0';
		i = j + 1;
	}
	if (len > prefix) {
		text[len - 1] = '\0';
		ret = write(ctx, text);
		err = err ? err : ret;
	}
	return err;
}

int sl_rec_context_sweep(struct sl_rec_context *rc, sl_rec_write_fn write, void *ctx)
{
	struct sl_rec_task *tasks;
	char path[1024];
	long nr;
	int ret;

	snprintf(path, sizeof(path), "%s/proc", rc->root);
	nr = sl_rec_list_tasks(path, &tasks);
	if (nr < 0)
		return (int)nr;
	ret = sl_rec_context_sweep_tasks(rc, tasks, (size_t)nr, write, ctx);
	free(tasks);
	return ret;
}

int sl_rec_context_sweep_tasks(struct sl_rec_context *rc, const struct sl_rec_task *tasks,
			       size_t nr_tasks, sl_rec_write_fn write, void *ctx)
{
	struct entry *e = NULL;
	size_t nr = 0, alloc = 0;
	int err = 0, ret;

	for (size_t i = 0; i < nr_tasks; i++) {
		GROW(e, alloc, nr + 1);
		e[nr] = (struct entry){ .pid = tasks[i].tid };
		if (task_value(rc, tasks[i].pid, tasks[i].tid, e[nr].value, sizeof(e[nr].value),
			       write, ctx, &err))
			nr++;
	}
	if (nr)
		qsort(e, nr, sizeof(*e), by_value_then_pid);
	ret = write_entries(e, nr, write, ctx);
	free(e);
	return err ? err : ret;
}

/*
 * Is pid's re-read pending, or among the last RECENT_MAX written?  A
 * child it forks now copies what it has now, which may reach the trace
 * after the fork (the events of a fork and of the flush before it can be
 * read in different rounds): chrt's exec'd command forking at once (perf
 * bench) would otherwise leave its child with the values from before the
 * exec.  A re-read too many costs a token.
 */
static bool reread_near(const struct sl_rec_context *rc, int32_t pid)
{
	for (size_t i = 0; i < rc->nr_rereads; i++)
		if (rc->rereads[i].pid == pid)
			return true;
	for (size_t i = 0; i < MIN(rc->nr_recent, (size_t)RECENT_MAX); i++)
		if (rc->recent[i] == pid)
			return true;
	return false;
}

void sl_rec_context_event(struct sl_rec_context *rc, const struct sl_event *ev,
			  const struct sl_strtab *st)
{
	int32_t pid;
	bool exec = false;

	if (!rc)
		return;
	if (ev->type == SL_EV_FORK && ev->fork.child_pid > 0 &&
	    reread_near(rc, ev->fork.parent_pid)) {
		pid = ev->fork.child_pid;
	} else if (ev->type == SL_EV_OTHER && ev->pid > 0 &&
		   (rc->exec_name ? ev->name == rc->exec_name
				  : !strcmp(sl_str(st, ev->name), "sched_process_exec"))) {
		rc->exec_name = ev->name;
		pid = ev->pid;
		exec = true;
	} else {
		return;
	}
	/*
	 * One re-read for all, stamped with the last exec before it: what the
	 * read finds is what the task runs with from then on (chrt, nice,
	 * setsid change it, then exec), and a fork's or an earlier exec's time
	 * would give it to the command before (taskset -c 1 chrt -f 10 cmd:
	 * taskset's and chrt's runs, fair, as FIFO).  Up to the exec it keeps
	 * what it had, or inherited at its fork.
	 */
	for (size_t i = 0; i < rc->nr_rereads; i++)
		if (rc->rereads[i].pid == pid) {
			if (exec && ev->ts > rc->rereads[i].at)
				rc->rereads[i].at = ev->ts;
			return;
		}
	GROW(rc->rereads, rc->rereads_alloc, rc->nr_rereads + 1);
	rc->rereads[rc->nr_rereads++] = (struct reread){ .pid = pid, .at = ev->ts ? ev->ts : 1 };
}

size_t sl_rec_context_pending(const struct sl_rec_context *rc)
{
	return rc ? rc->nr_rereads : 0;
}

int sl_rec_context_flush(struct sl_rec_context *rc, sl_rec_write_fn write, void *ctx)
{
	struct entry *e;
	size_t nr = 0;
	int err = 0, ret;

	if (!rc || !rc->nr_rereads)
		return 0;
	e = xcalloc(rc->nr_rereads, sizeof(*e));
	for (size_t i = 0; i < rc->nr_rereads; i++) {
		/* an exec is the thread group leader's: its pid is the process's */
		int32_t pid = rc->rereads[i].pid;

		e[nr] = (struct entry){ .pid = pid, .at = rc->rereads[i].at };
		if (task_value(rc, pid, pid, e[nr].value, sizeof(e[nr].value), write, ctx, &err))
			nr++;
	}
	for (size_t i = 0; i < rc->nr_rereads; i++)
		rc->recent[rc->nr_recent++ % RECENT_MAX] = rc->rereads[i].pid;
	rc->nr_rereads = 0;
	ret = write_entries(e, nr, write, ctx);
	free(e);
	return err ? err : ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * trace_live.c - the little of tracefs that schedlint record touches
 *
 * Like rtla's trace.c, a thin layer over libtracefs.  What we write is
 * all inside our own instance (instances/schedlint-PID): its events'
 * enable files, buffer_size_kb, tracing_on and trace_marker; we read its
 * per_cpu/cpuN/trace_pipe_raw and stats, and, read-only, the event
 * formats, header_page/header_event, printk_formats, saved_cmdlines and
 * /proc/kallsyms for the trace.dat.  Full pages are spliced from
 * trace_pipe_raw to the spool (sl_tracefs_splice), the page the kernel is
 * still filling read (sl_tracefs_read_page).  Nothing else: no current_tracer,
 * no set_ftrace_pid or any other function-tracer file (hardened kernels
 * refuse them, which is why trace-cmd record fails there), and nothing
 * of the top-level buffer, so other users of tracing are not disturbed.
 * Removing the instance disables its events and frees its buffers: the
 * kernel is then as we found it (and tracefs unmounted if we mounted it).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "trace_live.h"
#include "util/util.h"

#define TRACEFS_DEFAULT "/sys/kernel/tracing"

/* The mount point of tracefs from mountinfo, the default one preferred; NULL if none. */
static char *find_tracefs(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *found = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	while (getline(&line, &len, f) > 0) {
		/* "36 35 0:12 / /sys/kernel/tracing rw,... shared:9 - tracefs tracefs rw" */
		char *sep = strstr(line, " - ");
		char mnt[4096], fstype[64];

		if (!sep || sscanf(sep + 3, "%63s", fstype) != 1 || strcmp(fstype, "tracefs"))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		if (!found || !strcmp(mnt, TRACEFS_DEFAULT)) {
			free(found);
			found = xstrdup(mnt);
		}
	}
	free(line);
	fclose(f);
	return found;
}

int sl_tracefs_open(struct sl_tracefs *t, struct sl_error *err)
{
	char path[4096];

	memset(t, 0, sizeof(*t));
	t->lock_fd = -1;
	t->dir = find_tracefs();
	if (!t->dir) {
		if (geteuid() != 0) {
			sl_error_set(err, "tracefs is not mounted, and only root can mount it "
				     "(mount -t tracefs nodev " TRACEFS_DEFAULT "); record needs root");
			return -EPERM;
		}
		if (mount("nodev", TRACEFS_DEFAULT, "tracefs", 0, NULL) < 0) {
			int ret = -errno;

			sl_error_set(err, "tracefs is not mounted and mounting it on " TRACEFS_DEFAULT
				     " failed: %s (a kernel without CONFIG_FTRACE?)", strerror(errno));
			return ret;
		}
		t->dir = xstrdup(TRACEFS_DEFAULT);
		t->we_mounted = true;
	}
	snprintf(path, sizeof(path), "%s/instances", t->dir);
	if (access(path, W_OK | X_OK) < 0) {
		int ret = -errno;

		if (errno == EACCES || errno == EPERM)
			sl_error_set(err, "cannot create a tracing instance in %s: %s; record needs root",
				     path, strerror(errno));
		else
			sl_error_set(err, "%s: %s (a kernel without tracing instances?)", path,
				     strerror(errno));
		sl_tracefs_close(t, NULL);
		return ret;
	}
	if (tracefs_set_tracing_dir(t->dir) < 0) {
		sl_error_set(err, "libtracefs does not accept %s", t->dir);
		sl_tracefs_close(t, NULL);
		return -EINVAL;
	}
	return 0;
}

/* CPUs of the instance: per_cpu/cpuN, highest N + 1. */
static int count_cpus(struct sl_tracefs *t)
{
	char *dir = tracefs_instance_get_file(t->instance, "per_cpu");
	struct dirent *de;
	DIR *d;
	int nr = 0;

	d = dir ? opendir(dir) : NULL;
	tracefs_put_tracing_file(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "cpu", 3) && de->d_name[3] >= '0' && de->d_name[3] <= '9')
			nr = MAX(nr, atoi(de->d_name + 3) + 1);
	closedir(d);
	return nr;
}

/*
 * Who owns an instance.  A record holds an exclusive flock on its
 * instance's directory while it runs; the kernel drops the lock when the
 * process ends, however it ends (SIGKILL included).  An instance named
 * schedlint-* whose lock can be taken is one a record left behind: it
 * traces into its buffers for ever, so it is removed.  Creating an
 * instance and looking for left-behind ones happen under a lock on
 * instances/ itself: a new instance is locked by its owner before anyone
 * can look at it.  (An instance named after a running schedlint process
 * is left alone even unlocked: a record of an older version.)  The pid in the name is for people; in PID namespaces
 * (containers) pids repeat, so a name in use gets a suffix.
 */

/* instances/, opened and locked; -errno with err. */
static int lock_instances(struct sl_tracefs *t, struct sl_error *err)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/instances", t->dir);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int ret = -errno;

		sl_error_set(err, "%s: %s", path, strerror(errno));
		return ret;
	}
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			int ret = -errno;

			sl_error_set(err, "cannot lock %s: %s", path, strerror(errno));
			close(fd);
			return ret;
		}
	}
	return fd;
}

/*
 * The pid in name is another schedlint process of ours: a record of a
 * version before the lock, which may be setting its instance up.
 */
static bool named_after_live_schedlint(const char *name)
{
	char path[64], comm[32] = "";
	long pid = strtol(name + strlen("schedlint-"), NULL, 10);
	FILE *f;

	if (pid <= 0 || pid == getpid())
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strcmp(comm, "schedlint\n");
}

static bool instance_owned(int instances_fd, const char *name)
{
	int fd = openat(instances_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool owned;

	if (fd < 0)
		return true;	/* gone, or not ours to judge */
	owned = flock(fd, LOCK_EX | LOCK_NB) < 0 || named_after_live_schedlint(name);
	close(fd);
	return owned;
}

/*
 * A name record gives its instances: schedlint-PID or schedlint-PID-N
 * (sl_tracefs_create()).  Any other schedlint-* (schedlint-mydebug, made
 * by hand) is not ours to remove (issue 32, 12).
 */
static bool record_instance_name(const char *name)
{
	const char *p = name + strlen("schedlint-");
	int parts = 0;

	if (strncmp(name, "schedlint-", strlen("schedlint-")))
		return false;
	while (parts < 2) {
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
		parts++;
		if (!*p)
			return true;
		if (*p++ != '-')
			return false;
	}
	return false;
}

/* Remove the schedlint-PID instances no process owns; their names go to t->removed. */
static void remove_left_behind(struct sl_tracefs *t, int instances_fd)
{
	int fd = dup(instances_fd);
	char **names = NULL;
	size_t nr = 0;
	struct dirent *de;
	DIR *d;

	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		if (!record_instance_name(de->d_name) || !strcmp(de->d_name, t->name))
			continue;
		names = xrealloc(names, (nr + 1) * sizeof(*names));
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	for (size_t i = 0; i < nr; i++) {
		/* EBUSY: an older record, without the lock, still reading it */
		if (!instance_owned(instances_fd, names[i]) &&
		    !unlinkat(instances_fd, names[i], AT_REMOVEDIR)) {
			t->removed = xrealloc(t->removed, (t->nr_removed + 1) * sizeof(*t->removed));
			t->removed[t->nr_removed++] = names[i];
		} else {
			free(names[i]);
		}
	}
	free(names);
}

int sl_tracefs_remove_left_behind(struct sl_tracefs *t, struct sl_error *err)
{
	int fd = lock_instances(t, err);

	if (fd < 0)
		return fd;
	remove_left_behind(t, fd);
	close(fd);
	return 0;
}

int sl_tracefs_create(struct sl_tracefs *t, unsigned long buffer_kb, unsigned int want_subbuf_kb,
		      struct sl_error *err)
{
	long long subbuf_kb;
	int instances_fd;

	instances_fd = lock_instances(t, err);
	if (instances_fd < 0)
		return instances_fd;
	remove_left_behind(t, instances_fd);
	snprintf(t->name, sizeof(t->name), "schedlint-%d", (int)getpid());
	for (int n = 2; tracefs_instance_exists(t->name); n++)
		snprintf(t->name, sizeof(t->name), "schedlint-%d-%d", (int)getpid(), n);
	t->instance = tracefs_instance_create(t->name);
	if (!t->instance) {
		int ret = errno ? -errno : -EIO;

		close(instances_fd);
		sl_error_set(err, "cannot create the tracing instance %s/instances/%s: %s%s", t->dir,
			     t->name, strerror(-ret),
			     ret == -EACCES || ret == -EPERM ? "; record needs root" : "");
		return ret;
	}
	t->lock_fd = openat(instances_fd, t->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->lock_fd < 0 || flock(t->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		int ret = -errno;

		close(instances_fd);
		sl_error_set(err, "cannot lock the tracing instance %s/instances/%s: %s", t->dir,
			     t->name, strerror(errno));
		return ret;
	}
	close(instances_fd);
	/* a new instance starts with tracing on: nothing is enabled yet, but be explicit */
	sl_tracefs_tracing_on(t, false);

	t->nr_cpus = count_cpus(t);
	if (t->nr_cpus <= 0) {
		sl_error_set(err, "the instance %s has no per_cpu buffers", t->name);
		return -ENODEV;
	}
	t->page_size = getpagesize();
	/*
	 * bigger sub-buffers (6.8+): every cost of moving one - the ring
	 * buffer's swap, a pipe buffer, the file's write - paid less often
	 */
	if (want_subbuf_kb && tracefs_file_exists(t->instance, "buffer_subbuf_size_kb")) {
		char text[16];

		snprintf(text, sizeof(text), "%u", want_subbuf_kb);
		tracefs_instance_file_write(t->instance, "buffer_subbuf_size_kb", text);
	}
	if (tracefs_file_exists(t->instance, "buffer_subbuf_size_kb") &&
	    !tracefs_instance_file_read_number(t->instance, "buffer_subbuf_size_kb", &subbuf_kb) &&
	    subbuf_kb > 0)
		t->page_size = (int)(subbuf_kb * 1024);
	if (buffer_kb && tracefs_instance_set_buffer_size(t->instance, buffer_kb, -1) < 0) {
		int ret = errno ? -errno : -EIO;

		sl_error_set(err, "cannot set the buffer size to %lu KB per CPU: %s", buffer_kb,
			     strerror(-ret));
		return ret;
	}
	return 0;
}

static void add_system(struct sl_tracefs *t, const char *system)
{
	for (size_t i = 0; i < t->nr_systems; i++)
		if (!strcmp(t->systems[i], system))
			return;
	t->systems = xrealloc(t->systems, (t->nr_systems + 1) * sizeof(*t->systems));
	t->systems[t->nr_systems++] = xstrdup(system);
}

/* Remember the enable file of system (event NULL: all its events) for later. */
static int want(struct sl_tracefs *t, const char *system, const char *event)
{
	char path[512];

	if (event)
		snprintf(path, sizeof(path), "events/%s/%s/enable", system, event);
	else
		snprintf(path, sizeof(path), "events/%s/enable", system);
	if (!tracefs_file_exists(t->instance, path))
		return -ENOENT;
	t->wanted = xrealloc(t->wanted, (t->nr_wanted + 1) * sizeof(*t->wanted));
	t->wanted[t->nr_wanted++] = xstrdup(path);
	add_system(t, system);
	return 0;
}

int sl_tracefs_want(struct sl_tracefs *t, const char *system, const char *event)
{
	return want(t, system, event);
}

/* A system or event name as tracefs makes them: no path, nothing but a name. */
static bool is_event_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && *s != '_' && *s != '-')
			return false;
	return true;
}

int sl_tracefs_want_spec(struct sl_tracefs *t, const char *spec, struct sl_error *err)
{
	char *copy = xstrdup(spec), *event = strpbrk(copy, ":/");
	int ret;

	if (event)
		*event++ = '\0';
	/* "../schedlint-1/..." would reach another instance's or the top level's files */
	if (!is_event_name(copy) || (event && *event && strcmp(event, "*") && !is_event_name(event))) {
		sl_error_set(err, "-e %s: not an event name (system:event, system or event)", spec);
		free(copy);
		return -EINVAL;
	}
	if (event) {
		ret = want(t, copy, *event && strcmp(event, "*") ? event : NULL);
	} else {
		char **systems = tracefs_event_systems(t->dir);

		/* a system of that name, else an event of that name in any system */
		ret = want(t, copy, NULL);
		for (size_t i = 0; ret == -ENOENT && systems && systems[i]; i++)
			ret = want(t, systems[i], copy);
		tracefs_list_free(systems);
	}
	if (ret == -ENOENT)
		sl_error_set(err, "-e %s: no such event or event system on this kernel "
			     "(see %s/available_events)", spec, t->dir);
	free(copy);
	return ret;
}

int sl_tracefs_enable_wanted(struct sl_tracefs *t, struct sl_error *err)
{
	for (size_t i = 0; i < t->nr_wanted; i++) {
		if (tracefs_instance_file_write(t->instance, t->wanted[i], "1") < 0) {
			int ret = errno ? -errno : -EIO;

			sl_error_set(err, "cannot enable %s of the instance: %s", t->wanted[i],
				     strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int sl_tracefs_filter(struct sl_tracefs *t, const char *system, const char *event,
		      const char *filter)
{
	if (tracefs_event_file_write(t->instance, system, event, "filter", filter) < 0)
		return errno ? -errno : -EINVAL;
	return 0;
}

int sl_tracefs_tracing_on(struct sl_tracefs *t, bool on)
{
	if (!t->instance)
		return -EINVAL;
	return (on ? tracefs_trace_on(t->instance) : tracefs_trace_off(t->instance)) < 0 ? -EIO : 0;
}

int sl_tracefs_events_off(struct sl_tracefs *t)
{
	if (!t->instance)
		return -EINVAL;
	return tracefs_event_disable(t->instance, NULL, NULL) < 0 ? (errno ? -errno : -EIO) : 0;
}

int sl_tracefs_marker(struct sl_tracefs *t, const char *text)
{
	if (tracefs_instance_file_write(t->instance, "trace_marker", text) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

int sl_tracefs_open_pipes(struct sl_tracefs *t, struct sl_error *err)
{
	t->pipe_fd = xmalloc((size_t)t->nr_cpus * sizeof(*t->pipe_fd));
	t->splice_fd = xmalloc((size_t)t->nr_cpus * sizeof(*t->splice_fd));
	for (int cpu = 0; cpu < t->nr_cpus; cpu++)
		t->pipe_fd[cpu] = t->splice_fd[cpu][0] = t->splice_fd[cpu][1] = -1;
	for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
		char file[64];

		snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		if (!tracefs_file_exists(t->instance, file))
			continue;	/* a hole in the CPU numbers */
		t->pipe_fd[cpu] = tracefs_instance_file_open(t->instance, file,
							     O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (t->pipe_fd[cpu] < 0) {
			int ret = errno ? -errno : -EIO;

			sl_error_set(err, "cannot open %s of the instance: %s", file, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

ssize_t sl_tracefs_read_page(struct sl_tracefs *t, int cpu, void *buf)
{
	int fd = t->pipe_fd ? t->pipe_fd[cpu] : -1;

	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t n = read(fd, buf, (size_t)t->page_size);

		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		return errno == EAGAIN ? 0 : -errno;
	}
}

/* What the pipe could not pass to out_fd by splice: through our memory. */
static int pipe_to_fd_by_copy(int from, int to, size_t len)
{
	char buf[1 << 14];

	while (len) {
		ssize_t n = read(from, buf, MIN(len, sizeof(buf)));
		int ret;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		ret = write_all(to, buf, (size_t)n);
		if (ret)
			return ret;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * libtracefs has tracefs_cpu_write() for this; we do not use it because
 * it sizes its pipe to /proc/sys/fs/pipe-max-size (1 MB: 256 pages moved
 * in one call, a run of the recorder we could not bound) and returns what
 * it wrote rather than what it took from the ring buffer.
 */
ssize_t sl_tracefs_splice(struct sl_tracefs *t, int cpu, int out_fd, size_t max)
{
	int fd = t->pipe_fd ? t->pipe_fd[cpu] : -1;
	int *p = t->splice_fd ? t->splice_fd[cpu] : NULL;
	ssize_t in, done = 0;

	if (fd < 0 || !p)
		return 0;
	if (p[0] < 0) {
		if (pipe2(p, O_CLOEXEC) < 0)
			return -errno;
		/* a pipe holds 16 pages unless told more; short of memory, it stays so */
		fcntl(p[1], F_SETPIPE_SZ, (int)MIN(max, (size_t)1 << 20));
	}
	max -= max % (size_t)t->page_size;
	do
		in = splice(fd, NULL, p[1], NULL, max, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	while (in < 0 && errno == EINTR);
	if (in < 0)
		return errno == EAGAIN ? 0 : -errno;
	while (done < in) {
		ssize_t out = splice(p[0], NULL, out_fd, NULL, (size_t)(in - done), SPLICE_F_MOVE);

		if (out < 0 && errno == EINTR)
			continue;
		if (out < 0 && (errno == EINVAL || errno == EOPNOTSUPP)) {
			/* a file system that takes no splice */
			int ret = pipe_to_fd_by_copy(p[0], out_fd, (size_t)(in - done));

			return ret ? ret : in;
		}
		if (out <= 0)
			return out < 0 ? -errno : -EIO;
		done += out;
	}
	return in;
}

int sl_tracefs_wakeup_percent(struct sl_tracefs *t, int pct)
{
	char text[16];

	if (!tracefs_file_exists(t->instance, "buffer_percent"))
		return -ENOENT;
	snprintf(text, sizeof(text), "%d", pct);
	if (tracefs_instance_file_write(t->instance, "buffer_percent", text) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

static uint64_t stat_value(const char *text, const char *key)
{
	const char *p = text;
	size_t klen = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtoull(p + klen + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int sl_tracefs_cpu_stats(struct sl_tracefs *t, int cpu, struct sl_tracefs_stats *st)
{
	char file[64];

	memset(st, 0, sizeof(*st));
	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	st->text = tracefs_instance_file_read(t->instance, file, NULL);
	if (!st->text)
		return -ENOENT;
	st->entries = stat_value(st->text, "entries");
	st->overrun = stat_value(st->text, "overrun");
	st->commit_overrun = stat_value(st->text, "commit overrun");
	st->dropped = stat_value(st->text, "dropped events");
	return 0;
}

/* A whole file outside tracefs (/proc/kallsyms: its size reads as 0). */
static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t alloc = 1 << 16, used = 0;
	char *buf;

	*len = 0;
	if (fd < 0)
		return NULL;
	buf = xmalloc(alloc);
	for (;;) {
		ssize_t n;

		if (used + 1 >= alloc)
			buf = xrealloc(buf, alloc *= 2);
		n = read(fd, buf + used, alloc - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	*len = used;
	return buf;
}

static int add_format(struct sl_dat_format **list, size_t *nr, const char *system,
		      const char *event)
{
	int size = 0;
	char *text = tracefs_event_file_read(NULL, system, event, "format", &size);

	if (!text || size <= 0) {
		free(text);
		return -ENOENT;
	}
	*list = xrealloc(*list, (*nr + 1) * sizeof(**list));
	(*list)[*nr].system = xstrdup(system);
	(*list)[*nr].text = text;
	(*list)[*nr].len = (size_t)size;
	(*nr)++;
	return 0;
}

/* The kernel's long: the size of the commit word in header_page. */
static int header_long_size(const char *header_page)
{
	const char *p = strstr(header_page, " commit;");
	const char *size = p ? strstr(p, "size:") : NULL;

	return size && atoi(size + 5) == 4 ? 4 : 8;
}

int sl_tracefs_meta(struct sl_tracefs *t, struct sl_dat_meta *meta, struct sl_error *err)
{
	struct utsname u;
	int size = 0;
	char buf[1024];

	memset(meta, 0, sizeof(*meta));
	meta->nr_cpus = t->nr_cpus;
	meta->page_size = t->page_size;
	meta->header_page = tracefs_instance_file_read(NULL, "events/header_page", &size);
	meta->header_page_len = size > 0 ? (size_t)size : 0;
	meta->header_event = tracefs_instance_file_read(NULL, "events/header_event", &size);
	meta->header_event_len = size > 0 ? (size_t)size : 0;
	if (!meta->header_page || !meta->header_event) {
		sl_error_set(err, "cannot read %s/events/header_page and header_event", t->dir);
		return -ENOENT;
	}
	meta->long_size = header_long_size(meta->header_page);

	/* of ftrace's own events only print (trace_marker): the rest are the function tracer's */
	add_format(&meta->ftrace, &meta->nr_ftrace, "ftrace", "print");

	for (size_t s = 0; s < t->nr_systems; s++) {
		char **events = tracefs_system_events(t->dir, t->systems[s]);

		for (size_t i = 0; events && events[i]; i++)
			add_format(&meta->events, &meta->nr_events, t->systems[s], events[i]);
		tracefs_list_free(events);
	}

	meta->kallsyms = slurp("/proc/kallsyms", &meta->kallsyms_len);
	if (!meta->kallsyms)
		meta->kallsyms = xstrdup("");
	meta->printk_formats = tracefs_instance_file_read(NULL, "printk_formats", &size);
	meta->printk_formats_len = meta->printk_formats && size > 0 ? (size_t)size : 0;
	if (!meta->printk_formats)
		meta->printk_formats = xstrdup("");
	meta->trace_clock = tracefs_instance_file_read(t->instance, "trace_clock", NULL);
	if (!uname(&u)) {
		snprintf(buf, sizeof(buf), "%s %s %s %s %s", u.sysname, u.nodename, u.release,
			 u.version, u.machine);
		meta->uname = xstrdup(buf);
	}
	meta->version = xstrdup("schedlint " SCHEDLINT_VERSION);
	return 0;
}

void sl_tracefs_meta_end(struct sl_tracefs *t, struct sl_dat_meta *meta)
{
	int size = 0;

	free(meta->cmdlines);
	meta->cmdlines = tracefs_instance_file_read(NULL, "saved_cmdlines", &size);
	meta->cmdlines_len = meta->cmdlines && size > 0 ? (size_t)size : 0;
	if (!meta->cmdlines)
		meta->cmdlines = xstrdup("");
	if (!meta->cpu_stats)
		meta->cpu_stats = xcalloc((size_t)meta->nr_cpus, sizeof(*meta->cpu_stats));
	for (int cpu = 0; cpu < meta->nr_cpus && cpu < t->nr_cpus; cpu++) {
		struct sl_tracefs_stats st;

		free(meta->cpu_stats[cpu]);
		meta->cpu_stats[cpu] = NULL;
		if (!sl_tracefs_cpu_stats(t, cpu, &st))
			meta->cpu_stats[cpu] = st.text;
	}
}

int sl_tracefs_close(struct sl_tracefs *t, struct sl_error *err)
{
	int ret = 0;

	if (t->pipe_fd) {
		for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
			if (t->pipe_fd[cpu] >= 0)
				close(t->pipe_fd[cpu]);
			for (int end = 0; end < 2; end++)
				if (t->splice_fd[cpu][end] >= 0)
					close(t->splice_fd[cpu][end]);
		}
		free(t->pipe_fd);
		free(t->splice_fd);
		t->pipe_fd = NULL;
		t->splice_fd = NULL;
	}
	if (t->instance) {
		/* removing it stops tracing in it, disables its events and frees its buffers */
		sl_tracefs_tracing_on(t, false);
		if (tracefs_instance_destroy(t->instance) < 0 && tracefs_instance_exists(t->name)) {
			ret = errno ? -errno : -EBUSY;
			sl_error_set(err, "could not remove the tracing instance %s: %s; "
				     "remove it with: rmdir %s/instances/%s", t->name, strerror(-ret),
				     t->dir, t->name);
		}
		tracefs_instance_free(t->instance);
		t->instance = NULL;
	}
	if (t->lock_fd >= 0)
		close(t->lock_fd);
	t->lock_fd = -1;
	if (t->we_mounted) {
		if (umount2(t->dir, 0) < 0 && !ret) {
			ret = -errno;
			sl_error_set(err, "could not unmount the tracefs we mounted on %s: %s",
				     t->dir, strerror(errno));
		}
		t->we_mounted = false;
	}
	for (size_t i = 0; i < t->nr_systems; i++)
		free(t->systems[i]);
	free(t->systems);
	t->systems = NULL;
	t->nr_systems = 0;
	for (size_t i = 0; i < t->nr_wanted; i++)
		free(t->wanted[i]);
	free(t->wanted);
	t->wanted = NULL;
	t->nr_wanted = 0;
	for (size_t i = 0; i < t->nr_removed; i++)
		free(t->removed[i]);
	free(t->removed);
	t->removed = NULL;
	t->nr_removed = 0;
	free(t->dir);
	t->dir = NULL;
	return ret;
}

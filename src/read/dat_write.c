// SPDX-License-Identifier: GPL-2.0
/*
 * dat_write.c - a trace.dat, file version 6, from the kernel's own pages
 *
 * Why our own writer rather than `trace-cmd extract` on the instance:
 *  - `trace-cmd extract -B NAME` (3.1.6) writes a v7 file whose first
 *    buffer is the (empty) top-level one and our instance a second buffer
 *    "NAME": libtracecmd's tracecmd_open(), and so our reader and
 *    KernelShark by default, read the empty one, and trace-cmd report
 *    prefixes every line with "NAME:".  We write the instance's pages as
 *    the file's one (top) buffer, so every reader reads them as they are.
 *  - --live must read the per-CPU buffers while recording, and reading
 *    trace_pipe_raw consumes them: extract would find nothing left.  One
 *    path for both modes: read each page once, spool it here, decode it
 *    too when live.
 *  - no trace-cmd binary needed at record time, and no use of
 *    libtracecmd's output functions, which its installed header lacks.
 * Version 6 without compression is what every trace-cmd since 2.x and
 * both of our readers read; record is not where file size matters most.
 *
 * Layout (trace-cmd.dat.v6(5)): magic, "6", endianness, long size, page
 * size; header_page and header_event; ftrace formats; event formats by
 * system; kallsyms; printk formats; saved cmdlines; the CPU count;
 * options (CPUSTAT per CPU, TRACECLOCK, UNAME, VERSION, CPUCOUNT);
 * "flyrecord" with one (offset, size) pair per CPU and, because of the
 * TRACECLOCK option, the trace_clock text; then each CPU's pages from a
 * page-aligned offset.  A CPU's pages must be contiguous in the file and
 * their number is known only at the end, so they wait in one unlinked
 * spool file per CPU (same file system as the output: the final copy is
 * copy_file_range()).
 *
 * The file is written unnamed (O_TMPFILE) in the output's directory and
 * renamed over the output only when it is complete: a failed recording,
 * or one killed, leaves an existing trace of that name untouched, and
 * the output is never truncated or removed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat_write.h"
#include "read_live.h"
#include "util/util.h"

/* trace-cmd's option ids (enum tracecmd_option_id) */
enum {
	OPT_DONE = 0,
	OPT_CPUSTAT = 2,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_CPUCOUNT = 8,
	OPT_VERSION = 9,
};

struct sl_dat_writer {
	char *path;		/* the output the user named */
	char *target;		/* where the trace goes: path, or the file its symlink names */
	char *tmp_path;		/* the temporary file's name, NULL while it has none (O_TMPFILE) */
	int out_fd;		/* the temporary file, renamed to target at the end */
	mode_t mode;		/* the mode target will have */
	int nr_cpus;
	int page_size;
	int *spool_fd;		/* per CPU, -1 until its first page */
	uint64_t *spool_size;	/* bytes of pages per CPU (of the file, its pages left out) */
	uint64_t *spooled;	/* bytes in the spool per CPU */
	bool *unchecked;	/* per CPU: pages came in unlooked at (spliced) */
	uint64_t **cut;		/* per CPU: the page numbers left out, ascending */
	size_t *nr_cut;
	char *dir;		/* where the spools and the temporary file go: target's directory */
};

void sl_dat_meta_free(struct sl_dat_meta *meta)
{
	free(meta->header_page);
	free(meta->header_event);
	for (size_t i = 0; i < meta->nr_ftrace; i++) {
		free(meta->ftrace[i].system);
		free(meta->ftrace[i].text);
	}
	free(meta->ftrace);
	for (size_t i = 0; i < meta->nr_events; i++) {
		free(meta->events[i].system);
		free(meta->events[i].text);
	}
	free(meta->events);
	free(meta->kallsyms);
	free(meta->printk_formats);
	free(meta->cmdlines);
	free(meta->trace_clock);
	free(meta->uname);
	free(meta->version);
	if (meta->cpu_stats)
		for (int i = 0; i < meta->nr_cpus; i++)
			free(meta->cpu_stats[i]);
	free(meta->cpu_stats);
	memset(meta, 0, sizeof(*meta));
}

/* --- the header, built in memory in host byte order (the file says which) --- */

struct hbuf {
	uint8_t *p;
	size_t len, alloc;
};

static void hbuf_bytes(struct hbuf *b, const void *data, size_t n)
{
	if (!n)		/* an empty section (no kallsyms read, say): data may be NULL */
		return;
	GROW(b->p, b->alloc, b->len + n);
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void hbuf_str0(struct hbuf *b, const char *s)
{
	hbuf_bytes(b, s, strlen(s) + 1);
}

static void hbuf_u16(struct hbuf *b, uint16_t v)
{
	hbuf_bytes(b, &v, 2);
}

static void hbuf_u32(struct hbuf *b, uint32_t v)
{
	hbuf_bytes(b, &v, 4);
}

static void hbuf_u64(struct hbuf *b, uint64_t v)
{
	hbuf_bytes(b, &v, 8);
}

static void put_u32_at(struct hbuf *b, size_t at, uint32_t v)
{
	memcpy(b->p + at, &v, 4);
}

static void put_u64_at(struct hbuf *b, size_t at, uint64_t v)
{
	memcpy(b->p + at, &v, 8);
}

static void add_option(struct hbuf *b, uint16_t id, const void *data, uint32_t size)
{
	hbuf_u16(b, id);
	hbuf_u32(b, size);
	hbuf_bytes(b, data, size);
}

static bool host_bigendian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* Everything before the pages; returns where the flyrecord table starts. */
static size_t build_header(const struct sl_dat_writer *w, const struct sl_dat_meta *meta,
			   struct hbuf *b)
{
	size_t table, count_at;
	uint32_t nr_systems = 0;

	hbuf_bytes(b, "\027\010\104tracing", 10);
	hbuf_str0(b, "6");
	hbuf_bytes(b, &(uint8_t){ host_bigendian() }, 1);
	hbuf_bytes(b, &(uint8_t){ (uint8_t)meta->long_size }, 1);
	hbuf_u32(b, (uint32_t)w->page_size);

	hbuf_bytes(b, "header_page", 12);
	hbuf_u64(b, meta->header_page_len);
	hbuf_bytes(b, meta->header_page, meta->header_page_len);
	hbuf_bytes(b, "header_event", 13);
	hbuf_u64(b, meta->header_event_len);
	hbuf_bytes(b, meta->header_event, meta->header_event_len);

	hbuf_u32(b, (uint32_t)meta->nr_ftrace);
	for (size_t i = 0; i < meta->nr_ftrace; i++) {
		hbuf_u64(b, meta->ftrace[i].len);
		hbuf_bytes(b, meta->ftrace[i].text, meta->ftrace[i].len);
	}

	/* systems: consecutive formats of one system form one group */
	count_at = b->len;
	hbuf_u32(b, 0);
	for (size_t i = 0; i < meta->nr_events;) {
		const char *sys = meta->events[i].system;
		size_t j = i;

		while (j < meta->nr_events && !strcmp(meta->events[j].system, sys))
			j++;
		hbuf_str0(b, sys);
		hbuf_u32(b, (uint32_t)(j - i));
		for (; i < j; i++) {
			hbuf_u64(b, meta->events[i].len);
			hbuf_bytes(b, meta->events[i].text, meta->events[i].len);
		}
		nr_systems++;
	}
	put_u32_at(b, count_at, nr_systems);

	hbuf_u32(b, (uint32_t)meta->kallsyms_len);
	hbuf_bytes(b, meta->kallsyms, meta->kallsyms_len);
	hbuf_u32(b, (uint32_t)meta->printk_formats_len);
	hbuf_bytes(b, meta->printk_formats, meta->printk_formats_len);
	hbuf_u64(b, meta->cmdlines_len);
	hbuf_bytes(b, meta->cmdlines, meta->cmdlines_len);

	hbuf_u32(b, (uint32_t)w->nr_cpus);

	hbuf_bytes(b, "options  ", 10);
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		const char *stats = meta->cpu_stats ? meta->cpu_stats[cpu] : NULL;
		char head[32];
		struct hbuf text = { 0 };

		if (!stats)
			continue;
		snprintf(head, sizeof(head), "CPU: %d\n", cpu);
		hbuf_bytes(&text, head, strlen(head));
		hbuf_str0(&text, stats);
		add_option(b, OPT_CPUSTAT, text.p, (uint32_t)text.len);
		free(text.p);
	}
	if (meta->trace_clock)
		add_option(b, OPT_TRACECLOCK, meta->trace_clock, (uint32_t)strlen(meta->trace_clock) + 1);
	if (meta->uname)
		add_option(b, OPT_UNAME, meta->uname, (uint32_t)strlen(meta->uname) + 1);
	if (meta->version)
		add_option(b, OPT_VERSION, meta->version, (uint32_t)strlen(meta->version) + 1);
	add_option(b, OPT_CPUCOUNT, &(uint32_t){ (uint32_t)w->nr_cpus }, 4);
	hbuf_u16(b, OPT_DONE);

	hbuf_bytes(b, "flyrecord", 10);
	table = b->len;
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		hbuf_u64(b, 0);
		hbuf_u64(b, 0);
	}
	/* with a TRACECLOCK option, v6 readers expect the clock text after the table */
	if (meta->trace_clock) {
		hbuf_u64(b, strlen(meta->trace_clock));
		hbuf_bytes(b, meta->trace_clock, strlen(meta->trace_clock));
	}
	return table;
}

/* --- spooling and copying --- */

/* An unlinked file in dir: nothing to clean up whatever happens to us. */
static int open_spool(const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == ENOENT)) {
		char *tmpl = xmalloc(strlen(dir) + 32);

		sprintf(tmpl, "%s/.schedlint-spool-XXXXXX", dir);
		fd = mkostemp(tmpl, O_CLOEXEC);
		if (fd >= 0)
			unlink(tmpl);
		free(tmpl);
	}
	return fd;
}

static int copy_spool(int from, loff_t in, int to, uint64_t len)
{
	static uint8_t buf[1 << 16];

	while (len) {
		ssize_t r = copy_file_range(from, &in, to, NULL, len, 0);

		if (r <= 0)
			break;
		len -= (uint64_t)r;
	}
	while (len) {
		ssize_t r = pread(from, buf, MIN(len, sizeof(buf)), in);
		int ret;

		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		ret = write_all(to, buf, (size_t)r);
		if (ret)
			return ret;
		in += r;
		len -= (uint64_t)r;
	}
	return 0;
}

static void free_writer(struct sl_dat_writer *w)
{
	for (int cpu = 0; cpu < w->nr_cpus; cpu++)
		if (w->spool_fd[cpu] >= 0)
			close(w->spool_fd[cpu]);
	if (w->out_fd >= 0)
		close(w->out_fd);
	if (w->tmp_path)
		unlink(w->tmp_path);	/* ours: never the output itself */
	free(w->spool_fd);
	free(w->spool_size);
	free(w->spooled);
	free(w->unchecked);
	for (int cpu = 0; w->cut && cpu < w->nr_cpus; cpu++)
		free(w->cut[cpu]);
	free(w->cut);
	free(w->nr_cut);
	free(w->dir);
	free(w->tmp_path);
	free(w->target);
	free(w->path);
	free(w);
}

static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISCHR(mode) ? "a character device" :
	       S_ISBLK(mode) ? "a block device" : S_ISFIFO(mode) ? "a FIFO" :
	       S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/*
 * A symbolic link is followed only when its owner is the user recording
 * or the owner of the directory it is in, the rule of the kernel's
 * fs.protected_symlinks (which a realpath() does not apply): a link
 * another user planted in /tmp does not make a root record replace
 * /etc/passwd, on a machine with fs.protected_symlinks=0 too.  0, or -1
 * with err set.
 */
static int symlink_trusted(const char *path, const struct stat *link, struct sl_error *err)
{
	char *copy = xstrdup(path);
	struct stat dir;
	int ret = 0;

	if (stat(dirname(copy), &dir)) {
		sl_error_set(err, "cannot look at its directory: %s", strerror(errno));
		ret = -1;
	} else if (link->st_uid != geteuid() && link->st_uid != dir.st_uid) {
		sl_error_set(err, "a symbolic link of user %u in a directory of user %u: not "
			     "followed (as fs.protected_symlinks does); give the file name itself",
			     (unsigned)link->st_uid, (unsigned)dir.st_uid);
		ret = -1;
	}
	free(copy);
	return ret;
}

/*
 * The output is a new regular file or an existing one, replaced at the
 * end; anything else is refused before recording starts.  A trace.dat is
 * written with seeks, and replacing /dev/null with a file (or removing
 * it) is not what anyone asked for.  A symbolic link stays one: the file
 * it names is replaced, if the link is to be trusted (symlink_trusted()).
 */
static int resolve_output(struct sl_dat_writer *w, struct sl_error *err)
{
	struct stat st, lst;
	mode_t mask;
	char *copy;

	if (!*w->path) {
		/* -o "$OUT" with OUT unset: said now, not after the workload ran (issue 32, 07) */
		sl_error_set(err, "an empty file name (-o FILE)");
		return -EINVAL;
	}
	if (!stat(w->path, &st)) {
		if (!S_ISREG(st.st_mode)) {
			sl_error_set(err, "%s: record writes a trace.dat into a regular file "
				     "(-o FILE)", file_kind(st.st_mode));
			return -EINVAL;
		}
		if (!lstat(w->path, &lst) && S_ISLNK(lst.st_mode) &&
		    symlink_trusted(w->path, &lst, err))
			return -EPERM;
		w->mode = st.st_mode & 07777;
		w->target = realpath(w->path, NULL);
		if (!w->target) {
			int ret = -errno;

			sl_error_set(err, "%s", strerror(errno));
			return ret;
		}
	} else if (errno != ENOENT) {
		int ret = -errno;

		sl_error_set(err, "cannot create: %s", strerror(errno));
		return ret;
	} else if (!lstat(w->path, &st)) {
		sl_error_set(err, "a symbolic link to nothing: give the file name itself");
		return -ENOENT;
	} else {
		mask = umask(0);
		umask(mask);
		w->mode = 0644 & ~mask;
		w->target = xstrdup(w->path);
	}
	copy = xstrdup(w->target);
	w->dir = xstrdup(dirname(copy));
	free(copy);
	return 0;
}

/* An unlinked file in w->dir, or a named one where the file system cannot make those. */
static int open_output(struct sl_dat_writer *w)
{
	int fd = open(w->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);

	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR)) {
		char *copy = xstrdup(w->target);

		w->tmp_path = xmalloc(strlen(w->dir) + strlen(copy) + 32);
		sprintf(w->tmp_path, "%s/.%s.schedlint-XXXXXX", w->dir, basename(copy));
		free(copy);
		fd = mkostemp(w->tmp_path, O_CLOEXEC);
		if (fd < 0) {
			free(w->tmp_path);
			w->tmp_path = NULL;
		}
	}
	return fd;
}

struct sl_dat_writer *sl_dat_writer_open(const char *path, struct sl_error *err)
{
	struct sl_dat_writer *w = xcalloc(1, sizeof(*w));
	int probe;

	w->path = xstrdup(path);
	w->out_fd = -1;
	if (resolve_output(w, err) < 0) {
		free_writer(w);
		return NULL;
	}
	w->out_fd = open_output(w);
	if (w->out_fd < 0) {
		sl_error_set(err, "cannot create a file in %s: %s", w->dir, strerror(errno));
		free_writer(w);
		return NULL;
	}
	/* find out now, not after the recording, that spools cannot be made */
	probe = open_spool(w->dir);
	if (probe < 0) {
		sl_error_set(err, "cannot create a temporary file in %s: %s", w->dir, strerror(errno));
		free_writer(w);
		return NULL;
	}
	close(probe);
	return w;
}

void sl_dat_writer_cpus(struct sl_dat_writer *w, int nr_cpus, int page_size)
{
	w->nr_cpus = nr_cpus;
	w->page_size = page_size;
	w->spool_fd = xmalloc((size_t)nr_cpus * sizeof(*w->spool_fd));
	w->spool_size = xcalloc((size_t)nr_cpus, sizeof(*w->spool_size));
	w->spooled = xcalloc((size_t)nr_cpus, sizeof(*w->spooled));
	w->unchecked = xcalloc((size_t)nr_cpus, sizeof(*w->unchecked));
	w->cut = xcalloc((size_t)nr_cpus, sizeof(*w->cut));
	w->nr_cut = xcalloc((size_t)nr_cpus, sizeof(*w->nr_cut));
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		w->spool_fd[cpu] = -1;
}

int sl_dat_writer_spool(struct sl_dat_writer *w, int cpu, uint64_t *size, struct sl_error *err)
{
	if (cpu < 0 || cpu >= w->nr_cpus)
		return -EINVAL;
	if (w->spool_fd[cpu] < 0) {
		w->spool_fd[cpu] = open_spool(w->dir);
		if (w->spool_fd[cpu] < 0) {
			int ret = -errno;

			sl_error_set(err, "cannot create a temporary file in %s: %s", w->dir,
				     strerror(errno));
			return ret;
		}
	}
	*size = w->spool_size[cpu];
	return w->spool_fd[cpu];
}

int sl_dat_writer_spooled(struct sl_dat_writer *w, int cpu, uint64_t len, struct sl_error *err)
{
	uint64_t part;

	if (cpu < 0 || cpu >= w->nr_cpus)
		return -EINVAL;
	w->spool_size[cpu] += len;
	w->spooled[cpu] += len;
	w->unchecked[cpu] = true;
	/* torn: the rest of the page zeros, or every later page would be read askew */
	part = w->spooled[cpu] % (uint64_t)w->page_size;
	if (part) {
		size_t pad = (size_t)((uint64_t)w->page_size - part);
		uint8_t *zeros = xcalloc(1, pad);
		int ret = write_all(w->spool_fd[cpu], zeros, pad);

		free(zeros);
		if (ret) {
			sl_error_set(err, "writing the pages of CPU %d beside it: %s", cpu,
				     strerror(-ret));
			return ret;
		}
		w->spool_size[cpu] += pad;
		w->spooled[cpu] += pad;
	}
	return 0;
}

int sl_dat_writer_pages(struct sl_dat_writer *w, int cpu, const void *pages, size_t len,
			struct sl_error *err)
{
	uint64_t size;
	int fd = sl_dat_writer_spool(w, cpu, &size, err);
	int ret;

	if (fd < 0)
		return fd;
	ret = write_all(fd, pages, len);
	if (ret) {
		sl_error_set(err, "writing the pages of CPU %d beside it: %s", cpu, strerror(-ret));
		return ret;
	}
	w->spool_size[cpu] += len;
	w->spooled[cpu] += len;
	return 0;
}

int sl_dat_writer_check(struct sl_dat_writer *w, int long_size, struct sl_dat_cut *cut)
{
	size_t page = (size_t)w->page_size, chunk = MAX((size_t)1 << 20, page) / page * page;
	uint8_t *buf = NULL;
	int ret = 0;

	memset(cut, 0, sizeof(*cut));
	for (int cpu = 0; cpu < w->nr_cpus && !ret; cpu++) {
		uint64_t whole = w->spooled[cpu] / page;

		if (!w->unchecked[cpu])
			continue;
		if (!buf)
			buf = xmalloc(chunk);
		for (uint64_t at = 0; at < whole && !ret;) {
			size_t n = (size_t)MIN((uint64_t)(chunk / page), whole - at);
			ssize_t got = pread(w->spool_fd[cpu], buf, n * page, (off_t)(at * page));

			if (got != (ssize_t)(n * page)) {
				ret = got < 0 ? -errno : -EIO;
				break;
			}
			for (size_t i = 0; i < n; i++, at++) {
				struct sl_page_facts facts;
				const char *bad = sl_page_check(buf + i * page, (int)page, long_size, &facts);

				if (!bad)
					continue;
				if (!cut->pages++) {
					cut->cpu = cpu;
					cut->page = at;
					snprintf(cut->what, sizeof(cut->what), "%s", bad);
				}
				w->cut[cpu] = xrealloc(w->cut[cpu],
						       (w->nr_cut[cpu] + 1) * sizeof(*w->cut[cpu]));
				w->cut[cpu][w->nr_cut[cpu]++] = at;
				w->spool_size[cpu] -= page;
			}
		}
		/* a last page that is not whole: torn, never a page the reader can walk */
		if (!ret && w->spooled[cpu] % page) {
			if (!cut->pages++) {
				cut->cpu = cpu;
				cut->page = whole;
				snprintf(cut->what, sizeof(cut->what), "%llu of its %zu bytes",
					 (unsigned long long)(w->spooled[cpu] % page), page);
			}
			w->spool_size[cpu] -= w->spooled[cpu] % page;
		}
		w->unchecked[cpu] = false;
	}
	free(buf);
	return ret;
}

uint64_t sl_dat_writer_data_size(const struct sl_dat_writer *w)
{
	uint64_t total = 0;

	for (int cpu = 0; cpu < w->nr_cpus; cpu++)
		total += w->spool_size[cpu];
	return total;
}

/*
 * Give the finished temporary file the output's name in one step: the
 * output is the old trace or the new one, never half of one.
 */
static int publish(struct sl_dat_writer *w)
{
	char *name;
	int ret = 0;

	if (w->tmp_path) {
		if (rename(w->tmp_path, w->target) < 0)
			return -errno;
		free(w->tmp_path);
		w->tmp_path = NULL;
		return 0;
	}
	/* an O_TMPFILE: a name of its own first (linkat cannot replace), then rename */
	name = xmalloc(strlen(w->dir) + 64);
	for (unsigned int i = 0;; i++) {
		char proc[64];

		sprintf(name, "%s/.schedlint-%d-%u", w->dir, (int)getpid(), i);
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", w->out_fd);
		if (!linkat(w->out_fd, "", AT_FDCWD, name, AT_EMPTY_PATH) ||
		    (errno != EEXIST && !linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW)))
			break;
		if (errno != EEXIST || i == 100) {
			ret = -errno;
			break;
		}
	}
	if (!ret && rename(name, w->target) < 0) {
		ret = -errno;
		unlink(name);
	}
	free(name);
	return ret;
}

int sl_dat_writer_finish(struct sl_dat_writer *w, const struct sl_dat_meta *meta,
			 uint64_t *file_size, struct sl_error *err)
{
	struct hbuf b = { 0 };
	uint64_t offset, start;
	size_t table;
	int ret;

	table = build_header(w, meta, &b);
	start = (b.len + (uint64_t)w->page_size - 1) / (uint64_t)w->page_size * (uint64_t)w->page_size;
	offset = start;
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		put_u64_at(&b, table + 16 * (size_t)cpu, offset);
		put_u64_at(&b, table + 16 * (size_t)cpu + 8, w->spool_size[cpu]);
		offset += w->spool_size[cpu];
	}
	ret = write_all(w->out_fd, b.p, b.len);
	free(b.p);
	if (!ret && lseek(w->out_fd, (off_t)start, SEEK_SET) < 0)
		ret = -errno;
	for (int cpu = 0; cpu < w->nr_cpus && !ret; cpu++) {
		uint64_t page = (uint64_t)w->page_size, from = 0, left = w->spool_size[cpu];

		/* the pages between those sl_dat_writer_check() left out */
		for (size_t i = 0; i <= w->nr_cut[cpu] && left && !ret; i++) {
			uint64_t end = i < w->nr_cut[cpu] ? w->cut[cpu][i] * page : from + left;

			if (end > from) {
				ret = copy_spool(w->spool_fd[cpu], (loff_t)from, w->out_fd, end - from);
				left -= end - from;
			}
			from = end + page;
		}
	}
	/* a trace without pages still ends where its data would start */
	if (!ret && ftruncate(w->out_fd, (off_t)offset) < 0)
		ret = -errno;
	if (!ret && (fchmod(w->out_fd, w->mode) < 0 || fsync(w->out_fd) < 0))
		ret = -errno;
	*file_size = offset;
	if (ret) {
		sl_error_set(err, "writing the trace: %s", strerror(-ret));
	} else {
		ret = publish(w);
		if (ret)
			sl_error_set(err, "cannot give the trace its name in %s: %s", w->dir,
				     strerror(-ret));
	}
	free_writer(w);
	return ret;
}

void sl_dat_writer_abort(struct sl_dat_writer *w)
{
	if (w)
		free_writer(w);	/* the output was never touched */
}

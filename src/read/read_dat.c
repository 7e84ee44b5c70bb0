// SPDX-License-Identifier: GPL-2.0
/*
 * read_dat.c - trace.dat through libtracecmd (the reference reader)
 *
 * libtracecmd parses the headers, event formats, kallsyms, cmdlines and
 * options and hands us one record at a time per CPU; we merge the CPUs
 * with a heap (cpu_heap.h) and decode each record with dat_decode.c.
 *
 * Known problem: libtracecmd 3.1.6 (Debian 12) reads compressed v7 files
 * in quadratic time - free_zpage() walks every cached chunk for each page
 * and never frees them - so a large zstd trace takes minutes and its
 * memory grows with the file (4x the events of a v7 zstd trace, 9.9x the
 * time: see read_flyrecord.c and the README's "Performance").  read_flyrecord.c is our own streaming
 * reader for that reason; this one stays as the reference
 * (--reader=libtracecmd) that the other is tested against.
 *
 * Before handing the file to libtracecmd we walk its layout
 * (dat_layout.c): libtracecmd trusts the offsets in the file, crashes on
 * a truncated v6 file and reads a v7 file that lacks its last bytes.  And
 * we check every ring-buffer page as the flyrecord reader does
 * (sl_dat_check_pages()): kbuffer trusts the event lengths, and one
 * padding event of length -4 makes it loop for ever.  That is an extra
 * pass over the data; this reader is the reference, not the fast one.
 * The metadata sections are parsed by our bounds-checked walk first
 * (sl_dat_tep_load(), as the flyrecord reader does) for the same reason:
 * libtracecmd trusts the sizes inside them and mallocs what a corrupt
 * one says (fuzz_dat_libtracecmd: 8 EiB from a format's text).
 *
 * In v7 files only CPUs with data are listed: a record's CPU is
 * record->cpu, not the index libtracecmd reads it by.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "cpu_heap.h"
#include "dat_decode.h"
#include "dat_meta.h"
#include "dat_shared.h"
#include "read_dat.h"
#include "tracecmd_private.h"
#include "util/util.h"

struct dat_reader {
	struct sl_reader r;		/* first: the generic part */
	struct tracecmd_input *handle;
	struct sl_dat_decoder *decoder;
	struct tep_record **current;	/* per CPU index: the record waiting in the heap */
	struct cpu_heap heap;
	int ncpus;			/* CPU indexes libtracecmd reads by */
	struct sl_event pending;	/* an event held back behind a lost-events marker */
	bool have_pending;
	bool compressed;		/* v7 with compressed CPU data */
	bool drained;			/* some CPU was read to its end */
};

static int dat_next(struct sl_reader *r, struct sl_event *ev)
{
	struct dat_reader *dr = (struct dat_reader *)r;
	struct tep_record *rec;
	int cpu, ret;

	if (dr->have_pending) {
		*ev = dr->pending;
		dr->have_pending = false;
		return 1;
	}
	if (!dr->heap.nr)
		return 0;

	cpu = dr->heap.nodes[0].cpu;
	cpu_heap_pop(&dr->heap);
	rec = dr->current[cpu];
	dr->current[cpu] = tracecmd_read_data(dr->handle, cpu);
	if (dr->current[cpu])
		cpu_heap_push(&dr->heap, dr->current[cpu]->ts, cpu);
	else
		dr->drained = true;

	cpu = rec->cpu;
	ret = sl_dat_decode(dr->decoder, cpu, rec->ts, rec->data, rec->size, ev);
	if (ret < 0) {
		sl_error_set(r->err, "corrupt event data on CPU %d at %llu ns (%d bytes)",
			     cpu, (unsigned long long)rec->ts, rec->size);
		tracecmd_free_record(rec);
		return ret;
	}

	if (rec->missed_events) {
		/* the buffer lost events before this record: report the gap first */
		dr->pending = *ev;
		dr->have_pending = true;
		memset(ev, 0, sizeof(*ev));
		ev->type = SL_EV_LOST;
		ev->name = sl_dat_lost_name(dr->decoder);
		ev->ts = rec->ts;
		ev->cpu = cpu;
		ev->pid = -1;
		ev->lost.count = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0;
		if (rec->missed_events > 0)
			r->info.lost_events = sat_add_u64(r->info.lost_events,
							  (uint64_t)rec->missed_events);
		else
			r->info.lost_unknown++;
	}
	tracecmd_free_record(rec);
	return 1;
}

/*
 * libtracecmd maps the CPU data: a file that shrinks while it is read
 * (truncated, rewritten in place) makes the next access to a page past
 * its new end fault with SIGBUS.  The read cannot go on, but that is bad
 * input, not a crash: one line, exit status 2, and exit()'s handlers put
 * back what they must (explore's terminal).  Other SIGBUS are bugs:
 * the default action.  Installed again by each seek, after explore has
 * set up its own handlers.
 */
static char sigbus_path[256];

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	static const char tail[] = ": the file shrank while it was read (SIGBUS on "
				   "libtracecmd's mapping of it)\n";

	if (si->si_code == BUS_ADRERR) {
		if (write(STDERR_FILENO, "schedlint: ", 11) < 0 ||
		    write(STDERR_FILENO, sigbus_path, strlen(sigbus_path)) < 0 ||
		    write(STDERR_FILENO, tail, sizeof(tail) - 1) < 0)
			_exit(2);
		exit(2);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_sigbus(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/*
 * dat_seek_time - libtracecmd binary-searches each CPU's pages by their
 * timestamps and leaves the CPU on the page before ts; we refill the heap
 * from there.  On compressed (v7) files every probe decompresses a chunk,
 * and libtracecmd 3.1.6 returns nothing more for a CPU that was read to
 * its end: then the caller must reopen the file (-ENOTSUP).
 */
static int dat_seek_time(struct sl_reader *r, uint64_t ts)
{
	struct dat_reader *dr = (struct dat_reader *)r;

	if (dr->compressed && dr->drained)
		return -ENOTSUP;
	catch_sigbus();
	dr->have_pending = false;
	dr->heap.nr = 0;
	for (int cpu = 0; cpu < dr->ncpus; cpu++) {
		if (dr->current[cpu])
			tracecmd_free_record(dr->current[cpu]);
		dr->current[cpu] = NULL;
		/* fails for a CPU without data: it has nothing to read anyway */
		if (tracecmd_set_cpu_to_timestamp(dr->handle, cpu, ts) < 0)
			continue;
		dr->current[cpu] = tracecmd_read_data(dr->handle, cpu);
		if (dr->current[cpu])
			cpu_heap_push(&dr->heap, dr->current[cpu]->ts, cpu);
	}
	return 0;
}

static void dat_close(struct sl_reader *r)
{
	struct dat_reader *dr = (struct dat_reader *)r;

	if (dr->current)
		for (int cpu = 0; cpu < dr->ncpus; cpu++)
			if (dr->current[cpu])
				tracecmd_free_record(dr->current[cpu]);
	free(dr->current);
	free(dr->heap.nodes);
	sl_dat_decoder_free(dr->decoder);
	if (dr->handle)
		tracecmd_close(dr->handle);
	free(dr);
}

/* Read the instance buffer name (the layout walk found it) instead of the top one. */
static int open_instance(struct dat_reader *dr, const char *name, struct sl_error *err)
{
	int n = tracecmd_buffer_instances(dr->handle);

	for (int i = 0; i < n; i++) {
		const char *this = tracecmd_buffer_instance_name(dr->handle, i);
		struct tracecmd_input *inst;

		if (!this || strcmp(this, name))
			continue;
		inst = tracecmd_buffer_instance_handle(dr->handle, i);
		if (!inst)
			break;
		tracecmd_close(dr->handle);	/* inst holds a reference to it */
		dr->handle = inst;
		return 0;
	}
	sl_error_set(err, "libtracecmd cannot read buffer \"%s\"", name);
	return -EINVAL;
}

/*
 * A name no event gave (timehist's): from the saved cmdlines, which
 * libtracecmd parsed into its tep at open (tracecmd_open_head()).  The
 * records' decoding never asks tep's pid -> comm table: no other thread
 * touches it.
 */
static const char *dat_saved_comm(struct sl_reader *r, int32_t pid)
{
	struct tep_handle *tep = tracecmd_get_tep(((struct dat_reader *)r)->handle);

	if (pid <= 0 || !tep_is_pid_registered(tep, pid))
		return NULL;
	return tep_data_comm_from_pid(tep, pid);
}

static const struct sl_reader_ops dat_ops = {
	.next = dat_next,
	.close = dat_close,
	.seek_time = dat_seek_time,
	.saved_comm = dat_saved_comm,
};

int sl_read_dat_libtracecmd_open(const char *path, const char *buffer, struct sl_strtab *strtab,
				 struct sl_reader **out, struct sl_error *err)
{
	struct sl_dat_layout layout;
	struct tep_handle *tep;
	struct sl_dat_names names = { 0 };
	struct dat_reader *dr;
	int fd, ret;

	ret = sl_dat_layout_read_buffer(path, buffer, &layout, err);
	if (ret < 0)
		return ret;
	sl_dat_warn_buffers(path, &layout);

	dr = xcalloc(1, sizeof(*dr));
	dr->r.ops = &dat_ops;
	snprintf(sigbus_path, sizeof(sigbus_path), "%s", path);
	catch_sigbus();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		sl_error_set(err, "cannot open: %s", strerror(-ret));
		goto fail;
	}
	/* sizes inside the metadata that libtracecmd would malloc blindly */
	ret = sl_dat_tep_load(fd, &layout, &tep, NULL, &names, err);
	if (ret < 0) {
		close(fd);
		goto fail;
	}
	tep_free(tep);
	sl_dat_names_free(&names);
	/* libtracecmd parses every print fmt: would libtraceevent survive them? */
	ret = sl_dat_formats_check(fd, &layout, err);
	if (ret < 0) {
		close(fd);
		goto fail;
	}
	dr->handle = sl_dat_open_head(path, &layout, err);
	if (!dr->handle) {
		close(fd);
		ret = -EINVAL;
		goto fail;
	}
	/*
	 * libtracecmd 3.1.6 mmaps a CPU's data from its offset; at an offset
	 * that is not page-aligned the mmap fails, tracecmd_init_data() gives
	 * up half-way and tracecmd_close() then crashes on what it left.
	 * trace-cmd always aligns it: anything else is a damaged file.
	 */
	for (int i = 0; i < layout.nr_cpu_data && !layout.cpu_compressed; i++) {
		const struct sl_dat_cpu_data *cd = &layout.cpu_data[i];

		if (cd->size && cd->offset % (uint64_t)sysconf(_SC_PAGESIZE)) {
			sl_error_set(err, "corrupt trace.dat: CPU %d's data starts at offset %llu, "
				     "not at a page boundary (libtracecmd cannot read it; "
				     "the default reader can)", cd->cpu, (unsigned long long)cd->offset);
			close(fd);
			ret = -EINVAL;
			goto fail;
		}
	}
	/* kbuffer loops for ever on some corrupt pages: check them all first */
	ret = sl_dat_check_pages(fd, &layout, tracecmd_get_tep(dr->handle), err);
	close(fd);
	if (ret < 0)
		goto fail;
	if (tracecmd_init_data(dr->handle) < 0) {
		sl_error_set(err, "libtracecmd cannot read this trace.dat's CPU data");
		ret = -EINVAL;
		goto fail;
	}
	if (layout.buffer[0]) {
		ret = open_instance(dr, layout.buffer, err);
		if (ret < 0)
			goto fail;
	}
	dr->ncpus = tracecmd_cpus(dr->handle);
	if (dr->ncpus < 0 || dr->ncpus > SL_DAT_MAX_CPUS) {
		sl_error_set(err, "corrupt trace.dat: %d CPUs", dr->ncpus);
		ret = -EINVAL;
		goto fail;
	}
	dr->decoder = sl_dat_decoder_new(tracecmd_get_tep(dr->handle), NULL, strtab, err);
	if (!dr->decoder) {
		ret = -EINVAL;
		goto fail;
	}
	sl_dat_info_fill(&dr->r.info, &layout, tracecmd_get_tep(dr->handle));
	dr->compressed = layout.cpu_compressed;

	dr->current = xcalloc((size_t)dr->ncpus, sizeof(*dr->current));
	dr->heap.nodes = xcalloc((size_t)dr->ncpus, sizeof(*dr->heap.nodes));
	for (int cpu = 0; cpu < dr->ncpus; cpu++) {
		dr->current[cpu] = tracecmd_read_data(dr->handle, cpu);
		if (dr->current[cpu])
			cpu_heap_push(&dr->heap, dr->current[cpu]->ts, cpu);
	}
	/* as for a text without events: nothing to analyze is an error */
	if (!dr->heap.nr) {
		sl_error_set(err, "no events");
		ret = -ENODATA;
		goto fail;
	}
	sl_dat_layout_free(&layout);
	*out = &dr->r;
	return 0;
fail:
	sl_dat_layout_free(&layout);
	dat_close(&dr->r);
	return ret;
}

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
 * memory grows with the file.  read_flyrecord.c is our own streaming
 * reader for that reason; this one stays as the reference
 * (--reader=libtracecmd) that the other is tested against.
 *
 * Before handing the file to libtracecmd we check the parts it trusts
 * blindly (magic, version, that the header is complete): it answers a
 * truncated file with a warning on stderr and a partial trace, and we
 * want one clear error instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "cpu_heap.h"
#include "dat_decode.h"
#include "dat_header.h"
#include "tracecmd_private.h"
#include "util.h"

struct dat_reader {
	struct sl_reader r;		/* first: the generic part */
	struct tracecmd_input *handle;
	struct sl_dat_decoder *decoder;
	struct tep_record **current;	/* per CPU: the record waiting in the heap */
	struct cpu_heap heap;
	int ncpus;
	struct sl_event pending;	/* an event held back behind a lost-events marker */
	bool have_pending;
	bool compressed;		/* v7 with compressed CPU data */
	bool drained;			/* some CPU was read to its end */
};

static void fill_kernel_release(struct sl_trace_info *info, const char *uname)
{
	/* "Linux host 6.18.44-fc #1 SMP ..." : the release is the third word */
	const char *p = uname;

	snprintf(info->uname, sizeof(info->uname), "%s", uname);
	for (int word = 0; word < 2 && p; word++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p)
		return;
	size_t len = strcspn(p, " ");

	if (len >= sizeof(info->kernel))
		len = sizeof(info->kernel) - 1;
	memcpy(info->kernel, p, len);
	info->kernel[len] = '\0';
}

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
			r->info.lost_events += (uint64_t)rec->missed_events;
		else
			r->info.lost_unknown++;
	}
	tracecmd_free_record(rec);
	return 1;
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

static const struct sl_reader_ops dat_ops = {
	.next = dat_next,
	.close = dat_close,
	.seek_time = dat_seek_time,
};

int sl_read_dat_libtracecmd_open(const char *path, struct sl_strtab *strtab,
				 struct sl_reader **out, struct sl_error *err)
{
	struct sl_dat_header hdr;
	struct dat_reader *dr;
	const char *s, *ver;
	int ret;

	ret = sl_dat_header_check(path, &hdr, err);
	if (ret < 0)
		return ret;
	sl_dat_header_free(&hdr);

	dr = xcalloc(1, sizeof(*dr));
	dr->r.ops = &dat_ops;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	dr->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!dr->handle) {
		sl_error_set(err, "libtracecmd cannot read this trace.dat (corrupt or truncated headers)");
		ret = -EINVAL;
		goto fail;
	}
	struct tep_handle *tep = tracecmd_get_tep(dr->handle);

	dr->ncpus = tracecmd_cpus(dr->handle);
	if (dr->ncpus <= 0 || dr->ncpus > SL_DAT_MAX_CPUS) {
		sl_error_set(err, "corrupt trace.dat: %d CPUs", dr->ncpus);
		ret = -EINVAL;
		goto fail;
	}
	dr->decoder = sl_dat_decoder_new(tep, strtab, err);
	if (!dr->decoder) {
		ret = -EINVAL;
		goto fail;
	}

	struct sl_trace_info *info = &dr->r.info;

	info->file_version = (int)tracecmd_get_in_file_version(dr->handle);
	info->format = info->file_version >= 7 ? SL_FMT_DAT7 : SL_FMT_DAT6;
	info->ncpus = dr->ncpus;
	s = tracecmd_get_uname(dr->handle);
	if (s)
		fill_kernel_release(info, s);
	s = tracecmd_get_trace_clock(dr->handle);
	if (s) {
		/* the option holds the whole trace_clock file: "[local] global ..." */
		const char *b = strchr(s, '[');
		const char *e = b ? strchr(b, ']') : NULL;

		if (b && e)
			snprintf(info->clock, sizeof(info->clock), "%.*s", (int)(e - b - 1), b + 1);
		else
			snprintf(info->clock, sizeof(info->clock), "%.*s", (int)strcspn(s, " \n"), s);
	}
	if (info->file_version >= 7 && !tracecmd_get_file_compress_proto(dr->handle, &s, &ver) && s) {
		snprintf(info->compression, sizeof(info->compression), "%s", s);
		dr->compressed = strcmp(s, "none") != 0;
	} else
		snprintf(info->compression, sizeof(info->compression), "none");
	sl_dat_fill_info(tep, info);

	dr->current = xcalloc((size_t)dr->ncpus, sizeof(*dr->current));
	dr->heap.nodes = xcalloc((size_t)dr->ncpus, sizeof(*dr->heap.nodes));
	for (int cpu = 0; cpu < dr->ncpus; cpu++) {
		dr->current[cpu] = tracecmd_read_data(dr->handle, cpu);
		if (dr->current[cpu])
			cpu_heap_push(&dr->heap, dr->current[cpu]->ts, cpu);
	}
	*out = &dr->r;
	return 0;
fail:
	dat_close(&dr->r);
	return ret;
}

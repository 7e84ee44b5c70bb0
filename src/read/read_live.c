// SPDX-License-Identifier: GPL-2.0
/*
 * read_live.c - decode the pages record reads, merged across CPUs by time
 *
 * Each CPU keeps a queue of the pages read from its trace_pipe_raw and not
 * yet handed on; dat_page.h's walk, the trace.dat reader's own, reads the
 * head page.  A page is checked before it is queued or scanned
 * (sl_rb_page_check(), the check the flyrecord reader makes of a file's
 * pages): the walk trusts the commit size and every record's length, so
 * a page the check refuses is an error and is never walked - no read past
 * the page, no loop for ever on a padding record of length -4.  A heap
 * of (timestamp of the CPU's next event, cpu) merges the CPUs, as the
 * trace.dat reader does for a file; the caller's limit stops the merge
 * where a CPU might still bring an earlier event in its next read.
 * Pages are copied into slots that are recycled, so the per-event path
 * does not allocate.
 *
 * This walked the pages with libtraceevent's kbuffer until 2026-12-02:
 * it checks nothing, and costs about 230 instructions a record where
 * dat_page.h's walk costs about 20 (dat_page.h; bench/README.md, "The
 * live reader").  tests/unit/test_read_live.c replays the trace.dat
 * files of testdata/ page by page through this reader and holds its
 * events to the flyrecord reader's, CPU by CPU.
 *
 * The tep the decoder works with is built from the same texts the
 * trace.dat carries (struct sl_dat_meta), so an event decodes the same
 * live and from the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "cpu_heap.h"
#include "dat_decode.h"
#include "dat_page.h"
#include "read_live.h"
#include "util/util.h"

struct page_slot {
	struct page_slot *next;
	int64_t lost;		/* events lost before the page: 0, how many, -1 not said */
	uint8_t data[];		/* one page */
};

/* One CPU's pages waiting to be handed on. */
struct live_cpu {
	struct page_slot *head, *tail;	/* queue; head is being walked */
	struct sl_rb_page pg;		/* the walk of head */
	const uint8_t *event;		/* head's current event, NULL when the queue is empty */
	uint32_t size;			/* its size */
	uint64_t ts;			/* its timestamp */
	bool lost;			/* events were lost before the current event */
	uint64_t lost_count;		/* how many, 0 when the page does not say */
	struct page_slot *unmeasured;	/* the CPU's newest page, its time not in newest yet */
};

struct sl_live {
	struct tep_handle *tep;
	struct sl_dat_decoder *decoder;
	int nr_cpus;
	int page_size;
	struct sl_rb_format fmt;	/* the kernel's long, our byte order */
	struct live_cpu *cpus;
	struct cpu_heap heap;		/* CPUs with a current event */
	struct page_slot *free_slots;
	uint64_t newest;		/* the latest time of the pages measured */
	uint64_t lost_events, lost_unknown;
	struct sl_trace_info info;
};

static bool host_bigendian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

static struct tep_handle *tep_from_meta(const struct sl_dat_meta *meta)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, host_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, meta->long_size);
	tep_set_page_size(tep, meta->page_size);
	tep_parse_header_page(tep, meta->header_page, meta->header_page_len, meta->long_size);
	/* a format libtraceevent cannot parse is left out, as trace-cmd does */
	for (size_t i = 0; i < meta->nr_ftrace; i++)
		tep_parse_event(tep, meta->ftrace[i].text, meta->ftrace[i].len, "ftrace");
	for (size_t i = 0; i < meta->nr_events; i++)
		tep_parse_event(tep, meta->events[i].text, meta->events[i].len,
				meta->events[i].system);
	if (meta->kallsyms && meta->kallsyms_len) {
		tep_parse_kallsyms(tep, meta->kallsyms);
		/*
		 * libtraceevent sorts the symbols at the first lookup: tens of
		 * ms, which must not fall inside a recording (record builds
		 * this before tracing starts)
		 */
		tep_find_function(tep, 0);
	}
	return tep;
}

static struct sl_live *live_new(struct tep_handle *tep, int nr_cpus, int page_size,
				int long_size, struct sl_strtab *strtab, struct sl_error *err)
{
	struct sl_live *l = xcalloc(1, sizeof(*l));

	l->tep = tep;
	l->nr_cpus = nr_cpus;
	l->page_size = page_size;
	sl_rb_format_init(&l->fmt, long_size, host_bigendian());
	l->decoder = sl_dat_decoder_new(l->tep, NULL, strtab, err);
	if (!l->decoder) {
		sl_live_free(l);
		return NULL;
	}
	l->cpus = xcalloc((size_t)l->nr_cpus, sizeof(*l->cpus));
	l->heap.nodes = xcalloc((size_t)l->nr_cpus, sizeof(*l->heap.nodes));

	l->info.format = SL_FMT_DAT6;
	l->info.file_version = 6;
	l->info.ncpus = l->nr_cpus;
	snprintf(l->info.compression, sizeof(l->info.compression), "none");
	return l;
}

struct sl_live *sl_live_new(const struct sl_dat_meta *meta, struct sl_strtab *strtab,
			    struct sl_error *err)
{
	struct tep_handle *tep;
	struct sl_live *l;

	tep_set_loglevel(TEP_LOG_NONE);
	tep = tep_from_meta(meta);
	if (!tep) {
		sl_error_set(err, "cannot parse the kernel's event formats");
		return NULL;
	}
	l = live_new(tep, meta->nr_cpus, meta->page_size, meta->long_size, strtab, err);
	if (!l)
		return NULL;
	if (meta->trace_clock) {
		const char *b = strchr(meta->trace_clock, '['), *e = b ? strchr(b, ']') : NULL;

		if (b && e)
			snprintf(l->info.clock, sizeof(l->info.clock), "%.*s", (int)(e - b - 1), b + 1);
	}
	if (meta->uname) {
		/* "Linux host 6.18.44 ..." : the release is the third word */
		char sys[64], host[256], release[128];

		snprintf(l->info.uname, sizeof(l->info.uname), "%s", meta->uname);
		if (sscanf(meta->uname, "%63s %255s %127s", sys, host, release) == 3)
			snprintf(l->info.kernel, sizeof(l->info.kernel), "%s", release);
	}
	sl_dat_fill_info(l->tep, &l->info);
	return l;
}

struct sl_live *sl_live_new_tep(struct tep_handle *tep, int nr_cpus, int page_size, int long_size,
				struct sl_strtab *strtab, struct sl_error *err)
{
	struct sl_live *l = live_new(tep, nr_cpus, page_size, long_size, strtab, err);

	if (l)
		sl_dat_fill_info(l->tep, &l->info);
	return l;
}

static void free_slots(struct page_slot *s)
{
	while (s) {
		struct page_slot *next = s->next;

		free(s);
		s = next;
	}
}

void sl_live_free(struct sl_live *l)
{
	if (!l)
		return;
	if (l->cpus)
		for (int cpu = 0; cpu < l->nr_cpus; cpu++)
			free_slots(l->cpus[cpu].head);
	free(l->cpus);
	free_slots(l->free_slots);
	free(l->heap.nodes);
	sl_dat_decoder_free(l->decoder);
	if (l->tep)
		tep_free(l->tep);
	free(l);
}

static void page_facts(const struct sl_rb_format *f, const uint8_t *page, int64_t lost,
		       struct sl_page_facts *facts)
{
	facts->data = (int)(sl_rb_read_long(f, page + 8) & RB_COMMIT_MASK);
	facts->missed = lost != 0;
	facts->missed_count = lost > 0 ? (uint64_t)lost : 0;
}

const char *sl_page_check(const void *page, int page_size, int long_size,
			  struct sl_page_facts *facts)
{
	struct sl_rb_format fmt;
	const char *bad;
	int64_t lost;

	sl_rb_format_init(&fmt, long_size, host_bigendian());
	bad = sl_rb_page_check(&fmt, page, (size_t)page_size, &lost);
	if (!bad)
		page_facts(&fmt, page, lost, facts);
	return bad;
}

/* cpu's head page is walked to its end: back to the free slots */
static void drop_head(struct sl_live *l, struct live_cpu *c)
{
	struct page_slot *done = c->head;

	if (done == c->unmeasured) {
		/* walked: c->ts is its last event's (or an earlier one's, when it had none) */
		if (c->ts > l->newest)
			l->newest = c->ts;
		c->unmeasured = NULL;
	}

	c->head = done->next;
	if (!c->head)
		c->tail = NULL;
	done->next = l->free_slots;
	l->free_slots = done;
}

/* Point cpu at the first event of its head page (dropping empty pages); heap it. */
static void load_head(struct sl_live *l, int cpu)
{
	struct live_cpu *c = &l->cpus[cpu];

	c->event = NULL;
	while (c->head) {
		if (c->head->lost) {
			/* the loss is before the page: reported with its first event */
			c->lost = true;
			c->lost_count += c->head->lost > 0 ? (uint64_t)c->head->lost : 0;
		}
		sl_rb_page_load(&c->pg, &l->fmt, c->head->data);
		c->event = sl_rb_page_next(&c->pg, &c->ts, &c->size);
		if (c->event)
			break;
		drop_head(l, c);
	}
	if (c->event)
		cpu_heap_push(&l->heap, c->ts, cpu);
}

const char *sl_live_add_page(struct sl_live *l, int cpu, const void *page,
			     struct sl_page_facts *facts)
{
	struct sl_page_facts own;
	struct live_cpu *c;
	struct page_slot *s;
	const char *bad;
	int64_t lost;

	if (cpu < 0 || cpu >= l->nr_cpus)
		return "a page of a CPU the event formats do not count";
	bad = sl_rb_page_check(&l->fmt, page, (size_t)l->page_size, &lost);
	if (bad)
		return bad;
	if (!facts)
		facts = &own;
	page_facts(&l->fmt, page, lost, facts);
	if (!facts->data && !lost)
		return NULL;	/* nothing in it */

	c = &l->cpus[cpu];
	s = l->free_slots;
	if (s)
		l->free_slots = s->next;
	else
		s = xmalloc(sizeof(*s) + (size_t)l->page_size);
	memcpy(s->data, page, (size_t)l->page_size);
	s->next = NULL;
	s->lost = lost;

	/*
	 * its last event's time (how far the CPU got) is found when it is
	 * asked for, on the CPU's newest page only: a CPU's pages come in
	 * time order
	 */
	if (facts->data)
		c->unmeasured = s;

	if (c->tail)
		c->tail->next = s;
	else
		c->head = s;
	c->tail = s;
	if (!c->event)
		load_head(l, cpu);
	return NULL;
}

uint64_t sl_live_newest(struct sl_live *l)
{
	for (int cpu = 0; cpu < l->nr_cpus; cpu++) {
		struct live_cpu *c = &l->cpus[cpu];
		struct sl_rb_page pg;
		uint32_t size;
		uint64_t ts;

		if (!c->unmeasured)
			continue;
		sl_rb_page_load(&pg, &l->fmt, c->unmeasured->data);
		while (sl_rb_page_next(&pg, &ts, &size))
			if (ts > l->newest)
				l->newest = ts;
		c->unmeasured = NULL;
	}
	return l->newest;
}

int sl_live_next(struct sl_live *l, uint64_t limit, struct sl_event *ev, struct sl_error *err)
{
	struct live_cpu *c;
	int cpu, ret;

	if (!l->heap.nr || l->heap.nodes[0].ts > limit)
		return 0;
	cpu = l->heap.nodes[0].cpu;
	c = &l->cpus[cpu];

	if (c->lost) {
		/* the gap first; the event stays at the top of the heap */
		memset(ev, 0, sizeof(*ev));
		ev->type = SL_EV_LOST;
		ev->name = sl_dat_lost_name(l->decoder);
		ev->ts = c->ts;
		ev->cpu = cpu;
		ev->pid = -1;
		ev->lost.count = c->lost_count;
		if (c->lost_count)
			l->lost_events = sat_add_u64(l->lost_events, c->lost_count);
		else
			l->lost_unknown++;
		c->lost = false;
		c->lost_count = 0;
		return 1;
	}

	ret = sl_dat_decode(l->decoder, cpu, c->ts, c->event, (int)c->size, ev);
	if (ret < 0)
		sl_error_set(err, "corrupt event data on CPU %d at %llu ns", cpu,
			     (unsigned long long)c->ts);

	c->event = sl_rb_page_next(&c->pg, &c->ts, &c->size);
	if (c->event) {
		cpu_heap_replace_top(&l->heap, c->ts);
	} else {
		cpu_heap_pop(&l->heap);
		drop_head(l, c);
		load_head(l, cpu);
	}
	return ret < 0 ? ret : 1;
}

int sl_live_event_id(const struct sl_live *l, const char *system, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(l->tep, system, name);

	return e ? e->id : -1;
}

int sl_live_scan_page(struct sl_live *l, int cpu, const void *page, const int *types,
		      size_t nr_types, sl_live_scan_fn fn, void *ctx, struct sl_error *err)
{
	struct sl_rb_page pg;
	struct sl_event ev;
	const uint8_t *e;
	const char *bad;
	uint32_t size;
	int64_t lost;
	uint64_t ts;
	int events = 0;

	bad = sl_rb_page_check(&l->fmt, page, (size_t)l->page_size, &lost);
	if (bad) {
		sl_error_set(err, "a page of CPU %d: %s", cpu, bad);
		return -EINVAL;
	}
	sl_rb_page_load(&pg, &l->fmt, page);
	while ((e = sl_rb_page_next(&pg, &ts, &size))) {
		uint16_t type;

		events++;
		if (size < sizeof(type))
			continue;
		memcpy(&type, e, sizeof(type));	/* common_type, the payload's first field */
		for (size_t i = 0; i < nr_types; i++) {
			if (type != types[i])
				continue;
			if (sl_dat_decode(l->decoder, cpu, ts, e, (int)size, &ev) == 0)
				fn(ctx, &ev);
			break;
		}
	}
	return events;
}

void sl_live_info(const struct sl_live *l, struct sl_trace_info *info)
{
	*info = l->info;
	info->lost_events = l->lost_events;
	info->lost_unknown = l->lost_unknown;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * read_live.c - decode the pages record reads, merged across CPUs by time
 *
 * Each CPU keeps a queue of the pages read from its trace_pipe_raw and not
 * yet handed on; a kbuffer walks the head page.  A heap of (timestamp of
 * the CPU's next event, cpu) merges the CPUs, as read_dat.c does for a
 * file; the caller's limit stops the merge where a CPU might still bring
 * an earlier event in its next read.  Pages are copied into slots that
 * are recycled, so the per-event path does not allocate.
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
#include <kbuffer.h>

#include "cpu_heap.h"
#include "dat_decode.h"
#include "read_live.h"
#include "util/util.h"

/* the page header's commit word, as kbuffer reads it */
#define RB_MISSED_EVENTS	(1UL << 31)
#define RB_MISSED_STORED	(1UL << 30)
#define RB_COMMIT_MASK		((1UL << 27) - 1)

struct page_slot {
	struct page_slot *next;
	uint8_t data[];		/* one page */
};

/* One CPU's pages waiting to be handed on. */
struct live_cpu {
	struct page_slot *head, *tail;	/* queue; head is being walked */
	struct kbuffer *kbuf;		/* walks head */
	void *event;			/* head's current event, NULL when the queue is empty */
	unsigned long long ts;		/* its timestamp */
	bool lost;			/* events were lost before the current event */
	uint64_t lost_count;		/* how many, 0 when the page does not say */
};

struct sl_live {
	struct tep_handle *tep;
	struct sl_dat_decoder *decoder;
	int nr_cpus;
	int page_size;
	int long_size;
	struct live_cpu *cpus;
	struct cpu_heap heap;		/* CPUs with a current event */
	struct page_slot *free_slots;
	struct kbuffer *scan;		/* finds a new page's last timestamp */
	uint64_t newest;
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

static struct kbuffer *new_kbuffer(const struct sl_live *l)
{
	return kbuffer_alloc(l->long_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
			     KBUFFER_ENDIAN_SAME_AS_HOST);
}

static struct sl_live *live_new(struct tep_handle *tep, int nr_cpus, int page_size,
				int long_size, struct sl_strtab *strtab, struct sl_error *err)
{
	struct sl_live *l = xcalloc(1, sizeof(*l));

	l->tep = tep;
	l->nr_cpus = nr_cpus;
	l->page_size = page_size;
	l->long_size = long_size;
	l->decoder = sl_dat_decoder_new(l->tep, NULL, strtab, err);
	if (!l->decoder) {
		sl_live_free(l);
		return NULL;
	}
	l->cpus = xcalloc((size_t)l->nr_cpus, sizeof(*l->cpus));
	l->heap.nodes = xcalloc((size_t)l->nr_cpus, sizeof(*l->heap.nodes));
	l->scan = new_kbuffer(l);
	for (int cpu = 0; cpu < l->nr_cpus; cpu++)
		l->cpus[cpu].kbuf = new_kbuffer(l);

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
		for (int cpu = 0; cpu < l->nr_cpus; cpu++) {
			free_slots(l->cpus[cpu].head);
			kbuffer_free(l->cpus[cpu].kbuf);
		}
	free(l->cpus);
	free_slots(l->free_slots);
	free(l->heap.nodes);
	if (l->scan)
		kbuffer_free(l->scan);
	sl_dat_decoder_free(l->decoder);
	if (l->tep)
		tep_free(l->tep);
	free(l);
}

int sl_page_info(const void *page, int page_size, int long_size, bool *missed,
		 uint64_t *missed_count)
{
	const uint8_t *p = page;
	uint64_t commit, len;

	if (long_size == 4) {
		uint32_t c;

		memcpy(&c, p + 8, 4);
		commit = c;
	} else {
		memcpy(&commit, p + 8, 8);
	}
	len = commit & RB_COMMIT_MASK;
	*missed = commit & RB_MISSED_EVENTS;
	*missed_count = 0;
	if (len > (uint64_t)(page_size - 8 - long_size))
		return -EINVAL;
	if ((commit & RB_MISSED_STORED) && *missed &&
	    len + 2 * (uint64_t)long_size <= (uint64_t)(page_size - 8)) {
		const uint8_t *after = p + 8 + long_size + len;

		if (long_size == 4) {
			uint32_t c;

			memcpy(&c, after, 4);
			*missed_count = c;
		} else {
			memcpy(missed_count, after, 8);
		}
	}
	return (int)len;
}

/* Point cpu at the first event of its head page (dropping empty pages); heap it. */
static void load_head(struct sl_live *l, int cpu)
{
	struct live_cpu *c = &l->cpus[cpu];

	c->event = NULL;
	while (c->head) {
		int missed;

		kbuffer_load_subbuffer(c->kbuf, c->head->data);
		missed = kbuffer_missed_events(c->kbuf);
		if (missed) {
			/* the loss is before the page: report it with its first event */
			c->lost = true;
			c->lost_count += missed > 0 ? (uint64_t)missed : 0;
		}
		c->event = kbuffer_read_event(c->kbuf, &c->ts);
		if (c->event)
			break;
		struct page_slot *empty = c->head;

		c->head = empty->next;
		if (!c->head)
			c->tail = NULL;
		empty->next = l->free_slots;
		l->free_slots = empty;
	}
	if (c->event)
		cpu_heap_push(&l->heap, c->ts, cpu);
}

void sl_live_add_page(struct sl_live *l, int cpu, const void *page)
{
	struct live_cpu *c;
	struct page_slot *s;
	unsigned long long ts;

	if (cpu < 0 || cpu >= l->nr_cpus)
		return;
	c = &l->cpus[cpu];
	s = l->free_slots;
	if (s)
		l->free_slots = s->next;
	else
		s = xmalloc(sizeof(*s) + (size_t)l->page_size);
	memcpy(s->data, page, (size_t)l->page_size);
	s->next = NULL;

	/* its last event's time: what this read tells about how far the CPU got */
	kbuffer_load_subbuffer(l->scan, s->data);
	for (void *e = kbuffer_read_event(l->scan, &ts); e; e = kbuffer_next_event(l->scan, &ts))
		if (ts > l->newest)
			l->newest = ts;

	if (c->tail)
		c->tail->next = s;
	else
		c->head = s;
	c->tail = s;
	if (!c->event)
		load_head(l, cpu);
}

uint64_t sl_live_newest(const struct sl_live *l)
{
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

	cpu_heap_pop(&l->heap);
	ret = sl_dat_decode(l->decoder, cpu, c->ts, c->event, kbuffer_event_size(c->kbuf), ev);
	if (ret < 0)
		sl_error_set(err, "corrupt event data on CPU %d at %llu ns", cpu, c->ts);

	c->event = kbuffer_next_event(c->kbuf, &c->ts);
	if (c->event) {
		cpu_heap_push(&l->heap, c->ts, cpu);
	} else {
		struct page_slot *done = c->head;

		c->head = done->next;
		if (!c->head)
			c->tail = NULL;
		done->next = l->free_slots;
		l->free_slots = done;
		load_head(l, cpu);
	}
	return ret < 0 ? ret : 1;
}

int sl_live_event_id(const struct sl_live *l, const char *system, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(l->tep, system, name);

	return e ? e->id : -1;
}

/* the ring buffer's event header (include/linux/ring_buffer.h): type_len:5, time_delta:27 */
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31

/*
 * Whether the page may hold an event of one of types: its events walked
 * by their lengths alone, reading each one's common_type.  kbuffer's walk
 * also sums every time delta, through a function pointer per field: it
 * was 17% of record's CPU when it walked every page, about 9 ns an event;
 * this is a loop of a few instructions, and kbuffer walks only the pages
 * it finds something on.  Anything it cannot follow: true (kbuffer will).
 */
static bool page_may_have(const struct sl_live *l, const uint8_t *page, const int *types,
			  size_t nr_types)
{
	uint64_t missed_count;
	bool missed;
	int len = sl_page_info(page, l->page_size, l->long_size, &missed, &missed_count);
	const uint8_t *p, *end;

	if (len < 0)
		return true;
	p = page + 8 + l->long_size;
	end = p + len;
	while (p + 4 <= end) {
		uint32_t head, type_len, delta, word = 0;
		size_t size;	/* of the whole event, header included */

		memcpy(&head, p, 4);
		type_len = host_bigendian() ? head >> 27 : head & 31;
		delta = host_bigendian() ? head & ((1U << 27) - 1) : head >> 5;
		if (type_len == 0 || type_len == RB_TYPE_PADDING) {
			if (p + 8 > end)
				return type_len == 0;
			memcpy(&word, p + 4, 4);
		}
		if (type_len == RB_TYPE_PADDING) {
			if (!delta)
				return false;	/* the rest of the page is padding */
			size = 4 + (size_t)word;
		} else if (type_len == RB_TYPE_TIME_EXTEND || type_len == RB_TYPE_TIME_STAMP) {
			size = 8;
		} else {
			/* type_len 0: the length in the next word, the data after it */
			const uint8_t *data = p + (type_len ? 4 : 8);
			uint16_t type;

			size = type_len ? 4 + 4 * (size_t)type_len
					: 8 + (((size_t)word - 4 + 3) & ~(size_t)3);
			if (word && word < 4)
				return true;
			if (data + sizeof(type) > end)
				return true;
			memcpy(&type, data, sizeof(type));
			for (size_t i = 0; i < nr_types; i++)
				if (type == types[i])
					return true;
		}
		if (size > (size_t)(end - p))
			return true;
		p += size;
	}
	return false;
}

size_t sl_live_scan_page(struct sl_live *l, int cpu, const void *page, const int *types,
			 size_t nr_types, sl_live_scan_fn fn, void *ctx)
{
	unsigned long long ts;
	size_t events = 0;
	struct sl_event ev;

	if (!page_may_have(l, page, types, nr_types))
		return 0;

	/* kbuffer takes a non-const page but only reads it */
	kbuffer_load_subbuffer(l->scan, (void *)page);
	for (void *e = kbuffer_read_event(l->scan, &ts); e; e = kbuffer_next_event(l->scan, &ts)) {
		uint16_t type;

		events++;
		if (kbuffer_event_size(l->scan) < (int)sizeof(type))
			continue;
		memcpy(&type, e, sizeof(type));	/* common_type, the payload's first field */
		for (size_t i = 0; i < nr_types; i++) {
			if (type != types[i])
				continue;
			if (sl_dat_decode(l->decoder, cpu, ts, e, kbuffer_event_size(l->scan), &ev) == 0)
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

// SPDX-License-Identifier: GPL-2.0
/*
 * test_read_live.c - the live reader merges CPUs' pages by time, up to a limit
 *
 * Pages are built by hand in the kernel's ring-buffer layout (8-byte page
 * timestamp, commit word, events with a 4-byte header of type_len and
 * time delta) holding sched_wake_idle_without_ipi events whose "cpu"
 * field names each event, so the order they come out in is checkable.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "read/dat_meta.h"
#include "read/dat_write.h"
#include "read/read_dat.h"
#include "read/read_live.h"
#include "util/util.h"

#include "../../bench/dat_pages.h"

#define PAGE 4096

static char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static char header_event[] = "# compressed entry header\n\ttype_len    :    5 bits\n";

static char idle_format[] =
	"name: sched_wake_idle_without_ipi\n"
	"ID: 300\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int cpu;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"cpu=%d\", REC->cpu\n";

struct page {
	uint8_t data[PAGE];
	size_t used;		/* bytes of events */
	uint64_t last_ts;
};

static void page_start(struct page *p, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->data, &ts, 8);
	p->last_ts = ts;
}

/* One event tagged `tag` at ts (after the previous one, less than 2^27 ns later). */
static void page_event(struct page *p, uint64_t ts, int32_t tag)
{
	uint8_t *e = p->data + 16 + p->used;
	uint32_t header = (uint32_t)(ts - p->last_ts) << 5 | 3;	/* 12 bytes = 3 words */
	uint16_t type = 300;
	int32_t pid = 42;

	memcpy(e, &header, 4);
	memcpy(e + 4, &type, 2);
	memcpy(e + 8, &pid, 4);
	memcpy(e + 12, &tag, 4);
	p->used += 16;
	p->last_ts = ts;
	uint64_t commit = p->used;

	memcpy(p->data + 8, &commit, 8);
}

/* Events were lost before this page: the kernel's flags and the count after the data. */
static void page_missed(struct page *p, uint64_t count)
{
	uint64_t commit = p->used | 1UL << 31 | 1UL << 30;

	memcpy(p->data + 8, &commit, 8);
	memcpy(p->data + 16 + p->used, &count, 8);
}

struct fixture {
	struct sl_dat_meta meta;
	struct sl_dat_format format;
	struct sl_strtab *st;
	struct sl_live *l;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	struct sl_error err = { "" };

	f->meta.nr_cpus = 2;
	f->meta.page_size = PAGE;
	f->meta.long_size = 8;
	f->meta.header_page = header_page;
	f->meta.header_page_len = sizeof(header_page) - 1;
	f->meta.header_event = header_event;
	f->meta.header_event_len = sizeof(header_event) - 1;
	f->format.system = (char *)"sched";
	f->format.text = idle_format;
	f->format.len = sizeof(idle_format) - 1;
	f->meta.events = &f->format;
	f->meta.nr_events = 1;
	f->st = sl_strtab_new();
	f->l = sl_live_new(&f->meta, f->st, &err);
	assert_non_null(f->l);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	sl_live_free(f->l);
	sl_strtab_free(f->st);
	free(f);
	return 0;
}

/* The tags of the events next() gives up to limit, as a string "1 2 L3 4" (L = lost). */
static const char *drain(struct fixture *f, uint64_t limit)
{
	static char out[256];
	struct sl_error err = { "" };
	struct sl_event ev;
	uint64_t prev_ts = 0;

	out[0] = '\0';
	while (sl_live_next(f->l, limit, &ev, &err) > 0) {
		char item[32];

		assert_true(ev.ts >= prev_ts);
		prev_ts = ev.ts;
		if (ev.type == SL_EV_LOST)
			snprintf(item, sizeof(item), "L%llu@%d", (unsigned long long)ev.lost.count, ev.cpu);
		else {
			assert_int_equal(ev.type, SL_EV_WAKE_IDLE_NO_IPI);
			snprintf(item, sizeof(item), "%d", ev.idle_no_ipi.target_cpu);
		}
		if (out[0])
			strcat(out, " ");
		strcat(out, item);
	}
	return out;
}

/* A raw event: its 4-byte header (type_len, delta) and body as given, the commit updated. */
static void page_raw(struct page *p, uint32_t type_len, uint32_t delta, const void *body, size_t len)
{
	uint32_t header = delta << 5 | type_len;
	uint64_t commit;

	memcpy(p->data + 16 + p->used, &header, 4);
	memcpy(p->data + 20 + p->used, body, len);
	p->used += 4 + len;
	commit = p->used;
	memcpy(p->data + 8, &commit, 8);
}

struct scanned {
	char tags[256];
	uint64_t ts[8];
	int n;
};

static void scan_fn(void *ctx, const struct sl_event *ev)
{
	struct scanned *s = ctx;
	char item[16];

	assert_int_equal(ev->type, SL_EV_WAKE_IDLE_NO_IPI);
	snprintf(item, sizeof(item), "%s%d", s->n ? " " : "", ev->idle_no_ipi.target_cpu);
	strcat(s->tags, item);
	if (s->n < 8)
		s->ts[s->n] = ev->ts;
	s->n++;
}

/*
 * sl_live_scan_page() decodes only the events of the types asked for,
 * past the kinds of event a page holds: other types, a time extend, a
 * discarded event (padding), a long event (type_len 0, its length in the
 * next word); it returns the data records it walked.
 */
static void test_scan_page(void **state)
{
	struct fixture *f = *state;
	struct sl_error err = { "" };
	struct scanned got;
	struct page p;
	int want = 300, absent = 999;
	uint8_t body[128] = { 0 };
	uint32_t word;
	uint16_t type = 301;
	int32_t tag;

	memset(&got, 0, sizeof(got));
	page_start(&p, 1000);
	page_event(&p, 1000, 1);			/* 300, tag 1 at 1000 */
	memcpy(body, &type, 2);
	page_raw(&p, 3, 500, body, 12);			/* 301 at 1500 */
	word = 1;					/* extend: (1 << 27) + 100 */
	page_raw(&p, 30, 100, &word, 4);
	p.last_ts = 1500 + (1ULL << 27) + 100;
	page_event(&p, p.last_ts + 50, 2);		/* 300, tag 2 */
	word = 20;					/* a discarded event, 24 bytes */
	memset(body, 0, sizeof(body));
	memcpy(body, &word, 4);
	page_raw(&p, 29, 1, body, 20);
	word = 120 + 4;					/* 301, 120 bytes, long form */
	memcpy(body, &word, 4);
	memcpy(body + 4, &type, 2);
	page_raw(&p, 0, 10, body, 4 + 120);
	p.last_ts += 1 + 10;
	page_event(&p, p.last_ts + 7, 3);		/* 300, tag 3 */

	assert_int_equal(sl_live_scan_page(f->l, 0, p.data, &want, 1, scan_fn, &got, &err), 5);
	assert_string_equal(got.tags, "1 2 3");
	assert_int_equal(got.ts[0], 1000);
	assert_int_equal(got.ts[1], 1500 + (1ULL << 27) + 100 + 50);
	assert_int_equal(got.ts[2], 1500 + (1ULL << 27) + 100 + 50 + 1 + 10 + 7);

	/* no event of the type: nothing decoded */
	memset(&got, 0, sizeof(got));
	assert_int_equal(sl_live_scan_page(f->l, 0, p.data, &absent, 1, scan_fn, &got, &err), 5);
	assert_int_equal(got.n, 0);

	/* a page of only other types, or an empty one */
	page_start(&p, 5000);
	type = 301;
	memset(body, 0, sizeof(body));
	memcpy(body, &type, 2);
	tag = 9;
	memcpy(body + 8, &tag, 4);
	page_raw(&p, 3, 0, body, 12);
	assert_int_equal(sl_live_scan_page(f->l, 1, p.data, &want, 1, scan_fn, &got, &err), 1);
	page_start(&p, 6000);
	assert_int_equal(sl_live_scan_page(f->l, 1, p.data, &want, 1, scan_fn, &got, &err), 0);
	assert_int_equal(got.n, 0);
}

/* Two CPUs' pages interleave by timestamp; the tags come out in time order. */
static void test_merge_by_time(void **state)
{
	struct fixture *f = *state;
	struct page p0, p1;

	page_start(&p0, 1000);
	page_event(&p0, 1000, 1);
	page_event(&p0, 3000, 3);
	page_event(&p0, 5000, 5);
	page_start(&p1, 2000);
	page_event(&p1, 2000, 2);
	page_event(&p1, 4000, 4);
	assert_null(sl_live_add_page(f->l, 0, p0.data, NULL));
	assert_null(sl_live_add_page(f->l, 1, p1.data, NULL));
	assert_int_equal(sl_live_newest(f->l), 5000);
	assert_string_equal(drain(f, UINT64_MAX), "1 2 3 4 5");

	/* a page's newest time is there even when its events went out before it was asked */
	page_start(&p1, 6000);
	page_event(&p1, 6000, 6);
	page_event(&p1, 7000, 7);
	assert_null(sl_live_add_page(f->l, 1, p1.data, NULL));
	assert_string_equal(drain(f, UINT64_MAX), "6 7");
	assert_int_equal(sl_live_newest(f->l), 7000);
}

/*
 * The limit holds back what a CPU not read yet could still precede: after
 * a round, only events up to the newest of the round before are handed on.
 */
static void test_limit_holds_back(void **state)
{
	struct fixture *f = *state;
	struct page p0, p1, q1;

	page_start(&p0, 1000);
	page_event(&p0, 1000, 1);
	page_event(&p0, 6000, 6);
	assert_null(sl_live_add_page(f->l, 0, p0.data, NULL));
	page_start(&p1, 2000);
	page_event(&p1, 2000, 2);
	assert_null(sl_live_add_page(f->l, 1, p1.data, NULL));
	assert_string_equal(drain(f, 2500), "1 2");
	/* CPU 1's next read brings an event older than CPU 0's waiting one */
	page_start(&q1, 4000);
	page_event(&q1, 4000, 4);
	page_event(&q1, 7000, 7);
	assert_null(sl_live_add_page(f->l, 1, q1.data, NULL));
	assert_string_equal(drain(f, 6000), "4 6");
	assert_string_equal(drain(f, UINT64_MAX), "7");
	assert_string_equal(drain(f, UINT64_MAX), "");
}

/* A page that says events were lost before it: a lost marker comes before its first event. */
static void test_lost_before_page(void **state)
{
	struct fixture *f = *state;
	struct page p0, q0;

	page_start(&p0, 1000);
	page_event(&p0, 1000, 1);
	assert_null(sl_live_add_page(f->l, 0, p0.data, NULL));
	page_start(&q0, 9000);
	page_event(&q0, 9000, 9);
	page_missed(&q0, 17);
	assert_null(sl_live_add_page(f->l, 0, q0.data, NULL));
	assert_string_equal(drain(f, UINT64_MAX), "1 L17@0 9");

	struct sl_trace_info info;

	sl_live_info(f->l, &info);
	assert_int_equal(info.lost_events, 17);
	assert_int_equal(info.ncpus, 2);
}

/* Empty pages are skipped, pages of an unknown CPU refused; many pages in a queue. */
static void test_empty_and_many_pages(void **state)
{
	struct fixture *f = *state;
	struct page p;
	char expect[256] = "";

	page_start(&p, 500);
	assert_null(sl_live_add_page(f->l, 1, p.data, NULL));		/* no events */
	assert_string_equal(sl_live_add_page(f->l, 7, p.data, NULL),	/* no such CPU */
			    "a page of a CPU the event formats do not count");
	for (int i = 0; i < 20; i++) {
		char tag[8];

		page_start(&p, 1000 + (uint64_t)i * 100);
		page_event(&p, 1000 + (uint64_t)i * 100, i);
		assert_null(sl_live_add_page(f->l, i % 2, p.data, NULL));
		snprintf(tag, sizeof(tag), "%s%d", i ? " " : "", i);
		strcat(expect, tag);
	}
	assert_string_equal(drain(f, UINT64_MAX), expect);
}

/* sl_page_check and sl_live_add_page read the commit word and the lost count as kbuffer does. */
static void test_page_check(void **state)
{
	struct fixture *f = *state;
	struct sl_page_facts facts;
	struct page p;

	page_start(&p, 1000);
	page_event(&p, 1000, 1);
	assert_null(sl_page_check(p.data, PAGE, 8, &facts));
	assert_int_equal(facts.data, 16);
	assert_false(facts.missed);
	page_missed(&p, 5);
	assert_null(sl_page_check(p.data, PAGE, 8, &facts));
	assert_int_equal(facts.data, 16);
	assert_true(facts.missed);
	assert_int_equal(facts.missed_count, 5);
	memset(&facts, 0, sizeof(facts));
	assert_null(sl_live_add_page(f->l, 0, p.data, &facts));
	assert_int_equal(facts.data, 16);
	assert_true(facts.missed);
	assert_int_equal(facts.missed_count, 5);
	assert_string_equal(drain(f, UINT64_MAX), "L5@0 1");
	uint64_t bad = 5000;

	memcpy(p.data + 8, &bad, 8);
	assert_string_equal(sl_page_check(p.data, PAGE, 8, &facts),
			    "page commit size larger than the page");
}

/*
 * A page whose records do not add up is refused whole, by the queue and
 * by the scan, with what is wrong; the pages around it still come out.
 * Before the live reader checked its pages, kbuffer walked them as they
 * came: a padding record of length -4 sent it back to the same record for
 * ever, and an event longer than the commit was read past it.
 */
static void test_corrupt_pages_refused(void **state)
{
	struct fixture *f = *state;
	struct sl_error err = { "" };
	struct scanned got;
	struct page p0, loop, longer, q0;
	int32_t minus4 = -4, tag = 7;
	uint64_t commit;
	uint32_t len;
	int want = 300;
	uint8_t body[16] = { 0 };

	page_start(&p0, 1000);
	page_event(&p0, 1000, 1);
	assert_null(sl_live_add_page(f->l, 0, p0.data, NULL));

	page_start(&loop, 2000);
	page_event(&loop, 2000, 98);
	page_raw(&loop, 29, 0, &minus4, 4);		/* padding of length -4 */
	page_event(&loop, 2100, 99);
	assert_string_equal(sl_live_add_page(f->l, 0, loop.data, NULL),
			    "padding event with a negative length");
	memset(&got, 0, sizeof(got));
	assert_int_equal(sl_live_scan_page(f->l, 0, loop.data, &want, 1, scan_fn, &got, &err),
			 -EINVAL);
	assert_int_equal(got.n, 0);

	/* a long record (type_len 0) claiming more bytes than the commit holds */
	page_start(&longer, 3000);
	len = 4 + 64;
	memcpy(body, &len, 4);
	memcpy(body + 12, &tag, 4);
	page_raw(&longer, 0, 0, body, 16);
	assert_string_equal(sl_live_add_page(f->l, 1, longer.data, NULL),
			    "event runs past the page's commit");

	/* a commit past the page */
	commit = PAGE;
	memcpy(longer.data + 8, &commit, 8);
	assert_string_equal(sl_live_add_page(f->l, 1, longer.data, NULL),
			    "page commit size larger than the page");

	page_start(&q0, 4000);
	page_event(&q0, 4000, 4);
	assert_null(sl_live_add_page(f->l, 0, q0.data, NULL));
	assert_int_equal(sl_live_newest(f->l), 4000);
	assert_string_equal(drain(f, UINT64_MAX), "1 4");
}

/* --- the pages of a trace.dat replayed, against the flyrecord reader --- */

/* One event as a line: every field the decoders fill, names as strings. */
static void event_line(const struct sl_event *ev, const struct sl_strtab *st, char *out, size_t len)
{
	int n = snprintf(out, len, "%" PRIu64 " cpu%d pid%d t%d c%d %s:", ev->ts, ev->cpu, ev->pid,
			 ev->type, ev->ctx, sl_str(st, ev->name));

	switch (ev->type) {
	case SL_EV_SWITCH:
		snprintf(out + n, len - (size_t)n, " %d %d %d %d %s %s %d %c", ev->sw.prev_pid,
			 ev->sw.next_pid, ev->sw.prev_prio, ev->sw.next_prio,
			 sl_str(st, ev->sw.prev_comm), sl_str(st, ev->sw.next_comm),
			 ev->sw.prev_class, ev->sw.prev_letter);
		break;
	case SL_EV_WAKING:
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		snprintf(out + n, len - (size_t)n, " %d %d %d %s %d", ev->wake.pid, ev->wake.prio,
			 ev->wake.target_cpu, sl_str(st, ev->wake.comm), ev->wake.success);
		break;
	case SL_EV_MIGRATE:
		snprintf(out + n, len - (size_t)n, " %d %d %d %d %s", ev->migrate.pid,
			 ev->migrate.prio, ev->migrate.orig_cpu, ev->migrate.dest_cpu,
			 sl_str(st, ev->migrate.comm));
		break;
	case SL_EV_FORK:
		snprintf(out + n, len - (size_t)n, " %d %d %s %s", ev->fork.parent_pid,
			 ev->fork.child_pid, sl_str(st, ev->fork.parent_comm),
			 sl_str(st, ev->fork.child_comm));
		break;
	case SL_EV_EXIT:
		snprintf(out + n, len - (size_t)n, " %d %d %s", ev->exit.pid, ev->exit.prio,
			 sl_str(st, ev->exit.comm));
		break;
	case SL_EV_IRQ_VECTOR:
	case SL_EV_TIMER_TICK:
		snprintf(out + n, len - (size_t)n, " %d", ev->irq.vector);
		break;
	case SL_EV_WAKE_IDLE_NO_IPI:
		snprintf(out + n, len - (size_t)n, " %d", ev->idle_no_ipi.target_cpu);
		break;
	case SL_EV_LOST:
		snprintf(out + n, len - (size_t)n, " %" PRIu64, ev->lost.count);
		break;
	case SL_EV_MARKER:
		snprintf(out + n, len - (size_t)n, " %s", sl_str(st, ev->marker.text));
		break;
	default:
		if (sl_event_has_ipi(ev)) {
			n += snprintf(out + n, len - (size_t)n, " %d %s %s", ev->ipi.target_cpu,
				      sl_str(st, ev->ipi.callsite), sl_str(st, ev->ipi.callback));
			for (uint32_t i = 0; i < ev->ipi.mask.nr_words && n < (int)len; i++)
				n += snprintf(out + n, len - (size_t)n, " %" PRIx64,
					      ev->ipi.mask.words[i]);
		}
		break;
	}
}

struct cpu_lines {
	char **v;
	size_t nr, alloc;
};

static void add_line(struct cpu_lines *lines, int nr_cpus, const struct sl_event *ev,
		     const struct sl_strtab *st)
{
	struct cpu_lines *c;
	char buf[512];

	assert_true(ev->cpu >= 0 && ev->cpu < nr_cpus);
	c = &lines[ev->cpu];
	event_line(ev, st, buf, sizeof(buf));
	if (c->nr == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 64;
		c->v = xrealloc(c->v, c->alloc * sizeof(*c->v));
	}
	c->v[c->nr++] = xstrdup(buf);
}

static void free_lines(struct cpu_lines *lines, int nr_cpus)
{
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		for (size_t i = 0; i < lines[cpu].nr; i++)
			free(lines[cpu].v[i]);
		free(lines[cpu].v);
	}
	free(lines);
}

/*
 * Replay path's pages through a live reader: each round adds up to 3
 * pages of every CPU, then takes the events up to the newest time of the
 * round before (record's limit); the rest at the end.  The events of
 * each CPU in lines.  -1 when the file is not one to replay.
 */
static long replay_file(const char *path, struct sl_strtab *st, struct cpu_lines **out,
			int *nr_cpus)
{
	struct sl_error err = { "" };
	struct sl_dat_layout layout;
	struct tep_handle *tep = NULL;
	struct dat_pages fp = { 0 };
	struct cpu_lines *lines;
	struct sl_live *l;
	struct sl_event ev;
	uint64_t limit = 0;
	long events = 0;
	int fd, long_size, ret;
	bool more;

	if (sl_dat_layout_read_buffer(path, NULL, &layout, &err) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	if (layout.big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) || layout.ts_offset ||
	    layout.tsc_mult || sl_dat_tep_load(fd, &layout, &tep, NULL, NULL, &err) < 0) {
		close(fd);
		sl_dat_layout_free(&layout);
		return -1;
	}
	/* as record's formats carry them: parsed by libtraceevent (sl_dat_tep_load() did not) */
	if (layout.sections[SL_DAT_KALLSYMS].size) {
		uint8_t *ksyms;
		uint64_t len;

		assert_int_equal(sl_dat_section_read(fd, &layout, SL_DAT_KALLSYMS, &ksyms, &len, &err), 0);
		if (len > 4)
			tep_parse_kallsyms(tep, (char *)ksyms + 4);	/* after its 4-byte size */
		free(ksyms);
	}
	long_size = tep_get_header_page_size(tep);
	fp.page_size = layout.subbuf_size ? layout.subbuf_size : layout.page_size;
	fp.nr_cpus = layout.nr_cpus;
	fp.cpu = xcalloc((size_t)fp.nr_cpus, sizeof(*fp.cpu));
	ret = sl_dat_walk_pages(fd, &layout, tep, dat_pages_collect, &fp, &err);
	close(fd);
	sl_dat_layout_free(&layout);
	assert_int_equal(ret, 0);

	l = sl_live_new_tep(tep, fp.nr_cpus, (int)fp.page_size, long_size, st, &err);
	assert_non_null(l);
	lines = xcalloc((size_t)fp.nr_cpus, sizeof(*lines));
	for (size_t round = 0;; round++) {
		more = false;
		for (int cpu = 0; cpu < fp.nr_cpus; cpu++)
			for (size_t i = 3 * round; i < 3 * round + 3 && i < fp.cpu[cpu].nr; i++) {
				assert_null(sl_live_add_page(l, cpu, fp.cpu[cpu].v[i], NULL));
				more = true;
			}
		while ((ret = sl_live_next(l, more ? limit : UINT64_MAX, &ev, &err)) > 0) {
			add_line(lines, fp.nr_cpus, &ev, st);
			events++;
		}
		assert_int_equal(ret, 0);
		if (!more)
			break;
		limit = sl_live_newest(l);
	}
	sl_live_free(l);
	*nr_cpus = fp.nr_cpus;
	dat_pages_free(&fp);
	*out = lines;
	return events;
}

/* The flyrecord reader's events of path, per CPU. */
static struct cpu_lines *read_file(const char *path, struct sl_strtab *st, int nr_cpus)
{
	struct sl_error err = { "" };
	struct cpu_lines *lines = xcalloc((size_t)nr_cpus, sizeof(*lines));
	struct sl_reader *r;
	struct sl_event ev;
	int ret;

	assert_int_equal(sl_read_dat_flyrecord_open(path, NULL, st, &r, &err), 0);
	while ((ret = sl_reader_next(r, &ev)) > 0)
		add_line(lines, nr_cpus, &ev, st);
	assert_int_equal(ret, 0);
	sl_reader_close(r);
	return lines;
}

/*
 * Without --live, record splices the kernel's pages into the spool and
 * never looks at them: a corrupt one went into the trace.dat unchecked,
 * and the readers then refuse the whole recording; a torn last one (a
 * write cut short) puts every later page askew.  sl_dat_writer_check()
 * checks the spliced pages as the readers will and leaves such pages out.
 */
static void test_spliced_pages_checked(void **state)
{
	struct fixture *f = *state;
	struct sl_error err = { "" };
	struct sl_dat_writer *w;
	struct sl_dat_cut cut;
	struct sl_reader *r;
	struct sl_event ev;
	struct page good1, bad, good2, torn;
	char dir[] = "/tmp/schedlint-splice-XXXXXX", path[64], tags[64] = "";
	uint64_t size, commit = 2 * PAGE, file_size;
	int fd, ret;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.dat", dir);
	page_start(&good1, 1000);
	page_event(&good1, 1000, 1);
	page_event(&good1, 2000, 2);
	page_start(&bad, 3000);
	page_event(&bad, 3000, 98);
	memcpy(bad.data + 8, &commit, 8);		/* its commit past the page's end */
	page_start(&torn, 3500);
	page_event(&torn, 3500, 5);
	page_start(&good2, 4000);
	page_event(&good2, 4000, 3);
	page_event(&good2, 5000, 4);

	w = sl_dat_writer_open(path, &err);
	assert_non_null(w);
	sl_dat_writer_cpus(w, 1, PAGE);
	fd = sl_dat_writer_spool(w, 0, &size, &err);
	assert_true(fd >= 0);
	/*
	 * as a splice puts them there: the writer does not see them; a splice
	 * that moved only 100 bytes of a page (its event whole in them) is
	 * made a whole page, so that the pages after it stay pages
	 */
	assert_int_equal(write(fd, good1.data, PAGE), PAGE);
	assert_int_equal(write(fd, bad.data, PAGE), PAGE);
	assert_int_equal(sl_dat_writer_spooled(w, 0, 2 * PAGE, &err), 0);
	assert_int_equal(write(fd, torn.data, 100), 100);
	assert_int_equal(sl_dat_writer_spooled(w, 0, 100, &err), 0);
	assert_int_equal(write(fd, good2.data, PAGE), PAGE);
	assert_int_equal(sl_dat_writer_spooled(w, 0, PAGE, &err), 0);

	assert_int_equal(sl_dat_writer_check(w, 8, &cut), 0);
	assert_int_equal(cut.pages, 1);			/* the corrupt one */
	assert_int_equal(cut.cpu, 0);
	assert_int_equal(cut.page, 1);
	assert_string_equal(cut.what, "page commit size larger than the page");
	assert_int_equal(sl_dat_writer_data_size(w), 3 * PAGE);
	f->meta.nr_cpus = 1;
	assert_int_equal(sl_dat_writer_finish(w, &f->meta, &file_size, &err), 0);

	/* the file reads, with the two good pages' events */
	assert_int_equal(sl_read_dat_flyrecord_open(path, NULL, f->st, &r, &err), 0);
	while ((ret = sl_reader_next(r, &ev)) > 0) {
		char item[16];

		snprintf(item, sizeof(item), "%s%d", tags[0] ? " " : "", ev.idle_no_ipi.target_cpu);
		strcat(tags, item);
	}
	assert_int_equal(ret, 0);
	sl_reader_close(r);
	assert_string_equal(tags, "1 2 5 3 4");
	unlink(path);
	rmdir(dir);
}

static void test_replay_testdata(void **state)
{
	static const char *const dirs[] = { "testdata/real", "testdata/bench" };
	unsigned long files = 0, total = 0;

	(void)state;
	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *e;

		assert_non_null(dir);
		while ((e = readdir(dir))) {
			size_t n = strlen(e->d_name);
			struct cpu_lines *live, *file;
			struct sl_strtab *st;
			char path[4096];
			int nr_cpus;
			long events;

			if (n < 4 || strcmp(e->d_name + n - 4, ".dat"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[d], e->d_name);
			st = sl_strtab_new();
			events = replay_file(path, st, &live, &nr_cpus);
			if (events < 0) {
				sl_strtab_free(st);
				continue;
			}
			file = read_file(path, st, nr_cpus);
			for (int cpu = 0; cpu < nr_cpus; cpu++) {
				size_t i;

				for (i = 0; i < live[cpu].nr && i < file[cpu].nr; i++)
					if (strcmp(live[cpu].v[i], file[cpu].v[i]))
						fail_msg("%s CPU %d event %zu: live '%s', file '%s'", path,
							 cpu, i, live[cpu].v[i], file[cpu].v[i]);
				if (live[cpu].nr != file[cpu].nr)
					fail_msg("%s CPU %d: %zu events live, %zu in the file", path, cpu,
						 live[cpu].nr, file[cpu].nr);
			}
			free_lines(live, nr_cpus);
			free_lines(file, nr_cpus);
			sl_strtab_free(st);
			files++;
			total += (unsigned long)events;
		}
		closedir(dir);
	}
	print_message("replayed %lu files, %lu events\n", files, total);
	/* testdata/real and bench: 9 files, hackbench-g4.dat alone 179,308 records */
	assert_true(files >= 9);
	assert_true(total >= 179308);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_merge_by_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limit_holds_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lost_before_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_and_many_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_page_check, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_pages_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scan_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spliced_pages_checked, setup, teardown),
		cmocka_unit_test(test_replay_testdata),
	};
	return cmocka_run_group_tests_name("read_live", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * test_dat_page.c - our ring-buffer page walk (dat_page.h) against
 * libtraceevent's kbuffer, the reference it replaced
 *
 * Every page of every trace.dat under testdata/ and of the trace.dat
 * fuzz regressions and corpus (tests/fuzz/regress/dat/, corpus/dat/, the
 * .dat files of tests/fuzz), as the flyrecord reader reads them
 * (sl_dat_walk_pages(): the pages its check accepts), is walked by both,
 * and every record must agree: its timestamp, its size, where its bytes
 * are (so its bytes).  Then pages
 * made here, of both byte orders and both long sizes, with what real
 * traces seldom hold: time extends, absolute timestamps, padding, large
 * (type_len 0) records, lost-event counts.  Last, the check refuses the
 * pages neither walk may be given.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <kbuffer.h>

#include "read/dat_meta.h"
#include "read/dat_page.h"
#include "read/read_dat.h"

/*
 * Compare one page: our walk against a kbuffer loaded with a copy of it,
 * and the walk that checks as it goes (the flyrecord reader's) against it.
 */
static unsigned long compare_page(const struct sl_rb_format *f, struct kbuffer *kb,
				  const uint8_t *page, size_t len)
{
	uint8_t *copy = malloc(len);
	struct sl_rb_page pg, cpg;
	unsigned long n = 0;
	unsigned long long kts;
	uint64_t ts, cts;
	uint32_t size, csize;
	const uint8_t *ours, *checked;
	const char *bad = NULL;
	void *theirs;

	memcpy(copy, page, len);
	assert_int_equal(kbuffer_load_subbuffer(kb, copy), 0);
	sl_rb_page_load(&pg, f, page);
	sl_rb_page_load_checked(&cpg, f, page, len);
	assert_int_equal(pg.commit, kbuffer_subbuffer_size(kb));
	theirs = kbuffer_read_event(kb, &kts);
	for (;;) {
		ours = sl_rb_page_next(&pg, &ts, &size);
		checked = sl_rb_page_next_checked(&cpg, &cts, &csize, &bad);
		assert_null(bad);	/* the page passed sl_rb_page_check() */
		assert_ptr_equal(checked, ours);
		if (ours) {
			assert_int_equal(cts, ts);
			assert_int_equal(csize, size);
		}
		if (!ours || !theirs) {
			assert_true(!ours && !theirs);
			break;
		}
		/* the same record: the same place, time and size */
		assert_int_equal(ours - page, (uint8_t *)theirs - copy);
		assert_int_equal(ts, kts);
		assert_int_equal(size, kbuffer_event_size(kb));
		assert_memory_equal(ours, theirs, size);
		n++;
		theirs = kbuffer_next_event(kb, &kts);
	}
	free(copy);
	return n;
}

struct file_walk {
	struct sl_rb_format fmt;
	struct kbuffer *kb;
	unsigned long pages, records;
};

static int walk_cb(int cpu, const uint8_t *page, size_t len, void *arg)
{
	struct file_walk *w = arg;

	w->records += compare_page(&w->fmt, w->kb, page, len);
	w->pages++;
	return 0;
}

/* The records of one file's pages compared; -1 when the file does not open. */
static long compare_file(const char *path, unsigned long *pages)
{
	struct sl_error err = { "" };
	struct sl_dat_layout layout;
	struct sl_dat_names names;
	struct tep_handle *tep = NULL;
	struct file_walk w = { 0 };
	int fd, ret, long_size;

	if (sl_dat_layout_read_buffer(path, NULL, &layout, &err) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	memset(&names, 0, sizeof(names));
	if (sl_dat_tep_load(fd, &layout, &tep, NULL, &names, &err) < 0) {
		close(fd);
		sl_dat_names_free(&names);
		sl_dat_layout_free(&layout);
		return -1;
	}
	long_size = tep_get_header_page_size(tep);
	if (long_size == 4 || long_size == 8) {
		sl_rb_format_init(&w.fmt, long_size, layout.big_endian);
		w.kb = kbuffer_alloc(long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				     layout.big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
		assert_non_null(w.kb);
		/* a page the check refuses ends the walk: what was read until then counts */
		ret = sl_dat_walk_pages(fd, &layout, tep, walk_cb, &w, &err);
		(void)ret;
		kbuffer_free(w.kb);
	}
	tep_free(tep);
	close(fd);
	sl_dat_names_free(&names);
	sl_dat_layout_free(&layout);
	*pages = w.pages;
	return (long)w.records;
}

static void compare_dir(const char *dir, unsigned long *files, unsigned long *pages,
			unsigned long *records)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char path[4096];
		unsigned long p = 0;
		long r;

		if (n < 4 || strcmp(e->d_name + n - 4, ".dat"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		r = compare_file(path, &p);
		if (r < 0)
			continue;
		print_message("# %s: %lu pages, %ld records alike\n", path, p, r);
		(*files)++;
		*pages += p;
		*records += (unsigned long)r;
	}
	closedir(d);
}

static void test_testdata_files(void **state)
{
	static const char *const dirs[] = {
		"testdata/real", "testdata/bench", "testdata/dat", "testdata/perf", "testdata/bad",
		"testdata/scenarios", "tests/fuzz/regress/dat", "tests/fuzz/corpus/dat", "tests/fuzz",
	};
	unsigned long files = 0, pages = 0, records = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		compare_dir(dirs[i], &files, &pages, &records);
	print_message("# %lu files, %lu pages, %lu records alike\n", files, pages, records);
	/* testdata/real and bench alone: 9 files, hackbench-g4.dat 179,308 records */
	assert_true(files >= 10);
	assert_true(records >= 179308);
}

/* --- pages made here --- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

struct page_maker {
	const struct sl_rb_format *f;
	uint8_t *page;
	size_t size, pos;	/* pos: of the next record, from the data start */
};

static void put4(const struct page_maker *m, uint8_t *p, uint32_t v)
{
	v = m->f->swap ? __builtin_bswap32(v) : v;
	memcpy(p, &v, 4);
}

static void put8(const struct page_maker *m, uint8_t *p, uint64_t v)
{
	v = m->f->swap ? __builtin_bswap64(v) : v;
	memcpy(p, &v, 8);
}

static void put_long(const struct page_maker *m, uint8_t *p, uint64_t v)
{
	if (m->f->long_size == 8)
		put8(m, p, v);
	else
		put4(m, p, (uint32_t)v);
}

static void put_word(const struct page_maker *m, uint8_t *p, uint32_t type_len, uint32_t delta)
{
	put4(m, p, m->f->big_endian ? type_len << 27 | delta : delta << 5 | type_len);
}

/* Room for len more bytes of records, and the lost count after them. */
static bool fits(const struct page_maker *m, size_t len)
{
	return m->f->hdr_size + m->pos + len + 8 <= m->size;
}

/* One random record at m->pos; false when the page is full. */
static bool add_record(struct page_maker *m)
{
	uint8_t *p = m->page + m->f->hdr_size + m->pos;
	uint32_t delta = rnd(8) ? rnd(1000) : rnd(1u << 27);
	uint32_t kind = rnd(20), len;

	if (kind == 0) {		/* time extend */
		if (!fits(m, 8))
			return false;
		put_word(m, p, RB_TYPE_TIME_EXTEND, delta);
		put4(m, p + 4, rnd(1u << 20));
		m->pos += 8;
	} else if (kind == 1) {		/* absolute timestamp */
		if (!fits(m, 8))
			return false;
		put_word(m, p, RB_TYPE_TIME_STAMP, delta);
		put4(m, p + 4, rnd(0xffffffffu));
		m->pos += 8;
	} else if (kind == 2) {		/* padding: a discarded event */
		len = 4 * (1 + rnd(8));
		if (!fits(m, 4 + len))
			return false;
		put_word(m, p, RB_TYPE_PADDING, delta);
		put4(m, p + 4, len);
		m->pos += 4 + len;
	} else if (kind == 3) {		/* type_len 0: the length in array[0] */
		len = 4 + 1 + rnd(200);	/* itself included; not always a multiple of 4 */
		if (!fits(m, 4 + ((len + 3) & ~3u)))
			return false;
		put_word(m, p, 0, delta);
		put4(m, p + 4, len);
		for (uint32_t i = 4; i < len; i++)
			p[4 + i] = (uint8_t)rnd(256);
		m->pos += 4 + ((len + 3) & ~3u);
	} else {			/* type_len 1-28 */
		uint32_t tl = 1 + rnd(RB_TYPE_DATA_MAX);

		if (!fits(m, 4 + 4 * tl))
			return false;
		put_word(m, p, tl, delta);
		for (uint32_t i = 0; i < 4 * tl; i++)
			p[4 + i] = (uint8_t)rnd(256);
		m->pos += 4 + 4 * tl;
	}
	return true;
}

static void make_page(struct page_maker *m)
{
	uint64_t commit;

	memset(m->page, 0, m->size);
	m->pos = 0;
	put8(m, m->page, ((uint64_t)rnd(0xffffffffu) << 24) | (rnd(4) ? 0 : 0xf8ULL << 56));
	while (rnd(64) && add_record(m))
		;
	commit = m->pos;
	switch (rnd(4)) {
	case 0:
		commit |= RB_MISSED_EVENTS;
		break;
	case 1:
		commit |= RB_MISSED_EVENTS | RB_MISSED_STORED;
		put_long(m, m->page + m->f->hdr_size + m->pos, 1 + rnd(1000));
		break;
	}
	put_long(m, m->page + 8, commit);
}

static void test_made_pages(void **state)
{
	unsigned long records = 0;
	uint8_t page[4096];

	(void)state;
	for (int big = 0; big < 2; big++) {
		for (int long_size = 4; long_size <= 8; long_size += 4) {
			struct sl_rb_format f;
			struct kbuffer *kb;
			struct page_maker m = { &f, page, sizeof(page), 0 };

			sl_rb_format_init(&f, long_size, big);
			kb = kbuffer_alloc(long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   big ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
			assert_non_null(kb);
			for (int i = 0; i < 2000; i++) {
				int64_t lost;

				make_page(&m);
				assert_null(sl_rb_page_check(&f, page, sizeof(page), &lost));
				records += compare_page(&f, kb, page, sizeof(page));
			}
			kbuffer_free(kb);
		}
	}
	print_message("# made pages: %lu records alike\n", records);
	assert_true(records > 100000);
}

/*
 * What the check says of a page (NULL: fine), and what the walk that
 * checks as it goes says at its end: the same.
 */
static const char *check_words(const struct sl_rb_format *f, const uint32_t *words, int n,
			       uint32_t commit, size_t room)
{
	uint8_t page[256] = { 0 };
	struct page_maker m = { f, page, sizeof(page), 0 };
	struct sl_rb_page pg;
	const char *said, *walked = NULL;
	int64_t lost;
	uint64_t ts;
	uint32_t size;

	put_long(&m, page + 8, commit);
	for (int i = 0; i < n; i++)
		put4(&m, page + f->hdr_size + 4 * i, words[i]);
	said = sl_rb_page_check(f, page, room, &lost);
	walked = sl_rb_page_check_header(f, page, room, &lost);
	if (!walked) {
		sl_rb_page_load_checked(&pg, f, page, room);
		while (sl_rb_page_next_checked(&pg, &ts, &size, &walked))
			;
	}
	if (said)
		assert_string_equal(walked, said);
	else
		assert_null(walked);
	return said;
}

static void test_check_refuses(void **state)
{
	struct sl_rb_format f;

	(void)state;
	sl_rb_format_init(&f, 8, false);
	/* padding of length -4: the walk would go back to where it was, for ever */
	assert_non_null(check_words(&f, (uint32_t[]){ RB_TYPE_PADDING, (uint32_t)-4 }, 2, 16, 256));
	/* a record past the commit */
	assert_non_null(check_words(&f, (uint32_t[]){ 3 }, 1, 8, 256));
	/* the commit past the page */
	assert_non_null(check_words(&f, (uint32_t[]){ 1, 0 }, 2, 300, 256));
	/* a type_len 0 record shorter than its length word */
	assert_non_null(check_words(&f, (uint32_t[]){ 0, 2 }, 2, 16, 256));
	/* a time extend cut by the commit */
	assert_non_null(check_words(&f, (uint32_t[]){ RB_TYPE_TIME_EXTEND, 1 }, 2, 4, 256));
	/* and the same page whole is fine */
	assert_null(check_words(&f, (uint32_t[]){ RB_TYPE_TIME_EXTEND, 1, 1, 7 }, 4, 16, 256));
}

/* A record's word of type_len tl (and no time delta), in f's bit order. */
static uint32_t rec(const struct sl_rb_format *f, uint32_t tl)
{
	return f->big_endian ? tl << 27 : tl;
}

/*
 * The check's data records go round a loop of their own (dat_page.c):
 * where it stops, a record past the commit or a header cut by it, the
 * check says what it says at any other record, in every format.
 */
static void test_check_data_loop_edges(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++) {
		struct sl_rb_format f;
		size_t hdr;

		sl_rb_format_init(&f, i & 1 ? 8 : 4, i & 2);
		hdr = (size_t)f.hdr_size;
		/* two 8-byte records, the commit right after them */
		assert_null(check_words(&f, (uint32_t[]){ rec(&f, 1), 0, rec(&f, 1), 0 }, 4, 16, 256));
		/* the second, 16 bytes, ends past the commit */
		assert_string_equal(check_words(&f, (uint32_t[]){ rec(&f, 1), 0, rec(&f, 3) }, 3,
						12, 256),
				    "event runs past the page's commit");
		/* a header cut by the commit, inside the page: the record runs past it */
		assert_string_equal(check_words(&f, (uint32_t[]){ rec(&f, 1), 0, rec(&f, 1) }, 3,
						10, 256),
				    "event runs past the page's commit");
		/* ... and at the end of the page: the header is past it */
		assert_string_equal(check_words(&f, (uint32_t[]){ rec(&f, 1), 0, rec(&f, 1) }, 3,
						10, hdr + 10),
				    "event header past the end of the page");
		/* a time extend after a data record, whole, then cut by the commit */
		assert_null(check_words(&f, (uint32_t[]){ rec(&f, 1), 0, rec(&f, RB_TYPE_TIME_EXTEND),
							  1, rec(&f, 1), 0 }, 6, 24, 256));
		assert_string_equal(check_words(&f, (uint32_t[]){ rec(&f, 1), 0,
								  rec(&f, RB_TYPE_TIME_EXTEND), 1 },
						4, 12, 256),
				    "time extend past the page's commit");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_made_pages),
		cmocka_unit_test(test_check_refuses),
		cmocka_unit_test(test_check_data_loop_edges),
		cmocka_unit_test(test_testdata_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

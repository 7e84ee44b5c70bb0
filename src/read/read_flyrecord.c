// SPDX-License-Identifier: GPL-2.0
/*
 * read_flyrecord.c - our own streaming reader of trace.dat CPU data
 *
 * libtracecmd 3.1.6 (Debian 12) is slow where schedlint spends its time:
 * on compressed v7 files free_zpage() walks every cached chunk for each
 * page and never frees one (quadratic time, memory growing with the
 * file), and on every file it maps the CPU data and allocates a record
 * per event; Debian's build cannot read zlib-compressed files at all.
 * Measured (README, "Performance"): a 2-CPU v7 zstd trace of 1 M and 4 M
 * events takes bare libtracecmd iteration 0.23 s and 2.27 s of CPU (4x
 * the events, 9.9x the time), this reader 0.12 s and 0.44 s; on a 5 M
 * event hackbench trace libtracecmd needs 4.95 s and 253 MiB, this reader
 * 0.80 s and 26 MiB.
 * This reader keeps libtraceevent for what it does right - parsing the
 * event formats, kallsyms, printk formats and cmdlines (dat_meta.c hands
 * it the sections, as libtracecmd would) - and reads the file itself:
 *
 *  - the layout comes from dat_layout.c, which checked every offset;
 *  - uncompressed CPU data is read in place from the file mapped whole
 *    (the copy out of the page cache was a quarter of the reader's CPU
 *    time on a 150 MB v6 trace: 83 ms against 74 with the map), each
 *    CPU's pages given back as the walk leaves them (MAP_TRIM_MAX bytes
 *    at a time, MAP_BUDGET split between the CPUs), so memory does not
 *    grow with the trace; a file that shrinks under the map is an
 *    error, not SIGBUS (map_guard.h).  Without a map (one cannot be made
 *    or guarded): a window of pread() of up to 16 pages (64 KiB stays
 *    in the L2 cache, which made the copy half as costly as with
 *    256 KiB);
 *  - compressed CPU data: one decompressed chunk of about ten pages a
 *    CPU (zstd or zlib, straight through the libraries);
 *  - the decompressed chunks held by all CPUs together stay within
 *    CHUNK_BUDGET whatever the chunks' sizes claim (a chunk may say
 *    16 MiB and be a few KiB of zeros on disk, on each of 8192 CPUs): a
 *    CPU reads its page out of its chunk, so its chunk can be given back
 *    when another one needs the room, and is decompressed again when the
 *    CPU needs its next page.  Past 16 times the work of reading each
 *    chunk once, the file is refused rather than read for hours;
 *  - a CPU's chunk count is checked against its data: chunks must end
 *    where the data ends (a count too small would drop events silently);
 *  - a compressed CPU's pages are read where they were decompressed,
 *    in its chunk, unless a page spans two chunks (then it is copied):
 *    a chunk given back copies out the page its CPU is in first;
 *  - pages are checked (kbuffer and our plain walk both trust the commit
 *    size and every event length, and a padding event of length -4 sends
 *    them round in a loop for ever): the header when the page is loaded,
 *    each record as it is walked (sl_rb_page_next_checked(), the tests of
 *    sl_rb_page_check() in one pass instead of two: a corrupt page is
 *    refused with the same words, after its good records; analyze's
 *    report is written at the end, so nothing of it shows), by
 *    dat_page.h, not by libtraceevent's kbuffer: kbuffer spent about
 *    230 instructions an event behind its function pointers, a tenth of
 *    analyze's (dat_page.h says more; test_dat_page.c holds the walk to
 *    kbuffer's results, record by record);
 *  - the CPU streams are merged with a heap (cpu_heap.h), so the cost per
 *    event grows with log(CPUs), not with CPUs;
 *  - seeking (explore) binary-searches each CPU's pages by the time of
 *    their first event (not the header's, which may be corrupt or an
 *    empty page's).
 *
 * A corrupt page (commit past the page, an event running past the
 * commit, a length that goes backwards) is an error naming the CPU and
 * the page's file offset, not a skipped page: the SPEC wants corrupt
 * input refused with one clear message, and a silently shortened trace
 * would give wrong latencies without saying so.
 *
 * Lost events: a page whose commit word has RB_MISSED_EVENTS set lost
 * events before its first event.  We report them before the first data
 * event of the page even when a time extend comes first; libtracecmd
 * (kbuffer_missed_events()) reports them only when the data event is
 * the first thing on the page.  Pages the kernel writes after a loss
 * start with a data event, so both readers agree on real traces.
 *
 * Not applied: the guest-host clock sync of a TIME_SHIFT option (a
 * guest's trace of a host-guest session); DATE, OFFSET and TSC2NSEC are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu_heap.h"
#include "dat_decode.h"
#include "dat_page.h"
#include "dat_meta.h"
#include "dat_shared.h"
#include "kallsyms.h"
#include "map_guard.h"
#include "read_dat.h"
#include "util/util.h"

/* Window of pages read at once, per CPU: the total is split between CPUs. */
#define WINDOW_BUDGET		(8u << 20)
#define WINDOW_MAX_PAGES	16
/*
 * A mapped file: each CPU gives back the pages its walk left every
 * MAP_TRIM_MAX bytes, or MAP_BUDGET / CPUs (a page at least), so that
 * they hold at most about MAP_BUDGET mapped together.
 */
#define MAP_BUDGET		(8u << 20)
#define MAP_TRIM_MAX		(1u << 20)
/*
 * A decompressed chunk larger than this is corrupt (trace-cmd writes 10
 * pages), and so is a compressed one larger than such a chunk can get.
 */
#define MAX_CHUNK_BYTES		(16u << 20)
#define MAX_ZCHUNK_BYTES	(MAX_CHUNK_BYTES + MAX_CHUNK_BYTES / 8 + 4096)
/* Decompressed chunks held by all the CPUs at once (one chunk may exceed it). */
#define CHUNK_BUDGET		(32u << 20)
/* Work of decompressing chunks again after they were given back, at most. */
#define REDO_FACTOR		16
#define REDO_SLACK		(256ull << 20)

/* A compressed chunk that starts at a page boundary: where seeks may land. */
struct chunk_ref {
	uint64_t off;			/* of its 8-byte header in the file */
	uint64_t data_pos;		/* of its first byte in the decompressed data */
	uint32_t index;			/* among the CPU's chunks */
};

/* One CPU's data, read as a stream of pages. */
struct cpu_stream {
	int cpu;			/* the CPU's id */
	uint64_t base_off;		/* file offset of the CPU's data */
	uint64_t next_off;		/* file offset of what is not read yet */
	uint64_t end_off;		/* end of the CPU's data in the file */
	uint32_t chunks_left;		/* compressed: chunks not yet decompressed */
	uint32_t nr_chunks;		/* compressed: chunks of the CPU (its count) */
	struct chunk_ref *chunk_index;	/* compressed: made by the first seek */
	uint32_t nr_indexed;
	size_t index_alloc;

	/* compressed: the current chunk, and a copy of a page that is not in it */
	uint8_t *chunk;			/* its decompressed bytes; NULL when given back */
	size_t chunk_alloc;		/* bytes of chunk, counted in fr->chunk_held */
	uint32_t chunk_len;		/* its decompressed size; 0 = no current chunk */
	uint32_t chunk_pos;		/* bytes of it read */
	uint64_t chunk_off;		/* file offset of its 8-byte header */
	uint8_t *page;			/* a copy of the page being read: header to commit */
	size_t page_alloc;
	size_t page_len;		/* bytes of the page walked: header to lost count */
	bool page_in_chunk;		/* pg walks a page in chunk, not in page */

	/* uncompressed: a window of pages */
	uint8_t *buf;			/* window: pages */
	size_t buf_alloc;
	size_t buf_len;			/* valid bytes in buf */
	size_t buf_pos;			/* offset in buf of the next page to load */
	uint64_t page_pos;		/* offset of the loaded page in the (decompressed) data */
	uint64_t data_pos;		/* uncompressed: of buf[0] in the data; compressed:
					 * of the next byte in the decompressed data */
	struct sl_rb_page pg;		/* the page being walked */
	const uint8_t *page_start;	/* its header: in buf, chunk or page */
	bool in_page;			/* pg holds a page */
	int64_t lost;			/* lost before the next event: > 0 count, -1 unknown */
	uint64_t trim_off;		/* mapped: the pages before it were given back */

	/* the current event, waiting in the heap */
	const uint8_t *data;
	uint32_t size;
	uint64_t ts;
	int64_t missed;			/* events lost right before it (as lost) */
};

struct fly_reader {
	struct sl_reader r;		/* first: the generic part */
	struct tep_handle *tep;		/* the file's formats */
	struct sl_dat_names names;	/* and the events known by name only */
	bool own_tep;
	struct sl_kallsyms *ksyms;	/* the resolver fr->tep uses (kallsyms.c) */
	struct sl_dat_cmdlines cmdlines;	/* the saved cmdlines, parsed on demand (saved_comm) */
	struct sl_dat_decoder *decoder;
	struct sl_dat_layout layout;
	int fd;
	/* uncompressed data: the file mapped whole (NULL: read by pread() into windows) */
	uint8_t *map;
	size_t map_len;
	struct sl_map_guard *guard;	/* the map's (map_guard.h) */
	size_t trim_step;		/* a stream gives back its pages this often */
	struct sl_dat_decompressor *dec;
	uint8_t *zbuf;			/* one compressed chunk */
	size_t zbuf_alloc;
	uint8_t *probe;			/* a chunk decompressed by a seek */
	size_t probe_alloc;
	size_t chunk_held;		/* bytes of the streams' chunks (CHUNK_BUDGET) */
	int evict_hand;			/* the stream to give back its chunk next */
	uint64_t chunk_bytes_first;	/* decompressed the first time */
	uint64_t chunk_bytes_again;	/* decompressed again after being given back */
	struct cpu_stream *streams;
	int nr_streams;
	struct cpu_heap heap;		/* of stream indexes */
	size_t window;			/* bytes per uncompressed refill */
	uint32_t page_size;		/* ring-buffer page (sub-buffer) size */
	struct sl_rb_format fmt;	/* long size, byte order, page header size */
	struct sl_event pending;	/* an event held back behind a lost-events marker */
	bool have_pending;
	int error;			/* a stream failed: its -errno, message in r.err */
};

/* A corrupt page: say where it is (file offset, or page of the decompressed data). */
static int page_error(struct fly_reader *fr, const struct cpu_stream *s, const char *what)
{
	if (fr->layout.cpu_compressed)
		sl_error_set(fr->r.err, "corrupt trace.dat: CPU %d: %s (page %llu of its "
			     "decompressed data)", s->cpu, what,
			     (unsigned long long)(s->page_pos / fr->page_size));
	else
		sl_error_set(fr->r.err, "corrupt trace.dat: CPU %d: %s (page at byte %llu)",
			     s->cpu, what, (unsigned long long)(s->base_off + s->page_pos));
	fr->error = -EINVAL;
	return -EINVAL;
}

static int chunk_error(struct fly_reader *fr, const struct cpu_stream *s, const char *what)
{
	sl_error_set(fr->r.err, "corrupt trace.dat: CPU %d: %s (chunk at byte %llu)",
		     s->cpu, what, (unsigned long long)s->next_off);
	fr->error = -EINVAL;
	return -EINVAL;
}

static int read_error(struct fly_reader *fr, const struct cpu_stream *s)
{
	sl_error_set(fr->r.err, "cannot read CPU %d data: %s", s->cpu,
		     errno ? strerror(errno) : "the file is shorter than its layout");
	fr->error = -EIO;
	return -EIO;
}

/* pread() all of it; false with errno set, or 0 when the file ended first */
static bool read_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = 0;	/* the file shrank after the layout walk */
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return true;
}

/* Keep the unread tail of the window and make room for more behind it. */
static size_t window_keep_tail(struct cpu_stream *s, size_t need)
{
	size_t tail = s->buf_len - s->buf_pos;

	if (tail)
		memmove(s->buf, s->buf + s->buf_pos, tail);
	s->data_pos += s->buf_pos;
	s->buf_pos = 0;
	s->buf_len = tail;
	if (tail + need > s->buf_alloc) {
		s->buf_alloc = tail + need;
		s->buf = xrealloc(s->buf, s->buf_alloc);
	}
	return tail;
}

/* Uncompressed: read the next window of pages. 1 = more data, 0 = end. */
static int refill_pages(struct fly_reader *fr, struct cpu_stream *s)
{
	uint64_t left = s->end_off - s->next_off;
	size_t n = (size_t)MIN(left, (uint64_t)fr->window);
	size_t tail;

	if (!n)
		return 0;
	tail = window_keep_tail(s, n);
	if (!read_all(fr->fd, s->buf + tail, n, s->next_off))
		return read_error(fr, s);
	s->next_off += n;
	s->buf_len = tail + n;
	/* start reading the next window while this one is parsed */
	if (s->next_off < s->end_off)
		posix_fadvise(fr->fd, (off_t)s->next_off,
			      (off_t)MIN(s->end_off - s->next_off, (uint64_t)fr->window),
			      POSIX_FADV_WILLNEED);
	return 1;
}

/* --- compressed CPU data: chunks within the budget --- */

static void chunk_release(struct fly_reader *fr, struct cpu_stream *s)
{
	fr->chunk_held -= s->chunk_alloc;
	free(s->chunk);
	s->chunk = NULL;
	s->chunk_alloc = 0;
}

/*
 * Another stream takes t's chunk: when t walks a page in it (its event
 * waiting in the heap points there), copy the page out first.
 */
static void chunk_leave(struct fly_reader *fr, struct cpu_stream *t)
{
	size_t event_off;

	if (!t->in_page || !t->page_in_chunk)
		return;
	event_off = (size_t)(t->data - t->page_start);
	GROW(t->page, t->page_alloc, t->page_len);
	memcpy(t->page, t->page_start, t->page_len);
	t->page_start = t->page;
	t->pg.data = t->page + fr->fmt.hdr_size;
	t->data = t->page + event_off;
	t->page_in_chunk = false;
}

/*
 * Room for len decompressed bytes in s->chunk, within the budget: other
 * streams give their chunks back, round robin, and s takes over the
 * first one big enough (no malloc churn when chunks are alike).
 */
static void chunk_reserve(struct fly_reader *fr, struct cpu_stream *s, size_t len)
{
	if (s->chunk && s->chunk_alloc >= len)
		return;
	chunk_release(fr, s);
	for (int i = 0; i < fr->nr_streams && fr->chunk_held + len > CHUNK_BUDGET; i++) {
		struct cpu_stream *t = &fr->streams[fr->evict_hand];

		fr->evict_hand = (fr->evict_hand + 1) % fr->nr_streams;
		if (t == s || !t->chunk)
			continue;
		chunk_leave(fr, t);
		if (!s->chunk && t->chunk_alloc >= len) {
			s->chunk = t->chunk;
			s->chunk_alloc = t->chunk_alloc;
			t->chunk = NULL;
			t->chunk_alloc = 0;
			return;
		}
		chunk_release(fr, t);
	}
	s->chunk = xmalloc(len);
	s->chunk_alloc = len;
	fr->chunk_held += len;
}

static int chunk_count_error(struct fly_reader *fr, const struct cpu_stream *s)
{
	uint32_t seen = s->nr_chunks - s->chunks_left;

	if (s->chunks_left)
		sl_error_set(fr->r.err, "corrupt trace.dat: CPU %d: its data ends after %u of the "
			     "%u chunks its count says", s->cpu, seen, s->nr_chunks);
	else
		sl_error_set(fr->r.err, "corrupt trace.dat: CPU %d: its data goes on after the %u "
			     "chunk%s its count says (at byte %llu of %llu)", s->cpu, s->nr_chunks,
			     s->nr_chunks == 1 ? "" : "s", (unsigned long long)s->next_off,
			     (unsigned long long)s->end_off);
	fr->error = -EINVAL;
	return -EINVAL;
}

/*
 * Decompress the chunk whose header is at off into s->chunk; its sizes
 * in *csize and *usize.  The error names the chunk at s->next_off.
 */
static int chunk_decompress(struct fly_reader *fr, struct cpu_stream *s, uint64_t off,
			    uint32_t *csize, uint32_t *usize)
{
	uint8_t head[8];
	long n;

	if (s->end_off - off < 8)
		return chunk_error(fr, s, "a compressed chunk runs past the CPU's data");
	if (!read_all(fr->fd, head, 8, off))
		return read_error(fr, s);
	*csize = sl_rb_read4(fr->fmt.swap, head);
	*usize = sl_rb_read4(fr->fmt.swap, head + 4);
	if (*csize > s->end_off - off - 8)
		return chunk_error(fr, s, "a compressed chunk runs past the CPU's data");
	if (*usize > MAX_CHUNK_BYTES || !*usize || *csize > MAX_ZCHUNK_BYTES)
		return chunk_error(fr, s, "a compressed chunk of implausible size");
	if (*csize > fr->zbuf_alloc) {
		fr->zbuf_alloc = *csize;
		fr->zbuf = xrealloc(fr->zbuf, fr->zbuf_alloc);
	}
	if (!read_all(fr->fd, fr->zbuf, *csize, off + 8))
		return read_error(fr, s);
	chunk_reserve(fr, s, *usize);
	n = sl_dat_decompress(fr->dec, fr->zbuf, *csize, s->chunk, *usize);
	if (n != (long)*usize)
		return chunk_error(fr, s, "a compressed chunk does not decompress");
	return 0;
}

/* Make the CPU's next chunk the current one. 1 = done, 0 = end of the data. */
static int chunk_next(struct fly_reader *fr, struct cpu_stream *s)
{
	uint32_t csize, usize;
	int ret;

	if (!s->chunks_left || s->next_off >= s->end_off) {
		/* the count and the data must end together */
		if (s->chunks_left || s->next_off < s->end_off)
			return chunk_count_error(fr, s);
		return 0;
	}
	ret = chunk_decompress(fr, s, s->next_off, &csize, &usize);
	if (ret)
		return ret;
	s->chunk_off = s->next_off;
	s->chunk_len = usize;
	s->chunk_pos = 0;
	s->next_off += 8 + (uint64_t)csize;
	s->chunks_left--;
	fr->chunk_bytes_first += usize;
	return 1;
}

/* The current chunk was given back: decompress it again. */
static int chunk_again(struct fly_reader *fr, struct cpu_stream *s)
{
	uint64_t next_off = s->next_off;
	uint32_t csize, usize;
	int ret;

	fr->chunk_bytes_again += s->chunk_len;
	if (fr->chunk_bytes_again > REDO_FACTOR * fr->chunk_bytes_first + REDO_SLACK) {
		sl_error_set(fr->r.err, "trace.dat: the compressed chunks (up to %u KiB each) of "
			     "%d CPUs do not fit the reader's %u MiB budget for them: corrupt, or "
			     "written with other chunk sizes than trace-cmd's (trace-cmd convert "
			     "rewrites it)", s->chunk_len >> 10, fr->nr_streams, CHUNK_BUDGET >> 20);
		fr->error = -E2BIG;
		return -E2BIG;
	}
	s->next_off = s->chunk_off;	/* for the error messages */
	ret = chunk_decompress(fr, s, s->chunk_off, &csize, &usize);
	s->next_off = next_off;
	if (!ret && usize != s->chunk_len)
		return chunk_error(fr, s, "a compressed chunk changed while it was read");
	return ret;
}

/*
 * Up to len bytes of the CPU's decompressed data into dst (NULL: skip
 * them); *got says how many there were.  0, or < 0 on an error.
 */
static int chunk_read(struct fly_reader *fr, struct cpu_stream *s, uint8_t *dst, size_t len,
		      size_t *got)
{
	*got = 0;
	while (*got < len) {
		size_t n;
		int ret;

		if (s->chunk_pos >= s->chunk_len) {
			ret = chunk_next(fr, s);
			if (ret <= 0)
				return ret;
		}
		n = MIN((size_t)(s->chunk_len - s->chunk_pos), len - *got);
		if (dst) {
			if (!s->chunk && (ret = chunk_again(fr, s)) < 0)
				return ret;
			memcpy(dst + *got, s->chunk + s->chunk_pos, n);
		}
		s->chunk_pos += (uint32_t)n;
		s->data_pos += n;
		*got += n;
	}
	return 0;
}

/*
 * Compressed: the CPU's next page, up to what the walk reads (the
 * header, the commit, the lost-event count), in *page: in its chunk when
 * the whole page is there (trace-cmd's chunks hold whole pages), else
 * copied out of the chunks into s->page.  *room = its bytes, 0 at the
 * end of the data.
 */
static int chunk_page(struct fly_reader *fr, struct cpu_stream *s, const uint8_t **page,
		      size_t *room)
{
	size_t hdr = (size_t)fr->fmt.hdr_size, body, got;
	uint64_t commit;
	int ret;

	*room = 0;
	if (s->chunk_pos >= s->chunk_len && (ret = chunk_next(fr, s)) <= 0)
		return ret;
	s->page_pos = s->data_pos;
	if (s->chunk_len - s->chunk_pos >= fr->page_size) {
		if (!s->chunk && (ret = chunk_again(fr, s)) < 0)
			return ret;
		*page = s->chunk + s->chunk_pos;
		commit = sl_rb_read_long(&fr->fmt, *page + 8) & RB_COMMIT_MASK;
		body = (size_t)MIN(commit + (uint64_t)fr->fmt.long_size,
				   (uint64_t)(fr->page_size - hdr));
		*room = hdr + body;
		s->chunk_pos += fr->page_size;
		s->data_pos += fr->page_size;
		s->page_in_chunk = true;
		return 0;
	}
	s->page_in_chunk = false;
	*page = s->page;
	GROW(s->page, s->page_alloc, hdr);
	ret = chunk_read(fr, s, s->page, hdr, room);
	if (ret < 0 || *room < hdr)
		return ret;	/* the end, or a short page sl_rb_page_check() refuses */
	commit = sl_rb_read_long(&fr->fmt, s->page + 8) & RB_COMMIT_MASK;
	body = (size_t)MIN(commit + (uint64_t)fr->fmt.long_size, (uint64_t)(fr->page_size - hdr));
	GROW(s->page, s->page_alloc, hdr + body);
	*page = s->page;
	ret = chunk_read(fr, s, s->page + hdr, body, &got);
	*room += got;
	if (ret < 0 || got < body)
		return ret;
	return chunk_read(fr, s, NULL, fr->page_size - hdr - body, &got);
}

/*
 * A mapped file: give back the pages of s before the one it loads next
 * (those of its data only: the system page its data starts in may hold
 * another CPU's last page), and put the guard's handler back (explore
 * may have put its own).
 */
static void map_trim(struct fly_reader *fr, struct cpu_stream *s)
{
	uint64_t page = (uint64_t)sl_map_page_size();
	uint64_t from = (MAX(s->trim_off, s->base_off) + page - 1) & ~(page - 1);
	uint64_t upto = s->next_off & ~(page - 1);

	if (from < upto)
		madvise(fr->map + from, (size_t)(upto - from), MADV_DONTNEED);
	s->trim_off = s->next_off;
	sl_map_guard_arm();
}

/*
 * The mapped file shrank while it was read (the guard's mark; or an
 * error while it is shorter than it was): what was read since are
 * zeros, so that is the error, whatever the page walk or the decoder
 * made of them.  -EIO.
 */
static __attribute__((noinline, cold)) int shrank(struct fly_reader *fr)
{
	struct stat st;

	sl_error_set(fr->r.err, "the file shrank while it was read (%llu bytes when opened, "
		     "%lld now)", (unsigned long long)fr->map_len,
		     fstat(fr->fd, &st) ? -1ll : (long long)st.st_size);
	fr->error = -EIO;
	return -EIO;
}

/* An error of a mapped file's walk: the file shrinking, when it did (shrank()). */
static __attribute__((noinline, cold)) int mapped_error(struct fly_reader *fr, int ret)
{
	struct stat st;

	if (fr->map && (fr->guard->shrank ||
			(!fstat(fr->fd, &st) && (uint64_t)st.st_size < fr->map_len)))
		return shrank(fr);
	return ret;
}

/*
 * Load the CPU's next page to walk. 1 = loaded, 0 = end, < 0 error.
 * whole: check every record now (sl_rb_page_check()), for a walk that
 * does not; else only the header, for sl_rb_page_next_checked().
 */
static int load_page(struct fly_reader *fr, struct cpu_stream *s, bool whole)
{
	const uint8_t *page = NULL;
	const char *bad;
	int64_t lost;
	size_t room;

	if (fr->layout.cpu_compressed) {
		int ret = chunk_page(fr, s, &page, &room);

		if (ret < 0)
			return ret;
		if (!room)
			return 0;
	} else if (fr->map) {
		if (s->next_off >= s->end_off)
			return 0;
		if (s->next_off >= s->trim_off + fr->trim_step)
			map_trim(fr, s);
		/* the last page may be short: page_check() keeps within what is there */
		room = (size_t)MIN(s->end_off - s->next_off, (uint64_t)fr->page_size);
		s->page_pos = s->next_off - s->base_off;
		page = fr->map + s->next_off;
		s->next_off += room;
	} else {
		while (s->buf_len - s->buf_pos < fr->page_size) {
			int ret = refill_pages(fr, s);

			if (ret < 0)
				return ret;
			if (!ret)
				break;
		}
		if (s->buf_pos >= s->buf_len)
			return 0;
		/* the last page may be short: page_check() keeps within what is there */
		room = MIN(s->buf_len - s->buf_pos, (size_t)fr->page_size);
		s->page_pos = s->data_pos + s->buf_pos;
		page = s->buf + s->buf_pos;
		s->buf_pos += room;
	}
	bad = whole ? sl_rb_page_check(&fr->fmt, page, room, &lost) :
		      sl_rb_page_check_header(&fr->fmt, page, room, &lost);
	/* a page of zeros the guard put where the file was is no page of the trace */
	if (fr->map && fr->guard->shrank)
		return shrank(fr);
	if (bad)
		return page_error(fr, s, bad);
	sl_rb_page_load_checked(&s->pg, &fr->fmt, page, room);
	s->page_start = page;
	s->page_len = room;
	s->in_page = true;
	if (lost < 0 || s->lost < 0 || lost > INT64_MAX - s->lost)
		s->lost = -1;	/* unknown, or more than a count can say (corrupt) */
	else
		s->lost += lost;
	return 1;
}

static uint64_t timestamp_calc(const struct fly_reader *fr, uint64_t ts)
{
	const struct sl_dat_layout *l = &fr->layout;

	if (l->tsc_mult)
		ts = (uint64_t)(((unsigned __int128)ts * l->tsc_mult) >> l->tsc_shift);
	return ts + (uint64_t)l->ts_offset;
}

/*
 * Move the stream to its next event. 1 = has one, 0 = end, < 0 error.
 * Inlined in fly_next(): per event, the page's next record is all it
 * takes; pages are loaded out of line.
 */
static int stream_next_page(struct fly_reader *fr, struct cpu_stream *s);

/*
 * The stream is at the record data, of page time ts: 1.  The first record
 * of a page (first) takes the events lost before it (s->lost counts those
 * of the pages loaded since the last record); a later one of the same
 * page has none: fly_next() zeroed missed when it reported them.
 */
static inline __attribute__((always_inline))
int stream_at(struct fly_reader *fr, struct cpu_stream *s, const uint8_t *data, uint64_t ts,
	      bool first)
{
	s->data = data;
	/* its decoding comes soon and reads past the line the walk loaded */
	__builtin_prefetch(data + 60);
	s->ts = timestamp_calc(fr, ts);
	if (first) {
		s->missed = s->lost;
		s->lost = 0;
	}
	return 1;
}

static inline __attribute__((always_inline))
int stream_advance(struct fly_reader *fr, struct cpu_stream *s)
{
	const char *bad = NULL;
	const uint8_t *data;
	uint64_t ts;

	if (!s->in_page || !(data = sl_rb_page_next_checked(&s->pg, &ts, &s->size, &bad))) {
		if (bad)
			return page_error(fr, s, bad);
		return stream_next_page(fr, s);
	}
	return stream_at(fr, s, data, ts, false);
}

static int stream_next_page(struct fly_reader *fr, struct cpu_stream *s)
{
	const char *bad = NULL;
	const uint8_t *data;
	uint64_t ts;

	for (;;) {
		s->in_page = false;
		int ret = load_page(fr, s, false);

		if (ret <= 0)
			return ret;
		data = sl_rb_page_next_checked(&s->pg, &ts, &s->size, &bad);
		if (data)
			return stream_at(fr, s, data, ts, true);
		if (bad)
			return page_error(fr, s, bad);
	}
}

/* An event of the top stream that sl_dat_decode() refused: the page's error. */
static __attribute__((noinline, cold))
int too_short(struct fly_reader *fr, const struct cpu_stream *s)
{
	char what[96];

	snprintf(what, sizeof(what), "an event of %d bytes at %llu ns is too short "
		 "for its format", (int)s->size, (unsigned long long)s->ts);
	return page_error(fr, s, what);
}

static int fly_next(struct sl_reader *r, struct sl_event *ev)
{
	struct fly_reader *fr = (struct fly_reader *)r;
	struct cpu_stream *s;

	if (fr->have_pending) {
		*ev = fr->pending;
		fr->have_pending = false;
		return 1;
	}
	if (fr->error)
		return fr->map ? mapped_error(fr, fr->error) : fr->error;
	if (!fr->heap.nr)
		return 0;

	s = &fr->streams[fr->heap.nodes[0].cpu];
	if (sl_dat_decode(fr->decoder, s->cpu, s->ts, s->data, (int)s->size, ev) < 0)
		return mapped_error(fr, too_short(fr, s));
	/* what the walk and the decoder read came from the file as it was */
	if (fr->map && fr->guard->shrank)
		return shrank(fr);
	if (s->missed) {
		/* the buffer lost events before this one: report the gap first */
		fr->pending = *ev;
		fr->have_pending = true;
		memset(ev, 0, sizeof(*ev));
		ev->type = SL_EV_LOST;
		ev->name = sl_dat_lost_name(fr->decoder);
		ev->ts = s->ts;
		ev->cpu = s->cpu;
		ev->pid = -1;
		ev->lost.count = s->missed > 0 ? (uint64_t)s->missed : 0;
		if (s->missed > 0)
			r->info.lost_events = sat_add_u64(r->info.lost_events, (uint64_t)s->missed);
		else
			r->info.lost_unknown++;
		s->missed = 0;
	}
	/*
	 * The event is decoded: the stream may now overwrite its window.  A
	 * failure is reported by the next call (fr->error).
	 */
	if (stream_advance(fr, s) > 0)
		cpu_heap_replace_top(&fr->heap, s->ts);
	else
		cpu_heap_pop(&fr->heap);
	return 1;
}

/* --- seeking: binary search of the pages' (or chunks') first timestamps --- */

static void stream_restart(struct cpu_stream *s, uint64_t off, uint64_t data_pos,
			   uint32_t chunks_left)
{
	s->next_off = off;
	s->data_pos = data_pos;
	s->page_pos = data_pos;
	s->buf_len = 0;
	s->buf_pos = 0;
	s->chunk_len = 0;
	s->chunk_pos = 0;
	s->chunks_left = chunks_left;
	s->in_page = false;
	s->lost = 0;
	s->trim_off = off;
}

/*
 * The time of a page's first event, as next() gives it: 0, or 1 when the
 * page has none (empty, or one the walk refuses: its error comes when it
 * is read).  Not its header's time: a corrupt one (the events may run
 * from an absolute time stamp), or an empty page's (trailing pages of
 * zeros), would send the search past events at or after the time sought.
 */
static int page_first_time(const struct fly_reader *fr, const uint8_t *page, size_t room,
			   uint64_t *t)
{
	struct sl_rb_page pg;
	const char *bad = NULL;
	uint32_t size;
	int64_t lost;
	uint64_t ts;

	if (room < (size_t)fr->fmt.hdr_size || sl_rb_page_check_header(&fr->fmt, page, room, &lost))
		return 1;
	sl_rb_page_load_checked(&pg, &fr->fmt, page, room);
	if (!sl_rb_page_next_checked(&pg, &ts, &size, &bad))
		return 1;
	*t = timestamp_calc(fr, ts);
	return 0;
}

/*
 * probe(i): the first event time of page (or chunk) i of s: 0, 1 when it
 * has none, < 0 an error.
 */
typedef int (*seek_probe)(struct fly_reader *fr, struct cpu_stream *s, uint64_t i, uint64_t *t);

/*
 * The last of the n pages (or chunks) whose first event is before ts, or
 * 0.  One without events has no time: the next one's decides, and one
 * earlier than the page the search stands on is out of order (a corrupt
 * time), so it decides nothing either.  Either way the search never
 * starts after a page that holds events at or after ts in time order.
 */
static int seek_search(struct fly_reader *fr, struct cpu_stream *s, uint64_t n, uint64_t ts,
		       seek_probe probe, uint64_t *at)
{
	uint64_t lo = 0, hi = n, lo_t = 0;

	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2, j, t = 0;
		int ret = 1;

		for (j = mid; j < hi; j++) {
			ret = probe(fr, s, j, &t);
			if (ret < 0)
				return ret;
			if (!ret && t >= lo_t)
				break;
		}
		if (j < hi && t < ts) {
			lo = j;
			lo_t = t;
		} else {
			hi = mid;
		}
	}
	*at = lo;
	return 0;
}

static int probe_page(struct fly_reader *fr, struct cpu_stream *s, uint64_t i, uint64_t *t)
{
	uint64_t off = s->base_off + i * fr->page_size;
	size_t room = (size_t)MIN(s->end_off - off, (uint64_t)fr->page_size);

	if (room > fr->probe_alloc) {
		fr->probe_alloc = fr->page_size;
		fr->probe = xrealloc(fr->probe, fr->probe_alloc);
	}
	if (!read_all(fr->fd, fr->probe, room, off))
		return read_error(fr, s);
	return page_first_time(fr, fr->probe, room, t);
}

/* Uncompressed: start at the last page whose first event is before ts (or the first). */
static int seek_pages(struct fly_reader *fr, struct cpu_stream *s, uint64_t ts)
{
	uint64_t n = (s->end_off - s->base_off + fr->page_size - 1) / fr->page_size, lo;
	int ret = seek_search(fr, s, n, ts, probe_page, &lo);

	if (ret)
		return ret;
	stream_restart(s, s->base_off + lo * fr->page_size, lo * fr->page_size, 0);
	return 0;
}

/* Compressed: list the chunks that start at a page boundary (once per CPU). */
static int index_chunks(struct fly_reader *fr, struct cpu_stream *s)
{
	uint64_t off = s->base_off + 4, data_pos = 0;
	uint8_t head[8];
	uint32_t i;

	/* as many as there are: the count is not to be trusted with an allocation */
	for (i = 0; i < s->nr_chunks && off < s->end_off; i++) {
		uint32_t csize, usize;

		s->next_off = off;
		if (s->end_off - off < 8)
			return chunk_error(fr, s, "a compressed chunk runs past the CPU's data");
		if (!read_all(fr->fd, head, sizeof(head), off))
			return read_error(fr, s);
		csize = sl_rb_read4(fr->fmt.swap, head);
		usize = sl_rb_read4(fr->fmt.swap, head + 4);
		if (csize > s->end_off - off - 8)
			return chunk_error(fr, s, "a compressed chunk runs past the CPU's data");
		if (data_pos % fr->page_size == 0) {
			GROW(s->chunk_index, s->index_alloc, (size_t)s->nr_indexed + 1);
			s->chunk_index[s->nr_indexed++] = (struct chunk_ref) {
				.off = off, .data_pos = data_pos, .index = i,
			};
		}
		off += 8 + (uint64_t)csize;
		data_pos += usize;
	}
	if (i < s->nr_chunks || off < s->end_off) {
		s->chunks_left = s->nr_chunks - i;
		s->next_off = off;
		return chunk_count_error(fr, s);
	}
	if (!s->nr_indexed)
		return chunk_error(fr, s, "no chunk starts at a page");
	return 0;
}

/*
 * The time of the first event of an indexed chunk: decompress it, and
 * walk its pages to the first that has one (1: none has).
 */
static int chunk_time(struct fly_reader *fr, struct cpu_stream *s, const struct chunk_ref *c,
		      uint64_t *t)
{
	uint8_t head[8];
	uint32_t csize, usize;

	s->next_off = c->off;
	if (!read_all(fr->fd, head, sizeof(head), c->off))
		return read_error(fr, s);
	csize = sl_rb_read4(fr->fmt.swap, head);
	usize = sl_rb_read4(fr->fmt.swap, head + 4);
	if (usize > MAX_CHUNK_BYTES || usize < 8 || csize > MAX_ZCHUNK_BYTES)
		return chunk_error(fr, s, "a compressed chunk of implausible size");
	if (csize > fr->zbuf_alloc) {
		fr->zbuf_alloc = csize;
		fr->zbuf = xrealloc(fr->zbuf, fr->zbuf_alloc);
	}
	if (usize > fr->probe_alloc) {
		fr->probe_alloc = usize;
		fr->probe = xrealloc(fr->probe, fr->probe_alloc);
	}
	if (!read_all(fr->fd, fr->zbuf, csize, c->off + 8))
		return read_error(fr, s);
	if (sl_dat_decompress(fr->dec, fr->zbuf, csize, fr->probe, usize) != (long)usize)
		return chunk_error(fr, s, "a compressed chunk does not decompress");
	/* trace-cmd's chunks hold whole pages; a chunk that starts one (indexed) */
	for (uint32_t off = 0; off < usize; off += fr->page_size)
		if (!page_first_time(fr, fr->probe + off,
				     (size_t)MIN((uint64_t)usize - off, (uint64_t)fr->page_size), t))
			return 0;
	return 1;
}

static int probe_chunk(struct fly_reader *fr, struct cpu_stream *s, uint64_t i, uint64_t *t)
{
	return chunk_time(fr, s, &s->chunk_index[i], t);
}

/* Compressed: start at the last indexed chunk whose first event is before ts (or the first). */
static int seek_chunks(struct fly_reader *fr, struct cpu_stream *s, uint64_t ts)
{
	const struct chunk_ref *c;
	uint64_t lo;
	int ret;

	if (!s->chunk_index && (ret = index_chunks(fr, s)))
		return ret;
	ret = seek_search(fr, s, s->nr_indexed, ts, probe_chunk, &lo);
	if (ret)
		return ret;
	c = &s->chunk_index[lo];
	stream_restart(s, c->off, c->data_pos, s->nr_chunks - c->index);
	return 0;
}

/*
 * fly_seek_time - each CPU restarts at the last page (or compressed chunk)
 * that begins before ts: every event at or after ts follows, with at most
 * a page (a chunk) of earlier ones first.  Lost events flagged on that
 * page are reported again.
 */
static int fly_seek_time(struct sl_reader *r, uint64_t ts)
{
	struct fly_reader *fr = (struct fly_reader *)r;
	int ret;

	if (fr->error)
		return fr->error;
	fr->have_pending = false;
	fr->heap.nr = 0;
	for (int i = 0; i < fr->nr_streams; i++) {
		struct cpu_stream *s = &fr->streams[i];

		ret = fr->layout.cpu_compressed ? seek_chunks(fr, s, ts) : seek_pages(fr, s, ts);
		if (!ret)
			ret = stream_advance(fr, s);
		if (ret < 0)
			return ret;
		if (ret > 0)
			cpu_heap_push(&fr->heap, s->ts, i);
	}
	return 0;
}

static void fly_close(struct sl_reader *r)
{
	struct fly_reader *fr = (struct fly_reader *)r;

	for (int i = 0; i < fr->nr_streams; i++) {
		free(fr->streams[i].buf);
		free(fr->streams[i].chunk);
		free(fr->streams[i].page);
		free(fr->streams[i].chunk_index);
	}
	free(fr->probe);
	free(fr->streams);
	free(fr->heap.nodes);
	free(fr->zbuf);
	sl_dat_decompressor_free(fr->dec);
	sl_dat_decoder_free(fr->decoder);
	if (fr->own_tep)
		tep_free(fr->tep);
	sl_dat_names_free(&fr->names);
	sl_kallsyms_free(fr->ksyms);
	sl_dat_cmdlines_free(&fr->cmdlines);
	if (fr->fd >= 0)
		close(fr->fd);
	if (fr->map) {
		sl_map_guard_release(fr->guard);
		munmap(fr->map, fr->map_len);
	}
	sl_dat_layout_free(&fr->layout);
	free(fr);
}

/* off next()'s path: a name no event gave (timehist's), from the saved cmdlines */
static const char *fly_saved_comm(struct sl_reader *r, int32_t pid)
{
	struct fly_reader *fr = (struct fly_reader *)r;

	return sl_dat_cmdlines_comm(&fr->cmdlines, pid);
}

static const struct sl_reader_ops fly_ops = {
	.next = fly_next,
	.close = fly_close,
	.seek_time = fly_seek_time,
	.saved_comm = fly_saved_comm,
};

/* What the pages look like: from the layout and the file's header page. */
static int setup_format(struct fly_reader *fr, struct sl_error *err)
{
	const struct sl_dat_layout *l = &fr->layout;
	struct tep_handle *tep = fr->tep;
	size_t pages;
	int long_size;

	if (tep_is_old_format(tep)) {
		sl_error_set(err, "the ring-buffer format of Linux 2.6.30 and older is not supported");
		return -ENOTSUP;
	}
	if (tep_get_header_timestamp_size(tep) != 8) {
		sl_error_set(err, "corrupt trace.dat: ring-buffer page timestamps are not 8 bytes");
		return -EINVAL;
	}
	/* the commit word is a kernel long: header_page says which */
	long_size = tep_get_header_page_size(tep);
	if (long_size != 4 && long_size != 8) {
		sl_error_set(err, "corrupt trace.dat: page commit size %d", long_size);
		return -EINVAL;
	}
	sl_rb_format_init(&fr->fmt, long_size, l->big_endian);
	fr->page_size = l->subbuf_size;
	if (fr->page_size <= (uint32_t)fr->fmt.hdr_size) {
		sl_error_set(err, "corrupt trace.dat: ring-buffer page size %u", fr->page_size);
		return -EINVAL;
	}
	if (l->cpu_compressed) {
		fr->dec = sl_dat_decompressor_new(l->compression);
		if (!fr->dec) {
			sl_error_set(err, "cannot set up %s decompression", l->compression_name);
			return -ENOMEM;
		}
	}
	pages = WINDOW_BUDGET / fr->page_size / (size_t)MAX(l->nr_cpu_data, 1);
	fr->window = (size_t)fr->page_size * MAX(MIN(pages, (size_t)WINDOW_MAX_PAGES), (size_t)1);
	return 0;
}

/* Start a stream at the CPU's data. */
static int stream_init(struct fly_reader *fr, struct cpu_stream *s,
		       const struct sl_dat_cpu_data *d)
{
	uint8_t count[4];

	s->cpu = d->cpu;
	s->base_off = d->offset;
	s->next_off = d->offset;
	s->end_off = d->offset + d->size;
	s->trim_off = d->offset;
	if (fr->layout.cpu_compressed) {
		/* the chunk count comes before the size dat_layout.c checked */
		if (!read_all(fr->fd, count, 4, d->offset))
			return read_error(fr, s);
		s->chunks_left = sl_rb_read4(fr->fmt.swap, count);
		s->nr_chunks = s->chunks_left;
		s->next_off += 4;
		s->end_off += 4;
	}
	return 0;
}

static int open_streams(struct fly_reader *fr, struct sl_error *err)
{
	const struct sl_dat_layout *l = &fr->layout;
	int ret = setup_format(fr, err);

	if (ret)
		return ret;
	fr->streams = xcalloc_lines((size_t)MAX(l->nr_cpu_data, 1) * sizeof(*fr->streams));
	fr->heap.nodes = xcalloc_lines((size_t)MAX(l->nr_cpu_data, 1) * sizeof(*fr->heap.nodes));
	for (int i = 0; i < l->nr_cpu_data; i++) {
		struct cpu_stream *s = &fr->streams[fr->nr_streams];

		if (!l->cpu_data[i].size)
			continue;
		fr->nr_streams++;
		ret = stream_init(fr, s, &l->cpu_data[i]);
		if (!ret)
			ret = stream_advance(fr, s);
		if (ret < 0)
			return ret;	/* err is fr->r.err: the message is there */
		if (ret > 0)
			cpu_heap_push(&fr->heap, s->ts, fr->nr_streams - 1);
	}
	/* as for a text without events: nothing to analyze is an error */
	if (!fr->heap.nr) {
		sl_error_set(err, "no events");
		return -ENODATA;
	}
	return 0;
}

int sl_dat_walk_pages(int fd, const struct sl_dat_layout *layout, struct tep_handle *tep,
		      sl_dat_page_fn *fn, void *arg, struct sl_error *err)
{
	struct fly_reader *fr = xcalloc_lines(sizeof(*fr));
	struct cpu_stream s;
	int ret;

	fr->r.err = err;
	fr->fd = fd;
	fr->tep = tep;
	fr->layout = *layout;		/* borrowed: not freed here */
	ret = setup_format(fr, err);
	for (int i = 0; !ret && i < layout->nr_cpu_data; i++) {
		if (!layout->cpu_data[i].size)
			continue;
		memset(&s, 0, sizeof(s));
		ret = stream_init(fr, &s, &layout->cpu_data[i]);
		while (!ret && (ret = load_page(fr, &s, true)) > 0)
			ret = fn ? fn(s.cpu, s.page_start, s.page_len, arg) : 0;
		free(s.buf);
		free(s.chunk);
		free(s.page);
	}
	free(fr->zbuf);
	sl_dat_decompressor_free(fr->dec);
	free(fr);
	return ret;
}

/*
 * Uncompressed CPU data: map the file, to read it in place (the top of
 * the file).  Nothing mapped when it cannot be, or not guarded: then
 * the streams read windows.
 */
static void map_file(struct fly_reader *fr)
{
	struct stat st;
	void *map;

	if (fr->layout.cpu_compressed || fstat(fr->fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX)
		return;
	/* the layout was checked against the file as it was then: it may be shorter now */
	for (int i = 0; i < fr->layout.nr_cpu_data; i++) {
		const struct sl_dat_cpu_data *d = &fr->layout.cpu_data[i];

		if (d->offset > (uint64_t)st.st_size || d->size > (uint64_t)st.st_size - d->offset)
			return;		/* the windows' read says so */
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fr->fd, 0);
	if (map == MAP_FAILED)
		return;
	fr->guard = sl_map_guard_add(map, (size_t)st.st_size);
	if (!fr->guard) {
		munmap(map, (size_t)st.st_size);
		return;
	}
	sl_map_guard_arm();
	fr->map = map;
	fr->map_len = (size_t)st.st_size;
	fr->trim_step = MAX(MIN((size_t)MAP_TRIM_MAX,
				(size_t)MAP_BUDGET / (size_t)MAX(fr->layout.nr_cpu_data, 1)),
			    (size_t)MAX(fr->layout.subbuf_size, 1u));
}

int sl_read_dat_flyrecord_open(const char *path, const char *buffer, struct sl_strtab *strtab,
			       struct sl_reader **out, struct sl_error *err)
{
	struct fly_reader *fr = xcalloc_lines(sizeof(*fr));
	int ret;

	fr->r.ops = &fly_ops;
	fr->r.err = err;		/* sl_reader_open() sets it again */
	fr->fd = -1;
	ret = sl_dat_layout_read_buffer(path, buffer, &fr->layout, err);
	if (ret < 0)
		goto fail;
	sl_dat_warn_buffers(path, &fr->layout);
	fr->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fr->fd < 0) {
		ret = -errno;
		sl_error_set(err, "cannot open: %s", strerror(-ret));
		goto fail;
	}
	ret = sl_dat_tep_load_cmdlines(fr->fd, &fr->layout, &fr->tep, &fr->ksyms, &fr->names,
				       &fr->cmdlines, err);
	if (ret < 0)
		goto fail;
	fr->own_tep = true;
	fr->decoder = sl_dat_decoder_new(fr->tep, &fr->names, strtab, err);
	if (!fr->decoder) {
		ret = -EINVAL;
		goto fail;
	}
	sl_dat_info_fill(&fr->r.info, &fr->layout, fr->tep);
	fr->r.info.formats_ignored = fr->names.nr_ignored;
	snprintf(fr->r.info.format_ignored, sizeof(fr->r.info.format_ignored), "%s",
		 fr->names.first_ignored);
	map_file(fr);
	ret = open_streams(fr, err);
	if (ret < 0)
		goto fail;
	*out = &fr->r;
	return 0;
fail:
	fly_close(&fr->r);
	return ret;
}

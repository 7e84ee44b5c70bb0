// SPDX-License-Identifier: GPL-2.0
/*
 * read_perf.c - perf.data (perf sched record, perf record -e sched:...)
 *
 * Read as perf documents the format (tools/perf/Documentation/
 * perf.data-file-format.txt and include/uapi/linux/perf_event.h), without
 * libperf, which Debian 12 does not package:
 *
 *  - the file header ("PERFILE2"), the attribute table (one
 *    perf_event_attr each, its sample_type, read_format and sample_id_all
 *    say how its samples and the trailers of other records are laid
 *    out; the ids that follow tell which attribute a record belongs to),
 *    the data section, and the feature sections after it: HEADER_TRACING_DATA
 *    (the event formats, the same bytes a v6 trace.dat starts with: dat_meta.c
 *    hands them to libtraceevent as for a trace.dat), HEADER_NRCPUS and
 *    HEADER_OSRELEASE;
 *  - pipe mode (`perf record -o -`): a 16-byte header, then the attributes,
 *    features and tracing data as records ahead of the samples;
 *  - PERF_RECORD_SAMPLE of a tracepoint: its PERF_SAMPLE_RAW payload is the
 *    tracepoint's record as the ring buffer holds it, decoded by
 *    dat_decode.c with the formats of the file; TIME and CPU come from the
 *    sample;
 *  - PERF_RECORD_LOST: lost events on the CPU of its trailer
 *    (sample_id_all), at its time: the kernel writes it where its buffer
 *    overran, so the model knows where the gap is.  PERF_RECORD_LOST_SAMPLES
 *    are not gaps: perf record writes them at its end with each event's
 *    count of lost samples (PERF_FORMAT_LOST), the same losses again, and
 *    more complete (the kernel writes no LOST record for the last ones);
 *    their sum is the total when larger, as perf record prints it.
 *
 * Order.  perf record writes each CPU's buffer in turn, so the file is
 * not in time order; it guarantees nothing crosses a
 * PERF_RECORD_FINISHED_ROUND.  We sort as perf's ordered_events does, so
 * that we see the events in the order `perf script` prints them: records
 * with a time are queued; at each FINISHED_ROUND the queued ones up to the
 * latest time seen by the round before are handed on (a stable sort:
 * equal times keep file order), the others wait.  So memory holds about
 * two rounds (perf record's buffers, -m), not the file, and never more
 * than held_budget() (a stream without rounds was held whole).  The raw bytes
 * stay in a sliding window over the data; the queue holds 16 bytes a
 * record.  Records of a CPU come in runs already sorted: the runs are
 * merged as the records are handed on (no copy but of what stays queued,
 * no second array), a sort only when a round has many (times out of
 * order within a CPU).
 *
 * Folding (struct sl_reader's fold, which analyze asks for): perf sched
 * record logs a sched_stat_runtime before most switches and wakeups, 46%
 * of its samples, and the model needs one only as the event before the
 * next of its task on its CPU.  When the record handed on next is that
 * one (same run, CPU and common_pid, at most 65534 ns later), the
 * sched_stat_runtime is not decoded nor handed on by itself but comes
 * in it, as its time (sl_event.folded_ago): fold_next().
 *
 * Not read: records compressed by perf record -z (refused with a hint),
 * a perf.data of the other byte order (refused), a perf.data directory
 * (perf record --threads), a file perf record has not finished (data
 * size 0: refused, as perf script does), one without sched_switch (its
 * formats are those of the events recorded).  PERF_RECORD_COMM/FORK/EXIT are not needed:
 * the model names tasks from the tracepoints' own fields, as it does for
 * perf script's text, whose comm column it does not read either.
 */
#define _GNU_SOURCE		/* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat_decode.h"
#include "dat_layout.h"
#include "dat_meta.h"
#include "kallsyms.h"
#include "map_guard.h"
#include "read_perf.h"
#include "util/util.h"

/* perf_event_attr.sample_type bits (include/uapi/linux/perf_event.h) */
#define S_IP		(1u << 0)
#define S_TID		(1u << 1)
#define S_TIME		(1u << 2)
#define S_ADDR		(1u << 3)
#define S_READ		(1u << 4)
#define S_CALLCHAIN	(1u << 5)
#define S_ID		(1u << 6)
#define S_CPU		(1u << 7)
#define S_PERIOD	(1u << 8)
#define S_STREAM_ID	(1u << 9)
#define S_RAW		(1u << 10)
#define S_IDENTIFIER	(1u << 16)
/* the bits of the sample_id trailer of records other than samples */
#define S_TRAILER	(S_TID | S_TIME | S_ID | S_STREAM_ID | S_CPU | S_IDENTIFIER)

/* read_format bits */
#define RF_TOTAL_TIME_ENABLED	(1u << 0)
#define RF_TOTAL_TIME_RUNNING	(1u << 1)
#define RF_ID			(1u << 2)
#define RF_GROUP		(1u << 3)
#define RF_LOST			(1u << 4)

#define ATTR_TYPE_TRACEPOINT	2
#define ATTR_SIZE_VER0		64	/* the first published perf_event_attr */
#define ATTR_FLAGS_OFF		40	/* the u64 of bit fields */
#define ATTR_SAMPLE_ID_ALL	(1ull << 18)
#define ATTR_USE_CLOCKID	(1ull << 25)
#define ATTR_CLOCKID_OFF	92	/* since PERF_ATTR_SIZE_VER1 */

/* record types */
enum {
	REC_LOST = 2,
	REC_COMM = 3,
	REC_SAMPLE = 9,
	REC_LOST_SAMPLES = 13,
	REC_USER_START = 64,
	REC_HEADER_ATTR = 64,
	REC_HEADER_TRACING_DATA = 66,
	REC_FINISHED_ROUND = 68,
	REC_AUXTRACE = 71,
	REC_HEADER_FEATURE = 80,
	REC_COMPRESSED = 81,
};

/* feature bits (perf.data-file-format.txt) */
enum {
	FEAT_TRACING_DATA = 1,
	FEAT_OSRELEASE = 4,
	FEAT_NRCPUS = 7,
	FEAT_DIR_FORMAT = 24,		/* the header file of a perf record --threads directory */
	FEAT_BITS = 256,
};

#define FILE_HEADER_SIZE	104	/* magic, size, attr_size, 3 sections, 4 flag words */
#define PIPE_HEADER_SIZE	16
#define READ_CHUNK		(1u << 20)
#define MAP_DROP_BYTES		(1u << 20)	/* give back mapped pages this many at a time */
/*
 * A mapped file's pages held resident, at most about (map_trim()): those
 * read in the last MAP_READ_LAG bytes, and those handed on in the piece
 * of a round being handed on (MAP_PIECE records).
 */
#define MAP_READ_LAG		(4u << 20)
#define MAP_PIECE		32768
#define MAX_ATTRS		4096
_Static_assert(MAX_ATTRS < UINT16_MAX, "an attribute index + 1 fits the id table's 16 bits");
#define MAX_IDS			(1u << 22)
#define MAX_TRACING_DATA	(256ull << 20)	/* a tracing-data section, in bytes */
#define MAX_CPUS		8192		/* as SL_DAT_MAX_CPUS */
/*
 * Held until a round ends, at most (held_budget()): 16 MiB and 1 MiB a
 * CPU, two rounds of perf record's default buffers (512 KiB a CPU), up to
 * 256 MiB; past it, all queued are handed on.  Records queued: 16 a KiB.
 */
#define MIN_HELD_BYTES		(16ull << 20)
/* Runs merged as they are handed on; more are sorted into one first. */
#define MERGE_MAX_RUNS		8
#define MAX_HELD_BYTES		(256ull << 20)

struct perf_attr {
	uint32_t type;			/* PERF_TYPE_*: 2 = tracepoint */
	uint64_t sample_type;		/* S_* */
	uint64_t read_format;		/* RF_* */
	bool sample_id_all;		/* records other than samples carry a trailer */
	/*
	 * A tracepoint's samples without READ or CALLCHAIN have their time,
	 * CPU and raw size at fixed offsets from the record's start: read
	 * there, the sample is parsed in a few instructions (0 = not so).
	 */
	uint16_t fixed_time, fixed_cpu, fixed_raw;
	bool fast;			/* fixed, and as the reader's fast_* (fast_samples()) */
};


/*
 * A queued record: its time, and what next() makes of it, in 16 bytes
 * (the queue holds a round and more: 16 bytes a record instead of 24 is
 * a third less memory to sort and to hold).  ref packs what it is
 * (ENTRY_*), its CPU and the stream offset of its bytes: a sample's raw
 * data (its size is the u32 before it), a PERF_RECORD_LOST's record (its
 * count at +16), a PERF_RECORD_COMM's.  They stay in the window until the
 * entry is handed on.
 */
struct entry {
	uint64_t ts;
	uint64_t ref;
};
#define ENTRY_SAMPLE	0ull
#define ENTRY_LOST	1ull		/* lost events: the count is in the record */
#define ENTRY_NONE	2ull		/* queued only for the order, as perf does */
#define ENTRY_COMM	3ull		/* a PERF_RECORD_COMM (struct sl_reader's comm) */
#define REF_OFF_BITS	48		/* stream offsets below 256 TiB */
#define REF_OFF_MASK	((1ull << REF_OFF_BITS) - 1)
#define REF_CPU_SHIFT	REF_OFF_BITS
#define REF_KIND_SHIFT	62		/* the CPU in the 14 bits between: MAX_CPUS fits */
#define MAX_STREAM_POS	(REF_OFF_MASK - (1ull << 32))	/* a record and its data fit below */

static inline uint64_t ref_make(uint64_t kind, uint64_t off, int32_t cpu)
{
	return kind << REF_KIND_SHIFT | (uint64_t)(uint32_t)cpu << REF_CPU_SHIFT | off;
}

static inline uint64_t ref_kind(uint64_t ref)
{
	return ref >> REF_KIND_SHIFT;
}

static inline int32_t ref_cpu(uint64_t ref)
{
	return (int32_t)((ref >> REF_CPU_SHIFT) & ((1u << (REF_KIND_SHIFT - REF_CPU_SHIFT)) - 1));
}

static inline uint64_t ref_off(uint64_t ref)
{
	return ref & REF_OFF_MASK;
}

struct perf_reader {
	struct sl_reader r;		/* first: the generic part */
	int fd;
	bool pipe;			/* pipe mode: header records in the stream */
	bool seekable;			/* fd is a regular file: pread */
	uint64_t file_size;
	uint64_t pos;			/* offset of the next record in the stream */
	uint64_t data_end;		/* end of the data section (UINT64_MAX: the stream's) */

	/* the window of the stream: bytes [buf_off, buf_off + buf_len) */
	uint8_t *buf;
	size_t buf_alloc, buf_len;
	uint64_t buf_off;
	uint8_t *map;			/* a file: all of it mapped (buf = map, buf_off 0) */
	size_t map_len;
	struct sl_map_guard *guard;	/* the map's guard (map_guard.h; NULL: none) */
	volatile sig_atomic_t *watch;	/* its mark, looked at after each event (NULL: none) */
	bool shrank_told;		/* the map faulted: the error is set */
	uint64_t dropped;		/* mapped pages before it were given back */
	uint64_t keep_off;		/* queued records need nothing before it */
	bool eof;			/* nothing more to read */

	struct perf_attr *attrs;
	uint32_t nr_attrs;
	size_t attrs_alloc;
	/*
	 * id -> attribute, an open-addressing table of ids_mask + 1 slots,
	 * its two columns apart: 10 bytes a slot, not a struct's 16 (at
	 * MAX_IDS: 80 MiB, and 40 MiB more while it doubles, not 128 + 64)
	 */
	uint64_t *ids;
	uint16_t *ids_attr_plus1;	/* 0 = an empty slot */
	uint32_t ids_mask, nr_ids;
	uint64_t id_min, id_max;	/* the ids inserted lie in [id_min, id_max] */
	uint16_t *id_direct;		/* id - id_base -> attribute + 1, when the ids are few */
	uint64_t id_base;
	uint32_t id_span;		/* entries of id_direct (0: none, use the table) */
	bool id_direct_stale;		/* ids were inserted since it was made */
	bool same_trailer;		/* every attribute lays out the trailer alike */
	size_t sample_id_at;		/* a sample's id: after its header, at (SIZE_MAX: none) */
	uint64_t held;			/* held_budget(), kept up to date */
	/* the fixed layout of the first attribute that has one (perf_attr.fast) */
	uint16_t fast_time, fast_cpu, fast_raw;

	/*
	 * The queue: q[0, q_nr) in the order queued, made of ascending runs
	 * (runs[i] is where the i-th starts).  While a round is handed on
	 * (out_active), heads[] walks each run not yet through (in the order
	 * of the runs, each with the time of its next record) and the
	 * earliest head goes next, as long as it is not past out_limit.
	 */
	struct entry *q, *tmp;
	size_t q_nr, q_alloc, tmp_alloc;
	size_t *runs, nr_runs, runs_alloc;
	struct run_head {
		uint64_t ts;
		size_t cur, end;
		uint64_t done_off;	/* a mapped file's bytes of the run before it were given back */
	} heads[MERGE_MAX_RUNS];
	int nr_heads;
	int best;			/* the head taken last ... */
	bool best_again;		/* ... may go on while its time is <= best_upto */
	uint64_t best_upto;
	bool out_active;
	bool q_sorted;			/* sort_queue() took q out of file order (drop_done()) */
	uint64_t out_limit;		/* where this piece of the hand-on ends (map_piece()) */
	uint64_t flush_limit;		/* ... and where the hand-on ends */
	uint64_t trim_at;		/* read_records() gives mapped pages back again from here */
	uint64_t max_ts;		/* latest time queued (perf's max_timestamp) */
	uint64_t next_flush;		/* hand on up to here at the next round */

	/* the formats */
	struct sl_dat_layout tlayout;
	int tdata_fd;			/* where the tracing data is read from */
	bool own_tdata_fd;
	bool have_tracing;
	struct tep_handle *tep;
	struct sl_dat_names names;
	struct sl_kallsyms *ksyms;
	struct sl_dat_decoder *decoder;
	struct sl_strtab *strtab;
	uint32_t lost_name;
	int error;			/* a failure: its -errno, message in r.err */
	uint64_t lost_samples;		/* the counts of PERF_RECORD_LOST_SAMPLES */
	bool any_event;			/* one was handed on */
	/*
	 * Folding (struct sl_reader's fold): sched_stat_runtime's event id
	 * (-1: none to fold), where its raw data holds common_type and
	 * common_pid, and the size the decoder requires (fold_next()).
	 */
	int fold_id;
	int fold_type_off, fold_pid_off, fold_min_size;
};

static inline uint64_t get_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint16_t get_u16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static struct sl_error *perf_err(struct perf_reader *pr)
{
	return pr->r.err;
}

static int fail(struct perf_reader *pr, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct perf_reader *pr, int ret, const char *fmt, ...)
{
	char msg[SL_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sl_error_set(perf_err(pr), "%s", msg);
	pr->error = ret;
	return ret;
}

/* Read len bytes at off (regular file), false when the file is shorter. */
static bool pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

/* --- a mapped file that shrinks: map_guard.h --- */

/* --- the window over the stream --- */

/*
 * Make bytes [off, off + len) of the stream available and return them,
 * or NULL at the end of the data (pr->eof; an error sets pr->error).
 * Nothing before min(off, keep_off) is kept.
 */
static const uint8_t *window_fill(struct perf_reader *pr, uint64_t off, size_t len);

static inline const uint8_t *window(struct perf_reader *pr, uint64_t off, size_t len)
{
	if (off >= pr->buf_off && off - pr->buf_off <= pr->buf_len &&
	    len <= pr->buf_len - (off - pr->buf_off))
		return pr->buf + (off - pr->buf_off);
	return window_fill(pr, off, len);
}

/* window()'s slow path: read what is missing */
static const uint8_t *window_fill(struct perf_reader *pr, uint64_t off, size_t len)
{
	uint64_t end = off + len;

	if (end > pr->data_end || end < off || off < pr->buf_off || pr->map)
		return NULL;	/* a mapped file is all in buf: past it is past the end */
	if (end > MAX_STREAM_POS) {	/* a queued entry holds 48 bits of an offset */
		fail(pr, -EFBIG, "perf.data streams past 256 TiB are not supported");
		return NULL;
	}
	/* drop what no one needs, keep the rest at the front */
	uint64_t keep = MIN(off, pr->keep_off);

	if (keep > pr->buf_off) {
		uint64_t drop = MIN(keep - pr->buf_off, (uint64_t)pr->buf_len);

		memmove(pr->buf, pr->buf + drop, pr->buf_len - drop);
		pr->buf_len -= (size_t)drop;
		pr->buf_off += drop;
	}
	while (pr->buf_off + pr->buf_len < end) {
		uint64_t have_end = pr->buf_off + pr->buf_len;
		size_t want = (size_t)MAX((uint64_t)READ_CHUNK, end - have_end);
		ssize_t n;

		if (pr->data_end != UINT64_MAX)
			want = (size_t)MIN((uint64_t)want, pr->data_end - have_end);
		GROW(pr->buf, pr->buf_alloc, pr->buf_len + want);
		if (pr->seekable)
			n = pread(pr->fd, pr->buf + pr->buf_len, want, (off_t)have_end);
		else
			n = read(pr->fd, pr->buf + pr->buf_len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail(pr, -EIO, "cannot read: %s", strerror(errno));
			return NULL;
		}
		if (n == 0) {
			pr->eof = true;
			return NULL;
		}
		pr->buf_len += (size_t)n;
	}
	return pr->buf + (off - pr->buf_off);
}

/* --- attributes and ids --- */

static uint32_t id_hash(uint64_t id, uint32_t mask)
{
	return (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

static void id_insert(struct perf_reader *pr, uint64_t id, uint32_t attr)
{
	if ((pr->nr_ids + 1) * 2 > pr->ids_mask + 1) {
		uint32_t old_slots = pr->ids ? pr->ids_mask + 1 : 0;
		uint64_t *old = pr->ids;
		uint16_t *old_attr = pr->ids_attr_plus1;

		pr->ids_mask = old_slots ? old_slots * 2 - 1 : 63;
		pr->ids = xmalloc(((size_t)pr->ids_mask + 1) * sizeof(*pr->ids));
		pr->ids_attr_plus1 = xcalloc((size_t)pr->ids_mask + 1, sizeof(*pr->ids_attr_plus1));
		pr->nr_ids = 0;
		for (uint32_t i = 0; i < old_slots; i++)
			if (old_attr[i])
				id_insert(pr, old[i], old_attr[i] - 1u);
		free(old);
		free(old_attr);
	}
	/* after the table grew: its reinserting starts the range anew */
	if (!pr->nr_ids || id < pr->id_min)
		pr->id_min = id;
	if (!pr->nr_ids || id > pr->id_max)
		pr->id_max = id;
	pr->id_direct_stale = true;
	for (uint32_t i = id_hash(id, pr->ids_mask);; i = (i + 1) & pr->ids_mask) {
		if (!pr->ids_attr_plus1[i]) {
			pr->ids[i] = id;
			pr->ids_attr_plus1[i] = (uint16_t)(attr + 1);
			pr->nr_ids++;
			return;
		}
		if (pr->ids[i] == id) {
			pr->ids_attr_plus1[i] = (uint16_t)(attr + 1);
			return;
		}
	}
}

#define ID_DIRECT_MAX	65536		/* ids within this span: looked up by index */

/*
 * The ids perf gives are mostly a few consecutive numbers (one per event
 * and CPU): an array indexed by id - id_base, made again after ids were
 * added, finds a sample's attribute in a load; the hash table is for
 * ids spread wider.
 */
static void id_direct_make(struct perf_reader *pr)
{
	pr->id_direct_stale = false;
	free(pr->id_direct);
	pr->id_direct = NULL;
	pr->id_span = 0;
	if (!pr->ids || pr->id_max - pr->id_min >= ID_DIRECT_MAX)
		return;
	pr->id_base = pr->id_min;
	pr->id_span = (uint32_t)(pr->id_max - pr->id_min + 1);
	pr->id_direct = xcalloc(pr->id_span, sizeof(*pr->id_direct));
	for (uint32_t i = 0; i <= pr->ids_mask; i++)
		if (pr->ids_attr_plus1[i])
			pr->id_direct[pr->ids[i] - pr->id_base] = pr->ids_attr_plus1[i];
}

/* id_attr()'s slow path: the hash table */
static const struct perf_attr *id_attr_hashed(struct perf_reader *pr, uint64_t id)
{
	if (pr->id_direct_stale) {
		id_direct_make(pr);
		if (pr->id_span)
			return id - pr->id_base < pr->id_span && pr->id_direct[id - pr->id_base] ?
				&pr->attrs[pr->id_direct[id - pr->id_base] - 1] : NULL;
	}
	if (!pr->ids)
		return NULL;
	for (uint32_t i = id_hash(id, pr->ids_mask);; i = (i + 1) & pr->ids_mask) {
		if (!pr->ids_attr_plus1[i])
			return NULL;
		if (pr->ids[i] == id)
			return &pr->attrs[pr->ids_attr_plus1[i] - 1u];
	}
}

/* The attribute of id, or NULL. */
static inline __attribute__((always_inline)) const struct perf_attr *id_attr(struct perf_reader *pr, uint64_t id)
{
	if (pr->nr_attrs == 1)
		return &pr->attrs[0];
	if (!pr->id_direct_stale && pr->id_span) {
		uint64_t i = id - pr->id_base;

		return i < pr->id_span && pr->id_direct[i] ? &pr->attrs[pr->id_direct[i] - 1] : NULL;
	}
	return id_attr_hashed(pr, id);
}

/* An attribute from its bytes (size: what the file gives for it).  0 or -errno. */
static int add_attr(struct perf_reader *pr, const uint8_t *p, uint64_t size)
{
	struct perf_attr a;
	uint32_t asize;
	uint64_t flags;

	if (size < ATTR_SIZE_VER0)
		return fail(pr, -EINVAL, "corrupt perf.data: an event attribute of %llu bytes",
			    (unsigned long long)size);
	if (pr->nr_attrs >= MAX_ATTRS)
		return fail(pr, -EINVAL, "corrupt perf.data: more than %d event attributes",
			    MAX_ATTRS);
	asize = get_u32(p + 4);
	a.type = get_u32(p);
	a.sample_type = get_u64(p + 24);
	a.read_format = get_u64(p + 32);
	flags = get_u64(p + ATTR_FLAGS_OFF);
	a.sample_id_all = flags & ATTR_SAMPLE_ID_ALL;
	if (flags & ATTR_USE_CLOCKID && asize >= ATTR_CLOCKID_OFF + 4 &&
	    size >= ATTR_CLOCKID_OFF + 4 && !pr->r.info.clock[0]) {
		static const char *const names[] = {
			[0] = "realtime", [1] = "mono", [4] = "mono_raw", [7] = "boot", [11] = "tai",
		};
		int32_t clockid = (int32_t)get_u32(p + ATTR_CLOCKID_OFF);

		snprintf(pr->r.info.clock, sizeof(pr->r.info.clock), "%s",
			 clockid >= 0 && (size_t)clockid < ARRAY_SIZE(names) && names[clockid] ?
			 names[clockid] : "clockid");
	}
	a.fixed_time = a.fixed_cpu = a.fixed_raw = 0;
	if (a.type == ATTR_TYPE_TRACEPOINT && (a.sample_type & (S_TIME | S_CPU | S_RAW)) ==
	    (S_TIME | S_CPU | S_RAW) && !(a.sample_type & (S_READ | S_CALLCHAIN))) {
		/* the fields before each, in their order in a sample (8 bytes each) */
		uint64_t st = a.sample_type;

		a.fixed_time = (uint16_t)(8 + 8 * __builtin_popcountll(st & (S_IDENTIFIER | S_IP | S_TID)));
		a.fixed_cpu = (uint16_t)(a.fixed_time + 8 + 8 * __builtin_popcountll(st & (S_ADDR | S_ID |
									      S_STREAM_ID)));
		a.fixed_raw = (uint16_t)(a.fixed_cpu + 8 + 8 * __builtin_popcountll(st & S_PERIOD));
	}
	GROW(pr->attrs, pr->attrs_alloc, (size_t)pr->nr_attrs + 1);
	if (a.fixed_raw && !pr->fast_raw) {
		pr->fast_time = a.fixed_time;
		pr->fast_cpu = a.fixed_cpu;
		pr->fast_raw = a.fixed_raw;
	}
	a.fast = a.fixed_raw && a.fixed_raw == pr->fast_raw && a.fixed_cpu == pr->fast_cpu &&
		 a.fixed_time == pr->fast_time;
	pr->attrs[pr->nr_attrs++] = a;
	/* where handle_sample() finds a sample's id: from the first attribute */
	if (pr->nr_attrs == 1)
		pr->sample_id_at = a.sample_type & S_IDENTIFIER ? 0 :
			a.sample_type & S_ID ?
			8 * (size_t)__builtin_popcountll(a.sample_type & (S_IP | S_TID | S_TIME | S_ADDR)) :
			SIZE_MAX;
	/* records other than samples: can one layout read every trailer? */
	pr->same_trailer = true;
	for (uint32_t i = 1; i < pr->nr_attrs; i++)
		if ((pr->attrs[i].sample_type & S_TRAILER) != (pr->attrs[0].sample_type & S_TRAILER) ||
		    pr->attrs[i].sample_id_all != pr->attrs[0].sample_id_all)
			pr->same_trailer = false;
	return 0;
}

/* --- records --- */

/*
 * The time and CPU of a record other than a sample, from its sample_id
 * trailer (sample_id_all).  false when it has none.
 */
static bool trailer_time(struct perf_reader *pr, const uint8_t *rec, uint32_t size,
			 uint64_t *ts, int32_t *cpu)
{
	const struct perf_attr *a;
	uint64_t st;
	uint32_t n;
	const uint8_t *p;

	if (!pr->nr_attrs)
		return false;
	a = &pr->attrs[0];
	if (!pr->same_trailer && (a->sample_type & S_IDENTIFIER) && size >= 16)
		a = id_attr(pr, get_u64(rec + size - 8));
	if (!a || !a->sample_id_all || !(a->sample_type & S_TIME))
		return false;
	st = a->sample_type & S_TRAILER;
	n = 8 * (uint32_t)__builtin_popcountll(st);
	if (size < 8 + n)
		return false;
	p = rec + size - n;
	if (st & S_TID)
		p += 8;
	*ts = get_u64(p);
	p += 8;
	p += st & S_ID ? 8 : 0;
	p += st & S_STREAM_ID ? 8 : 0;
	*cpu = st & S_CPU ? (int32_t)get_u32(p) : -1;
	return true;
}

/*
 * Room for need entries in *q: as GROW(), without zeroing the new room
 * (queue() and sort_queue() write an entry before anything reads it; the
 * zeroing touched pages the queue never reaches, and valgrind counts its
 * rep stosb a byte an instruction).
 */
static void grow_entries(struct entry **q, size_t *alloc, size_t need)
{
	size_t n = *alloc ? *alloc : 16;

	if (need <= *alloc)
		return;
	while (n < need)
		n *= 2;
	*q = xrealloc(*q, n * sizeof(**q));
	*alloc = n;
}

/*
 * queue()'s rare work: the first record of an empty queue, or one
 * earlier than the record before it, starts an ascending run (the merge
 * sort takes the runs from here instead of looking for them); room.
 */
static void queue_slow(struct perf_reader *pr, uint64_t ts)
{
	if (!pr->q_nr) {
		/* perf's ordered_events: an empty queue starts its latest time anew */
		pr->max_ts = ts;
		pr->nr_runs = 0;
		pr->q_sorted = false;
	}
	if (!pr->q_nr || ts < pr->q[pr->q_nr - 1].ts) {
		GROW(pr->runs, pr->runs_alloc, pr->nr_runs + 2);	/* and the end, for the sort */
		pr->runs[pr->nr_runs++] = pr->q_nr;
	}
	if (pr->q_nr == pr->q_alloc)
		grow_entries(&pr->q, &pr->q_alloc, pr->q_nr + 1);
}

static inline void queue(struct perf_reader *pr, uint64_t ts, uint64_t ref)
{
	if (__builtin_expect(pr->q_nr && ts >= pr->q[pr->q_nr - 1].ts && pr->q_nr < pr->q_alloc, 1)) {
		if (ts >= pr->max_ts)
			pr->max_ts = ts;
	} else {
		queue_slow(pr, ts);
	}
	pr->q[pr->q_nr++] = (struct entry){ .ts = ts, .ref = ref };
}

/* Skip n bytes of the read format of a sample at p (end: the record's end). */
static const uint8_t *skip_read(const struct perf_attr *a, const uint8_t *p, const uint8_t *end)
{
	uint64_t rf = a->read_format, each = 8 + (rf & RF_ID ? 8 : 0) + (rf & RF_LOST ? 8 : 0);
	uint64_t times = (rf & RF_TOTAL_TIME_ENABLED ? 8 : 0) + (rf & RF_TOTAL_TIME_RUNNING ? 8 : 0);

	if (!(rf & RF_GROUP))
		return (uint64_t)(end - p) >= each + times ? p + each + times : NULL;
	if (end - p < 8)
		return NULL;
	uint64_t nr = get_u64(p);

	p += 8;
	if ((uint64_t)(end - p) < times || nr > ((uint64_t)(end - p) - times) / each)
		return NULL;
	return p + times + nr * each;
}

/* A sample: queue its tracepoint payload.  0, or -errno. */
static int handle_sample(struct perf_reader *pr, const uint8_t *rec, uint32_t size)
{
	const uint8_t *p = rec + 8, *end = rec + size;
	const struct perf_attr *a = &pr->attrs[0];
	uint64_t st, ts = 0;
	int32_t cpu = -1;

	if (pr->nr_attrs > 1) {
		size_t at = pr->sample_id_at;

		if (at != SIZE_MAX) {
			if ((size_t)(end - p) < at + 8)
				goto short_sample;
			a = id_attr(pr, get_u64(p + at));
			if (!a)
				return 0;	/* an id no attribute has: perf skips it too */
		}
	}
	if (a->fixed_raw) {
		/* the common case: no field of variable length before the raw data */
		uint32_t raw;

		if (size < a->fixed_raw + 4u)
			goto short_sample;
		raw = get_u32(rec + a->fixed_raw);
		cpu = (int32_t)get_u32(rec + a->fixed_cpu);
		if (raw > size - a->fixed_raw - 4u)
			goto short_sample;
		if (cpu < 0 || cpu >= MAX_CPUS)
			return fail(pr, -EINVAL, "corrupt perf.data: a sample at byte %llu on CPU %u",
				    (unsigned long long)pr->pos, (unsigned)cpu);
		if (raw)
			queue(pr, get_u64(rec + a->fixed_time),
			      ref_make(ENTRY_SAMPLE, pr->pos + a->fixed_raw, cpu));
		return 0;
	}
	st = a->sample_type;
#define TAKE(bit, n) do { if (st & (bit)) { if (end - p < (n)) goto short_sample; p += (n); } } while (0)
	TAKE(S_IDENTIFIER, 8);
	TAKE(S_IP, 8);
	TAKE(S_TID, 8);
	if (st & S_TIME) {
		if (end - p < 8)
			goto short_sample;
		ts = get_u64(p);
		p += 8;
	}
	TAKE(S_ADDR, 8);
	TAKE(S_ID, 8);
	TAKE(S_STREAM_ID, 8);
	if (st & S_CPU) {
		if (end - p < 8)
			goto short_sample;
		cpu = (int32_t)get_u32(p);
		p += 8;
	}
	TAKE(S_PERIOD, 8);
#undef TAKE
	if (st & S_READ && !(p = skip_read(a, p, end)))
		goto short_sample;
	if (st & S_CALLCHAIN) {
		if (end - p < 8 || get_u64(p) > (uint64_t)(end - p - 8) / 8)
			goto short_sample;
		p += 8 + 8 * get_u64(p);
	}
	if (a->type != ATTR_TYPE_TRACEPOINT || !(st & S_RAW)) {
		if (st & S_TIME)
			queue(pr, ts, ref_make(ENTRY_NONE, 0, 0));
		return 0;
	}
	if (!(st & S_TIME) || !(st & S_CPU))
		return fail(pr, -ENOTSUP, "perf.data samples without %s: record with perf sched "
			    "record, or perf record -a", st & S_TIME ? "a CPU" : "a time");
	if (end - p < 4 || get_u32(p) > (uint64_t)(end - p - 4))
		goto short_sample;
	if (cpu < 0 || cpu >= MAX_CPUS)
		return fail(pr, -EINVAL, "corrupt perf.data: a sample at byte %llu on CPU %u",
			    (unsigned long long)pr->pos, (unsigned)cpu);
	if (get_u32(p))
		queue(pr, ts, ref_make(ENTRY_SAMPLE, pr->pos + (uint64_t)(p - rec), cpu));
	return 0;
short_sample:
	return fail(pr, -EINVAL, "corrupt perf.data: the sample at byte %llu is shorter (%u bytes) "
		    "than its fields", (unsigned long long)pr->pos, size);
}

static void set_nrcpus(struct perf_reader *pr, const uint8_t *p, uint64_t size)
{
	uint32_t avail, online;

	if (size < 8)
		return;
	avail = get_u32(p);
	online = get_u32(p + 4);
	avail = MAX(avail, online);
	if (avail > 0 && avail <= MAX_CPUS) {
		pr->r.info.ncpus = (int)avail;
		pr->r.info.header_ncpus = (int)avail;
		pr->held = MIN(MIN_HELD_BYTES + ((uint64_t)avail << 20), MAX_HELD_BYTES);
	}
}

static void set_osrelease(struct perf_reader *pr, const uint8_t *p, uint64_t size)
{
	uint32_t len;

	if (size < 4)
		return;
	len = (uint32_t)MIN((uint64_t)get_u32(p), size - 4);	/* NUL-padded */
	snprintf(pr->r.info.kernel, sizeof(pr->r.info.kernel), "%.*s", (int)len, (const char *)p + 4);
}

/* The event formats: size bytes at offset of fd into tep and a decoder.  0 or -errno. */
static int load_tracing(struct perf_reader *pr, int fd, uint64_t offset, uint64_t size)
{
	struct sl_error *err = perf_err(pr);
	int ret;

	if (size > MAX_TRACING_DATA)
		return fail(pr, -EINVAL, "corrupt perf.data: %llu bytes of tracing data",
			    (unsigned long long)size);
	ret = sl_dat_layout_tracing_data(fd, offset, size, &pr->tlayout, err);
	if (!ret) {
		pr->tlayout.nr_cpus = pr->r.info.ncpus;
		ret = sl_dat_tep_load(fd, &pr->tlayout, &pr->tep, &pr->ksyms, &pr->names, err);
	}
	if (ret) {
		pr->error = ret;
		return ret;
	}
	pr->decoder = sl_dat_decoder_new(pr->tep, &pr->names, pr->strtab, err);
	if (!pr->decoder) {
		pr->error = -EINVAL;
		return -EINVAL;
	}
	/* the formats are those of the events recorded: without sched_switch, nothing to analyze */
	if (!tep_find_event_by_name(pr->tep, "sched", "sched_switch"))
		return fail(pr, -EINVAL, "this perf.data records no sched:sched_switch events: "
			    "record with perf sched record or perf record -e 'sched:*'");
	pr->lost_name = sl_dat_lost_name(pr->decoder);
	/* sched_stat_runtime, counted by name only, may be folded (fold_next()) */
	struct tep_event *runtime = tep_find_event_by_name(pr->tep, "sched", "sched_stat_runtime");

	if (runtime && runtime->id >= 0 && runtime->id <= UINT16_MAX && runtime->name &&
	    !sl_dat_decodes("sched", "sched_stat_runtime") &&
	    sl_dat_common_layout(pr->decoder, &pr->fold_type_off, &pr->fold_pid_off,
				 &pr->fold_min_size)) {
		pr->fold_id = runtime->id;
		pr->r.fold_name = sl_intern_cstr(pr->strtab, runtime->name);
	}
	pr->r.info.long_size = pr->tlayout.long_size;
	sl_dat_fill_info(pr->tep, &pr->r.info);
	pr->have_tracing = true;
	return 0;
}

/* Pipe mode: the tracing data follows its record; keep a copy to parse it from. */
static int pipe_tracing_data(struct perf_reader *pr, uint64_t off, uint64_t size)
{
	const uint8_t *p;
	int fd;

	if (size > MAX_TRACING_DATA)
		return fail(pr, -EINVAL, "corrupt perf.data: %llu bytes of tracing data",
			    (unsigned long long)size);
	p = window(pr, off, (size_t)size);
	if (!p)
		return pr->error ? pr->error :
			fail(pr, -EINVAL, "truncated perf.data: the tracing data at byte %llu "
			     "runs past the end", (unsigned long long)off);
	if (pr->have_tracing)
		return 0;	/* perf inject may repeat it: the first one holds */
	fd = memfd_create("perf-tracing-data", MFD_CLOEXEC);
	if (fd < 0)
		return fail(pr, -errno, "cannot keep the tracing data: %s", strerror(errno));
	for (uint64_t done = 0; done < size;) {
		ssize_t n = write(fd, p + done, (size_t)(size - done));

		if (n <= 0) {
			close(fd);
			return fail(pr, -EIO, "cannot keep the tracing data: %s", strerror(errno));
		}
		done += (uint64_t)n;
	}
	pr->tdata_fd = fd;
	pr->own_tdata_fd = true;
	return load_tracing(pr, fd, 0, size);
}

/* The records perf writes in pipe mode instead of the file header's tables. */
static int handle_user_record(struct perf_reader *pr, uint32_t type, const uint8_t *rec,
			      uint32_t size, uint64_t *extra)
{
	switch (type) {
	case REC_HEADER_ATTR: {
		uint32_t asize;
		int ret;

		if (size < 8 + ATTR_SIZE_VER0)
			break;
		asize = get_u32(rec + 8 + 4);
		if (!asize)
			asize = ATTR_SIZE_VER0;
		if (asize < ATTR_SIZE_VER0 || asize > size - 8)
			return fail(pr, -EINVAL, "corrupt perf.data: an attribute record at byte %llu",
				    (unsigned long long)pr->pos);
		if ((size - 8 - asize) / 8 > MAX_IDS - pr->nr_ids)	/* as the file's table */
			return fail(pr, -EINVAL, "corrupt perf.data: more than %u event ids (the "
				    "attribute record at byte %llu)", MAX_IDS,
				    (unsigned long long)pr->pos);
		ret = add_attr(pr, rec + 8, asize);
		if (ret)
			return ret;
		for (uint32_t off = 8 + asize; off + 8 <= size; off += 8)
			id_insert(pr, get_u64(rec + off), pr->nr_attrs - 1);
		return 0;
	}
	case REC_HEADER_TRACING_DATA:
		if (size < 12)
			break;
		*extra = get_u32(rec + 8);
		return pipe_tracing_data(pr, pr->pos + size, *extra);
	case REC_HEADER_FEATURE:
		if (size < 16)
			break;
		if (get_u64(rec + 8) == FEAT_NRCPUS)
			set_nrcpus(pr, rec + 16, size - 16);
		else if (get_u64(rec + 8) == FEAT_OSRELEASE)
			set_osrelease(pr, rec + 16, size - 16);
		return 0;
	case REC_AUXTRACE:
		if (size >= 16)
			*extra = get_u64(rec + 8);	/* the trace data follows the record */
		return 0;
	case REC_COMPRESSED:
		return fail(pr, -ENOTSUP, "compressed perf.data (perf record -z): write it "
			    "out uncompressed with perf inject -i FILE -o OUT first");
	default:
		return 0;
	}
	return fail(pr, -EINVAL, "corrupt perf.data: a record of type %u at byte %llu has "
		    "only %u bytes", type, (unsigned long long)pr->pos, size);
}

/* --- the order --- */

/*
 * Stable natural merge sort of q by time: the runs of each CPU (queue()
 * noted where each starts) are merged.
 */
static void sort_queue(struct perf_reader *pr)
{
	size_t n = pr->q_nr, *runs = pr->runs, nr_runs = pr->nr_runs;

	if (nr_runs > 1) {
		grow_entries(&pr->tmp, &pr->tmp_alloc, n);
		runs[nr_runs] = n;
		while (nr_runs > 1) {
			size_t out = 0;

			for (size_t r = 0; r < nr_runs; r += 2) {
				size_t a = runs[r], a_end = runs[MIN(r + 1, nr_runs)];
				size_t b = a_end, b_end = r + 1 < nr_runs ? runs[r + 2] : a_end;
				size_t o = a;

				runs[out++] = a;
				while (a < a_end && b < b_end)
					pr->tmp[o++] = pr->q[b].ts < pr->q[a].ts ? pr->q[b++] : pr->q[a++];
				memcpy(&pr->tmp[o], &pr->q[a], (a_end - a) * sizeof(*pr->q));
				o += a_end - a;
				memcpy(&pr->tmp[o], &pr->q[b], (b_end - b) * sizeof(*pr->q));
			}
			runs[out] = n;
			nr_runs = out;
			struct entry *t = pr->q;
			size_t ta = pr->q_alloc;

			pr->q = pr->tmp;
			pr->q_alloc = pr->tmp_alloc;
			pr->tmp = t;
			pr->tmp_alloc = ta;
		}
		pr->q_sorted = true;
	}
	pr->nr_runs = n ? 1 : 0;	/* one run from q[0] */
}

/*
 * The time of q[q_nr / 2] were the queue sorted (a stable sort by time):
 * the least time at or before which more than q_nr / 2 records are, by
 * bisection over the runs, each in order, so that no second array is
 * made (q's size more memory when a round outgrows held_budget()).
 */
static uint64_t median_ts(struct perf_reader *pr)
{
	size_t want = pr->q_nr / 2 + 1;
	uint64_t lo = UINT64_MAX, hi = 0;

	if (pr->nr_runs > MERGE_MAX_RUNS) {
		sort_queue(pr);
		return pr->q[pr->q_nr / 2].ts;
	}
	pr->runs[pr->nr_runs] = pr->q_nr;
	for (size_t r = 0; r < pr->nr_runs; r++) {
		lo = MIN(lo, pr->q[pr->runs[r]].ts);
		hi = MAX(hi, pr->q[pr->runs[r + 1] - 1].ts);
	}
	while (lo < hi) {	/* the answer lies in [lo, hi] */
		uint64_t mid = lo + (hi - lo) / 2;
		size_t at_or_before = 0;

		for (size_t r = 0; r < pr->nr_runs; r++) {
			size_t a = pr->runs[r], b = pr->runs[r + 1];

			while (a < b) {		/* the first of the run after mid */
				size_t m = a + (b - a) / 2;

				if (pr->q[m].ts <= mid)
					a = m + 1;
				else
					b = m;
			}
			at_or_before += a - pr->runs[r];
		}
		if (at_or_before >= want)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Hand on the queued records up to limit (all of them: UINT64_MAX), in
 * the order of a stable sort by time: the runs are merged as next() takes
 * them, the earliest head first and, at equal times, the head of the
 * earlier run (queued first).  Nothing is copied but what stays queued
 * (drop_done()).  More runs than MERGE_MAX_RUNS (times out of order
 * within a CPU) are sorted into one first.  false when no record is at
 * or before limit: nothing to hand on.
 */
static uint64_t map_piece(const struct perf_reader *pr, uint64_t limit);
static inline uint64_t entry_off(const struct entry *e);

static bool flush_upto(struct perf_reader *pr, uint64_t limit)
{
	bool any = false;

	if (pr->nr_runs > MERGE_MAX_RUNS)
		sort_queue(pr);
	pr->nr_heads = (int)pr->nr_runs;
	for (int i = 0; i < pr->nr_heads; i++) {
		struct run_head *h = &pr->heads[i];

		h->cur = pr->runs[i];
		h->end = i + 1 < pr->nr_heads ? pr->runs[i + 1] : pr->q_nr;
		h->ts = pr->q[h->cur].ts;
		h->done_off = entry_off(&pr->q[h->cur]);
		any |= h->ts <= limit;
	}
	pr->flush_limit = limit;
	pr->out_limit = map_piece(pr, limit);
	pr->out_active = any;
	pr->best_again = false;
	return any;
}

/*
 * Give back the mapped pages of the data in [from, upto): those still
 * needed come back from the page cache when they are read.  So the peak
 * RSS does not follow the size of perf record's rounds (-m): with -m 16M
 * a round held up to 15 MiB, two rounds are queued at once, and all of
 * it stayed mapped until handed on (a 40 MiB peak against 21 with perf
 * record's default buffers).  read_records() gives back what it read
 * MAP_READ_LAG ago and is still queued; next_piece() and head_done()
 * what was handed on.
 */
static void map_trim(struct perf_reader *pr, uint64_t from, uint64_t upto)
{
	uint64_t page = (uint64_t)sl_map_page_size();

	from = (from + page - 1) & ~(page - 1);
	upto &= ~(page - 1);
	if (pr->map && page && from < upto && upto <= pr->map_len)
		madvise(pr->map + from, (size_t)(upto - from), MADV_DONTNEED);
}

/* Where a queued record's bytes are, UINT64_MAX when it has none (ENTRY_NONE). */
static inline uint64_t entry_off(const struct entry *e)
{
	return ref_kind(e->ref) == ENTRY_NONE ? UINT64_MAX : ref_off(e->ref);
}

/*
 * The bytes of h's run from h->done_off to upto, its record next in line,
 * were handed on: give their pages back.  A run's records lie in file
 * order, but for one sort_queue() made: then a page given back may be
 * read again.
 */
static void map_trim_run(struct perf_reader *pr, struct run_head *h, uint64_t upto)
{
	if (upto == UINT64_MAX)
		return;
	if (h->done_off < upto)
		map_trim(pr, h->done_off, upto);
	if (h->done_off == UINT64_MAX || h->done_off < upto)
		h->done_off = upto;
}

/*
 * Where the piece of a hand-on up to limit ends: a mapped file's large
 * rounds are handed on MAP_PIECE records at a time, up to the earliest
 * time among the heads' records MAP_PIECE / heads further on (the head of
 * that time goes on, so each piece hands some on), and their pages given
 * back in between (next_piece()); the same order as in one go, as a
 * piece takes all the records up to its time.
 */
static uint64_t map_piece(const struct perf_reader *pr, uint64_t limit)
{
	size_t step;

	if (!pr->map || pr->q_nr <= MAP_PIECE || !pr->nr_heads)
		return limit;
	step = MAP_PIECE / (size_t)pr->nr_heads;
	for (int i = 0; i < pr->nr_heads; i++) {
		const struct run_head *h = &pr->heads[i];

		limit = MIN(limit, pr->q[MIN(h->cur + step, h->end) - 1].ts);
	}
	return limit;
}

/* A piece of the hand-on is through: the next one, false when none is left. */
static bool next_piece(struct perf_reader *pr)
{
	bool any = false;

	if (pr->out_limit >= pr->flush_limit)
		return false;
	for (int i = 0; i < pr->nr_heads; i++)
		map_trim_run(pr, &pr->heads[i], entry_off(&pr->q[pr->heads[i].cur]));
	pr->out_limit = map_piece(pr, pr->flush_limit);
	for (int i = 0; i < pr->nr_heads; i++)
		any |= pr->heads[i].ts <= pr->out_limit;
	pr->best_again = false;
	return any;
}

/* next_out(): a run is through; the others keep their order. */
static void head_done(struct perf_reader *pr, int i)
{
	struct run_head *h = &pr->heads[i];

	if (pr->map)
		map_trim_run(pr, h, entry_off(&pr->q[h->end - 1]));
	pr->nr_heads--;
	memmove(h, h + 1, (size_t)(pr->nr_heads - i) * sizeof(*h));
}

/*
 * next_out()'s choice: the earliest head (the first of equal ones), and
 * how far it may go on before another head or the limit comes first: to
 * the time before an earlier run's head, to a later run's head, to the
 * limit.  Runs take turns every few records (CPUs), so most records
 * need one comparison, not one per run.  -1 when none may go.
 */
static int choose_head(struct perf_reader *pr)
{
	const struct run_head *h = pr->heads;
	uint64_t upto = pr->out_limit;
	int best = 0;

	if (!pr->nr_heads)
		return -1;
	for (int i = 1; i < pr->nr_heads; i++)
		if (h[i].ts < h[best].ts)
			best = i;
	if (h[best].ts > upto)
		return -1;
	pr->best_again = true;
	for (int i = 0; i < pr->nr_heads; i++) {
		if (i < best && !h[i].ts)
			pr->best_again = false;		/* nothing is before 0 */
		else if (i != best)
			upto = MIN(upto, i < best ? h[i].ts - 1 : h[i].ts);
	}
	pr->best = best;
	pr->best_upto = upto;
	return best;
}

/*
 * A mapped file's records are read from the page cache, past what the
 * hardware prefetcher follows (it stops at each 4 KiB page): ask for the
 * bytes a page ahead as the records are queued (fast_sample()), and for
 * the raw data of the record PREFETCH_QUEUED further in the same run as
 * they are handed on, a round later (a round is a MiB or more, out of L2
 * when perf record ran with large buffers).  On a perf sched record of
 * hackbench (2.8 M samples, 291 MB) the reader alone took 0.122 s of CPU
 * without them, 0.097 with the first, 0.084 with both.
 */
#define PREFETCH_AHEAD		4096
#define PREFETCH_QUEUED		32

/* The next record to hand on, or NULL when the round's are all out. */
static inline const struct entry *next_out(struct perf_reader *pr)
{
	struct run_head *h = &pr->heads[pr->best];
	const struct entry *e;

	if (!pr->best_again || h->ts > pr->best_upto) {
		int best = choose_head(pr);

		if (best < 0)
			return NULL;
		h = &pr->heads[best];
	}
	e = &pr->q[h->cur++];
	if (pr->map && h->cur + PREFETCH_QUEUED < h->end)
		__builtin_prefetch(pr->map + ref_off(pr->q[h->cur + PREFETCH_QUEUED].ref));
	if (h->cur < h->end) {
		h->ts = pr->q[h->cur].ts;
	} else {
		head_done(pr, pr->best);
		pr->best_again = false;
	}
	return e;
}

/*
 * The records handed on are done: drop them, and the bytes only they
 * needed.  What is left of each run moves to the front, in order: they
 * stay the runs of the queue.  The earliest byte still needed is that of
 * a run's first record with bytes (a run's records lie in file order),
 * unless sort_queue() made the queue's order: then every record's.
 */
static void drop_done(struct perf_reader *pr)
{
	uint64_t keep = pr->pos;
	size_t w = 0;

	pr->nr_runs = 0;
	for (int i = 0; i < pr->nr_heads; i++) {
		size_t n = pr->heads[i].end - pr->heads[i].cur;

		if (!n)
			continue;
		for (size_t j = pr->heads[i].cur; !pr->q_sorted && j < pr->heads[i].end; j++)
			if (ref_kind(pr->q[j].ref) != ENTRY_NONE) {
				keep = MIN(keep, ref_off(pr->q[j].ref));
				break;
			}
		memmove(pr->q + w, pr->q + pr->heads[i].cur, n * sizeof(*pr->q));
		pr->runs[pr->nr_runs++] = w;
		w += n;
	}
	pr->q_nr = w;
	pr->nr_heads = 0;
	pr->out_active = false;
	pr->best_again = false;		/* perf_next()'s fast way needs heads again */
	for (size_t i = 0; pr->q_sorted && i < pr->q_nr; i++)
		if (ref_kind(pr->q[i].ref) != ENTRY_NONE)
			keep = MIN(keep, ref_off(pr->q[i].ref));
	if (!pr->q_nr)
		pr->q_sorted = false;
	pr->keep_off = keep;
	/*
	 * A mapped file: give back the pages no queued record needs, so the
	 * peak RSS holds about two rounds, as with the read window.
	 */
	if (pr->map && keep >= pr->dropped + MAP_DROP_BYTES) {
		uint64_t upto = keep & ~(uint64_t)(MAP_DROP_BYTES - 1);

		map_trim(pr, pr->dropped, upto);
		pr->dropped = upto;
	}
}

/* How many bytes of the stream a round may hold (MIN_HELD_BYTES): pr->held. */
static uint64_t held_budget(const struct perf_reader *pr)
{
	return pr->held;
}

/*
 * read_records()' common case, a mapped file's sample of a tracepoint
 * with its fields at fixed offsets: the same as the loop's way through
 * window() and handle_sample(), with fewer tests.  true when it took the
 * record at pr->pos (queued, or skipped for an id no attribute has, as
 * handle_sample() does) and moved past it; false, with nothing changed,
 * for anything else (the loop then reads it, and says what is wrong).
 */
static inline bool fast_sample(struct perf_reader *pr)
{
	const uint8_t *rec = pr->map + pr->pos;
	uint64_t left = pr->data_end - pr->pos;
	const struct perf_attr *a = pr->attrs;
	uint32_t size, raw;
	int32_t cpu;

	if (left > PREFETCH_AHEAD)
		__builtin_prefetch(rec + PREFETCH_AHEAD);
	if (left < 8 || get_u32(rec) != REC_SAMPLE || !pr->nr_attrs)
		return false;
	size = get_u16(rec + 6);
	if (size < 8 || size > left)
		return false;
	if (pr->nr_attrs > 1 && pr->sample_id_at != SIZE_MAX) {
		if (size - 8u < pr->sample_id_at + 8)
			return false;
		a = id_attr(pr, get_u64(rec + 8 + pr->sample_id_at));
		if (!a) {
			pr->pos += size;
			return true;
		}
	}
	if (!a->fixed_raw || size < a->fixed_raw + 4u)
		return false;
	raw = get_u32(rec + a->fixed_raw);
	cpu = (int32_t)get_u32(rec + a->fixed_cpu);
	if (raw > size - a->fixed_raw - 4u || cpu < 0 || cpu >= MAX_CPUS)
		return false;
	if (raw)
		queue(pr, get_u64(rec + a->fixed_time), ref_make(ENTRY_SAMPLE, pr->pos + a->fixed_raw, cpu));
	pr->pos += size;
	return true;
}

/*
 * fast_sample() over as many records as it can take in a row, with the
 * queue's state in locals (stores into q[] may alias pr's fields, so the
 * compiler cannot keep them in registers across a record): the records
 * that continue the queue's last ascending run, up to the point where
 * read_records() would hand a part of the queue on (held_budget()).  It
 * stops, leaving them to fast_sample() and the loop, at anything else: a
 * record other than such a sample, an empty queue, a time earlier than the
 * one before (a new run), a full queue (room to be made).  Such a sample
 * is one of an attribute with the fast layout (perf_attr.fast: perf sched
 * record gives all its tracepoints the same sample_type), so that the
 * offsets and the least size are tested once, not per attribute; ids:
 * the samples carry the id of their attribute (fast_samples() makes a
 * loop for each case, with fewer values live in it).
 */
static inline __attribute__((always_inline)) void
fast_samples_with(struct perf_reader *pr, const bool ids)
{
	const uint8_t *map = pr->map, *rec = map + pr->pos, *end = map + pr->data_end, *stop;
	const struct perf_attr *attrs = pr->attrs;
	struct entry *q = pr->q + pr->q_nr, *q_stop;
	uint64_t held = held_budget(pr), last;
	const size_t id_at = pr->sample_id_at;
	/* the ids' direct table, when id_attr() would use it */
	const uint16_t *direct = pr->id_direct;
	const uint64_t id_base = pr->id_base, id_span = pr->id_span;
	/* the fast layout, and a size every such sample has (with its id) */
	const uint32_t ft = pr->fast_time, fc = pr->fast_cpu, fr = pr->fast_raw;
	const uint32_t min_size = MAX(fr + 4u, ids ? (uint32_t)id_at + 16u : 8u);

	last = q[-1].ts;
	q_stop = pr->q + MIN(pr->q_alloc, (size_t)(held / 64));
	/* a record's header lies before end; read_records() checks the rest at pos_stop */
	stop = map + MIN(MIN(pr->keep_off + held, pr->trim_at), pr->data_end - 8);
	while (q < q_stop && rec <= stop) {
		uint32_t size, raw, cpu;
		uint64_t ts;

		if (end - rec > PREFETCH_AHEAD + 64) {
			/* two lines: a sample (~100 bytes) often spans three */
			__builtin_prefetch(rec + PREFETCH_AHEAD);
			__builtin_prefetch(rec + PREFETCH_AHEAD + 64);
		}
		size = get_u16(rec + 6);
		if (get_u32(rec) != REC_SAMPLE || size < min_size || size > (size_t)(end - rec))
			break;
		if (ids) {
			uint64_t i = get_u64(rec + 8 + id_at) - id_base;

			if (i >= id_span || !direct[i]) {
				rec += size;	/* an id no attribute has: skipped, as fast_sample() does */
				continue;
			}
			if (!attrs[direct[i] - 1].fast)
				break;
		}
		raw = get_u32(rec + fr);
		cpu = get_u32(rec + fc);
		if (raw > size - fr - 4u || cpu >= MAX_CPUS)
			break;
		if (raw) {
			ts = get_u64(rec + ft);
			if (ts < last)
				break;
			q->ts = ts;
			q->ref = ref_make(ENTRY_SAMPLE, (uint64_t)(rec - map) + fr, (int32_t)cpu);
			q++;
			last = ts;
		}
		rec += size;
	}
	pr->pos = (uint64_t)(rec - map);
	pr->q_nr = (size_t)(q - pr->q);
	pr->max_ts = MAX(pr->max_ts, last);
}

static inline void fast_samples(struct perf_reader *pr)
{
	bool ids = pr->nr_attrs > 1 && pr->sample_id_at != SIZE_MAX;

	if (!pr->q_nr || !pr->nr_attrs || !pr->fast_raw || pr->data_end - pr->pos < 8 ||
	    (ids && (pr->id_direct_stale || !pr->id_span)) || (!ids && !pr->attrs[0].fast))
		return;
	if (ids)
		fast_samples_with(pr, true);
	else
		fast_samples_with(pr, false);
}

/*
 * Read records until a round can be handed on (1), the data ends (0), or
 * an error (-errno).  stop_at_tracing: return 1 as soon as the formats
 * are known (pipe mode, at open).
 */
static int read_records(struct perf_reader *pr, bool stop_at_tracing)
{
	for (;;) {
		const uint8_t *rec;
		uint64_t extra = 0, ts;
		uint32_t type, size;
		int32_t cpu;
		int ret = 0;

		if (stop_at_tracing && pr->have_tracing)
			return 1;
		if (pr->pos == pr->data_end)
			return 0;
		if (pr->map) {
			/* what was read MAP_READ_LAG ago and is still queued: given back (map_trim()) */
			if (pr->pos >= pr->trim_at) {
				map_trim(pr, pr->keep_off, pr->pos - MIN(pr->pos, (uint64_t)MAP_READ_LAG));
				pr->trim_at = pr->pos + MAP_READ_LAG / 4;
			}
			fast_samples(pr);
			/* where it stopped: the hand-on below, or a record it left */
			if (pr->q_nr >= held_budget(pr) / 64 || pr->pos > pr->keep_off + held_budget(pr))
				goto taken;
			if (pr->pos == pr->data_end)
				return 0;
			if (fast_sample(pr))
				goto taken;
		}
		rec = window(pr, pr->pos, 8);
		if (!rec) {
			if (pr->error)
				return pr->error;
			if (pr->pos == pr->buf_off + pr->buf_len && pr->data_end == UINT64_MAX)
				return 0;	/* a pipe ends between records */
			return fail(pr, -EINVAL, "truncated perf.data: a record header at byte %llu "
				    "runs past the end", (unsigned long long)pr->pos);
		}
		type = get_u32(rec);
		size = get_u16(rec + 6);
		if (size < 8)
			return fail(pr, -EINVAL, "corrupt perf.data: a record of %u bytes at byte %llu",
				    size, (unsigned long long)pr->pos);
		rec = window(pr, pr->pos, size);
		if (!rec)
			return pr->error ? pr->error :
				fail(pr, -EINVAL, "truncated perf.data: the record at byte %llu "
				     "(%u bytes) runs past the end", (unsigned long long)pr->pos, size);
		if (type == REC_SAMPLE) {
			if (!pr->nr_attrs)
				return fail(pr, -EINVAL, "corrupt perf.data: a sample at byte %llu "
					    "before any event attribute", (unsigned long long)pr->pos);
			ret = handle_sample(pr, rec, size);
		} else if (type == REC_FINISHED_ROUND) {
			pr->pos += size;
			if (pr->q_nr) {
				uint64_t limit = pr->next_flush;

				pr->next_flush = pr->max_ts;
				if (flush_upto(pr, limit))
					return 1;
			}
			continue;
		} else if (type >= REC_USER_START) {
			ret = handle_user_record(pr, type, rec, size, &extra);
		} else if (trailer_time(pr, rec, size, &ts, &cpu)) {
			if (type == REC_LOST_SAMPLES && size >= 16) {
				pr->lost_samples = sat_add_u64(pr->lost_samples, get_u64(rec + 8));
				queue(pr, ts, ref_make(ENTRY_NONE, 0, 0));
			} else if (type == REC_LOST && size >= 24) {
				if (cpu < 0 || cpu >= MAX_CPUS)
					return fail(pr, -EINVAL, "corrupt perf.data: lost events at byte "
						    "%llu on CPU %d", (unsigned long long)pr->pos, cpu);
				/* its count (at +16) is read when it is handed on */
				queue(pr, ts, ref_make(ENTRY_LOST, pr->pos, cpu));
			} else if (type == REC_COMM && pr->r.comm && size >= 24) {
				queue(pr, ts, ref_make(ENTRY_COMM, pr->pos, 0));
			} else {
				queue(pr, ts, ref_make(ENTRY_NONE, 0, 0));
			}
		} else if (type == REC_COMM && pr->r.comm && size >= 24) {
			/* no time (perf record's own, of the tasks before it): first */
			queue(pr, 0, ref_make(ENTRY_COMM, pr->pos, 0));
		} else if (type == REC_LOST && size >= 24) {
			/* no time, no CPU: counted, not placed */
			pr->r.info.lost_events = sat_add_u64(pr->r.info.lost_events, get_u64(rec + 16));
		}
		if (ret)
			return ret;
		if (extra > pr->data_end - pr->pos - size)
			return fail(pr, -EINVAL, "truncated perf.data: the data of the record at "
				    "byte %llu runs past the end", (unsigned long long)pr->pos);
		/* a pipe's data after a record goes through the window */
		if (pr->data_end == UINT64_MAX && extra > held_budget(pr))
			return fail(pr, -EINVAL, "corrupt perf.data: the record at byte %llu claims "
				    "%llu bytes of data after it (more than %llu MiB in a pipe)",
				    (unsigned long long)pr->pos, (unsigned long long)extra,
				    (unsigned long long)(held_budget(pr) >> 20));
		pr->pos += size + extra;
taken:
		/*
		 * A round too long (or none, a stream without FINISHED_ROUND):
		 * hand on the earlier half of the queue, as perf's
		 * ordered_events does at its memory limit (OE_FLUSH__HALF), so
		 * that memory holds the budget, not the stream; until it is
		 * back within it, half again.  A later record of an earlier
		 * time comes out of order (the model counts clock inversions).
		 */
		if (pr->q_nr >= held_budget(pr) / 64 || pr->pos > pr->keep_off + held_budget(pr)) {
			if (!pr->q_nr) {
				pr->keep_off = pr->pos;	/* nothing queued needs a byte */
				continue;
			}
			flush_upto(pr, median_ts(pr));
			return 1;
		}
	}
}

static int next_event(struct perf_reader *pr, struct sl_event *ev);
static int decode_entry(struct perf_reader *pr, const struct entry *e, struct sl_event *ev);

/* A PERF_RECORD_COMM at p (at least 24 bytes): its SL_EV_COMM */
static __attribute__((noinline)) int comm_event(struct perf_reader *pr, const struct entry *e,
						const uint8_t *p, struct sl_event *ev)
{
	const char *s = (const char *)p + 16;

	memset(ev, 0, sizeof(*ev));
	ev->type = SL_EV_COMM;
	ev->ts = e->ts;
	ev->cpu = ref_cpu(e->ref);
	ev->pid = -1;
	ev->comm.pid = (int32_t)get_u32(p + 12);	/* the tid */
	ev->comm.comm = sl_intern(pr->strtab, s, strnlen(s, get_u16(p + 6) - 16u));
	return 1;
}

/* A queued sample whose tracepoint data sl_dat_decode() refused: the error */
static __attribute__((noinline)) int too_short(struct perf_reader *pr, const struct entry *e)
{
	const uint8_t *p = pr->buf + (ref_off(e->ref) - pr->buf_off);

	return fail(pr, -EINVAL, "corrupt perf.data: the tracepoint data at byte %llu (%u bytes) "
		    "is too short for its format", (unsigned long long)ref_off(e->ref) + 4,
		    get_u32(p));
}
static int perf_next_checked(struct perf_reader *pr, int ret);
static __attribute__((noinline)) int decode_failed(struct perf_reader *pr);
static inline const struct entry *next_out(struct perf_reader *pr);

/* Is the sample whose raw data is at p one fold_next() may fold (the caller asked)? */
static inline bool foldable(const struct perf_reader *pr, const uint8_t *p)
{
	return __builtin_expect(pr->r.fold, 0) && pr->fold_id >= 0 &&
	       get_u32(p) >= (uint32_t)pr->fold_min_size &&
	       get_u16(p + 4 + pr->fold_type_off) == (uint16_t)pr->fold_id;
}

/*
 * The sched_stat_runtime e (raw data at p, foldable()) just taken from the
 * head pr->best: when the record handed on next is the same run's next,
 * a sample of the same CPU and task (common_pid) at most 65534 ns later,
 * it is decoded into ev with e folded into it (sl_event.folded_ago): 1.
 * 0, with nothing taken, when it is not so; -errno when it is too short.
 * Folded, e is neither decoded nor handed on: perf sched record logs one
 * before most switches and wakeups of the task running, 46% of its
 * samples.
 */
static inline int fold_next(struct perf_reader *pr, const struct entry *e,
			    const uint8_t *p, struct sl_event *ev)
{
	const struct run_head *h = &pr->heads[pr->best];
	const struct entry *n;
	const uint8_t *pn;

	if (!pr->best_again || h->cur >= h->end || h->ts > pr->best_upto)
		return 0;	/* another run's record, or none, comes next */
	n = &pr->q[h->cur];
	if (ref_kind(n->ref) != ENTRY_SAMPLE || ref_cpu(n->ref) != ref_cpu(e->ref) ||
	    n->ts - e->ts >= UINT16_MAX)
		return 0;
	pn = pr->buf + (ref_off(n->ref) - pr->buf_off);
	if (get_u32(pn) < (uint32_t)pr->fold_min_size ||
	    get_u32(pn + 4 + pr->fold_pid_off) != get_u32(p + 4 + pr->fold_pid_off))
		return 0;
	n = next_out(pr);	/* n: best_again, its time at most best_upto */
	if (sl_dat_decode(pr->decoder, ref_cpu(n->ref), n->ts, pn + 4, (int)get_u32(pn), ev) < 0)
		return too_short(pr, n);
	ev->folded_ago = (uint16_t)(n->ts - e->ts + 1);
	return 1;
}

/*
 * perf_next()'s common case with a foldable() e just taken: fold_next()
 * when the next one fits, else e as perf_next() hands it on; then
 * perf_next()'s end.  Apart, so that perf_next() keeps its short
 * prologue when nothing is folded.
 */
static __attribute__((noinline)) int fold_fast(struct perf_reader *pr, const struct entry *e,
					       const uint8_t *p, struct sl_event *ev)
{
	struct run_head *h = &pr->heads[pr->best];
	int ret;

	h->ts = e[1].ts;
	pr->any_event = true;
	ret = fold_next(pr, e, p, ev);
	if (!ret) {
		ret = sl_dat_decode(pr->decoder, ref_cpu(e->ref), e->ts, p + 4, (int)get_u32(p), ev) < 0 ?
			too_short(pr, e) : 1;
	}
	if (__builtin_expect(ret > 0 && !(pr->watch && *pr->watch), 1))
		return ret;
	return perf_next_checked(pr, ret);
}

static int perf_next(struct sl_reader *r, struct sl_event *ev)
{
	struct perf_reader *pr = (struct perf_reader *)r;
	struct run_head *h = &pr->heads[pr->best];
	int ret;

	/*
	 * The common case, next_one()'s in fewer steps: the run taken last
	 * goes on (next_out()) with a sample that is not its last.
	 */
	if (__builtin_expect(pr->best_again && h->ts <= pr->best_upto && h->cur + 1 < h->end &&
			     ref_kind(pr->q[h->cur].ref) == ENTRY_SAMPLE && !pr->error, 1)) {
		const struct entry *e = &pr->q[h->cur++];
		const uint8_t *p = pr->buf + (ref_off(e->ref) - pr->buf_off);

		/* before the fold's test: a folded pair takes two records, next_out() asks for one */
		if (pr->map && h->cur + PREFETCH_QUEUED < h->end)
			__builtin_prefetch(pr->map + ref_off(pr->q[h->cur + PREFETCH_QUEUED].ref));
		if (foldable(pr, p))
			return fold_fast(pr, e, p, ev);
		h->ts = e[1].ts;
		pr->any_event = true;
		/* only pr lives across the call: a short prologue (decode_failed() finds e again) */
		if (__builtin_expect(sl_dat_decode(pr->decoder, ref_cpu(e->ref), e->ts, p + 4,
						   (int)get_u32(p), ev) < 0, 0))
			return decode_failed(pr);
		ret = 1;
	} else {
		ret = next_event(pr, ev);
	}
	if (__builtin_expect(ret > 0 && !(pr->watch && *pr->watch), 1))
		return ret;
	return perf_next_checked(pr, ret);
}

/* perf_next()'s sample that sl_dat_decode() refused: the one the run taken last just gave */
static int decode_failed(struct perf_reader *pr)
{
	const struct run_head *h = &pr->heads[pr->best];

	return perf_next_checked(pr, too_short(pr, &pr->q[h->cur - 1]));
}

/* perf_next()'s end when the map's guard marked a fault, or on an error */
static int perf_next_checked(struct perf_reader *pr, int ret)
{
	struct stat st;
	/*
	 * Past the new end the map faults (the guard's mark), but the rest
	 * of the page the file now ends in reads as zeros: an error there
	 * is the file shrinking too.
	 */
	if (pr->map && !pr->shrank_told &&
	    ((pr->guard && pr->guard->shrank) ||
	     (ret < 0 && !fstat(pr->fd, &st) && (uint64_t)st.st_size < pr->file_size))) {
		pr->shrank_told = true;		/* what it read since are zeros */
		pr->watch = NULL;
		return fail(pr, -EIO, "the file shrank while it was read (%llu bytes when "
			    "opened, %lld now)", (unsigned long long)pr->file_size,
			    fstat(pr->fd, &st) ? -1ll : (long long)st.st_size);
	}
	return ret;
}

static int next_one(struct perf_reader *pr, struct sl_event *ev);

/* A queued sample's tracepoint data into ev: 1, or -errno. */
static inline int decode_entry(struct perf_reader *pr, const struct entry *e, struct sl_event *ev)
{
	const uint8_t *p = pr->buf + (ref_off(e->ref) - pr->buf_off);

	if (sl_dat_decode(pr->decoder, ref_cpu(e->ref), e->ts, p + 4, (int)get_u32(p), ev) < 0)
		return too_short(pr, e);
	return 1;
}

/* As a text or a trace.dat without events: nothing to analyze is an error (issue 32, 04). */
static __attribute__((noinline)) int next_event(struct perf_reader *pr, struct sl_event *ev)
{
	int ret = next_one(pr, ev);

	if (ret > 0)
		pr->any_event = true;
	else if (!ret && !pr->any_event)
		return fail(pr, -ENODATA, "no events (no samples in this perf.data)");
	return ret;
}

static int next_one(struct perf_reader *pr, struct sl_event *ev)
{
	struct sl_reader *r = &pr->r;
	int ret;

	for (;;) {
		if (pr->error)
			return pr->error;
		while (pr->out_active) {
			const struct entry *e = next_out(pr);

			if (!e) {
				if (next_piece(pr))
					continue;
				drop_done(pr);
				break;
			}
			uint64_t kind = ref_kind(e->ref);
			const uint8_t *p;

			if (kind == ENTRY_SAMPLE) {
				const uint8_t *p = pr->buf + (ref_off(e->ref) - pr->buf_off);

				if (foldable(pr, p) && (ret = fold_next(pr, e, p, ev)))
					return ret;
				return decode_entry(pr, e, ev);
			}
			if (kind == ENTRY_NONE)
				continue;
			p = pr->buf + (ref_off(e->ref) - pr->buf_off);
			if (kind == ENTRY_COMM)
				return comm_event(pr, e, p, ev);
			uint64_t count = get_u64(p + 16);

			memset(ev, 0, sizeof(*ev));
			ev->type = SL_EV_LOST;
			ev->name = pr->lost_name;
			ev->ts = e->ts;
			ev->cpu = ref_cpu(e->ref);
			ev->pid = -1;
			ev->lost.count = count;
			if (count)
				r->info.lost_events = sat_add_u64(r->info.lost_events, count);
			else
				r->info.lost_unknown++;
			return 1;
		}
		if (pr->eof) {
			if (!pr->q_nr)
				return 0;
			flush_upto(pr, UINT64_MAX);
			continue;
		}
		if (pr->guard)
			sl_map_guard_arm();	/* once a round: explore may have put its own */
		ret = read_records(pr, false);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			pr->eof = true;
			/* perf record's own total (see the top of the file) */
			if (pr->lost_samples > r->info.lost_events)
				r->info.lost_events = pr->lost_samples;
			if (!pr->q_nr)
				return 0;
			flush_upto(pr, UINT64_MAX);
		}
	}
}

static void perf_close(struct sl_reader *r)
{
	struct perf_reader *pr = (struct perf_reader *)r;

	sl_map_guard_release(pr->guard);
	sl_dat_decoder_free(pr->decoder);
	if (pr->tep)
		tep_free(pr->tep);
	sl_dat_names_free(&pr->names);
	sl_kallsyms_free(pr->ksyms);
	sl_dat_layout_free(&pr->tlayout);
	if (pr->own_tdata_fd)
		close(pr->tdata_fd);
	if (pr->fd >= 0)
		close(pr->fd);
	if (pr->map)
		munmap(pr->map, pr->map_len);
	else
		free(pr->buf);
	free(pr->attrs);
	free(pr->ids);
	free(pr->ids_attr_plus1);
	free(pr->id_direct);
	free(pr->q);
	free(pr->tmp);
	free(pr->runs);
	free(pr);
}

static const struct sl_reader_ops perf_ops = {
	.next = perf_next,
	.close = perf_close,
};

/* --- the file header --- */

static int truncated(struct perf_reader *pr, const char *what, uint64_t end)
{
	return fail(pr, -EINVAL, "truncated perf.data: %s ends at byte %llu, the file has %llu",
		    what, (unsigned long long)end, (unsigned long long)pr->file_size);
}

/* Does [off, off + size) lie in the file? */
static bool in_file(const struct perf_reader *pr, uint64_t off, uint64_t size)
{
	return off <= pr->file_size && size <= pr->file_size - off;
}

/*
 * The ids the attributes' lists name, all together, before one goes in:
 * over MAX_IDS is refused before the table is built (counted one list
 * at a time, a file had the table filled to the cap before it was, and
 * lists naming the same ids over and over were read to the end).  An
 * entry it cannot make sense of, and those after it, are left to
 * read_attrs() to refuse (before their ids go in), as are entries past
 * MAX_ATTRS (add_attr()).
 */
static int check_nr_ids(struct perf_reader *pr, uint8_t *e, uint64_t attr_size, uint64_t off,
			uint64_t size)
{
	uint64_t total = 0;

	for (uint64_t at = off, n = 0; at < off + size && n < MAX_ATTRS; at += attr_size, n++) {
		uint32_t asize;

		if (!pread_all(pr->fd, e, attr_size, at))
			break;
		asize = get_u32(e + 4);
		if (!asize)
			asize = ATTR_SIZE_VER0;
		if (asize < ATTR_SIZE_VER0 || asize > attr_size - 16)
			break;
		/* at most 2^40 a list: 4096 of them add up without overflow */
		total += MIN(get_u64(e + asize + 8) / 8, 1ull << 40);
	}
	if (total > MAX_IDS)
		return fail(pr, -EINVAL, "corrupt perf.data: the attributes' id lists hold %llu "
			    "ids, more than %u", (unsigned long long)total, MAX_IDS);
	return 0;
}

static int read_attrs(struct perf_reader *pr, uint64_t attr_size, uint64_t off, uint64_t size)
{
	uint8_t *e;
	int ret = 0;

	if (!in_file(pr, off, size))
		return truncated(pr, "the attribute table", off + size);
	if (attr_size < ATTR_SIZE_VER0 + 16 || attr_size > 4096 || size % attr_size)
		return fail(pr, -EINVAL, "corrupt perf.data: attribute table of %llu bytes, "
			    "%llu bytes each", (unsigned long long)size, (unsigned long long)attr_size);
	if (!size)
		return fail(pr, -EINVAL, "corrupt perf.data: no event attributes");
	e = xmalloc(attr_size);
	ret = check_nr_ids(pr, e, attr_size, off, size);
	for (uint64_t at = off; at < off + size && !ret; at += attr_size) {
		uint32_t asize;
		uint64_t ids_off, ids_size;

		if (!pread_all(pr->fd, e, attr_size, at)) {
			ret = truncated(pr, "the attribute table", off + size);
			break;
		}
		asize = get_u32(e + 4);
		if (!asize)
			asize = ATTR_SIZE_VER0;
		if (asize < ATTR_SIZE_VER0 || asize > attr_size - 16) {
			ret = fail(pr, -EINVAL, "corrupt perf.data: an attribute of %u bytes in "
				   "entries of %llu", asize, (unsigned long long)attr_size);
			break;
		}
		ret = add_attr(pr, e, asize);
		if (ret)
			break;
		ids_off = get_u64(e + asize);
		ids_size = get_u64(e + asize + 8);
		if (!in_file(pr, ids_off, ids_size)) {
			ret = truncated(pr, "an attribute's id list", ids_off + ids_size);
			break;
		}
		uint64_t *ids = xmalloc(ids_size + 8);

		if (!pread_all(pr->fd, ids, ids_size, ids_off))
			ret = truncated(pr, "an attribute's id list", ids_off + ids_size);
		for (uint64_t i = 0; !ret && i < ids_size / 8; i++)
			id_insert(pr, ids[i], pr->nr_attrs - 1);
		free(ids);
	}
	free(e);
	return ret;
}

/* The feature sections after the data: the formats, the CPU count, the kernel. */
static int read_features(struct perf_reader *pr, const uint8_t *hdr, uint64_t table)
{
	uint64_t tracing_off = 0, tracing_size = 0;
	int index = 0;

	for (int bit = 0; bit < FEAT_BITS; bit++) {
		uint8_t sec[16], small[4 + 128];
		uint64_t off, size;

		if (!(get_u64(hdr + 72 + 8 * (bit / 64)) >> (bit % 64) & 1))
			continue;
		/* one entry per bit set, in bit order; only those we use are read */
		index++;
		if (bit != FEAT_TRACING_DATA && bit != FEAT_NRCPUS && bit != FEAT_OSRELEASE)
			continue;
		if (!pread_all(pr->fd, sec, 16, table + 16 * (uint64_t)(index - 1)))
			return truncated(pr, "the table of header features", table + 16 * (uint64_t)index);
		off = get_u64(sec);
		size = get_u64(sec + 8);
		if (!in_file(pr, off, size))
			return truncated(pr, bit == FEAT_TRACING_DATA ? "the tracing data" :
					 "a header feature", off + size);
		if (bit == FEAT_TRACING_DATA) {
			tracing_off = off;
			tracing_size = size;
			continue;
		}
		size = MIN(size, sizeof(small));
		if (!pread_all(pr->fd, small, (size_t)size, off))
			return truncated(pr, "a header feature", off + size);
		if (bit == FEAT_NRCPUS)
			set_nrcpus(pr, small, size);
		else
			set_osrelease(pr, small, size);
	}
	if (!tracing_size) {
		bool tracepoints = false;

		for (uint32_t i = 0; i < pr->nr_attrs; i++)
			tracepoints |= pr->attrs[i].type == ATTR_TYPE_TRACEPOINT;
		return fail(pr, -EINVAL, tracepoints ?
			    "corrupt perf.data: no tracing-data section (the event formats)" :
			    "this perf.data records no tracepoints: record with perf sched record "
			    "or perf record -e 'sched:*'");
	}
	return load_tracing(pr, pr->fd, tracing_off, tracing_size);
}

static int open_file(struct perf_reader *pr)
{
	uint8_t hdr[FILE_HEADER_SIZE];
	uint64_t hsize, data_off, data_size;
	int ret;

	if (!pread_all(pr->fd, hdr, 16, 0))
		return truncated(pr, "the header", 16);
	hsize = get_u64(hdr + 8);
	if (hsize == PIPE_HEADER_SIZE) {
		pr->pipe = true;
		return 0;
	}
	if (hsize != FILE_HEADER_SIZE)
		return fail(pr, -EINVAL, "corrupt perf.data: a header of %llu bytes "
			    "(perf writes %d)", (unsigned long long)hsize, FILE_HEADER_SIZE);
	if (!pread_all(pr->fd, hdr, sizeof(hdr), 0))
		return truncated(pr, "the header", sizeof(hdr));
	data_off = get_u64(hdr + 40);
	data_size = get_u64(hdr + 48);
	if (get_u64(hdr + 72 + 8 * (FEAT_DIR_FORMAT / 64)) >> (FEAT_DIR_FORMAT % 64) & 1)
		return fail(pr, -ENOTSUP, "%s", SL_PERF_DIR_MSG);
	/*
	 * perf record writes the data size, and the feature sections with the
	 * event formats after the data, when it ends (perf script refuses
	 * such a file too: "incompatible file format").
	 */
	if (!data_size)
		return fail(pr, -EINVAL, "this perf.data is not finished (its header gives no data "
			    "size): perf record is still writing it, or was killed; to read while "
			    "recording: perf record -o - ... | schedlint analyze -");
	if (!in_file(pr, data_off, data_size))
		return truncated(pr, "the data section", data_off + data_size);
	ret = read_attrs(pr, get_u64(hdr + 16), get_u64(hdr + 24), get_u64(hdr + 32));
	if (ret)
		return ret;
	ret = read_features(pr, hdr, data_off + data_size);
	if (ret)
		return ret;
	pr->pos = data_off;
	pr->buf_off = pr->keep_off = data_off;
	pr->data_end = data_off + data_size;
	/*
	 * Map the file: the records are read in place, without a copy out of
	 * the page cache (a tenth of the CPU time on a large file).  If it
	 * cannot be mapped, or not guarded (map_guard.h: more readers open at
	 * once than it has room for), the read window does the same work.
	 */
	if (data_size && pr->file_size <= SIZE_MAX) {
		void *map = mmap(NULL, (size_t)pr->file_size, PROT_READ, MAP_PRIVATE, pr->fd, 0);

		if (map != MAP_FAILED && !(pr->guard = sl_map_guard_add(map, (size_t)pr->file_size)))
			munmap(map, (size_t)pr->file_size);
		else if (map != MAP_FAILED) {
			madvise(map, (size_t)pr->file_size, MADV_SEQUENTIAL);
			pr->map = map;
			pr->map_len = (size_t)pr->file_size;
			pr->watch = &pr->guard->shrank;
			pr->buf = map;
			pr->buf_off = 0;
			pr->buf_len = (size_t)pr->data_end;
		}
	}
	return 0;
}

int sl_read_perf_open(int fd, const char *prefix, size_t prefix_len, struct sl_strtab *strtab,
		      struct sl_reader **out, struct sl_error *err)
{
	struct perf_reader *pr = xcalloc(1, sizeof(*pr));
	struct stat st;
	int ret;

	pr->r.ops = &perf_ops;
	pr->r.err = err;		/* sl_reader_open() sets it again */
	pr->r.info.format = SL_FMT_PERF_DATA;
	pr->r.has_comm = true;		/* PERF_RECORD_COMM */
	pr->fd = fd;
	pr->strtab = strtab;
	pr->data_end = UINT64_MAX;
	pr->held = MIN_HELD_BYTES;
	pr->fold_id = -1;
	if (prefix_len >= 8 && !memcmp(prefix, "2ELIFREP", 8)) {
		ret = fail(pr, -ENOTSUP, "a perf.data of the other byte order is not supported: "
			   "give its perf script text instead (perf script -i FILE > FILE.txt)");
		goto fail;
	}
	pr->seekable = !fstat(fd, &st) && S_ISREG(st.st_mode);
	if (pr->seekable) {
		pr->file_size = (uint64_t)st.st_size;
		if (pr->file_size > MAX_STREAM_POS) {
			ret = fail(pr, -EFBIG, "perf.data files past 256 TiB are not supported");
			goto fail;
		}
		ret = open_file(pr);
		if (ret)
			goto fail;
	} else {
		pr->pipe = true;
	}
	if (pr->pipe) {
		/* pipe mode: 16-byte header, the rest comes as records */
		if (!pr->seekable) {
			GROW(pr->buf, pr->buf_alloc, READ_CHUNK);
			memcpy(pr->buf, prefix, prefix_len);
			pr->buf_len = prefix_len;
		}
		pr->data_end = pr->seekable ? pr->file_size : UINT64_MAX;
		const uint8_t *h = window(pr, 0, PIPE_HEADER_SIZE);

		if (!h) {
			ret = pr->error ? pr->error :
				fail(pr, -EINVAL, "truncated perf.data: the header");
			goto fail;
		}
		if (get_u64(h + 8) == FILE_HEADER_SIZE) {
			ret = fail(pr, -EINVAL, "a perf.data file cannot be read from a pipe: give its "
				   "file name (or record with perf record -o - for a pipe)");
			goto fail;
		}
		if (get_u64(h + 8) != PIPE_HEADER_SIZE) {
			ret = fail(pr, -EINVAL, "corrupt perf.data: a header of %llu bytes",
				   (unsigned long long)get_u64(h + 8));
			goto fail;
		}
		pr->pos = pr->keep_off = PIPE_HEADER_SIZE;
		ret = read_records(pr, true);
		if (ret < 0)
			goto fail;
		if (!pr->have_tracing) {
			ret = fail(pr, -EINVAL, pr->nr_attrs ?
				   "corrupt perf.data: no tracing data (the event formats) before the "
				   "first samples" :
				   "corrupt perf.data: no event attributes in the stream");
			goto fail;
		}
		/* a round flushed while looking for the formats: leave it for next() */
	}
	if (!pr->r.info.clock[0])
		snprintf(pr->r.info.clock, sizeof(pr->r.info.clock), "perf");
	*out = &pr->r;
	return 0;
fail:
	pr->r.err = NULL;
	perf_close(&pr->r);
	return ret;
}

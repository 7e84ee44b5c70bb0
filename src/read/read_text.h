/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read_text.h - what the text reader's files share (not a public interface)
 *
 * read_text.c owns the reader: buffering, line splitting, headers, lost-event
 * markers and dialect detection.  read_text_line.c splits one event line into
 * its columns (pid, CPU, context, timestamp, event name) for the three
 * dialects.  read_text_fields.c maps the event name to an SL_EV_* type and
 * parses the fields after it.
 */
#ifndef SCHEDLINT_READ_TEXT_H
#define SCHEDLINT_READ_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "schedlint/reader.h"

/* CPU numbers above this are taken for garbage, not for a very large machine. */
#define TEXT_MAX_CPU		65535

/* Comms are at most 15 bytes in the kernel; longer ones skip the cache. */
#define COMM_CACHE_SIZE		4096
#define COMM_CACHE_BYTES	23
#define NAME_CACHE_SIZE		256
#define NAME_CACHE_BYTES	46

/* How numeric prev_state values encode states (changed in Linux 4.14). */
enum state_encoding {
	STATE_ENC_UNKNOWN = 0,
	STATE_ENC_NEW,		/* >= 4.14: TASK_REPORT bits, 0x100 = preempted, 64 = P */
	STATE_ENC_OLD,		/* <= 4.13: raw task state, TASK_STATE_MAX = preempted, 64 = x (dead) */
};

/* The columns of one event line, before the event's own fields. */
struct text_line {
	uint64_t ts;		/* ns */
	int32_t cpu;
	int32_t pid;		/* the TASK-PID column's pid, -1 for perf's exited tasks */
	uint8_t ctx;		/* SL_CTX_*, SL_CTX_KNOWN only with an irq-info column */
	bool perf;		/* "sys:name:" event name: perf script */
	bool latency;		/* trace-cmd report -l layout (no [CPU] brackets) */
	const char *name;	/* event name without the perf "sys:" prefix */
	size_t name_len;
	const char *fields;	/* what follows "name: ", up to end */
	const char *end;	/* end of the line (no newline, no trailing blanks) */
};

/* One entry of the per-pid comm cache: avoids hashing the same comm again. */
struct comm_cache_entry {
	int32_t pid;
	uint32_t id;		/* interned comm; the entry is empty when id == 0 */
	uint8_t len;
	char bytes[COMM_CACHE_BYTES];
};

/* One entry of the event-name cache for events we do not model. */
struct name_cache_entry {
	uint32_t id;		/* 0 = empty */
	uint8_t len;
	uint8_t known;		/* index + 1 in the table of modelled events, 0 = not modelled */
	char bytes[NAME_CACHE_BYTES];
};

/* A lost-event marker waiting for the next event of its CPU. */
struct held_lost {
	uint64_t count;		/* events lost, summed over consecutive markers */
	bool pending;
};

struct text_reader {
	struct sl_reader base;		/* first: sl_reader_close() frees through it */
	struct sl_strtab *strtab;
	struct sl_error *open_err;	/* during open; base.err afterwards */
	int fd;

	/*
	 * input: buf[pos..len) is not parsed yet.  buf grows from
	 * TEXT_BUF_START to buf_max (text_buf_size) only for a line that
	 * does not fit, or for text_read_ahead().
	 */
	char *buf;
	size_t buf_size, buf_max, pos, len;
	char *retired;			/* the buffer before text_read_ahead(): the line in hand is in it */
	int ahead_errno;		/* text_read_ahead()'s read failed: next_line() says so */
	bool eof;
	bool skipping;			/* inside a line longer than the buffer */
	uint64_t line_no;		/* number of the last line handed out */

	/* detection */
	bool format_from_header;	/* a "cpus=" or "# tracer" line decided it */
	bool plugin_shape;		/* a sched plugin line was seen: trace-cmd report */
	uint64_t unrecognized;		/* non-comment lines before the first event */
	uint64_t events;		/* events produced so far (LOST included) */
	char first_bad[41];		/* the first bad line's start, printable */
	const char *first_bad_hint;	/* what the first bad line looks like it lacks, or "" */

	/* prev_state of trace-cmd report -R (numbers) and of the sched_switch plugin */
	enum state_encoding state_enc;
	uint64_t preempt_bit;		/* old encoding: TASK_STATE_MAX once learned */
	bool state_lookahead_done;

	/* lost events, per CPU, held until that CPU's next event */
	struct held_lost *lost;
	size_t lost_alloc;
	size_t lost_flushed;		/* flush_lost(): CPUs below it have none held */
	uint32_t lost_pending;		/* CPUs with a held marker */
	int32_t gap_cpus;		/* CPUs below it got a gap from an entries header */
	uint32_t *gap_done;		/* ... and those whose gap went out since */
	size_t nr_gap_done, gap_done_alloc;
	uint64_t last_ts;
	/*
	 * Time order, judged at the end of a text read whole: how many events
	 * the model would take at a later time than theirs (ts_back), and why
	 * (pump()).  The kernel's per-CPU buffers are each in order: a CPU's
	 * events going back (cpu_back) is a time column that is no timestamp;
	 * all of them in order but the whole not is a text in per-CPU sections.
	 */
	uint64_t ts_back;		/* events stamped before one of an earlier line */
	uint64_t last_ts_line;		/* the line that set last_ts */
	uint64_t back_since_max;	/* of the events after it, those before it */
	uint64_t events_since_max;	/* the events after it */
	uint64_t max_since_max;		/* the latest time of those */
	uint64_t max_before_max;	/* the latest time before it (its own, the first) */
	uint64_t events_before_max;	/* the events before it */
	uint64_t first_ts;		/* of the first event line */
	uint64_t prev_ts;		/* of the event line before */
	int32_t prev_cpu;		/* of the event line before (cpu_runs > 0: there was one) */
	struct text_cpu_order {
		uint64_t last_ts;	/* its last event's time, if seen */
		bool seen;
	} *cpu_order;			/* by CPU */
	size_t cpu_order_alloc;
	uint64_t cpu_back;		/* events stamped before their CPU's event before */
	uint64_t cpu_back_line;		/* the first of them, 0 none */
	uint32_t cpus_seen, cpu_runs;	/* CPUs with events; runs of lines of one CPU */
	uint64_t section_line;		/* the first line of a new CPU going back, 0 none */
	int32_t section_cpu;
	uint64_t section_back;		/* how far (ns) before the line above it */
	bool sought;			/* seek_time moved it: it reads parts, not the whole */
	/* perf's lost-event records (placed) and its warning's count of them */
	uint64_t perf_lost_records, perf_lost_warned;

	/* events produced but not yet returned (LOST is returned first) */
	struct sl_event queue[2];
	int q_len;

	/* the cpumask of the last event (sl_cpumask_ref points here) */
	uint64_t *mask_words;
	size_t mask_alloc;

	/* interned names */
	uint32_t type_name[SL_EV__COUNT];	/* unused slot = 0 */
	uint32_t lost_name;
	uint32_t function_name;
	uint32_t print_name;		/* trace_marker writes: "print", whatever the text calls them */
	struct name_cache_entry name_cache[NAME_CACHE_SIZE];
	struct comm_cache_entry comm_cache[COMM_CACHE_SIZE];

	int sticky_error;		/* once next() failed, it keeps failing */
};

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}


/* Digits without locale or strtol: the hot path parses a dozen per line. */
static inline bool text_parse_u64(const char **pp, const char *end, uint64_t *val)
{
	const char *p = *pp;
	uint64_t v = 0;
	int digits = 0;

	while (p < end && is_digit(*p)) {
		if (++digits > 19)
			return false;
		v = v * 10 + (uint64_t)(*p++ - '0');
	}
	if (!digits)
		return false;
	*pp = p;
	*val = v;
	return true;
}

static inline bool text_parse_i32(const char **pp, const char *end, int32_t *val)
{
	const char *p = *pp;
	bool negative = false;
	uint64_t v;

	if (p < end && *p == '-') {
		negative = true;
		p++;
	}
	if (!text_parse_u64(&p, end, &v) || v > INT32_MAX)
		return false;
	*pp = p;
	*val = negative ? -(int32_t)v : (int32_t)v;
	return true;
}

/* Short strings (names, comms) compared without a call to memcmp. */
static inline bool short_equal(const char *a, const char *b, size_t n)
{
	for (; n >= 8; a += 8, b += 8, n -= 8) {
		uint64_t x, y;

		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return false;
	}
	while (n--)
		if (*a++ != *b++)
			return false;
	return true;
}

/*
 * read_text_input.c: the most the read buffer grows to (1 MB), which is
 * also the longest line.  The fuzzer makes it small to reach the buffer's
 * edges.
 */
extern size_t text_buf_size;

/* The input starts with prefix (what the format detection read), then r->fd. */
void text_input_init(struct text_reader *r, const char *prefix, size_t prefix_len);
void text_input_free(struct text_reader *r);
/*
 * The text after the line in hand, up to text_buf_size bytes of it (less
 * at the end of the input), in buf[pos..len): read now if it was not.
 * The line in hand stays where it is until the next line is asked for.
 */
void text_read_ahead(struct text_reader *r);

/* read_text_line.c */
int text_parse_line(struct text_reader *r, const char *p, const char *end,
		    struct text_line *line);

/* read_text_fields.c */
void text_fields_init(struct text_reader *r);
int text_parse_event(struct text_reader *r, const struct text_line *line,
		     struct sl_event *ev);
uint32_t text_intern_comm(struct text_reader *r, int32_t pid, const char *s, size_t len);
/* exposed for unit tests */
int text_parse_cpumask(struct text_reader *r, const char *s, const char *end,
		       struct sl_cpumask_ref *mask);
void text_prev_state(struct text_reader *r, const char *s, const char *end, bool plugin,
		     uint8_t *class, char *letter);

#endif /* SCHEDLINT_READ_TEXT_H */

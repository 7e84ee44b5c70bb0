/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader.h - open a trace of any supported format as a stream of sl_event
 *
 * sl_reader_open() looks at the file's content (not its name) and picks the
 * reader: trace.dat v6/v7, perf.data (file or pipe mode) or one of the text
 * dialects (tracefs "trace" file, trace-cmd report output, perf script
 * output).  "-" reads stdin.
 *
 * Errors are returned as negative errno values with a one-line message in
 * struct sl_error (without the file name: the command prefixes it).
 */
#ifndef SCHEDLINT_READER_H
#define SCHEDLINT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "strtab.h"

enum sl_format {
	SL_FMT_UNKNOWN = 0,
	SL_FMT_DAT6,		/* trace.dat version 6 */
	SL_FMT_DAT7,		/* trace.dat version 7 (sections, optional compression) */
	SL_FMT_FTRACE_TEXT,	/* the tracefs "trace" file */
	SL_FMT_TRACECMD_REPORT,	/* trace-cmd report output (default, -N, -R, -t, -l) */
	SL_FMT_PERF_SCRIPT,	/* perf script output of sched tracepoints */
	SL_FMT_PERF_DATA,	/* perf.data of perf record / perf sched record (file or pipe) */
};

/* Which trace.dat reader to use (text inputs ignore it). */
enum sl_dat_reader {
	SL_DAT_READER_DEFAULT = 0,	/* flyrecord */
	SL_DAT_READER_LIBTRACECMD,	/* the reference reader */
	SL_DAT_READER_FLYRECORD,	/* our own streaming reader (read_flyrecord.c) */
};

/* Tri-state facts a reader may know from the file's headers. */
enum sl_tristate { SL_UNKNOWN = 0, SL_NO, SL_YES };

#define SL_ERROR_MAX 512
struct sl_error {
	char msg[SL_ERROR_MAX];
};

struct sl_trace_info {
	enum sl_format format;
	int file_version;		/* trace.dat version, 0 for text */
	int ncpus;			/* from the header; 0 if the input does not say */
	int header_ncpus;		/* text: the count its header states (#P:, cpus=),
					 * 0 none; its events may show more CPUs */
	char kernel[128];		/* uname release (e.g. "6.18.44"), "" if unknown */
	char uname[256];		/* the full uname option, "" if unknown */
	char clock[32];			/* trace clock ("local", "global", ...), "" if unknown */
	char compression[32];		/* "zstd", "zlib", "none" (trace.dat) or "" */
	int long_size;			/* 4 or 8, 0 if unknown */
	bool big_endian;
	/* whether the input carries these events at all (formats in the file) */
	enum sl_tristate has_waking;
	enum sl_tristate has_wakeup;
	uint64_t lost_events;		/* filled while reading: events the buffers lost */
	uint64_t lost_unknown;		/* lost-event markers that did not say how many */
	uint64_t lost_unplaced;		/* losses the input reports without a CPU or time:
					 * perf's "lost N chunks" warning, less the
					 * PERF_RECORD_LOST lines that place them */
	uint32_t formats_ignored;	/* trace.dat: formats of events not decoded that
					 * look malformed: never parsed, events counted */
	char format_ignored[128];	/* "system:name" of the first of them */
	uint64_t bad_lines;		/* text: lines that were not events and not comments */
	uint64_t first_bad_line;	/* text: line number of the first of them */
	uint64_t cut_last_line;		/* text: the last line's number when it had no newline
					 * (a cut file: left out, one of bad_lines), else 0 */
};

struct sl_read_opts {
	enum sl_dat_reader dat_reader;
	const char *dat_buffer;		/* trace.dat instance buffer to read, NULL = top */
};

struct sl_reader;

/* Generic reader object: each backend fills ops and its own state. */
struct sl_reader_ops {
	/* 1 = *ev filled, 0 = end of trace, < 0 = -errno with err filled */
	int (*next)(struct sl_reader *r, struct sl_event *ev);
	void (*close)(struct sl_reader *r);
	/*
	 * Optional: reposition the stream so that next() returns every event
	 * at or after ts, in order, possibly preceded by some earlier ones
	 * (the caller skips what it does not want).  A held lost-events
	 * marker is dropped; lost events behind the new position are reported
	 * (and counted in info) again.  0, or -errno with err filled.  Explore re-reads the window
	 * it shows this way instead of keeping every event in memory.
	 */
	int (*seek_time)(struct sl_reader *r, uint64_t ts);
	/*
	 * Optional: the name the input saved for pid apart from its events
	 * (a trace.dat's saved cmdlines: the kernel's pid -> comm table at
	 * the recording's end), NULL none; valid until close.  Off next()'s
	 * path (the first call may parse the table): for a task no event
	 * named.  It touches nothing next() does, so it may run on another
	 * thread than next()'s (a pipelined analysis), one thread at a time.
	 */
	const char *(*saved_comm)(struct sl_reader *r, int32_t pid);
};

struct sl_reader {
	const struct sl_reader_ops *ops;
	struct sl_trace_info info;
	struct sl_strtab *strtab;	/* not owned */
	struct sl_error *err;		/* where next() reports; owned by the caller */
	char *path;			/* the name given by the user ("-" for stdin) */
	/*
	 * Folding: a reader that can sets fold_name at open (the interned
	 * name of the events it folds, 0: none); a caller that feeds every
	 * event to the model and nothing else sets fold before the first
	 * next(), and then an event of that name which the model only needs
	 * right before the next one of its task and CPU may come folded into
	 * that one (sl_event.folded_ago) instead of on its own: one event
	 * less to decode and hand on.  perf sched record logs a
	 * sched_stat_runtime before most switches and wakeups.
	 */
	uint32_t fold_name;
	bool fold;
	/*
	 * A reader that knows task names apart from the tracepoints' fields
	 * (perf.data's PERF_RECORD_COMM) sets has_comm at open; a caller that
	 * wants them as SL_EV_COMM events sets comm before the first next(),
	 * and they come in time order with the others (perf's synthesized
	 * ones, of the tasks that ran before the recording, at time 0).
	 */
	bool has_comm, comm;
};

int sl_reader_open(const char *path, const struct sl_read_opts *opts,
		   struct sl_strtab *strtab, struct sl_reader **out,
		   struct sl_error *err);
int sl_reader_next(struct sl_reader *r, struct sl_event *ev);
/*
 * Go to ts (see seek_time above).  -ENOTSUP when the reader cannot seek
 * (a pipe, or a backend without it): then reopen the input and skip the
 * events before ts - correct, in bounded memory, only slower.
 */
int sl_reader_seek_time(struct sl_reader *r, uint64_t ts);
/* ops->saved_comm's answer, NULL where the reader has none */
const char *sl_reader_saved_comm(struct sl_reader *r, int32_t pid);
void sl_reader_close(struct sl_reader *r);

const char *sl_format_name(enum sl_format fmt);

/*
 * Backends, chosen by sl_reader_open() from the first bytes of the input
 * (the trace.dat ones: src/read/read_dat.h).  Text: the input is
 * prefix[0..prefix_len) (bytes sl_reader_open() already read to detect
 * the format) followed by whatever fd still yields.  The text reader
 * detects the dialect itself and takes ownership of fd.
 */
int sl_read_text_open(int fd, const char *prefix, size_t prefix_len,
		      struct sl_strtab *strtab, struct sl_reader **out,
		      struct sl_error *err);

/* Fill err's message (src/read/error.c); err may be NULL. */
void sl_error_set(struct sl_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* SCHEDLINT_READER_H */

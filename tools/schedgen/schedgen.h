/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedgen.h - the scenario generator's shared types
 *
 * schedgen writes scheduler traces whose right answer is known before any
 * analyzer runs.  Its parts:
 *
 *   formats.c   the kernels' event formats (6.18, 4.9, 4.13) and kallsyms
 *   record.c    one event -> the binary record a ring buffer holds
 *   dat.c       trace.dat version 6: headers, options, flyrecord pages
 *   text.c      the tracefs "trace" file
 *   output.c    orders events by time and feeds both writers
 *   kernel.c    what the kernel logs for a wakeup, a switch, a fork...,
 *               on top of a small per-CPU / per-task state
 *   scenario.c  the scenario language
 *   scale.c     the random load for benchmarks
 *
 * It is its own program: nothing here is shared with schedlint, so a bug in
 * schedlint's readers or model cannot hide itself in both.
 */
#ifndef SCHEDGEN_H
#define SCHEDGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define SG_COMM_LEN	16	/* TASK_COMM_LEN, NUL included */
#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

/* The events schedgen can write; each kernel says which of them it has. */
enum sg_event_type {
	SG_SCHED_SWITCH,
	SG_SCHED_WAKING,
	SG_SCHED_WAKEUP,
	SG_SCHED_WAKEUP_NEW,
	SG_SCHED_MIGRATE_TASK,
	SG_SCHED_PROCESS_FORK,
	SG_SCHED_PROCESS_EXIT,
	SG_SCHED_WAKE_IDLE_WITHOUT_IPI,
	SG_IPI_SEND_CPU,
	SG_LOCAL_TIMER_ENTRY,
	SG_RESCHEDULE_ENTRY,
	SG_CALL_FUNCTION_SINGLE_ENTRY,
	SG_FTRACE_PRINT,	/* a trace_marker write ("tracing_mark_write: TEXT") */
	SG_NR_EVENT_TYPES,
	/* Not an event: the ring buffer of ev->cpu dropped ev->addr[0] events here. */
	SG_LOST = SG_NR_EVENT_TYPES,
};

/* common_flags bits, as the kernel's enum trace_flag_type defines them. */
#define TRACE_FLAG_IRQS_OFF		0x01
#define TRACE_FLAG_NEED_RESCHED		0x04
#define TRACE_FLAG_HARDIRQ		0x08
#define TRACE_FLAG_SOFTIRQ		0x10
#define TRACE_FLAG_PREEMPT_RESCHED	0x20
#define TRACE_FLAG_NMI			0x40

/*
 * One event, kernel independent.  Which fields mean something depends on
 * the type (see the value sources in formats.c); prev_state is already the
 * number the chosen kernel stores.  Strings are borrowed: they must outlive
 * the output (task comms are never freed before the output is closed).
 */
struct sg_event {
	uint64_t ts;		/* ns, the trace clock */
	uint64_t seq;		/* emission order: breaks timestamp ties */
	uint16_t type;		/* enum sg_event_type */
	uint8_t flags;		/* common_flags */
	uint8_t preempt_count;	/* common_preempt_count: preempt depth | migrate-disable << 4 */
	int cpu;		/* the CPU whose ring buffer logged it */
	int common_pid;		/* the task running when it was logged (0 = idle) */
	const char *comm[2];	/* comm / prev_comm / parent_comm;  next_comm / child_comm;
				 * SG_FTRACE_PRINT: comm[0] is the text */
	int pid[2];		/* pid / prev_pid / parent_pid;  next_pid / child_pid */
	int prio[2];		/* prio / prev_prio;  next_prio */
	int arg[2];		/* target_cpu | orig_cpu, dest_cpu | ipi cpu | vector | group_dead */
	long long state;	/* sched_switch prev_state, kernel encoding */
	uint64_t addr[2];	/* ipi callsite, callback; SG_LOST: the count */
};

/* ------------------------------------------------------------------ */
/* formats.c */

struct sg_kernel;

/* The layout of the written file: chosen once per output. */
/* An event format given with --event-format: it replaces the kernel's, or is added. */
struct sg_format_file {
	const char *system;
	char name[64];		/* from its "name: " line */
	char *text;		/* the whole format, as tracefs shows it */
	size_t len;
};
#define SG_MAX_FORMAT_FILES	8

struct sg_abi {
	const struct sg_kernel *kernel;
	int long_size;		/* 4 or 8: the kernel's long and pointer size */
	bool big_endian;
	int page_size;		/* ring-buffer sub-buffer size */
	int nr_format_files;
	struct sg_format_file format_files[SG_MAX_FORMAT_FILES];
};

const struct sg_kernel *sg_kernel_find(const char *name);
const char *sg_kernel_names(void);	/* "6.18, 4.9, 4.13" for messages */
const char *sg_kernel_name(const struct sg_kernel *k);
const char *sg_kernel_release(const struct sg_kernel *k);
bool sg_kernel_has(const struct sg_kernel *k, int type);

/* prev_state encodings: the letters of the kernel's print fmt, and preemption. */
long long sg_state_preempted(const struct sg_kernel *k);
int sg_state_parse(const struct sg_kernel *k, const char *s, long long *state);
/* prev_state as the kernel's print fmt shows it ("S", "R+", "D|W"). */
size_t sg_state_format(const struct sg_kernel *k, long long state, char *buf);

/* Event formats as tracefs shows them; NULL for an event the kernel lacks. */
const char *sg_event_system(int type);
const char *sg_event_name(int type);
int sg_format_text(const struct sg_abi *abi, int type, char *buf, size_t len);
int sg_header_page_text(const struct sg_abi *abi, char *buf, size_t len);
const char *sg_header_event_text(void);

/* Kernel symbols: enough of a kallsyms for the IPI callsites we log. */
enum sg_sym {
	SYM_TTWU_QUEUE_WAKELIST,
	SYM_WAKEUP_PREEMPT,
	SYM_GENERIC_EXEC_SINGLE,
	SYM_GENERIC_SMP_CALL_FUNCTION_SINGLE_INTERRUPT,
	SYM_ON_EACH_CPU_COND_MASK,
	SYM_UPDATE_CURR,
	SYM_TRACING_MARK_WRITE,
	SG_NR_SYMS,
};
uint64_t sg_sym_addr(const struct sg_abi *abi, int sym, unsigned int offset);
int sg_sym_lookup(const char *name);
/* Resolve an address for text as %pS does: "name+0xoff/0xsize", "0x0". */
size_t sg_sym_format(const struct sg_abi *abi, uint64_t addr, char *buf);
size_t sg_kallsyms_text(const struct sg_abi *abi, char *buf, size_t len);

/* record.c: the binary record of ev (without the ring-buffer header) into buf. */
#define SG_MAX_MARK	200	/* bytes of marker text kept */
#define SG_MAX_RECORD	256
size_t sg_record_encode(const struct sg_abi *abi, const struct sg_event *ev, uint8_t *buf);
void sg_put16(const struct sg_abi *abi, uint8_t *p, uint16_t v);
void sg_put32(const struct sg_abi *abi, uint8_t *p, uint32_t v);
void sg_put64(const struct sg_abi *abi, uint8_t *p, uint64_t v);
void sg_putlong(const struct sg_abi *abi, uint8_t *p, uint64_t v);
/* The irq-info column ("d..2.") of common_flags and preempt_count. */
size_t sg_irq_info(const struct sg_abi *abi, const struct sg_event *ev, char *buf);
int sg_irq_info_parse(const char *s, uint8_t *flags, uint8_t *preempt_count);

/* ------------------------------------------------------------------ */
/* The writers; output.c puts events in order and hands them to both. */

struct sg_task_name {
	int pid;
	const char *comm;
};

struct sg_dat;
struct sg_dat *sg_dat_open(const char *path, const struct sg_abi *abi, int ncpus);
int sg_dat_event(struct sg_dat *dat, const struct sg_event *ev);
int sg_dat_close(struct sg_dat *dat, const struct sg_task_name *tasks, size_t ntasks);
void sg_dat_abort(struct sg_dat *dat);

struct sg_text;
struct sg_text *sg_text_open(const char *path, const struct sg_abi *abi, int ncpus,
			     uint64_t entries);
int sg_text_event(struct sg_text *text, const struct sg_event *ev, const char *task_comm);
int sg_text_close(struct sg_text *text);

struct sg_output_opts {
	const char *dat_path;	/* NULL: no trace.dat */
	const char *text_path;	/* NULL: no text */
	struct sg_abi abi;
	int ncpus;
	/* Keep every event until close (scenarios: the text header needs the count). */
	bool buffer_all;
	/* Write at most this many events (0: no limit); the rest is dropped. */
	uint64_t max_events;
};

struct sg_output;
struct sg_output *sg_output_open(const struct sg_output_opts *opts);
/* Queue an event; events may come out of time order across CPUs. */
int sg_output_event(struct sg_output *out, const struct sg_event *ev);
/* No event queued from now on will be earlier than ts: write what is before it. */
int sg_output_flush_before(struct sg_output *out, uint64_t ts);
/* The pid -> comm map for saved cmdlines and the text's task column. */
int sg_output_task(struct sg_output *out, int pid, const char *comm);
uint64_t sg_output_written(const struct sg_output *out);
uint64_t sg_output_queued(const struct sg_output *out);
int sg_output_close(struct sg_output *out);
void sg_output_abort(struct sg_output *out);

/* ------------------------------------------------------------------ */
/* util.c */

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
#define GROW(arr, alloc, need)						\
	do {								\
		if ((size_t)(need) > (alloc)) {				\
			size_t __n = (alloc) ? (alloc) * 2 : 16;	\
			while (__n < (size_t)(need))			\
				__n *= 2;				\
			(arr) = xrealloc((arr), __n * sizeof(*(arr)));	\
			(alloc) = __n;					\
		}							\
	} while (0)

void sg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int parse_time_ns(const char *s, uint64_t *ns);
int parse_int(const char *s, long long min, long long max, long long *v);
const char *fmt_time(uint64_t ns, char *buf, size_t len);

/* A small, fast, seedable generator (xoshiro256**): same seed, same trace. */
struct sg_rng {
	uint64_t s[4];
};
void sg_rng_seed(struct sg_rng *rng, uint64_t seed);
uint64_t sg_rng_next(struct sg_rng *rng);
uint64_t sg_rng_below(struct sg_rng *rng, uint64_t n);	/* [0, n) */
bool sg_rng_chance(struct sg_rng *rng, unsigned int percent);
uint64_t sg_rng_exp(struct sg_rng *rng, uint64_t mean);	/* exponential, >= 1 */

/* The subcommands. */
int cmd_scenario(int argc, char **argv);
int cmd_scale(int argc, char **argv);
int cmd_formats(int argc, char **argv);

/* Options every subcommand takes (--kernel, --big-endian, --long-size, -o, --text). */
struct sg_common_opts {
	const char *kernel;	/* NULL: the scenario's, else 6.18 */
	const char *dat_path;
	const char *text_path;
	int long_size;		/* 0: not given */
	int big_endian;		/* -1: not given */
	int nr_format_files;	/* --event-format SYSTEM:FILE */
	struct sg_format_file format_files[SG_MAX_FORMAT_FILES];
};
/* Returns 1 when argv[*i] was a common option (consumed), 0 if not, -1 on error. */
int sg_common_opt(struct sg_common_opts *o, int argc, char **argv, int *i);
int sg_abi_init(struct sg_abi *abi, const struct sg_common_opts *o, const char *kernel,
		int long_size, int big_endian);

#endif /* SCHEDGEN_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * dat_decode.c - raw ring-buffer events to struct sl_event
 *
 * Field offsets, sizes and string encodings come from the event formats
 * stored in the trace (parsed by libtraceevent), because they differ
 * between kernels: sched_migrate_task.comm became __data_loc in 6.18,
 * prev_state is an int on some kernels and a long on others, 32-bit
 * kernels have 4-byte pointers.  A table maps each event id present in
 * the file to a small decoder; unknown ids are counted as "other".
 *
 * prev_state needs more than an offset: its bits changed meaning in 4.14
 * (TASK_REPORT_MAX 0x100 is "preempted" now; 2048 or 4096 =
 * TASK_STATE_MAX was before, and 64 meant TASK_DEAD).  Rather than guess
 * from the kernel version, read the answer from the sched_switch print
 * format: its __print_flags() table names each state bit, and the
 * "REC->prev_state & X ? "+" : """ term names the preemption bit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-seq.h>

#include "dat_decode.h"
#include "dat_meta.h"
#include "util/util.h"

enum field_slot {
	/* sched_switch */
	F_PREV_COMM = 0, F_PREV_PID, F_PREV_PRIO, F_PREV_STATE, F_NEXT_COMM, F_NEXT_PID, F_NEXT_PRIO,
	F__MAX,
	/* the rest reuse the low slots */
	F_COMM = 0, F_PID, F_PRIO, F_TARGET_CPU, F_SUCCESS,				/* wakeups */
	F_M_COMM = 0, F_M_PID, F_M_PRIO, F_ORIG_CPU, F_DEST_CPU,			/* migrate */
	F_PARENT_COMM = 0, F_PARENT_PID, F_CHILD_COMM, F_CHILD_PID,			/* fork */
	F_E_COMM = 0, F_E_PID, F_E_PRIO,						/* exit */
	F_IPI_CPU = 0, F_IPI_CALLSITE, F_IPI_CALLBACK,					/* ipi_send_cpu, csd */
	F_VECTOR = 0,									/* irq_vectors */
	F_IDLE_CPU = 0,									/* wake_idle_without_ipi */
	F_MARKER_BUF = 0,								/* ftrace print */
};

struct field_ref {
	int offset;
	int size;
	unsigned long flags;	/* TEP_FIELD_IS_* */
	uint8_t shift;		/* sign extension: 64 - 8 * size when signed and shorter */
	bool valid;
};

/*
 * How sl_dat_decode() takes an event id's fields: the scheduling steps of
 * the common file (4-byte integers in our byte order, char[16] comms) by
 * a path made for them, everything else by decode_fields().
 */
enum decode_kind {
	K_FIELDS = 0,		/* decode_fields(), whatever the layout */
	K_NONE,			/* no fields to read: an unmodelled or unknown id */
	K_SWITCH,		/* sched_switch, int4 and both comms char[16] */
	K_WAKE,			/* the wakeups, int4 and comm char[16] */
	K_MIGRATE,		/* sched_migrate_task, int4 and comm char[16] */
};

/* What we know about one event id of the file. */
struct event_decoder {
	uint16_t type;		/* enum sl_event_type */
	uint8_t kind;		/* enum decode_kind */
	uint32_t name;		/* interned event name */
	struct tep_event *event;
	int min_size;		/* payload bytes the bound fields need */
	bool int4;		/* its integer fields are 4 bytes, in our byte order */
	struct field_ref f[F__MAX];
};

/* Which fields each modelled event needs; "?" prefix = optional. */
struct event_spec {
	const char *system;
	const char *name;
	enum sl_event_type type;
	const char *fields[F__MAX];
};

static const struct event_spec event_specs[] = {
	{ "sched", "sched_switch", SL_EV_SWITCH,
	  { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio" } },
	{ "sched", "sched_waking", SL_EV_WAKING, { "comm", "pid", "prio", "target_cpu", "?success" } },
	{ "sched", "sched_wakeup", SL_EV_WAKEUP, { "comm", "pid", "prio", "target_cpu", "?success" } },
	{ "sched", "sched_wakeup_new", SL_EV_WAKEUP_NEW, { "comm", "pid", "prio", "target_cpu", "?success" } },
	{ "sched", "sched_migrate_task", SL_EV_MIGRATE, { "comm", "pid", "prio", "orig_cpu", "dest_cpu" } },
	{ "sched", "sched_process_fork", SL_EV_FORK, { "parent_comm", "parent_pid", "child_comm", "child_pid" } },
	{ "sched", "sched_process_exit", SL_EV_EXIT, { "comm", "pid", "?prio" } },
	{ "sched", "sched_wake_idle_without_ipi", SL_EV_WAKE_IDLE_NO_IPI, { "cpu" } },
	{ "ipi", "ipi_send_cpu", SL_EV_IPI_SEND_CPU, { "cpu", "callsite", "?callback" } },
	{ "ipi", "ipi_send_cpumask", SL_EV_IPI_SEND_CPUMASK, { "cpumask", "callsite", "?callback" } },
	{ "ipi", "ipi_raise", SL_EV_IPI_RAISE, { "?target_cpus", "?reason" } },
	{ "ipi", "ipi_entry", SL_EV_IPI_ENTRY, { "?reason" } },
	{ "irq_vectors", "reschedule_entry", SL_EV_IRQ_VECTOR, { "?vector" } },
	{ "irq_vectors", "call_function_entry", SL_EV_IRQ_VECTOR, { "?vector" } },
	{ "irq_vectors", "call_function_single_entry", SL_EV_IRQ_VECTOR, { "?vector" } },
	{ "irq_vectors", "local_timer_entry", SL_EV_TIMER_TICK, { "?vector" } },
	{ "csd", "csd_queue_cpu", SL_EV_CSD_QUEUE, { "cpu", "callsite", "?func" } },
	{ "csd", "csd_function_entry", SL_EV_CSD_FUNC_ENTRY, { "?func" } },
	{ "ftrace", "print", SL_EV_MARKER, { "buf" } },
};

bool sl_dat_decodes(const char *system, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(event_specs); i++)
		if (!strcmp(event_specs[i].system, system) && !strcmp(event_specs[i].name, name))
			return true;
	return false;
}

#define MAX_STATE_FLAGS 32
/* blocked states looked up, not searched: every combination of TASK_REPORT's 8 bits */
#define STATE_TABLE 256

struct fn_cache_entry {
	uint64_t addr;
	uint32_t id;	/* interned name; valid when addr != 0 */
};
#define FN_CACHE_SIZE 1024

/*
 * Interning a comm (hash, probe, compare) costs more than the rest of
 * decoding a sched_switch.  Comms repeat: remember the id of the raw
 * bytes of a comm field (at most 16, zero-padded) in a direct-mapped
 * cache.  Equal bytes give the same string whatever follows the NUL.
 */
struct comm_cache_entry {
	uint64_t key[2];
	uint32_t id;		/* valid when id != 0 */
};
#define COMM_CACHE_BITS 10
#define COMM_CACHE_SIZE (1u << COMM_CACHE_BITS)
#define COMM_KEY_MAX 16

struct sl_dat_decoder {
	struct tep_handle *tep;
	struct sl_strtab *strtab;
	struct event_decoder *by_id;	/* indexed by event id */
	int nr_ids;
	struct field_ref common_type, common_flags, common_pid;
	int common_size;		/* payload bytes the common fields need */
	bool common_std;		/* type u16, flags u8, pid 4 bytes, our byte order */
	int flags_off;			/* common_std: where common_flags is (0 without one) */
	uint8_t ctx_of[256];		/* the SL_CTX_* bits of a common_flags low byte */
	bool swap;			/* file endianness differs from ours */
	int long_size;

	/* prev_state decoding, from the sched_switch print format */
	uint64_t preempt_mask;		/* "R+" bit(s) */
	uint64_t state_mask;		/* bits that name a state */
	int nr_state_flags;
	uint64_t state_value[MAX_STATE_FLAGS];
	char state_letter[MAX_STATE_FLAGS];
	/* a blocked state's answer by its bits (masked), for those below STATE_TABLE */
	uint8_t blocked_class[STATE_TABLE];
	char blocked_letter[STATE_TABLE];

	struct fn_cache_entry fn_cache[FN_CACHE_SIZE];
	struct comm_cache_entry comm_cache[COMM_CACHE_SIZE];
	uint64_t *mask_words;		/* cpumask of the last decoded event */
	size_t mask_alloc;
	struct trace_seq seq;		/* for the rare events we let tep print */
	uint32_t unknown_name, lost_name;
};

static bool host_bigendian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/*
 * read_num() and field_num() are inlined on purpose: a trace.dat reader
 * decodes five to eight fields of every event, and the calls were a
 * third of the decoding.
 */
static inline __attribute__((always_inline))
uint64_t read_num(const struct sl_dat_decoder *d, const uint8_t *p, int size)
{
	switch (size) {
	case 1:
		return *p;
	case 2: {
		uint16_t v;

		memcpy(&v, p, 2);
		return d->swap ? __builtin_bswap16(v) : v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		return d->swap ? __builtin_bswap32(v) : v;
	}
	case 8: {
		uint64_t v;

		memcpy(&v, p, 8);
		return d->swap ? __builtin_bswap64(v) : v;
	}
	default:
		return 0;
	}
}

/*
 * Read an integer field, sign-extended when the format says signed, from
 * a record known to hold it: sl_dat_decode() checked the record against
 * the event's min_size, which covers every bound field.
 */
static inline __attribute__((always_inline))
int64_t field_num(const struct sl_dat_decoder *d, const struct field_ref *f, const uint8_t *data)
{
	if (!f->valid)
		return -1;
	return (int64_t)(read_num(d, data + f->offset, f->size) << f->shift) >> f->shift;
}

/*
 * A 4-byte integer field as an int32_t, for an event whose int4 is set
 * (the format gives 4 bytes, the file our byte order): a load, where
 * field_num() reads a size from the field and switches on it.  The
 * same value: field_num() sign-extends a signed one to 64 bits, and the
 * caller keeps the low 32.
 */
static inline __attribute__((always_inline))
int32_t field_i32(const struct sl_dat_decoder *d, const struct field_ref *f, const uint8_t *data,
		  bool int4)
{
	int32_t v;

	if (!int4)
		return (int32_t)field_num(d, f, data);
	memcpy(&v, data + f->offset, 4);
	return v;
}

/* Locate a dynamic (__data_loc / __rel_loc) payload; false if out of bounds. */
static bool field_dynamic(const struct sl_dat_decoder *d, const struct field_ref *f,
			  const uint8_t *data, int size, const uint8_t **start, int *len)
{
	if (f->offset + 4 > size)
		return false;
	uint32_t loc = (uint32_t)read_num(d, data + f->offset, 4);
	int off = (int)(loc & 0xffff), l = (int)(loc >> 16);

	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (off < 0 || l < 0 || off + l > size)
		return false;
	*start = data + off;
	*len = l;
	return true;
}

static uint32_t intern_until_nul(struct sl_dat_decoder *d, const uint8_t *s, int len)
{
	const uint8_t *nul = memchr(s, '\0', (size_t)len);

	if (nul)
		len = (int)(nul - s);
	return sl_intern(d->strtab, (const char *)s, (size_t)len);
}

static inline struct comm_cache_entry *comm_slot(struct sl_dat_decoder *d, const uint64_t key[2])
{
	return &d->comm_cache[((key[0] ^ key[1] * 0x9e3779b97f4a7c15ULL) * 0xff51afd7ed558ccdULL) >>
			      (64 - COMM_CACHE_BITS)];
}

/* The id the cache holds for key in e, 0 when it holds another comm or none. */
static inline uint32_t comm_hit(const struct comm_cache_entry *e, const uint64_t key[2])
{
	return e->key[0] == key[0] && e->key[1] == key[1] ? e->id : 0;
}

/* The id the cache holds for the char[16] comm at s, 0 when it holds none (field_str() then). */
static inline __attribute__((always_inline))
uint32_t comm_cached(const struct sl_dat_decoder *d, const uint8_t *s)
{
	uint64_t key[2];

	memcpy(key, s, COMM_KEY_MAX);
	return comm_hit(comm_slot((struct sl_dat_decoder *)d, key), key);
}

/* Intern a string field: a char[N] array or a __data_loc char[]. */
static uint32_t field_str(struct sl_dat_decoder *d, const struct field_ref *f,
			  const uint8_t *data, int size)
{
	const uint8_t *s;
	int len;

	if (!f->valid)
		return 0;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (!field_dynamic(d, f, data, size, &s, &len))
			return 0;
	} else {
		if (f->offset + f->size > size)
			return 0;
		s = data + f->offset;
		len = f->size;
	}
	if (len <= COMM_KEY_MAX) {
		uint64_t key[2] = { 0, 0 };
		struct comm_cache_entry *e;

		memcpy(key, s, (size_t)len);
		e = comm_slot(d, key);
		if (comm_hit(e, key))
			return e->id;
		e->key[0] = key[0];
		e->key[1] = key[1];
		e->id = intern_until_nul(d, s, len);
		return e->id;
	}
	return intern_until_nul(d, s, len);
}

/*
 * A comm field of a record known to hold it (see field_num()): the common
 * char comm[16] found in the cache inline, anything else by field_str().
 */
static inline __attribute__((always_inline))
uint32_t field_comm(struct sl_dat_decoder *d, const struct field_ref *f, const uint8_t *data, int size)
{
	if (f->valid && f->size == COMM_KEY_MAX && !(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		uint64_t key[2];
		uint32_t id;

		memcpy(key, data + f->offset, COMM_KEY_MAX);
		if ((id = comm_hit(comm_slot(d, key), key)))
			return id;
	}
	return field_str(d, f, data, size);
}

/*
 * The text of a trace_marker write: ftrace's print event ends in a
 * flexible "char buf[]" (size 0 in the format) that runs to the end of
 * the record, NUL-terminated, usually with the writer's newline.
 */
static uint32_t field_marker_text(struct sl_dat_decoder *d, const struct field_ref *f,
				  const uint8_t *data, int size)
{
	const uint8_t *s, *nul;
	int len;

	if (!f->valid || (f->flags & TEP_FIELD_IS_DYNAMIC) || f->size > 0)
		return field_str(d, f, data, size);
	if (f->offset >= size)
		return 0;
	s = data + f->offset;
	len = size - f->offset;
	nul = memchr(s, '\0', (size_t)len);
	if (nul)
		len = (int)(nul - s);
	while (len > 0 && s[len - 1] == '\n')
		len--;
	return sl_intern(d->strtab, (const char *)s, (size_t)len);
}

/* Kernel address to interned function name, through the file's kallsyms. */
static uint32_t function_name(struct sl_dat_decoder *d, uint64_t addr)
{
	if (!addr)
		return 0;
	struct fn_cache_entry *e = &d->fn_cache[(addr >> 4) % FN_CACHE_SIZE];

	if (e->addr == addr)
		return e->id;

	const char *fn = tep_find_function(d->tep, addr);
	char buf[32];

	if (!fn) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)addr);
		fn = buf;
	}
	e->addr = addr;
	e->id = sl_intern_cstr(d->strtab, fn);
	return e->id;
}

static uint64_t field_ptr(const struct sl_dat_decoder *d, const struct field_ref *f,
			  const uint8_t *data, int size)
{
	if (!f->valid || f->offset + f->size > size)
		return 0;
	return read_num(d, data + f->offset, f->size);
}

/* A __data_loc cpumask / bitmask (array of longs) into our 64-bit words. */
static void field_cpumask(struct sl_dat_decoder *d, const struct field_ref *f,
			  const uint8_t *data, int size, struct sl_cpumask_ref *out)
{
	const uint8_t *s;
	int len;

	out->words = NULL;
	out->nr_words = 0;
	if (!f->valid || !field_dynamic(d, f, data, size, &s, &len))
		return;

	int lsize = d->long_size == 4 ? 4 : 8;
	int nr_longs = len / lsize;
	size_t nr_words = ((size_t)nr_longs * (size_t)lsize + 7) / 8;

	GROW(d->mask_words, d->mask_alloc, nr_words ? nr_words : 1);
	memset(d->mask_words, 0, nr_words * sizeof(uint64_t));
	for (int i = 0; i < nr_longs; i++) {
		uint64_t v = read_num(d, s + i * lsize, lsize);
		int bit = i * lsize * 8;

		d->mask_words[bit / 64] |= v << (bit % 64);
	}
	out->words = d->mask_words;
	out->nr_words = (uint32_t)nr_words;
}

/* --- prev_state: learn the encoding from the sched_switch print format --- */

static bool arg_mentions_field(const struct tep_print_arg *arg, const char *name)
{
	if (!arg)
		return false;
	switch (arg->type) {
	case TEP_PRINT_FIELD:
		return arg->field.name && !strcmp(arg->field.name, name);
	case TEP_PRINT_OP:
		return arg_mentions_field(arg->op.left, name) ||
		       arg_mentions_field(arg->op.right, name);
	case TEP_PRINT_TYPE:
		return arg_mentions_field(arg->typecast.item, name);
	default:
		return false;
	}
}

/* Evaluate a constant expression of the print format; false if not constant. */
static bool eval_const(const struct tep_print_arg *arg, uint64_t *val)
{
	uint64_t l, r;
	char *end;

	if (!arg)
		return false;
	switch (arg->type) {
	case TEP_PRINT_ATOM:
		*val = strtoull(arg->atom.atom, &end, 0);
		return end != arg->atom.atom;
	case TEP_PRINT_TYPE:
		return eval_const(arg->typecast.item, val);
	case TEP_PRINT_OP:
		if (!arg->op.left) {	/* unary: libtraceevent keeps the operand on the right */
			if (!eval_const(arg->op.right, &r))
				return false;
			if (!strcmp(arg->op.op, "~"))
				*val = ~r;
			else if (!strcmp(arg->op.op, "-"))
				*val = -r;
			else
				return false;
			return true;
		}
		if (!eval_const(arg->op.left, &l) || !eval_const(arg->op.right, &r))
			return false;
		if (!strcmp(arg->op.op, "|"))		*val = l | r;
		else if (!strcmp(arg->op.op, "&"))	*val = l & r;
		else if (!strcmp(arg->op.op, "^"))	*val = l ^ r;
		else if (!strcmp(arg->op.op, "+"))	*val = l + r;
		else if (!strcmp(arg->op.op, "-"))	*val = l - r;
		else if (!strcmp(arg->op.op, "*"))	*val = l * r;
		else if (!strcmp(arg->op.op, "<<"))	*val = r < 64 ? l << r : 0;
		else if (!strcmp(arg->op.op, ">>"))	*val = r < 64 ? l >> r : 0;
		else
			return false;
		return true;
	default:
		return false;
	}
}

static void find_state_encoding(struct sl_dat_decoder *d, const struct tep_print_arg *arg)
{
	for (; arg; arg = arg->next) {
		if (arg->type == TEP_PRINT_FLAGS && arg_mentions_field(arg->flags.field, "prev_state") &&
		    !d->nr_state_flags) {
			for (const struct tep_print_flag_sym *sym = arg->flags.flags;
			     sym && d->nr_state_flags < MAX_STATE_FLAGS; sym = sym->next) {
				char *end;
				uint64_t v = strtoull(sym->value, &end, 0);

				if (end == sym->value || !v || !sym->str || !sym->str[0])
					continue;
				d->state_value[d->nr_state_flags] = v;
				d->state_letter[d->nr_state_flags] = sym->str[0];
				d->nr_state_flags++;
				d->state_mask |= v;
			}
		}
		if (arg->type == TEP_PRINT_OP) {
			/* cond ? "+" : ""  with cond = REC->prev_state & <const> */
			const struct tep_print_arg *alt = arg->op.right;

			if (!strcmp(arg->op.op, "?") && alt && alt->type == TEP_PRINT_OP &&
			    !strcmp(alt->op.op, ":") && alt->op.left &&
			    alt->op.left->type == TEP_PRINT_ATOM && !strcmp(alt->op.left->atom.atom, "+")) {
				const struct tep_print_arg *cond = arg->op.left;
				uint64_t mask;

				if (cond && cond->type == TEP_PRINT_OP && !strcmp(cond->op.op, "&")) {
					if (arg_mentions_field(cond->op.left, "prev_state") &&
					    eval_const(cond->op.right, &mask))
						d->preempt_mask = mask;
					else if (arg_mentions_field(cond->op.right, "prev_state") &&
						 eval_const(cond->op.left, &mask))
						d->preempt_mask = mask;
				}
			}
			find_state_encoding(d, arg->op.left);
			find_state_encoding(d, arg->op.right);
		}
	}
}

static void set_default_states(struct sl_dat_decoder *d)
{
	/* >= 4.14: TASK_REPORT bits, TASK_REPORT_MAX = 0x100 means preempted */
	static const char letters[] = "SDTtXZPI";

	d->nr_state_flags = 0;
	d->state_mask = 0;
	for (int i = 0; letters[i]; i++) {
		d->state_value[i] = 1ULL << i;
		d->state_letter[i] = letters[i];
		d->state_mask |= 1ULL << i;
		d->nr_state_flags++;
	}
}

static void learn_prev_state(struct sl_dat_decoder *d, struct tep_event *sw)
{
	find_state_encoding(d, sw->print_fmt.args);
	if (!d->nr_state_flags)
		set_default_states(d);
	if (!d->preempt_mask) {
		/* the first bit above every named state is TASK_REPORT_MAX / TASK_STATE_MAX */
		uint64_t bit = 1;

		while (bit && bit <= d->state_mask)
			bit <<= 1;
		d->preempt_mask = bit;
	}
	d->state_mask &= ~d->preempt_mask;
}

/* A blocked state (v masked, not 0): the first named bit's letter; dead when X, Z or x is set. */
static void search_prev_state(const struct sl_dat_decoder *d, uint64_t v,
			      uint8_t *class, char *letter)
{
	*class = SL_PREV_BLOCKED;
	*letter = '?';
	for (int i = 0; i < d->nr_state_flags; i++) {
		if (!(v & d->state_value[i]))
			continue;
		char c = d->state_letter[i];

		if (*letter == '?')
			*letter = c;
		if (c == 'X' || c == 'Z' || c == 'x')
			*class = SL_PREV_DEAD;
	}
}

/*
 * prev_state without a search: preempted, runnable, or a blocked state
 * whose bits are below STATE_TABLE (every state of a kernel since 4.14),
 * whose answer search_prev_state() gave once, when the decoder was made.
 * false for any other: decode_prev_state() searches.
 */
static inline __attribute__((always_inline))
bool prev_state_known(const struct sl_dat_decoder *d, uint64_t v, uint8_t *class, char *letter)
{
	if (v & d->preempt_mask) {
		*class = SL_PREV_PREEMPTED;
		*letter = 'R';
		return true;
	}
	v &= d->state_mask;
	if (!v) {
		*class = SL_PREV_RUNNABLE;
		*letter = 'R';
		return true;
	}
	if (v < STATE_TABLE) {
		*class = d->blocked_class[v];
		*letter = d->blocked_letter[v];
		return true;
	}
	return false;
}

static void decode_prev_state(struct sl_dat_decoder *d, uint64_t v,
			      uint8_t *class, char *letter)
{
	if (!prev_state_known(d, v, class, letter))
		search_prev_state(d, v & d->state_mask, class, letter);
}

/* --- the table --- */

/*
 * A field's offset and size come from the format text, parsed as unsigned
 * numbers into ints: "offset:4294967295" is offset -1, and the field's
 * bytes would be read before the record.  No record is near 16 MiB.
 */
#define MAX_FIELD_END (16 << 20)

/* Bind ref to f, refusing an offset or size no record can have. */
static int set_ref(const struct tep_event *event, const struct tep_format_field *f,
		   struct field_ref *ref, struct sl_error *err)
{
	if (f->offset < 0 || f->size < 0 || f->offset > MAX_FIELD_END ||
	    f->size > MAX_FIELD_END - f->offset) {
		sl_error_set(err, "corrupt event format %s:%s: field '%s' at offset %u, size %u",
			     event->system, event->name, f->name, (unsigned int)f->offset,
			     (unsigned int)f->size);
		return -EINVAL;
	}
	ref->offset = f->offset;
	ref->size = f->size;
	ref->flags = f->flags;
	/* a size 0 field (a corrupt format) reads as 0: no shift by 64 */
	ref->shift = (f->flags & TEP_FIELD_IS_SIGNED) && f->size > 0 && f->size < 8 ?
		     (uint8_t)(64 - 8 * f->size) : 0;
	ref->valid = true;
	return 0;
}

/* The payload bytes a bound field needs (0 for an unbound one). */
static int ref_end(const struct field_ref *ref)
{
	return ref->valid ? ref->offset + ref->size : 0;
}

static int bind_field(struct tep_event *event, const char *spec, struct field_ref *ref,
		      struct sl_error *err)
{
	bool optional = spec[0] == '?';
	const char *name = optional ? spec + 1 : spec;
	struct tep_format_field *f = tep_find_field(event, name);

	if (!f) {
		if (optional)
			return 0;
		sl_error_set(err, "event format %s:%s lacks the field '%s'",
			     event->system, event->name, name);
		return -EINVAL;
	}
	return set_ref(event, f, ref, err);
}

static int bind_common(struct tep_event *event, const char *name, struct field_ref *ref,
		       struct sl_error *err)
{
	struct tep_format_field *f = tep_find_common_field(event, name);

	if (!f) {
		sl_error_set(err, "event format %s:%s lacks the common field '%s'",
			     event->system, event->name, name);
		return -EINVAL;
	}
	return set_ref(event, f, ref, err);
}

/* A plain char comm[16] that field_comm() finds in the cache inline. */
static bool comm16(const struct field_ref *f)
{
	return f->valid && f->size == COMM_KEY_MAX && !(f->flags & TEP_FIELD_IS_DYNAMIC);
}

/* The path of sl_dat_decode() for a bound event (enum decode_kind). */
static uint8_t fast_kind(const struct event_decoder *ed)
{
	if (!ed->int4)
		return K_FIELDS;
	switch (ed->type) {
	case SL_EV_SWITCH:
		return comm16(&ed->f[F_PREV_COMM]) && comm16(&ed->f[F_NEXT_COMM]) ? K_SWITCH : K_FIELDS;
	case SL_EV_WAKING:
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		return comm16(&ed->f[F_COMM]) ? K_WAKE : K_FIELDS;
	case SL_EV_MIGRATE:
		return comm16(&ed->f[F_M_COMM]) ? K_MIGRATE : K_FIELDS;
	default:
		return K_FIELDS;
	}
}

struct sl_dat_decoder *sl_dat_decoder_new(struct tep_handle *tep, const struct sl_dat_names *names,
					  struct sl_strtab *strtab, struct sl_error *err)
{
	struct sl_dat_decoder *d = xcalloc(1, sizeof(*d));
	int nr = tep_get_events_count(tep);

	d->tep = tep;
	d->strtab = strtab;
	d->swap = tep_is_file_bigendian(tep) != host_bigendian();
	d->long_size = tep_get_long_size(tep);
	d->unknown_name = sl_intern_cstr(strtab, "unknown");
	d->lost_name = sl_intern_cstr(strtab, "lost_events");
	trace_seq_init(&d->seq);

	if (nr <= 0) {
		sl_error_set(err, "the trace has no event formats");
		goto fail;
	}
	for (int i = 0; i < nr; i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		if (ev && ev->id >= d->nr_ids)
			d->nr_ids = ev->id + 1;
	}
	for (uint32_t i = 0; names && i < names->nr; i++)
		if (names->v[i].id >= d->nr_ids)
			d->nr_ids = names->v[i].id + 1;
	if (d->nr_ids > 1 << 16) {
		sl_error_set(err, "corrupt event formats (event id %d)", d->nr_ids - 1);
		goto fail;
	}
	d->by_id = xcalloc((size_t)d->nr_ids, sizeof(*d->by_id));
	/* events known by name only: counted by name, never decoded */
	for (uint32_t i = 0; names && i < names->nr; i++) {
		d->by_id[names->v[i].id].type = SL_EV_OTHER;
		d->by_id[names->v[i].id].name = sl_intern_cstr(strtab, names->v[i].name);
	}
	for (int i = 0; i < nr; i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		if (!ev || ev->id < 0)
			continue;
		d->by_id[ev->id].type = SL_EV_OTHER;
		d->by_id[ev->id].name = sl_intern_cstr(strtab, ev->name ? ev->name : "unknown");
		d->by_id[ev->id].event = ev;
		if (!d->common_type.valid &&
		    (bind_common(ev, "common_type", &d->common_type, err) ||
		     bind_common(ev, "common_flags", &d->common_flags, err) ||
		     bind_common(ev, "common_pid", &d->common_pid, err)))
			goto fail;
	}
	d->common_size = MAX(MAX(ref_end(&d->common_type), ref_end(&d->common_pid)),
			     ref_end(&d->common_flags));
	d->common_std = !d->swap && d->common_type.size == 2 && d->common_pid.size == 4 &&
			(!d->common_flags.valid || d->common_flags.size == 1);
	/* without common_flags every ctx is 0: the table stays zero, read at offset 0 */
	d->flags_off = d->common_flags.valid ? d->common_flags.offset : 0;
	for (int flags = 0; d->common_flags.valid && flags < 256; flags++)
		d->ctx_of[flags] = (uint8_t)(SL_CTX_KNOWN |
			(flags & 0x08 ? SL_CTX_HARDIRQ : 0) |	/* TRACE_FLAG_HARDIRQ */
			(flags & 0x10 ? SL_CTX_SOFTIRQ : 0) |	/* TRACE_FLAG_SOFTIRQ */
			(flags & 0x40 ? SL_CTX_NMI : 0));	/* TRACE_FLAG_NMI */

	for (size_t i = 0; i < ARRAY_SIZE(event_specs); i++) {
		const struct event_spec *spec = &event_specs[i];
		struct tep_event *ev = tep_find_event_by_name(tep, spec->system, spec->name);

		if (!ev || ev->id < 0 || ev->id >= d->nr_ids)
			continue;
		struct event_decoder *ed = &d->by_id[ev->id];

		ed->int4 = !d->swap;
		for (int f = 0; f < F__MAX && spec->fields[f]; f++) {
			const struct field_ref *r = &ed->f[f];

			if (bind_field(ev, spec->fields[f], &ed->f[f], err))
				goto fail;
			ed->min_size = MAX(ed->min_size, ref_end(r));
			/* the integers field_i32() reads: required, not strings, prev_state aside */
			if (spec->fields[f][0] != '?' && r->valid &&
			    !(r->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) &&
			    !(spec->type == SL_EV_SWITCH && f == F_PREV_STATE) && r->size != 4)
				ed->int4 = false;
		}
		ed->type = (uint16_t)spec->type;
		ed->kind = fast_kind(ed);
		if (spec->type == SL_EV_SWITCH)
			learn_prev_state(d, ev);
	}
	/* ids without a name (none in the formats or the names): "unknown", nothing read */
	for (int id = 0; id < d->nr_ids; id++) {
		if (!d->by_id[id].name) {
			d->by_id[id] = (struct event_decoder) { .type = SL_EV_OTHER, .name = d->unknown_name };
		}
		if (d->by_id[id].type == SL_EV_OTHER)
			d->by_id[id].kind = K_NONE;
	}
	if (!d->preempt_mask) {
		set_default_states(d);
		d->preempt_mask = 0x100;
	}
	for (uint64_t v = 1; v < STATE_TABLE; v++)
		search_prev_state(d, v, &d->blocked_class[v], &d->blocked_letter[v]);
	return d;
fail:
	sl_dat_decoder_free(d);
	return NULL;
}

void sl_dat_decoder_free(struct sl_dat_decoder *d)
{
	if (!d)
		return;
	trace_seq_destroy(&d->seq);
	free(d->by_id);
	free(d->mask_words);
	free(d);
}

uint32_t sl_dat_lost_name(struct sl_dat_decoder *d)
{
	return d->lost_name;
}

void sl_dat_fill_info(struct tep_handle *tep, struct sl_trace_info *info)
{
	info->has_waking = tep_find_event_by_name(tep, "sched", "sched_waking") ? SL_YES : SL_NO;
	info->has_wakeup = tep_find_event_by_name(tep, "sched", "sched_wakeup") ? SL_YES : SL_NO;
	info->long_size = tep_get_long_size(tep);
	info->big_endian = tep_is_file_bigendian(tep);
}

/*
 * arm64's ipi_raise/ipi_entry carry the reason as a pointer to a kernel
 * string that only tep's printk table resolves: let tep print the event
 * and take the text in parentheses.  These events are rare.
 */
static uint32_t ipi_reason(struct sl_dat_decoder *d, struct tep_event *event, int cpu,
			   uint64_t ts, const void *data, int size)
{
	struct tep_record rec = {
		.ts = ts, .cpu = cpu, .size = size, .data = (void *)data,
	};
	const char *open, *close;

	trace_seq_reset(&d->seq);
	tep_print_event(d->tep, &d->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&d->seq);
	open = strrchr(d->seq.buffer, '(');
	close = open ? strchr(open, ')') : NULL;
	if (!open || !close)
		return sl_intern_cstr(d->strtab, event->name);
	return sl_intern(d->strtab, open + 1, (size_t)(close - open - 1));
}

/*
 * The events of every scheduling step, their integer fields read as
 * int4 says (field_i32()): decode_fields() calls each twice, once with
 * int4 true, so that the compiler makes the loads of that case (an int4
 * event comes here when its comm is not cached yet, or its comms are not
 * char[16]: sl_dat_decode()'s fast paths take the others).
 */
static inline __attribute__((always_inline))
void decode_switch(struct sl_dat_decoder *d, const struct field_ref *f, const uint8_t *data,
		   int size, struct sl_event *ev, bool int4)
{
	ev->sw.prev_comm = field_comm(d, &f[F_PREV_COMM], data, size);
	ev->sw.prev_pid = field_i32(d, &f[F_PREV_PID], data, int4);
	ev->sw.prev_prio = field_i32(d, &f[F_PREV_PRIO], data, int4);
	decode_prev_state(d, (uint64_t)field_num(d, &f[F_PREV_STATE], data),
			  &ev->sw.prev_class, &ev->sw.prev_letter);
	ev->sw.next_comm = field_comm(d, &f[F_NEXT_COMM], data, size);
	ev->sw.next_pid = field_i32(d, &f[F_NEXT_PID], data, int4);
	ev->sw.next_prio = field_i32(d, &f[F_NEXT_PRIO], data, int4);
}

static inline __attribute__((always_inline))
void decode_wake(struct sl_dat_decoder *d, const struct field_ref *f, const uint8_t *data,
		 int size, struct sl_event *ev, bool int4)
{
	ev->wake.comm = field_comm(d, &f[F_COMM], data, size);
	ev->wake.pid = field_i32(d, &f[F_PID], data, int4);
	ev->wake.prio = field_i32(d, &f[F_PRIO], data, int4);
	ev->wake.target_cpu = field_i32(d, &f[F_TARGET_CPU], data, int4);
	ev->wake.success = f[F_SUCCESS].valid ? field_num(d, &f[F_SUCCESS], data) != 0 : true;
}

static inline __attribute__((always_inline))
void decode_migrate(struct sl_dat_decoder *d, const struct field_ref *f, const uint8_t *data,
		    int size, struct sl_event *ev, bool int4)
{
	ev->migrate.comm = field_comm(d, &f[F_M_COMM], data, size);
	ev->migrate.pid = field_i32(d, &f[F_M_PID], data, int4);
	ev->migrate.prio = field_i32(d, &f[F_M_PRIO], data, int4);
	ev->migrate.orig_cpu = field_i32(d, &f[F_ORIG_CPU], data, int4);
	ev->migrate.dest_cpu = field_i32(d, &f[F_DEST_CPU], data, int4);
}

bool sl_dat_common_layout(const struct sl_dat_decoder *d, int *type_off, int *pid_off,
			  int *common_size)
{
	if (!d->common_std)
		return false;
	*type_off = d->common_type.offset;
	*pid_off = d->common_pid.offset;
	*common_size = d->common_size;
	return true;
}

/*
 * The fast paths of sl_dat_decode(), for the kinds K_SWITCH, K_WAKE and
 * K_MIGRATE: the fields read at their offsets (the record holds them:
 * min_size), the comms found in the cache, no call.  false when a comm is
 * not in the cache or prev_state needs its search: decode_fields() then
 * decodes the event whole, as it does every other, and what was stored
 * here is stored again.
 */
static inline __attribute__((always_inline))
bool switch_fast(const struct sl_dat_decoder *d, const struct field_ref *f, const uint8_t *data,
		 struct sl_event *ev)
{
	uint32_t prev = comm_cached(d, data + f[F_PREV_COMM].offset);
	uint32_t next = comm_cached(d, data + f[F_NEXT_COMM].offset);

	if (!prev || !next ||
	    !prev_state_known(d, (uint64_t)field_num(d, &f[F_PREV_STATE], data),
			      &ev->sw.prev_class, &ev->sw.prev_letter))
		return false;
	ev->sw.prev_comm = prev;
	ev->sw.prev_pid = field_i32(d, &f[F_PREV_PID], data, true);
	ev->sw.prev_prio = field_i32(d, &f[F_PREV_PRIO], data, true);
	ev->sw.next_comm = next;
	ev->sw.next_pid = field_i32(d, &f[F_NEXT_PID], data, true);
	ev->sw.next_prio = field_i32(d, &f[F_NEXT_PRIO], data, true);
	return true;
}

static inline __attribute__((always_inline))
bool wake_fast(const struct sl_dat_decoder *d, const struct field_ref *f, const uint8_t *data,
	       struct sl_event *ev)
{
	if (!(ev->wake.comm = comm_cached(d, data + f[F_COMM].offset)))
		return false;
	ev->wake.pid = field_i32(d, &f[F_PID], data, true);
	ev->wake.prio = field_i32(d, &f[F_PRIO], data, true);
	ev->wake.target_cpu = field_i32(d, &f[F_TARGET_CPU], data, true);
	ev->wake.success = f[F_SUCCESS].valid ? field_num(d, &f[F_SUCCESS], data) != 0 : true;
	return true;
}

static inline __attribute__((always_inline))
bool migrate_fast(const struct sl_dat_decoder *d, const struct field_ref *f, const uint8_t *data,
		  struct sl_event *ev)
{
	if (!(ev->migrate.comm = comm_cached(d, data + f[F_M_COMM].offset)))
		return false;
	ev->migrate.pid = field_i32(d, &f[F_M_PID], data, true);
	ev->migrate.prio = field_i32(d, &f[F_M_PRIO], data, true);
	ev->migrate.orig_cpu = field_i32(d, &f[F_ORIG_CPU], data, true);
	ev->migrate.dest_cpu = field_i32(d, &f[F_DEST_CPU], data, true);
	return true;
}

static int decode_fields(struct sl_dat_decoder *d, const struct event_decoder *ed,
			 const uint8_t *data, int size, struct sl_event *ev);

/*
 * Per event: the common fields, the id's decoder (every id below nr_ids
 * has one: an unknown id is "unknown", of kind K_NONE), and the fields
 * by the path its kind says.
 */
int sl_dat_decode(struct sl_dat_decoder *d, int cpu, uint64_t ts,
		  const void *data_v, int size, struct sl_event *ev)
{
	const uint8_t *data = data_v;
	const struct event_decoder *ed;
	unsigned int id;

	memset(ev, 0, sizeof(*ev));
	ev->ts = ts;
	ev->cpu = cpu;
	if (size < d->common_size)
		return -EINVAL;
	if (__builtin_expect(d->common_std, 1)) {
		/* every kernel's layout: loads, not field_num()'s switch on the size */
		uint16_t type;
		int32_t pid;

		memcpy(&type, data + d->common_type.offset, 2);
		memcpy(&pid, data + d->common_pid.offset, 4);
		id = type;
		ev->pid = pid;
		ev->ctx = d->ctx_of[data[d->flags_off]];
	} else {
		id = (unsigned int)(int)read_num(d, data + d->common_type.offset, d->common_type.size);
		ev->pid = (int32_t)field_num(d, &d->common_pid, data);
		if (d->common_flags.valid)
			ev->ctx = d->ctx_of[read_num(d, data + d->common_flags.offset,
						     d->common_flags.size) & 0xff];
	}
	if (id >= (unsigned int)d->nr_ids) {
		ev->type = SL_EV_OTHER;
		ev->name = d->unknown_name;
		return 0;
	}
	ed = &d->by_id[id];
	if (size < ed->min_size)
		return -EINVAL;
	ev->type = ed->type;
	ev->name = ed->name;
	switch (ed->kind) {
	case K_NONE:
		return 0;
	case K_SWITCH:
		if (switch_fast(d, ed->f, data, ev))
			return 0;
		break;
	case K_WAKE:
		if (wake_fast(d, ed->f, data, ev))
			return 0;
		break;
	case K_MIGRATE:
		if (migrate_fast(d, ed->f, data, ev))
			return 0;
		break;
	default:
		break;
	}
	return decode_fields(d, ed, data, size, ev);
}

/*
 * The fields of an event of any kind but K_NONE, whatever its layout, ev
 * holding its common fields (its cpu and time among them): sl_dat_decode()'s
 * slow path.
 */
static __attribute__((noinline))
int decode_fields(struct sl_dat_decoder *d, const struct event_decoder *ed,
		  const uint8_t *data, int size, struct sl_event *ev)
{
	const struct field_ref *f = ed->f;
	int cpu = ev->cpu;
	uint64_t ts = ev->ts;

	switch (ed->type) {
	case SL_EV_SWITCH:
		if (ed->int4)
			decode_switch(d, f, data, size, ev, true);
		else
			decode_switch(d, f, data, size, ev, false);
		break;
	case SL_EV_WAKING:
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		if (ed->int4)
			decode_wake(d, f, data, size, ev, true);
		else
			decode_wake(d, f, data, size, ev, false);
		break;
	case SL_EV_MIGRATE:
		if (ed->int4)
			decode_migrate(d, f, data, size, ev, true);
		else
			decode_migrate(d, f, data, size, ev, false);
		break;
	case SL_EV_FORK:
		ev->fork.parent_comm = field_str(d, &f[F_PARENT_COMM], data, size);
		ev->fork.parent_pid = (int32_t)field_num(d, &f[F_PARENT_PID], data);
		ev->fork.child_comm = field_str(d, &f[F_CHILD_COMM], data, size);
		ev->fork.child_pid = (int32_t)field_num(d, &f[F_CHILD_PID], data);
		break;
	case SL_EV_EXIT:
		ev->exit.comm = field_comm(d, &f[F_E_COMM], data, size);
		ev->exit.pid = (int32_t)field_num(d, &f[F_E_PID], data);
		ev->exit.prio = f[F_E_PRIO].valid ? (int32_t)field_num(d, &f[F_E_PRIO], data) :
							SL_PRIO_NONE;
		break;
	case SL_EV_IPI_SEND_CPU:
	case SL_EV_CSD_QUEUE:
		ev->ipi.target_cpu = (int32_t)field_num(d, &f[F_IPI_CPU], data);
		ev->ipi.callsite = function_name(d, field_ptr(d, &f[F_IPI_CALLSITE], data, size));
		ev->ipi.callback = function_name(d, field_ptr(d, &f[F_IPI_CALLBACK], data, size));
		break;
	case SL_EV_IPI_SEND_CPUMASK:
		ev->ipi.target_cpu = -1;
		field_cpumask(d, &f[0], data, size, &ev->ipi.mask);
		ev->ipi.callsite = function_name(d, field_ptr(d, &f[F_IPI_CALLSITE], data, size));
		ev->ipi.callback = function_name(d, field_ptr(d, &f[F_IPI_CALLBACK], data, size));
		break;
	case SL_EV_IPI_RAISE:
		ev->ipi.target_cpu = -1;
		field_cpumask(d, &f[0], data, size, &ev->ipi.mask);
		ev->ipi.callsite = ipi_reason(d, ed->event, cpu, ts, data, size);
		break;
	case SL_EV_IPI_ENTRY:
		ev->ipi.target_cpu = cpu;
		ev->ipi.callsite = ipi_reason(d, ed->event, cpu, ts, data, size);
		break;
	case SL_EV_CSD_FUNC_ENTRY:
		ev->ipi.target_cpu = cpu;
		ev->ipi.callback = function_name(d, field_ptr(d, &f[0], data, size));
		break;
	case SL_EV_IRQ_VECTOR:
	case SL_EV_TIMER_TICK:
		ev->irq.vector = (int32_t)field_num(d, &f[F_VECTOR], data);
		break;
	case SL_EV_WAKE_IDLE_NO_IPI:
		ev->idle_no_ipi.target_cpu = (int32_t)field_num(d, &f[F_IDLE_CPU], data);
		break;
	case SL_EV_MARKER:
		ev->marker.text = field_marker_text(d, &f[F_MARKER_BUF], data, size);
		break;
	default:
		break;
	}
	return 0;
}

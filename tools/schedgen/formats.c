// SPDX-License-Identifier: GPL-2.0
/*
 * formats.c - the event formats, task-state letters and kernel symbols of
 * the kernels schedgen imitates
 *
 * A trace.dat carries the format of every event it holds (the text of
 * tracefs events/SYSTEM/EVENT/format), and readers must take field offsets
 * from there.  The texts below were copied from real kernels: 6.18 from
 * /sys/kernel/tracing on an x86_64 machine, 4.9 from a LISA arm64 trace
 * (trace-cmd dump --events); 4.13 differs from 4.9 only by TASK_STATE_MAX
 * (4096 once TASK_NEW took 2048 in 4.11).
 *
 * The offsets are not copied but laid out here the way the compiler lays
 * out the kernel's struct (natural alignment, longs and pointers of the
 * file's long size), so that the same tables give a 32-bit file.  A test
 * checks the 64-bit texts against copies of the real ones, byte for byte.
 */
#include <stdio.h>
#include <string.h>

#include "schedgen.h"
#include "formats.h"

/* ------------------------------------------------------------------ */
/* Fields */

#define F(type, name, kind, src)	{ type, name, 0, kind, src }
#define FA(type, name, n, src)		{ type, name, n, FK_CHARS, src }

static const struct sg_field common_fields[] = {
	F("unsigned short", "common_type", FK_U16, V_COMMON_TYPE),
	F("unsigned char", "common_flags", FK_U8, V_COMMON_FLAGS),
	F("unsigned char", "common_preempt_count", FK_U8, V_COMMON_PREEMPT),
	F("int", "common_pid", FK_S32, V_COMMON_PID),
};

static const struct sg_field switch_fields[] = {
	FA("char", "prev_comm", 16, V_COMM0),
	F("pid_t", "prev_pid", FK_S32, V_PID0),
	F("int", "prev_prio", FK_S32, V_PRIO0),
	F("long", "prev_state", FK_LONG, V_STATE),
	FA("char", "next_comm", 16, V_COMM1),
	F("pid_t", "next_pid", FK_S32, V_PID1),
	F("int", "next_prio", FK_S32, V_PRIO1),
};

static const struct sg_field wakeup_fields[] = {
	FA("char", "comm", 16, V_COMM0),
	F("pid_t", "pid", FK_S32, V_PID0),
	F("int", "prio", FK_S32, V_PRIO0),
	F("int", "target_cpu", FK_S32, V_ARG0),
};

/* Before 4.15 the wakeup events still had the always-1 "success" field. */
static const struct sg_field wakeup_fields_4[] = {
	FA("char", "comm", 16, V_COMM0),
	F("pid_t", "pid", FK_S32, V_PID0),
	F("int", "prio", FK_S32, V_PRIO0),
	F("int", "success", FK_S32, V_ONE),
	F("int", "target_cpu", FK_S32, V_ARG0),
};

/* 6.x turned the comms of migrate and fork into dynamic strings. */
static const struct sg_field migrate_fields[] = {
	F("__data_loc char[]", "comm", FK_DATA_LOC, V_COMM0),
	F("pid_t", "pid", FK_S32, V_PID0),
	F("int", "prio", FK_S32, V_PRIO0),
	F("int", "orig_cpu", FK_S32, V_ARG0),
	F("int", "dest_cpu", FK_S32, V_ARG1),
};

static const struct sg_field migrate_fields_4[] = {
	FA("char", "comm", 16, V_COMM0),
	F("pid_t", "pid", FK_S32, V_PID0),
	F("int", "prio", FK_S32, V_PRIO0),
	F("int", "orig_cpu", FK_S32, V_ARG0),
	F("int", "dest_cpu", FK_S32, V_ARG1),
};

static const struct sg_field fork_fields[] = {
	F("__data_loc char[]", "parent_comm", FK_DATA_LOC, V_COMM0),
	F("pid_t", "parent_pid", FK_S32, V_PID0),
	F("__data_loc char[]", "child_comm", FK_DATA_LOC, V_COMM1),
	F("pid_t", "child_pid", FK_S32, V_PID1),
};

static const struct sg_field fork_fields_4[] = {
	FA("char", "parent_comm", 16, V_COMM0),
	F("pid_t", "parent_pid", FK_S32, V_PID0),
	FA("char", "child_comm", 16, V_COMM1),
	F("pid_t", "child_pid", FK_S32, V_PID1),
};

static const struct sg_field exit_fields[] = {
	FA("char", "comm", 16, V_COMM0),
	F("pid_t", "pid", FK_S32, V_PID0),
	F("int", "prio", FK_S32, V_PRIO0),
	F("bool", "group_dead", FK_BOOL, V_ARG0),
};

static const struct sg_field exit_fields_4[] = {
	FA("char", "comm", 16, V_COMM0),
	F("pid_t", "pid", FK_S32, V_PID0),
	F("int", "prio", FK_S32, V_PRIO0),
};

static const struct sg_field cpu_fields[] = {
	F("int", "cpu", FK_S32, V_ARG0),
};

static const struct sg_field ipi_send_cpu_fields[] = {
	F("unsigned int", "cpu", FK_U32, V_ARG0),
	F("void *", "callsite", FK_PTR, V_ADDR0),
	F("void *", "callback", FK_PTR, V_ADDR1),
};

/* ftrace's own print event: its format lives among the ftrace formats */
static const struct sg_field print_fields[] = {
	F("unsigned long", "ip", FK_ULONG, V_MARK_IP),
	{ "char", "buf", 0, FK_STRING, V_COMM0 },
};

/* 4.x printed the flexible array without its brackets (array -1 here) */
static const struct sg_field print_fields_4[] = {
	F("unsigned long", "ip", FK_ULONG, V_MARK_IP),
	{ "char", "buf", -1, FK_STRING, V_COMM0 },
};

static const struct sg_field vector_fields[] = {
	F("int", "vector", FK_S32, V_ARG0),
};

/* ------------------------------------------------------------------ */
/* Print formats, verbatim */

#define STATE_MASK_6 "((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)"
#define STATE_MAX_6 "(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1)"

static const char switch_fmt_6[] =
	"\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", "
	"REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & " STATE_MASK_6 ") ? "
	"__print_flags(REC->prev_state & " STATE_MASK_6 ", \"|\", "
	"{ 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, "
	"{ 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & " STATE_MAX_6 " ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio";

/* %d is TASK_STATE_MAX: the compiler folded the macro into a number. */
static const char switch_fmt_4[] =
	"\"prev_comm=%%s prev_pid=%%d prev_prio=%%d prev_state=%%s%%s ==> next_comm=%%s next_pid=%%d next_prio=%%d\", "
	"REC->prev_comm, REC->prev_pid, REC->prev_prio, REC->prev_state & (%d-1) ? "
	"__print_flags(REC->prev_state & (%d-1), \"|\", "
	"{ 1, \"S\"} , { 2, \"D\" }, { 4, \"T\" }, { 8, \"t\" }, { 16, \"Z\" }, { 32, \"X\" }, "
	"{ 64, \"x\" }, { 128, \"K\" }, { 256, \"W\" }, { 512, \"P\" }, { 1024, \"N\" }) : \"R\", "
	"REC->prev_state & %d ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio";

static const char wakeup_fmt[] =
	"\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu";
static const char migrate_fmt_6[] =
	"\"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", __get_str(comm), REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu";
static const char migrate_fmt_4[] =
	"\"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu";
static const char fork_fmt_6[] =
	"\"comm=%s pid=%d child_comm=%s child_pid=%d\", __get_str(parent_comm), REC->parent_pid, __get_str(child_comm), REC->child_pid";
static const char fork_fmt_4[] =
	"\"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, REC->parent_pid, REC->child_comm, REC->child_pid";
static const char exit_fmt_6[] =
	"\"comm=%s pid=%d prio=%d group_dead=%s\", REC->comm, REC->pid, REC->prio, REC->group_dead ? \"true\" : \"false\"";
static const char exit_fmt_4[] =
	"\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio";
static const char cpu_fmt[] = "\"cpu=%d\", REC->cpu";
static const char ipi_send_cpu_fmt[] =
	"\"cpu=%u callsite=%pS callback=%pS\", REC->cpu, REC->callsite, REC->callback";
static const char vector_fmt[] = "\"vector=%d\", REC->vector";
static const char print_fmt[] = "\"%ps: %s\", (void *)REC->ip, REC->buf";

/* ------------------------------------------------------------------ */
/* Kernels */

#define EVENT(t, sys, nm, id_, flds, fmt)					\
	[t] = { .system = sys, .name = nm, .id = id_, .fields = flds,		\
		.nr_fields = ARRAY_SIZE(flds), .print_fmt = fmt }

static const struct sg_kernel kernels[] = {
	{
		.name = "6.18",
		.release = "6.18.0-schedgen",
		.text_style = TEXT_STYLE_6,
		.preempted = 0x100,	/* TASK_REPORT_MAX */
		/* __print_flags bits of TASK_REPORT; "I" is TASK_REPORT_IDLE */
		.letters = { { 0x01, 'S' }, { 0x02, 'D' }, { 0x04, 'T' }, { 0x08, 't' },
			     { 0x10, 'X' }, { 0x20, 'Z' }, { 0x40, 'P' }, { 0x80, 'I' } },
		.nr_letters = 8,
		.state_mask = 0xff,
		.events = {
			EVENT(SG_SCHED_SWITCH, "sched", "sched_switch", 372, switch_fields, switch_fmt_6),
			EVENT(SG_SCHED_WAKING, "sched", "sched_waking", 375, wakeup_fields, wakeup_fmt),
			EVENT(SG_SCHED_WAKEUP, "sched", "sched_wakeup", 374, wakeup_fields, wakeup_fmt),
			EVENT(SG_SCHED_WAKEUP_NEW, "sched", "sched_wakeup_new", 373, wakeup_fields, wakeup_fmt),
			EVENT(SG_SCHED_MIGRATE_TASK, "sched", "sched_migrate_task", 371, migrate_fields, migrate_fmt_6),
			EVENT(SG_SCHED_PROCESS_FORK, "sched", "sched_process_fork", 366, fork_fields, fork_fmt_6),
			EVENT(SG_SCHED_PROCESS_EXIT, "sched", "sched_process_exit", 369, exit_fields, exit_fmt_6),
			EVENT(SG_SCHED_WAKE_IDLE_WITHOUT_IPI, "sched", "sched_wake_idle_without_ipi", 355, cpu_fields, cpu_fmt),
			EVENT(SG_IPI_SEND_CPU, "ipi", "ipi_send_cpu", 354, ipi_send_cpu_fields, ipi_send_cpu_fmt),
			EVENT(SG_LOCAL_TIMER_ENTRY, "irq_vectors", "local_timer_entry", 165, vector_fields, vector_fmt),
			EVENT(SG_RESCHEDULE_ENTRY, "irq_vectors", "reschedule_entry", 155, vector_fields, vector_fmt),
			EVENT(SG_CALL_FUNCTION_SINGLE_ENTRY, "irq_vectors", "call_function_single_entry", 151, vector_fields, vector_fmt),
			EVENT(SG_FTRACE_PRINT, "ftrace", "print", 5, print_fields, print_fmt),
		},
	},
	{
		/*
		 * A 4.9 trace as old tools recorded it: no sched_waking (before
		 * 4.3, or not enabled, as in the LISA traces), no ipi_send_cpu
		 * (6.6).  IDs of sched events are those of the LISA trace.
		 */
		.name = "4.9",
		.release = "4.9.0-schedgen",
		.text_style = TEXT_STYLE_4,
		.preempted = 2048,	/* TASK_STATE_MAX */
		.letters = { { 1, 'S' }, { 2, 'D' }, { 4, 'T' }, { 8, 't' }, { 16, 'Z' },
			     { 32, 'X' }, { 64, 'x' }, { 128, 'K' }, { 256, 'W' },
			     { 512, 'P' }, { 1024, 'N' } },
		.nr_letters = 11,
		.state_mask = 2048 - 1,
		.switch_fmt_4 = switch_fmt_4,
		.events = {
			EVENT(SG_SCHED_SWITCH, "sched", "sched_switch", 98, switch_fields, NULL),
			EVENT(SG_SCHED_WAKEUP, "sched", "sched_wakeup", 100, wakeup_fields_4, wakeup_fmt),
			EVENT(SG_SCHED_WAKEUP_NEW, "sched", "sched_wakeup_new", 99, wakeup_fields_4, wakeup_fmt),
			EVENT(SG_SCHED_MIGRATE_TASK, "sched", "sched_migrate_task", 97, migrate_fields_4, migrate_fmt_4),
			EVENT(SG_SCHED_PROCESS_FORK, "sched", "sched_process_fork", 92, fork_fields_4, fork_fmt_4),
			EVENT(SG_SCHED_PROCESS_EXIT, "sched", "sched_process_exit", 95, exit_fields_4, exit_fmt_4),
			EVENT(SG_SCHED_WAKE_IDLE_WITHOUT_IPI, "sched", "sched_wake_idle_without_ipi", 80, cpu_fields, cpu_fmt),
			EVENT(SG_LOCAL_TIMER_ENTRY, "irq_vectors", "local_timer_entry", 36, vector_fields, vector_fmt),
			EVENT(SG_RESCHEDULE_ENTRY, "irq_vectors", "reschedule_entry", 42, vector_fields, vector_fmt),
			EVENT(SG_CALL_FUNCTION_SINGLE_ENTRY, "irq_vectors", "call_function_single_entry", 38, vector_fields, vector_fmt),
			EVENT(SG_FTRACE_PRINT, "ftrace", "print", 5, print_fields_4, print_fmt),
		},
	},
	{
		.name = "4.13",
		.release = "4.13.0-schedgen",
		.text_style = TEXT_STYLE_4,
		.preempted = 4096,	/* TASK_STATE_MAX after TASK_NEW (2048) */
		.letters = { { 1, 'S' }, { 2, 'D' }, { 4, 'T' }, { 8, 't' }, { 16, 'Z' },
			     { 32, 'X' }, { 64, 'x' }, { 128, 'K' }, { 256, 'W' },
			     { 512, 'P' }, { 1024, 'N' } },
		.nr_letters = 11,
		.state_mask = 4096 - 1,
		.switch_fmt_4 = switch_fmt_4,
		.events = {
			EVENT(SG_SCHED_SWITCH, "sched", "sched_switch", 98, switch_fields, NULL),
			EVENT(SG_SCHED_WAKEUP, "sched", "sched_wakeup", 100, wakeup_fields_4, wakeup_fmt),
			EVENT(SG_SCHED_WAKEUP_NEW, "sched", "sched_wakeup_new", 99, wakeup_fields_4, wakeup_fmt),
			EVENT(SG_SCHED_MIGRATE_TASK, "sched", "sched_migrate_task", 97, migrate_fields_4, migrate_fmt_4),
			EVENT(SG_SCHED_PROCESS_FORK, "sched", "sched_process_fork", 92, fork_fields_4, fork_fmt_4),
			EVENT(SG_SCHED_PROCESS_EXIT, "sched", "sched_process_exit", 95, exit_fields_4, exit_fmt_4),
			EVENT(SG_SCHED_WAKE_IDLE_WITHOUT_IPI, "sched", "sched_wake_idle_without_ipi", 80, cpu_fields, cpu_fmt),
			EVENT(SG_LOCAL_TIMER_ENTRY, "irq_vectors", "local_timer_entry", 36, vector_fields, vector_fmt),
			EVENT(SG_RESCHEDULE_ENTRY, "irq_vectors", "reschedule_entry", 42, vector_fields, vector_fmt),
			EVENT(SG_CALL_FUNCTION_SINGLE_ENTRY, "irq_vectors", "call_function_single_entry", 38, vector_fields, vector_fmt),
			EVENT(SG_FTRACE_PRINT, "ftrace", "print", 5, print_fields_4, print_fmt),
		},
	},
};

static const char *const event_systems[SG_NR_EVENT_TYPES] = {
	[SG_SCHED_SWITCH] = "sched", [SG_SCHED_WAKING] = "sched",
	[SG_SCHED_WAKEUP] = "sched", [SG_SCHED_WAKEUP_NEW] = "sched",
	[SG_SCHED_MIGRATE_TASK] = "sched", [SG_SCHED_PROCESS_FORK] = "sched",
	[SG_SCHED_PROCESS_EXIT] = "sched", [SG_SCHED_WAKE_IDLE_WITHOUT_IPI] = "sched",
	[SG_IPI_SEND_CPU] = "ipi", [SG_LOCAL_TIMER_ENTRY] = "irq_vectors",
	[SG_RESCHEDULE_ENTRY] = "irq_vectors", [SG_CALL_FUNCTION_SINGLE_ENTRY] = "irq_vectors",
	[SG_FTRACE_PRINT] = "ftrace",
};

static const char *const event_names[SG_NR_EVENT_TYPES] = {
	[SG_SCHED_SWITCH] = "sched_switch", [SG_SCHED_WAKING] = "sched_waking",
	[SG_SCHED_WAKEUP] = "sched_wakeup", [SG_SCHED_WAKEUP_NEW] = "sched_wakeup_new",
	[SG_SCHED_MIGRATE_TASK] = "sched_migrate_task",
	[SG_SCHED_PROCESS_FORK] = "sched_process_fork",
	[SG_SCHED_PROCESS_EXIT] = "sched_process_exit",
	[SG_SCHED_WAKE_IDLE_WITHOUT_IPI] = "sched_wake_idle_without_ipi",
	[SG_IPI_SEND_CPU] = "ipi_send_cpu", [SG_LOCAL_TIMER_ENTRY] = "local_timer_entry",
	[SG_RESCHEDULE_ENTRY] = "reschedule_entry",
	[SG_CALL_FUNCTION_SINGLE_ENTRY] = "call_function_single_entry",
	[SG_FTRACE_PRINT] = "print",
};

const struct sg_kernel *sg_kernel_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++)
		if (!strcmp(kernels[i].name, name))
			return &kernels[i];
	return NULL;
}

const char *sg_kernel_names(void)
{
	return "6.18, 4.9, 4.13";
}

const char *sg_kernel_name(const struct sg_kernel *k)
{
	return k->name;
}

const char *sg_kernel_release(const struct sg_kernel *k)
{
	return k->release;
}

bool sg_kernel_has(const struct sg_kernel *k, int type)
{
	return type >= 0 && type < SG_NR_EVENT_TYPES && k->events[type].name;
}

const char *sg_event_system(int type)
{
	return type >= 0 && type < SG_NR_EVENT_TYPES ? event_systems[type] : NULL;
}

const char *sg_event_name(int type)
{
	return type >= 0 && type < SG_NR_EVENT_TYPES ? event_names[type] : NULL;
}

/* ------------------------------------------------------------------ */
/* Task states */

long long sg_state_preempted(const struct sg_kernel *k)
{
	return k->preempted;
}

/*
 * sg_state_parse - "R", "R+", "S", "D|W" or a number into prev_state
 *
 * Letters are those of the kernel's print fmt, so "I" exists on 6.x only
 * and "x" (TASK_DEAD) on 4.x only; "Z" is what an exiting task shows on 6.x.
 */
int sg_state_parse(const struct sg_kernel *k, const char *s, long long *state)
{
	long long v = 0;

	if (*s >= '0' && *s <= '9')
		return parse_int(s, 0, 0x7fffffff, state);
	if (!strcmp(s, "R")) {
		*state = 0;
		return 0;
	}
	if (!strcmp(s, "R+")) {
		*state = k->preempted;
		return 0;
	}
	while (*s) {
		int i;

		for (i = 0; i < k->nr_letters; i++)
			if (k->letters[i].letter == *s)
				break;
		if (i == k->nr_letters)
			return -1;
		v |= k->letters[i].bit;
		s++;
		if (*s == '|')
			s++;
		else if (*s)
			return -1;
	}
	*state = v;
	return 0;
}

/* As the kernel prints it: __print_flags(state & mask, "|", ...) or "R", then "+". */
size_t sg_state_format(const struct sg_kernel *k, long long state, char *buf)
{
	long long masked = state & k->state_mask;
	size_t n = 0;

	if (!masked) {
		buf[n++] = 'R';
	} else {
		for (int i = 0; i < k->nr_letters; i++) {
			if (!(masked & k->letters[i].bit))
				continue;
			if (n)
				buf[n++] = '|';
			buf[n++] = k->letters[i].letter;
			masked &= ~k->letters[i].bit;
		}
		/* bits without a name: __print_flags prints the rest in hex */
		if (masked)
			n += sprintf(buf + n, "%s0x%llx", n ? "|" : "", masked);
	}
	if (state & k->preempted)
		buf[n++] = '+';
	buf[n] = '\0';
	return n;
}

/* ------------------------------------------------------------------ */
/* Layout and format text */

static int field_size(const struct sg_abi *abi, const struct sg_field *f)
{
	switch (f->kind) {
	case FK_U8:
	case FK_BOOL:
		return 1;
	case FK_U16:
		return 2;
	case FK_S32:
	case FK_U32:
	case FK_DATA_LOC:
		return 4;
	case FK_LONG:
	case FK_ULONG:
	case FK_PTR:
		return abi->long_size;
	case FK_CHARS:
		return f->array;
	case FK_STRING:
		return 0;
	}
	return 0;
}

static int field_align(const struct sg_abi *abi, const struct sg_field *f)
{
	return f->kind == FK_CHARS || f->kind == FK_STRING ? 1 : field_size(abi, f);
}

static bool field_signed(const struct sg_field *f)
{
	return f->kind == FK_S32 || f->kind == FK_LONG;
}

/*
 * sg_layout - where each field of an event sits for this ABI
 *
 * Common fields first, then the event's own, each at its natural alignment;
 * the fixed part ends at the struct's size (rounded to its widest member),
 * where __data_loc strings begin.
 */
int sg_layout(const struct sg_abi *abi, int type, struct sg_layout *lay)
{
	const struct sg_event_format *ef = &abi->kernel->events[type];
	int off = 0, max_align = 1, n = 0;

	if (!ef->name)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(common_fields) + ef->nr_fields; i++) {
		const struct sg_field *f = i < ARRAY_SIZE(common_fields) ?
			&common_fields[i] : &ef->fields[i - ARRAY_SIZE(common_fields)];
		int align = field_align(abi, f);

		off = (off + align - 1) & ~(align - 1);
		lay->field[n] = f;
		lay->offset[n] = off;
		lay->size[n] = field_size(abi, f);
		off += lay->size[n];
		if (align > max_align)
			max_align = align;
		n++;
	}
	lay->nr_fields = n;
	lay->fixed_size = (off + max_align - 1) & ~(max_align - 1);
	lay->id = ef->id;
	return 0;
}

int sg_format_text(const struct sg_abi *abi, int type, char *buf, size_t len)
{
	const struct sg_kernel *k = abi->kernel;
	const struct sg_event_format *ef = &k->events[type];
	struct sg_layout lay;
	char fmt4[1024];
	const char *print_fmt;
	size_t n = 0;

	if (sg_layout(abi, type, &lay))
		return -1;

#define OUT(...)							\
	do {								\
		int __r = snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__); \
		if (__r < 0)						\
			return -1;					\
		n += __r;						\
	} while (0)

	OUT("name: %s\nID: %d\nformat:\n", ef->name, ef->id);
	for (int i = 0; i < lay.nr_fields; i++) {
		const struct sg_field *f = lay.field[i];

		if (i == (int)ARRAY_SIZE(common_fields))
			OUT("\n");
		if (f->kind == FK_CHARS)
			OUT("\tfield:%s %s[%d];", f->type, f->name, f->array);
		else if (f->kind == FK_STRING && f->array >= 0)
			OUT("\tfield:%s %s[];", f->type, f->name);
		else
			OUT("\tfield:%s %s;", f->type, f->name);
		OUT("\toffset:%d;\tsize:%d;\tsigned:%d;\n", lay.offset[i], lay.size[i],
		    field_signed(f));
	}
	print_fmt = ef->print_fmt;
	if (!print_fmt) {
		/* The 4.x switch format has TASK_STATE_MAX folded in. */
		snprintf(fmt4, sizeof(fmt4), k->switch_fmt_4, (int)k->preempted,
			 (int)k->preempted, (int)k->preempted);
		print_fmt = fmt4;
	}
	OUT("\nprint fmt: %s\n", print_fmt);
#undef OUT
	return n < len ? (int)n : -1;
}

int sg_header_page_text(const struct sg_abi *abi, char *buf, size_t len)
{
	int ls = abi->long_size;

	/* The commit word is a local_t: the kernel's long.  Data follows it. */
	return snprintf(buf, len,
			"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
			"\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n"
			"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
			"\tfield: char data;\toffset:%d;\tsize:%d;\tsigned:0;\n",
			ls, 8 + ls, abi->page_size - 8 - ls);
}

const char *sg_header_event_text(void)
{
	return "# compressed entry header\n"
	       "\ttype_len    :    5 bits\n"
	       "\ttime_delta  :   27 bits\n"
	       "\tarray       :   32 bits\n"
	       "\n"
	       "\tpadding     : type == 29\n"
	       "\ttime_extend : type == 30\n"
	       "\ttime_stamp : type == 31\n"
	       "\tdata max type_len  == 28\n";
}

/* ------------------------------------------------------------------ */
/* Kernel symbols */

/*
 * The symbols are laid out back to back from the kernel text base, so each
 * one's size (what %pS prints after the slash) is the distance to the next,
 * as kallsyms computes it.  Sizes and the offsets we log are those of the
 * real 6.18 traces in testdata/real.
 */
static const struct {
	const char *name;
	unsigned int size;
} syms[SG_NR_SYMS] = {
	[SYM_TTWU_QUEUE_WAKELIST] = { "ttwu_queue_wakelist", 0x150 },
	[SYM_WAKEUP_PREEMPT] = { "wakeup_preempt", 0xa0 },
	[SYM_GENERIC_EXEC_SINGLE] = { "generic_exec_single", 0x150 },
	[SYM_GENERIC_SMP_CALL_FUNCTION_SINGLE_INTERRUPT] =
		{ "generic_smp_call_function_single_interrupt", 0x10 },
	[SYM_ON_EACH_CPU_COND_MASK] = { "on_each_cpu_cond_mask", 0x60 },
	[SYM_UPDATE_CURR] = { "update_curr", 0x140 },
	[SYM_TRACING_MARK_WRITE] = { "tracing_mark_write", 0x240 },
};

static uint64_t text_base(const struct sg_abi *abi)
{
	return abi->long_size == 8 ? 0xffffffff810c0000ULL : 0xc10c0000ULL;
}

uint64_t sg_sym_addr(const struct sg_abi *abi, int sym, unsigned int offset)
{
	uint64_t addr = text_base(abi);

	for (int i = 0; i < sym; i++)
		addr += syms[i].size;
	return addr + offset;
}

int sg_sym_lookup(const char *name)
{
	for (int i = 0; i < SG_NR_SYMS; i++)
		if (!strcmp(syms[i].name, name))
			return i;
	return -1;
}

size_t sg_sym_format(const struct sg_abi *abi, uint64_t addr, char *buf)
{
	uint64_t start = text_base(abi);

	for (int i = 0; i < SG_NR_SYMS; i++) {
		if (addr >= start && addr < start + syms[i].size)
			return sprintf(buf, "%s+0x%llx/0x%x", syms[i].name,
				       (unsigned long long)(addr - start), syms[i].size);
		start += syms[i].size;
	}
	return sprintf(buf, "0x%llx", (unsigned long long)addr);
}

size_t sg_kallsyms_text(const struct sg_abi *abi, char *buf, size_t len)
{
	uint64_t addr = text_base(abi);
	int width = abi->long_size * 2;
	size_t n = 0;

	n += snprintf(buf + n, len > n ? len - n : 0, "%0*llx T _stext\n", width,
		      (unsigned long long)(addr & ~0xfffffULL));
	for (int i = 0; i < SG_NR_SYMS; i++) {
		n += snprintf(buf + n, len > n ? len - n : 0, "%0*llx T %s\n", width,
			      (unsigned long long)addr, syms[i].name);
		addr += syms[i].size;
	}
	/* a last symbol so that the one before it has a size */
	n += snprintf(buf + n, len > n ? len - n : 0, "%0*llx T _etext\n", width,
		      (unsigned long long)addr);
	return n;
}

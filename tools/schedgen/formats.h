/* SPDX-License-Identifier: GPL-2.0 */
/*
 * formats.h - event format tables, shared by formats.c (which prints them)
 * and record.c (which fills records by them)
 */
#ifndef SCHEDGEN_FORMATS_H
#define SCHEDGEN_FORMATS_H

#include "schedgen.h"

/* How a field is stored; its size follows from this and the ABI. */
enum sg_field_kind {
	FK_U8,
	FK_U16,
	FK_S32,
	FK_U32,
	FK_LONG,	/* the kernel's long: 4 or 8 bytes */
	FK_ULONG,
	FK_PTR,		/* void *: 4 or 8 bytes */
	FK_CHARS,	/* char name[array] */
	FK_DATA_LOC,	/* __data_loc char[]: u32 (len << 16 | offset), string after the struct */
	FK_BOOL,
	FK_STRING,	/* char name[]: a NUL-terminated string ends the record */
};

/* Which member of struct sg_event a field takes its value from. */
enum sg_value_source {
	V_COMMON_TYPE,
	V_COMMON_FLAGS,
	V_COMMON_PREEMPT,
	V_COMMON_PID,
	V_COMM0, V_COMM1,
	V_PID0, V_PID1,
	V_PRIO0, V_PRIO1,
	V_ARG0, V_ARG1,
	V_STATE,
	V_ADDR0, V_ADDR1,
	V_ONE,		/* the old wakeup events' "success", always 1 */
	V_MARK_IP,	/* ftrace print: where the text came from (tracing_mark_write) */
};

struct sg_field {
	const char *type;	/* as the format file spells it: "pid_t", "void *" */
	const char *name;
	int array;		/* FK_CHARS: the array length */
	enum sg_field_kind kind;
	enum sg_value_source src;
};

struct sg_event_format {
	const char *system;
	const char *name;
	int id;
	const struct sg_field *fields;	/* without the common fields */
	size_t nr_fields;
	const char *print_fmt;		/* NULL: the kernel's switch_fmt_4 */
};

enum sg_text_style {
	TEXT_STYLE_6,	/* 5-char irq info (migrate-disable), PID column of 7 */
	TEXT_STYLE_4,	/* 4-char irq info, PID column of 5 */
};

struct sg_state_letter {
	long long bit;
	char letter;
};

struct sg_kernel {
	const char *name;
	const char *release;		/* for the uname option */
	enum sg_text_style text_style;
	long long preempted;		/* the prev_state bit of a preempted task */
	long long state_mask;		/* what __print_flags looks at */
	struct sg_state_letter letters[12];
	int nr_letters;
	const char *switch_fmt_4;	/* printf format taking TASK_STATE_MAX thrice */
	struct sg_event_format events[SG_NR_EVENT_TYPES];
};

#define SG_MAX_FIELDS 16

struct sg_layout {
	int id;
	int nr_fields;
	int fixed_size;			/* where dynamic (__data_loc) data starts */
	const struct sg_field *field[SG_MAX_FIELDS];
	int offset[SG_MAX_FIELDS];
	int size[SG_MAX_FIELDS];
};

int sg_layout(const struct sg_abi *abi, int type, struct sg_layout *lay);

#endif /* SCHEDGEN_FORMATS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * context.h - the machine's scheduling context: tasks' policies, groups, kernel settings
 *
 * schedlint record reads, for every task, its policy, priority or nice
 * and slice (sched_getattr()), its autogroup and its cpu cgroup with the
 * groups' weights, and the kernel's HZ, HRTICK and preemption mode, and
 * writes them into the trace as trace_marker lines (the formats below).
 * The model keeps them (context.c) and gives each task's recorded policy
 * to struct sl_task.policy, which sl_task_class() (model.h) decides the
 * class from; a trace without them gets what the trace itself shows (a
 * task's prio gives its class and nice) and says "unknown" for the rest.
 *
 * Marker formats (each marker at most about 1000 bytes):
 *
 *   SL_MARKER_KERNEL  "KEY=VALUE@FROM ..."  hz=250@config hrtick=off@default
 *                     preempt=none@config base_slice=1400000@getattr;
 *                     FROM is one of config (/proc/config.gz), debugfs
 *                     (/sys/kernel/debug/sched), cmdline (/proc/cmdline's
 *                     preempt=), default (the kernel's default for what
 *                     config says), getattr (sched_getattr() of record's
 *                     own task: a fair task's sched_runtime is the base
 *                     slice on 6.12+).  Unknown keys are skipped (a newer
 *                     record).
 *   SL_MARKER_GROUP   "ID PARENT WEIGHT KIND NAME": a scheduling group.
 *                     ID 1..SL_CTX_MAX_GROUPS-1 (0 is the root group),
 *                     PARENT < ID and defined before, WEIGHT its
 *                     weight as nice 0 = 1024 (cpu.shares; cpu.weight x
 *                     1024 / 100; an autogroup's nice through the
 *                     kernel's table), KIND autogroup | cpu (cgroup v1
 *                     cpu controller) | cpu2 (cgroup v2), NAME the rest
 *                     of the line ("/autogroup-54 nice 0", "/user.slice").
 *   SL_MARKER_SCHED   "PIDS=POLICY/PRIO/SLICE/GROUP[@NS] ...": PIDS a
 *                     range list as in affinity markers, POLICY one of
 *                     other batch idle fifo rr deadline ext, PRIO the
 *                     nice (-20..19) of a fair policy or the RT priority
 *                     (1..99), SLICE sched_attr.sched_runtime in ns (a
 *                     fair task's slice on 6.12+, a deadline task's
 *                     runtime; 0 unknown), GROUP a defined group's ID.
 *                     @NS: read again after an exec at trace time NS.
 *
 * Anything else after one of these prefixes is garbage: the analysis
 * stops with one error naming the marker (exit 2).
 */
#ifndef SCHEDLINT_CONTEXT_H
#define SCHEDLINT_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

#define SL_MARKER_KERNEL	"schedlint: kernel "
#define SL_MARKER_GROUP		"schedlint: group "
#define SL_MARKER_SCHED		"schedlint: sched "

#define SL_CTX_MAX_GROUPS	4096	/* group ids a trace may define */
#define SL_CTX_MAX_KINDS	65536	/* distinct (policy, prio, slice, group) */

enum sl_policy {
	SL_POLICY_UNKNOWN = 0,
	SL_POLICY_OTHER,
	SL_POLICY_BATCH,
	SL_POLICY_IDLE,
	SL_POLICY_FIFO,
	SL_POLICY_RR,
	SL_POLICY_DEADLINE,
	SL_POLICY_EXT,
	SL_POLICY__COUNT,
};

enum sl_group_kind {
	SL_GROUP_ROOT = 0,
	SL_GROUP_AUTOGROUP,
	SL_GROUP_CGROUP_V1,		/* the v1 cpu controller's hierarchy */
	SL_GROUP_CGROUP_V2,
};

/* One task's recorded scheduling parameters. */
struct sl_sched_ctx {
	uint8_t policy;			/* enum sl_policy */
	int16_t prio;			/* nice of a fair policy, RT priority of fifo/rr */
	uint64_t slice_ns;		/* sched_attr.sched_runtime, 0 unknown */
	uint32_t group;			/* its scheduling group (0: the root) */
};

/* A scheduling group: a task group whose entity competes in its parent's runqueue. */
struct sl_group {
	uint32_t id;
	uint32_t parent;		/* its parent's id (the root's: 0) */
	uint32_t weight;		/* nice 0 = 1024, as recorded (sl_group_shares()) */
	uint8_t kind;			/* enum sl_group_kind */
	bool defined;
	char name[256];
};

#define SL_MIN_SHARES	2		/* a group entity's weight at least, as the kernel's */
#define SL_MAX_SHARES	(1u << 18)	/* ... and at most */

/*
 * The weight a group's entity competes with: its recorded weight clamped
 * to [MIN_SHARES, MAX_SHARES], as sched_group_set_shares() clamps
 * cpu.shares (record never reads more, but a marker may say up to 2^30)
 */
static inline uint32_t sl_group_shares(const struct sl_group *gr)
{
	return gr->weight < SL_MIN_SHARES ? SL_MIN_SHARES :
	       gr->weight > SL_MAX_SHARES ? SL_MAX_SHARES : gr->weight;
}

/* A kernel setting and where record read it; value[0] == 0: unknown. */
struct sl_kernel_fact {
	char value[16];			/* "250", "on", "none", ... */
	char from[16];			/* "config", "debugfs", "cmdline", "default" */
};

struct sl_context {
	struct sl_kernel_fact hz, hrtick, preempt, base_slice;
	uint64_t base_slice_ns;		/* base_slice's value, 0 unknown */
	struct sl_group *groups;	/* by id; groups[0] is the root */
	uint32_t nr_groups;		/* highest id + 1 */
	bool recorded;			/* the trace has sched markers */
	uint64_t tasks_recorded;	/* sched tokens' pids applied (a task re-read counts again) */
	/* private to context.c */
	struct sl_sched_ctx *kinds;	/* interned: kind id = index + 1 */
	uint32_t nr_kinds;
	size_t kinds_alloc;
	uint32_t *kind_index;		/* open addressing: kind id, 0 empty */
	uint32_t kind_slots;
	struct sl_ctx_pending *pend;	/* pid -> kind for tasks not seen yet */
	uint32_t pend_slots, nr_pend;
	uint64_t pend_dropped;		/* pids beyond the pending table's bound */
	char error[256];		/* the first garbage marker, "" none */
};

/* The name of a policy ("other", "fifo", ...), "unknown" for 0. */
const char *sl_policy_name(enum sl_policy p);
/* Its SCHED_* number (include/uapi/linux/sched.h), -1 for unknown: struct sl_task.policy. */
int sl_policy_kernel(enum sl_policy p);
const char *sl_group_kind_name(enum sl_group_kind k);
/*
 * What schedlint record recorded for t last, NULL nothing.  This and the
 * two below are inline: late-preemption and shares ask for them for
 * every task of a runqueue at every run and every enqueue (calls were a
 * fifth of analyze on a recorded hackbench).  t's load weight
 * (sl_task_load_weight()) is in src/model/slice.h, with the weights.
 */
static inline const struct sl_sched_ctx *sl_task_sched(const struct sl_model *m,
						       const struct sl_task *t)
{
	if (!t || !t->sched_kind || !m->ctx)
		return NULL;
	return &m->ctx->kinds[t->sched_kind - 1];
}

/* t's group id: recorded, else 0 (the root: groups unknown). */
static inline uint32_t sl_task_group(const struct sl_model *m, const struct sl_task *t)
{
	const struct sl_sched_ctx *k = sl_task_sched(m, t);

	return k ? k->group : 0;
}

/* The group of id, NULL when the trace defines none such. */
static inline const struct sl_group *sl_model_group(const struct sl_model *m, uint32_t id)
{
	static const struct sl_group root = { .weight = 1024, .kind = SL_GROUP_ROOT,
					      .defined = true, .name = "/" };

	if (!m->ctx)
		return id == 0 ? &root : NULL;
	return id < m->ctx->nr_groups && m->ctx->groups[id].defined ? &m->ctx->groups[id] : NULL;
}
/* The number of groups defined, the root included (1 when none recorded). */
uint32_t sl_model_nr_groups(const struct sl_model *m);

#endif /* SCHEDLINT_CONTEXT_H */

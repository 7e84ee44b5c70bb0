// SPDX-License-Identifier: GPL-2.0
/*
 * export_perfetto.c - the analysis as a Perfetto trace (export.h)
 *
 * Perfetto's UI shows CPU tracks and thread states from ftrace events in
 * its protobuf format; it does not read trace.dat.  We write, by hand
 * (util/pb.h), the packets it needs (field numbers from Perfetto's
 * protos/perfetto/trace/; the subset the tests decode with is
 * tests/perfetto/schedlint.proto):
 *
 *   Trace.packet = 1 -> TracePacket
 *     ftrace_events = 1 -> FtraceEventBundle { cpu = 1, event = 2 }
 *       FtraceEvent { timestamp = 1, pid = 2, sched_switch = 4,
 *                     sched_wakeup = 17, sched_waking = 20,
 *                     sched_wakeup_new = 114, sched_migrate_task = 491 }
 *     system_info = 45 (the kernel release: how prev_state decodes)
 *     process_tree = 2, track_descriptor = 60, track_event = 11
 *     timestamp = 8, trusted_packet_sequence_id = 10, sequence_flags = 13
 *
 * The schedule streams: each CPU's events gather in a bundle written out
 * at SL_PFTRACE_BUNDLE bytes, so memory does not grow with the trace.
 * Runnable states and wakers come from sched_waking; a trace without it
 * gives its sched_wakeup instead.  prev_state is the kernel's bits as
 * 4.14+ (and, for older releases, the layout before) report them, from
 * the letter the trace printed.
 *
 * The findings kept (--max-findings per kind) are slices on a track per
 * kind ("schedlint: wakee-stacking"), split into lanes where they
 * overlap, each spanning its cost, with its fields, message, what-if and
 * the schedlint dump command as debug annotations.  A placement finding
 * (wakee-stacking, sync-wake-remote) woken by a task has a flow from an
 * instant on the waker's thread at the waking to the slice.  The latency
 * over time is four counter tracks.
 */
#include <stdlib.h>
#include <string.h>

#include "report/export.h"
#include "report/report.h"
#include "schedlint/findings.h"
#include "schedlint/model.h"
#include "schedlint/report.h"
#include "schedlint/series.h"
#include "util/pb.h"
#include "util/util.h"

/* TracePacket fields */
#define PKT_FTRACE_EVENTS	1
#define PKT_PROCESS_TREE	2
#define PKT_TIMESTAMP		8
#define PKT_SEQUENCE_ID		10
#define PKT_TRACK_EVENT		11
#define PKT_SEQUENCE_FLAGS	13
#define PKT_SYSTEM_INFO		45
#define PKT_TRACK_DESCRIPTOR	60
/* FtraceEvent fields */
#define FT_TIMESTAMP		1
#define FT_PID			2
#define FT_SCHED_SWITCH		4
#define FT_SCHED_WAKEUP		17
#define FT_SCHED_WAKING		20
#define FT_SCHED_WAKEUP_NEW	114
#define FT_SCHED_MIGRATE_TASK	491
/* TrackEvent */
#define TE_DEBUG_ANNOTATIONS	4
#define TE_TYPE			9
#define TE_TRACK_UUID		11
#define TE_CATEGORIES		22
#define TE_NAME			23
#define TE_COUNTER_VALUE	30
#define TE_FLOW_IDS		47
#define TE_TERMINATING_FLOW_IDS	48
#define TE_SLICE_BEGIN		1
#define TE_SLICE_END		2
#define TE_INSTANT		3
#define TE_COUNTER		4

#define SEQUENCE_ID		1	/* every track event is on this one sequence */
/* track uuids: a kind's track, its lanes, threads, counters */
#define UUID_KIND(k)		(0x5c4ed00000000000ull | ((uint64_t)(k) + 1) << 32)
#define UUID_LANE(k, lane)	(UUID_KIND(k) | ((uint64_t)(lane) + 1))
#define UUID_THREAD(pid)	(0x5c4ed10000000000ull | (uint32_t)(pid))
#define UUID_COUNTER(i)		(0x5c4ed20000000000ull | (uint64_t)(i))

struct sl_pftrace {
	FILE *out;
	const struct sl_config *cfg;
	const struct sl_strtab *st;
	struct pb_buf *bundle;		/* per CPU: encoded FtraceEvent fields */
	size_t nr_cpus;
	struct pb_buf pkt;		/* the TracePacket being written */
	struct pb_buf head;		/* Trace.packet's tag and length */
	bool old_states;		/* kernel before 4.14: the older prev_state bits */
	bool waking_given;		/* the trace has sched_waking: its wakeups are left out */
	bool waking_seen;
	bool started;			/* the first event: relative --from/--to resolved */
	uint64_t from_ns, to_ns;
	bool seq_cleared;		/* the sequence's first packet written */
	struct sl_pftrace_counts counts;
	struct sl_fields_text json;	/* a finding's object or array member, as JSON text */
};

struct sl_pftrace *sl_pftrace_new(FILE *out, const struct sl_config *cfg)
{
	struct sl_pftrace *w = xcalloc(1, sizeof(*w));

	w->out = out;
	w->cfg = cfg;
	w->from_ns = cfg->from_ns;
	w->to_ns = cfg->to_ns;
	sl_fields_text_init(&w->json);
	return w;
}

void sl_pftrace_free(struct sl_pftrace *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nr_cpus; i++)
		pb_free(&w->bundle[i]);
	free(w->bundle);
	pb_free(&w->pkt);
	pb_free(&w->head);
	sl_fields_text_free(&w->json);
	free(w);
}

void sl_pftrace_counts(const struct sl_pftrace *w, struct sl_pftrace_counts *out)
{
	*out = w->counts;
}

/* Trace.packet = 1: w->pkt as one packet, then emptied. */
static void write_packet(struct sl_pftrace *w)
{
	pb_reset(&w->head);
	pb_varint(&w->head, 1 << 3 | PB_LEN);
	pb_varint(&w->head, w->pkt.len);
	fwrite(w->head.data, 1, w->head.len, w->out);
	fwrite(w->pkt.data, 1, w->pkt.len, w->out);
	pb_reset(&w->pkt);
}

/* "6.18.44-fc" -> 6 * 1000 + 18; 0 unknown */
static int kernel_version(const char *release)
{
	int major = 0, minor = 0;

	if (sscanf(release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 1000 + minor;
}

void sl_pftrace_start(struct sl_pftrace *w, const struct sl_trace_info *info,
		      const struct sl_strtab *st)
{
	size_t si, un;
	int version = kernel_version(info->kernel);

	w->st = st;
	w->old_states = version && version < 4014;
	w->waking_given = info->has_waking == SL_YES;

	si = pb_begin(&w->pkt, PKT_SYSTEM_INFO);
	un = pb_begin(&w->pkt, 1);		/* utsname */
	pb_str(&w->pkt, 1, "Linux");		/* sysname */
	if (info->kernel[0])
		pb_str(&w->pkt, 3, info->kernel);	/* release */
	pb_end(&w->pkt, un);
	if (info->ncpus > 0)
		pb_uint(&w->pkt, 8, (uint64_t)info->ncpus);	/* num_cpus */
	pb_end(&w->pkt, si);
	write_packet(w);
}

static void flush_cpu(struct sl_pftrace *w, size_t cpu)
{
	struct pb_buf *b = &w->bundle[cpu];
	size_t at;

	if (!b->len)
		return;
	at = pb_begin(&w->pkt, PKT_FTRACE_EVENTS);
	pb_uint(&w->pkt, 1, cpu);
	pb_raw(&w->pkt, b->data, b->len);
	pb_end(&w->pkt, at);
	write_packet(w);
	pb_reset(b);
}

/*
 * The kernel's prev_state bits for the letter the trace printed: 4.14+
 * (TASK_REPORT: S 1, D 2, T 4, t 8, X 16, Z 32, P 64, I 128, R+ 256),
 * before it the task state bits (W 256, P 512, N 1024, R+ TASK_STATE_MAX).
 */
static int64_t prev_state(const struct sl_pftrace *w, char letter, uint8_t cls)
{
	static const char report[] = "SDTtXZPI";
	static const char old[] = "SDTtXZxKWPN";
	const char *p;

	if (cls == SL_PREV_PREEMPTED)
		return w->old_states ? 4096 : 256;
	if (letter == 'R' || cls == SL_PREV_RUNNABLE)
		return 0;
	p = letter ? strchr(w->old_states ? old : report, letter) : NULL;
	if (p)
		return (int64_t)1 << (p - (w->old_states ? old : report));
	return cls == SL_PREV_DEAD ? 16 : 1;
}

static void wake_fields(struct pb_buf *b, const struct sl_strtab *st, uint32_t comm, int32_t pid,
			int32_t prio, int32_t cpu, bool success)
{
	pb_str(b, 1, sl_str(st, comm));
	pb_int(b, 2, pid);
	pb_int(b, 3, prio);
	pb_int(b, 4, success);
	pb_int(b, 5, cpu);
}

void sl_pftrace_event(struct sl_pftrace *w, const struct sl_event *ev)
{
	struct pb_buf *b;
	size_t e, at;
	uint32_t field;

	/* "+100ms" counts from the first event, not from a lost-events marker */
	if (!w->started && ev->type != SL_EV_LOST) {
		w->started = true;
		if (w->cfg->from_rel)
			w->from_ns += ev->ts;
		if (w->cfg->to_rel)
			w->to_ns += ev->ts;
	}
	switch (ev->type) {
	case SL_EV_SWITCH:
		field = FT_SCHED_SWITCH;
		break;
	case SL_EV_WAKING:
		w->waking_seen = true;
		field = FT_SCHED_WAKING;
		break;
	case SL_EV_WAKEUP:
		if (w->waking_given || w->waking_seen)
			return;
		field = FT_SCHED_WAKEUP;
		break;
	case SL_EV_WAKEUP_NEW:
		field = FT_SCHED_WAKEUP_NEW;
		break;
	case SL_EV_MIGRATE:
		field = FT_SCHED_MIGRATE_TASK;
		break;
	default:
		return;
	}
	if (ev->cpu < 0 || ev->cpu >= SL_MODEL_MAX_CPUS || !sl_filter_cpu(w->cfg, ev->cpu) ||
	    (w->cfg->from_set && ev->ts < w->from_ns) || (w->cfg->to_set && ev->ts > w->to_ns))
		return;
	if ((size_t)ev->cpu >= w->nr_cpus) {
		size_t n = w->nr_cpus;

		GROW(w->bundle, w->nr_cpus, (size_t)ev->cpu + 1);
		memset(w->bundle + n, 0, (w->nr_cpus - n) * sizeof(*w->bundle));
	}
	b = &w->bundle[ev->cpu];
	e = pb_begin(b, 2);			/* FtraceEventBundle.event */
	pb_uint(b, FT_TIMESTAMP, ev->ts);
	if (ev->pid >= 0)
		pb_uint(b, FT_PID, (uint64_t)ev->pid);
	at = pb_begin(b, field);
	switch (ev->type) {
	case SL_EV_SWITCH:
		pb_str(b, 1, sl_str(w->st, ev->sw.prev_comm));
		pb_int(b, 2, ev->sw.prev_pid);
		pb_int(b, 3, sl_prio_shown(ev->sw.prev_prio));
		pb_int(b, 4, prev_state(w, ev->sw.prev_letter, ev->sw.prev_class));
		pb_str(b, 5, sl_str(w->st, ev->sw.next_comm));
		pb_int(b, 6, ev->sw.next_pid);
		pb_int(b, 7, sl_prio_shown(ev->sw.next_prio));
		break;
	case SL_EV_MIGRATE:
		pb_str(b, 1, sl_str(w->st, ev->migrate.comm));
		pb_int(b, 2, ev->migrate.pid);
		pb_int(b, 3, sl_prio_shown(ev->migrate.prio));
		pb_int(b, 4, ev->migrate.orig_cpu);
		pb_int(b, 5, ev->migrate.dest_cpu);
		break;
	default:
		wake_fields(b, w->st, ev->wake.comm, ev->wake.pid, sl_prio_shown(ev->wake.prio),
			    ev->wake.target_cpu, ev->wake.success);
		break;
	}
	pb_end(b, at);
	pb_end(b, e);
	w->counts.events++;
	if (b->len >= SL_PFTRACE_BUNDLE)
		flush_cpu(w, (size_t)ev->cpu);
}

/* --- after the analysis --- */

/* A packet on the track-event sequence (the first one clears its state). */
static void track_packet(struct sl_pftrace *w, uint64_t ts)
{
	if (ts)
		pb_uint(&w->pkt, PKT_TIMESTAMP, ts);
	pb_uint(&w->pkt, PKT_SEQUENCE_ID, SEQUENCE_ID);
	if (!w->seq_cleared) {
		pb_uint(&w->pkt, PKT_SEQUENCE_FLAGS, 1);	/* SEQ_INCREMENTAL_STATE_CLEARED */
		w->seq_cleared = true;
	}
}

static void track_descriptor(struct sl_pftrace *w, uint64_t uuid, uint64_t parent, const char *name,
			     int counter_unit)
{
	size_t d, c;

	track_packet(w, 0);
	d = pb_begin(&w->pkt, PKT_TRACK_DESCRIPTOR);
	pb_uint(&w->pkt, 1, uuid);
	if (parent)
		pb_uint(&w->pkt, 5, parent);
	pb_str(&w->pkt, 2, name);
	if (counter_unit) {
		c = pb_begin(&w->pkt, 8);		/* CounterDescriptor */
		pb_uint(&w->pkt, 3, (uint64_t)counter_unit);
		pb_end(&w->pkt, c);
	}
	pb_end(&w->pkt, d);
	write_packet(w);
}

static void thread_descriptor(struct sl_pftrace *w, int32_t pid, const char *comm)
{
	size_t d, t;

	track_packet(w, 0);
	d = pb_begin(&w->pkt, PKT_TRACK_DESCRIPTOR);
	pb_uint(&w->pkt, 1, UUID_THREAD(pid));
	t = pb_begin(&w->pkt, 4);			/* ThreadDescriptor */
	pb_int(&w->pkt, 1, pid);			/* pid: each thread its own process */
	pb_int(&w->pkt, 2, pid);			/* tid */
	if (comm)
		pb_str(&w->pkt, 5, comm);
	pb_end(&w->pkt, t);
	pb_end(&w->pkt, d);
	write_packet(w);
}

/*
 * A finding's fields as DebugAnnotations { name = 10, value }, written as
 * they come (sl_finding_fields()): integers as int_value (4), strings as
 * string_value (6), booleans as bool_value (2); null, arrays and objects
 * as their JSON text, legacy_json_value (9).  The kind is left out: the
 * slice's name and track say it.
 */
struct pb_fields {
	struct sl_fields base;
	struct pb_buf *b;
	struct sl_fields_text *json;	/* the object being written, depth > 0 */
	const char *object;		/* its name */
	int depth;
};

static void annotation_begin(struct pb_fields *p, const char *name, size_t *a)
{
	*a = pb_begin(p->b, TE_DEBUG_ANNOTATIONS);
	pb_str(p->b, 10, name);
}

static void pbf_u64(struct sl_fields *o, const char *name, uint64_t v)
{
	struct pb_fields *p = (struct pb_fields *)o;
	size_t a;

	if (p->depth) {
		sl_fields_u64(&p->json->base, name, v);
		return;
	}
	annotation_begin(p, name, &a);
	pb_int(p->b, 4, v > INT64_MAX ? INT64_MAX : (int64_t)v);
	pb_end(p->b, a);
}

static void pbf_i64(struct sl_fields *o, const char *name, int64_t v)
{
	struct pb_fields *p = (struct pb_fields *)o;
	size_t a;

	if (p->depth) {
		sl_fields_i64(&p->json->base, name, v);
		return;
	}
	annotation_begin(p, name, &a);
	pb_int(p->b, 4, v);
	pb_end(p->b, a);
}

static void pbf_str(struct sl_fields *o, const char *name, const char *s)
{
	struct pb_fields *p = (struct pb_fields *)o;
	size_t a;

	if (p->depth) {
		sl_fields_str(&p->json->base, name, s);
		return;
	}
	if (!strcmp(name, "kind"))
		return;
	annotation_begin(p, name, &a);
	pb_str(p->b, 6, s);
	pb_end(p->b, a);
}

static void pbf_bool(struct sl_fields *o, const char *name, bool v)
{
	struct pb_fields *p = (struct pb_fields *)o;
	size_t a;

	if (p->depth) {
		sl_fields_bool(&p->json->base, name, v);
		return;
	}
	annotation_begin(p, name, &a);
	pb_uint(p->b, 2, v);
	pb_end(p->b, a);
}

static void pbf_json(struct pb_fields *p, const char *name, const char *text)
{
	size_t a;

	annotation_begin(p, name, &a);
	pb_str(p->b, 9, text);
	pb_end(p->b, a);
}

static void pbf_null(struct sl_fields *o, const char *name)
{
	struct pb_fields *p = (struct pb_fields *)o;

	if (p->depth)
		sl_fields_null(&p->json->base, name);
	else
		pbf_json(p, name, "null");
}

static void pbf_ints(struct sl_fields *o, const char *name, const int32_t *v, size_t nr)
{
	struct pb_fields *p = (struct pb_fields *)o;
	struct sl_fields_text *t = p->json;

	if (p->depth) {
		sl_fields_ints(&t->base, name, v, nr);
		return;
	}
	/* "[1,2]": the member's text after its name and colon */
	sl_fields_text_reset(t, false);
	sl_fields_ints(&t->base, "", v, nr);
	pbf_json(p, name, t->s + 3);
}

static void pbf_object(struct sl_fields *o, const char *name)
{
	struct pb_fields *p = (struct pb_fields *)o;

	if (!p->depth++) {
		sl_fields_text_reset(p->json, false);
		sl_fields_text_raw(p->json, "{", 1);
		p->object = name;
	} else {
		sl_fields_object(&p->json->base, name);
	}
}

static void pbf_end(struct sl_fields *o)
{
	struct pb_fields *p = (struct pb_fields *)o;

	if (!p->depth)
		return;
	if (--p->depth) {
		sl_fields_end(&p->json->base);
	} else {
		sl_fields_text_raw(p->json, "}", 1);
		pbf_json(p, p->object, p->json->s);
	}
}

static const struct sl_fields_ops pb_fields_ops = {
	.u64 = pbf_u64, .i64 = pbf_i64, .str = pbf_str, .boolean = pbf_bool,
	.null = pbf_null, .ints = pbf_ints, .object = pbf_object, .end = pbf_end,
};

static void annotation_str(struct pb_buf *b, const char *name, const char *s)
{
	size_t a = pb_begin(b, TE_DEBUG_ANNOTATIONS);

	pb_str(b, 10, name);
	pb_str(b, 6, s);
	pb_end(b, a);
}

/* Where a finding's slice is: its cost, after ts (late-preemption: before ts, the lateness). */
static void finding_span(const struct sl_finding *f, uint64_t *start, uint64_t *end)
{
	if (f->kind == SL_KIND_LATE_PREEMPTION || f->kind == SL_KIND_LATE_PREEMPTION_AT_TICK) {
		*start = f->ts > f->cost ? f->ts - f->cost : 0;
		*end = f->ts;
	} else {
		*start = f->ts;
		*end = f->ts + f->cost;
	}
	if (*end == *start)
		(*end)++;		/* a slice needs a length to be seen */
}

struct placed {
	const struct sl_finding *f;
	uint64_t start, end;
};

static int by_start(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static bool placement_kind(int kind)
{
	return kind == SL_KIND_WAKEE_STACKING || kind == SL_KIND_SYNC_WAKE_REMOTE;
}

/* The waker of a placement finding, its field waker_pid; 0 none (idle or interrupt). */
struct waker_probe {
	struct sl_fields base;
	int64_t pid;
};

static void probe_i64(struct sl_fields *o, const char *name, int64_t v)
{
	if (!strcmp(name, "waker_pid"))
		((struct waker_probe *)o)->pid = v;
}

static void probe_u64(struct sl_fields *o, const char *name, uint64_t v) { }
static void probe_str(struct sl_fields *o, const char *name, const char *s) { }
static void probe_bool(struct sl_fields *o, const char *name, bool v) { }
static void probe_null(struct sl_fields *o, const char *name) { }
static void probe_ints(struct sl_fields *o, const char *name, const int32_t *v, size_t nr) { }
static void probe_object(struct sl_fields *o, const char *name) { }
static void probe_end(struct sl_fields *o) { }

static const struct sl_fields_ops waker_probe_ops = {
	.u64 = probe_u64, .i64 = probe_i64, .str = probe_str, .boolean = probe_bool,
	.null = probe_null, .ints = probe_ints, .object = probe_object, .end = probe_end,
};

static int32_t waker_of(const struct sl_model *m, const struct sl_finding *f)
{
	struct waker_probe p = { { &waker_probe_ops }, 0 };

	if (f->ops && f->ops->fields)
		f->ops->fields(f, m, &p.base);
	return p.pid > 0 && p.pid <= INT32_MAX ? (int32_t)p.pid : 0;
}

static const char *comm_of(const struct sl_model *m, int32_t pid)
{
	const struct sl_task *t = sl_model_task(m, pid);

	return t ? sl_task_comm(m, t) : NULL;
}

static void finding_slices(struct sl_pftrace *w, struct sl_model *m, const char *path,
			   int kind, uint64_t *next_flow)
{
	size_t nr = 0, nr_all, nr_lanes = 0;
	/* the report's findings[]: the copies the what-if wrote its estimates to */
	const struct sl_finding *fs = sl_findings_sorted(m->findings, &nr_all);
	struct placed *pl;
	uint64_t *lane_end = NULL;
	size_t lanes_alloc = 0;
	int32_t *wakers = NULL;
	size_t nr_wakers = 0;
	char name[128], buf[1024];

	for (size_t i = 0; i < nr_all; i++)
		nr += fs[i].kind == kind;
	if (!nr)
		return;
	pl = xcalloc(nr, sizeof(*pl));
	for (size_t i = 0, n = 0; i < nr_all; i++) {
		if (fs[i].kind != kind)
			continue;
		pl[n].f = &fs[i];
		finding_span(&fs[i], &pl[n].start, &pl[n].end);
		n++;
	}
	qsort(pl, nr, sizeof(*pl), by_start);

	snprintf(name, sizeof(name), "schedlint: %s", sl_kinds[kind].name);
	track_descriptor(w, UUID_KIND(kind), 0, name, 0);
	/* the wakers' thread tracks, once each */
	if (placement_kind(kind)) {
		wakers = xcalloc(nr, sizeof(*wakers));
		for (size_t i = 0; i < nr; i++) {
			int32_t pid = waker_of(m, pl[i].f);

			if (pid)
				wakers[nr_wakers++] = pid;
		}
		qsort(wakers, nr_wakers, sizeof(*wakers), cmp_i32);
		for (size_t i = 0; i < nr_wakers; i++)
			if (!i || wakers[i] != wakers[i - 1])
				thread_descriptor(w, wakers[i], comm_of(m, wakers[i]));
	}

	for (size_t i = 0; i < nr; i++) {
		const struct sl_finding *f = pl[i].f;
		struct pb_fields fields = { { &pb_fields_ops }, &w->pkt, &w->json, NULL, 0 };
		size_t lane, te;
		int32_t waker = placement_kind(kind) ? waker_of(m, f) : 0;
		uint64_t flow = 0;

		/* the first lane free by its start: slices on one track must nest */
		for (lane = 0; lane < nr_lanes && lane_end[lane] > pl[i].start; lane++)
			;
		if (lane == nr_lanes) {
			GROW(lane_end, lanes_alloc, nr_lanes + 1);
			nr_lanes++;
			track_descriptor(w, UUID_LANE(kind, lane), UUID_KIND(kind), name, 0);
		}
		lane_end[lane] = pl[i].end;

		if (waker) {
			/* the waker's side: an instant at the waking, on its thread */
			flow = ++*next_flow;
			track_packet(w, f->ts);
			te = pb_begin(&w->pkt, PKT_TRACK_EVENT);
			pb_uint(&w->pkt, TE_TYPE, TE_INSTANT);
			pb_uint(&w->pkt, TE_TRACK_UUID, UUID_THREAD(waker));
			pb_str(&w->pkt, TE_CATEGORIES, "schedlint");
			snprintf(buf, sizeof(buf), "wakes %s:%d (%s)", sl_str(m->strtab, f->comm), f->pid,
				 sl_kinds[kind].name);
			pb_str(&w->pkt, TE_NAME, buf);
			pb_fixed64(&w->pkt, TE_FLOW_IDS, flow);
			pb_end(&w->pkt, te);
			write_packet(w);
			w->counts.flows++;
		}

		track_packet(w, pl[i].start);
		te = pb_begin(&w->pkt, PKT_TRACK_EVENT);
		pb_uint(&w->pkt, TE_TYPE, TE_SLICE_BEGIN);
		pb_uint(&w->pkt, TE_TRACK_UUID, UUID_LANE(kind, lane));
		pb_str(&w->pkt, TE_CATEGORIES, "schedlint");
		snprintf(buf, sizeof(buf), "%s %s:%d", sl_kinds[kind].name, sl_str(m->strtab, f->comm),
			 f->pid);
		pb_str(&w->pkt, TE_NAME, buf);
		sl_finding_fields(m, f, &fields.base);
		if (sl_finding_whatif_text(f, m, buf, sizeof(buf)))
			annotation_str(&w->pkt, "whatif_text", buf);
		sl_finding_dump_cmd(m, f, path, buf, sizeof(buf));
		annotation_str(&w->pkt, "dump", buf);
		if (flow)
			pb_fixed64(&w->pkt, TE_TERMINATING_FLOW_IDS, flow);
		pb_end(&w->pkt, te);
		write_packet(w);

		track_packet(w, pl[i].end);
		te = pb_begin(&w->pkt, PKT_TRACK_EVENT);
		pb_uint(&w->pkt, TE_TYPE, TE_SLICE_END);
		pb_uint(&w->pkt, TE_TRACK_UUID, UUID_LANE(kind, lane));
		pb_end(&w->pkt, te);
		write_packet(w);
		w->counts.slices++;
	}
	free(wakers);
	free(lane_end);
	free(pl);
}

static void counter_value(struct sl_pftrace *w, int track, uint64_t ts, uint64_t v)
{
	size_t te;

	track_packet(w, ts);
	te = pb_begin(&w->pkt, PKT_TRACK_EVENT);
	pb_uint(&w->pkt, TE_TYPE, TE_COUNTER);
	pb_uint(&w->pkt, TE_TRACK_UUID, UUID_COUNTER(track));
	pb_int(&w->pkt, TE_COUNTER_VALUE, (int64_t)v);
	pb_end(&w->pkt, te);
	write_packet(w);
}

/* The latency over time: a counter track each for count, p50, p99 and max. */
static void latency_counters(struct sl_pftrace *w, const struct sl_model *m)
{
	static const char *const names[] = {
		"schedlint: wakeups per window", "schedlint: wakeup latency p50",
		"schedlint: wakeup latency p99", "schedlint: wakeup latency max",
	};
	const struct sl_series *s = &m->latency_series;

	if (!s->nr)
		return;
	for (int i = 0; i < 4; i++)
		track_descriptor(w, UUID_COUNTER(i), 0, names[i], i ? 1 : 2);	/* UNIT_TIME_NS, UNIT_COUNT */
	for (uint32_t i = 0; i <= s->nr; i++) {
		uint64_t ts = s->origin + (uint64_t)i * s->window_ns;
		uint32_t k = i < s->nr ? i : s->nr - 1;	/* the last value again at the end */

		counter_value(w, 0, ts, s->w[k].count);
		counter_value(w, 1, ts, sl_series_percentile(s, k, 50));
		counter_value(w, 2, ts, sl_series_percentile(s, k, 99));
		counter_value(w, 3, ts, s->w[k].max);
	}
}

/* Every task the model kept, as a process of its own (the trace does not say tgids). */
static void process_tree(struct sl_pftrace *w, const struct sl_model *m)
{
	size_t pt;

	pb_uint(&w->pkt, PKT_TIMESTAMP, m->first_ts);
	pt = pb_begin(&w->pkt, PKT_PROCESS_TREE);
	for (uint32_t i = 0; i < m->nr_tasks; i++) {
		const struct sl_task *t = sl_kept_task(m, i);
		size_t p;

		if (t->pid <= 0)
			continue;
		p = pb_begin(&w->pkt, 1);		/* Process */
		pb_int(&w->pkt, 1, t->pid);
		pb_str(&w->pkt, 3, sl_task_comm(m, t));	/* cmdline */
		pb_uint(&w->pkt, 9, 1);			/* cmdline_is_comm */
		pb_end(&w->pkt, p);
		p = pb_begin(&w->pkt, 2);		/* Thread */
		pb_int(&w->pkt, 1, t->pid);
		pb_str(&w->pkt, 2, sl_task_comm(m, t));
		pb_int(&w->pkt, 3, t->pid);		/* tgid */
		pb_end(&w->pkt, p);
	}
	pb_end(&w->pkt, pt);
	write_packet(w);
}

void sl_pftrace_finish(struct sl_pftrace *w, struct sl_model *m, const char *path)
{
	uint64_t next_flow = 0;

	for (size_t cpu = 0; cpu < w->nr_cpus; cpu++)
		flush_cpu(w, cpu);
	process_tree(w, m);
	for (int k = 0; k < SL_KIND__COUNT; k++)
		if (sl_kinds[k].listed)
			finding_slices(w, m, path, k, &next_flow);
	latency_counters(w, m);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * context.c - the machine's scheduling context as schedlint record wrote it
 *
 * Policies, nice and RT priorities, slices, autogroups and cgroups with
 * their weights, and the kernel's HZ, HRTICK and preemption mode: what
 * the trace does not carry, and what every judgement of shares and
 * slices depends on.  schedlint record reads them from /proc, cgroupfs,
 * /proc/config.gz and debugfs and writes them as markers (formats in
 * context.h); this file keeps them.  A task's context is interned (one
 * id per distinct policy/prio/slice/group), applies from the marker on,
 * and is inherited at fork as the kernel copies it.
 *
 * The markers are input like any other and may be forged: a group id is
 * below SL_CTX_MAX_GROUPS and its parent defined before it (no cycle, no
 * table larger than that), distinct contexts are at most
 * SL_CTX_MAX_KINDS, a marker never creates a task (pids not seen yet wait
 * in a table of at most CTX_MAX_PENDING, and a range names at most
 * SL_AFF_MAX_RANGE pids, as affinity markers do; model.c walks them).  Anything that does not
 * parse is an error for the whole analysis (exit 2): a context read
 * wrong would skew every share silently.
 *
 * Blind spots: a change of policy, nice or group with no exec after it
 * (chrt -p, renice, a cgroup move of a running task) shows only in the
 * sweep at the end, for tasks still alive, and the sweep's values are
 * applied from that marker on; a re-read after an exec is applied when
 * its marker is read (up to a drain round after the exec it reports).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context_model.h"
#include "slice.h"
#include "util/util.h"

#define CTX_MAX_PENDING	(1u << 20)	/* pids named before their task is seen */

struct sl_ctx_pending {
	int32_t pid;			/* 0 = empty slot */
	uint32_t kind;
};

static const char *const policy_names[SL_POLICY__COUNT] = {
	[SL_POLICY_UNKNOWN] = "unknown", [SL_POLICY_OTHER] = "other",
	[SL_POLICY_BATCH] = "batch", [SL_POLICY_IDLE] = "idle", [SL_POLICY_FIFO] = "fifo",
	[SL_POLICY_RR] = "rr", [SL_POLICY_DEADLINE] = "deadline", [SL_POLICY_EXT] = "ext",
};

const char *sl_policy_name(enum sl_policy p)
{
	return (unsigned)p < SL_POLICY__COUNT ? policy_names[p] : "unknown";
}

int sl_policy_kernel(enum sl_policy p)
{
	switch (p) {
	case SL_POLICY_OTHER:	return 0;
	case SL_POLICY_FIFO:	return 1;
	case SL_POLICY_RR:	return 2;
	case SL_POLICY_BATCH:	return 3;
	case SL_POLICY_IDLE:	return 5;
	case SL_POLICY_DEADLINE: return 6;
	case SL_POLICY_EXT:	return 7;
	default:		return -1;
	}
}

const char *sl_group_kind_name(enum sl_group_kind k)
{
	switch (k) {
	case SL_GROUP_ROOT:		return "root";
	case SL_GROUP_AUTOGROUP:	return "autogroup";
	case SL_GROUP_CGROUP_V1:	return "cpu";
	case SL_GROUP_CGROUP_V2:	return "cpu2";
	}
	return "unknown";
}

static struct sl_context *context(struct sl_model *m)
{
	if (!m->ctx) {
		m->ctx = xcalloc(1, sizeof(*m->ctx));
		m->ctx->groups = xcalloc(1, sizeof(*m->ctx->groups));
		m->ctx->groups[0] = (struct sl_group){ .weight = 1024, .kind = SL_GROUP_ROOT,
						       .defined = true, .name = "/" };
		m->ctx->nr_groups = 1;
	}
	return m->ctx;
}

static void garbage(struct sl_context *c, uint64_t ts, const char *what, const char *tok,
		    size_t len)
{
	if (c->error[0])
		return;		/* the first one says it */
	snprintf(c->error, sizeof(c->error), "the schedlint marker at %" PRIu64 ".%09" PRIu64
		 " s is garbage: %s '%.*s'", ts / 1000000000, ts % 1000000000, what,
		 (int)MIN(len, 60), tok);
}

/* --- interned contexts --- */

static uint32_t kind_hash(const struct sl_sched_ctx *k)
{
	uint64_t h = k->policy * 1000003ULL ^ (uint64_t)(uint16_t)k->prio * 7919ULL ^
		     k->slice_ns * 31ULL ^ (uint64_t)k->group * 2654435761ULL;

	return (uint32_t)(h ^ (h >> 31));
}

static bool kind_equal(const struct sl_sched_ctx *a, const struct sl_sched_ctx *b)
{
	return a->policy == b->policy && a->prio == b->prio && a->slice_ns == b->slice_ns &&
	       a->group == b->group;
}

static void kind_put(struct sl_context *c, uint32_t id)
{
	uint32_t mask = c->kind_slots - 1;

	for (uint32_t i = kind_hash(&c->kinds[id - 1]) & mask;; i = (i + 1) & mask)
		if (!c->kind_index[i]) {
			c->kind_index[i] = id;
			return;
		}
}

/* The id of k, interned; 0 when there are SL_CTX_MAX_KINDS already. */
static uint32_t intern_kind(struct sl_context *c, const struct sl_sched_ctx *k)
{
	if (c->kind_slots) {
		uint32_t mask = c->kind_slots - 1;

		for (uint32_t i = kind_hash(k) & mask; c->kind_index[i]; i = (i + 1) & mask)
			if (kind_equal(&c->kinds[c->kind_index[i] - 1], k))
				return c->kind_index[i];
	}
	if (c->nr_kinds >= SL_CTX_MAX_KINDS)
		return 0;
	if ((c->nr_kinds + 1) * 2 > c->kind_slots) {
		c->kind_slots = c->kind_slots ? 2 * c->kind_slots : 64;
		free(c->kind_index);
		c->kind_index = xcalloc(c->kind_slots, sizeof(*c->kind_index));
		for (uint32_t id = 1; id <= c->nr_kinds; id++)
			kind_put(c, id);
	}
	GROW(c->kinds, c->kinds_alloc, (size_t)c->nr_kinds + 1);
	c->kinds[c->nr_kinds++] = *k;
	kind_put(c, c->nr_kinds);
	return c->nr_kinds;
}

/* --- pids not seen yet --- */

static uint32_t pend_slot(const struct sl_context *c, int32_t pid)
{
	uint32_t mask = c->pend_slots - 1;
	uint32_t i = ((uint32_t)pid * 2654435761u) & mask;

	while (c->pend[i].pid && c->pend[i].pid != pid)
		i = (i + 1) & mask;
	return i;
}

static void pend_put(struct sl_context *c, int32_t pid, uint32_t kind)
{
	uint32_t i;

	if (c->nr_pend >= CTX_MAX_PENDING) {
		c->pend_dropped++;
		return;
	}
	if ((c->nr_pend + 1) * 2 > c->pend_slots) {
		struct sl_ctx_pending *old = c->pend;
		uint32_t n = c->pend_slots;

		c->pend_slots = n ? 2 * n : 1024;
		c->pend = xcalloc(c->pend_slots, sizeof(*c->pend));
		for (uint32_t k = 0; k < n; k++)
			if (old[k].pid)
				c->pend[pend_slot(c, old[k].pid)] = old[k];
		free(old);
	}
	i = pend_slot(c, pid);
	if (!c->pend[i].pid)
		c->nr_pend++;
	c->pend[i] = (struct sl_ctx_pending){ .pid = pid, .kind = kind };
}

void sl_ctx_new_task(struct sl_model *m, struct sl_task *t)
{
	struct sl_context *c = m->ctx;

	if (c && c->nr_pend) {
		uint32_t i = pend_slot(c, t->pid);

		if (c->pend[i].pid) {
			t->sched_kind = c->pend[i].kind;
			t->policy = (int8_t)sl_policy_kernel(c->kinds[t->sched_kind - 1].policy);
		}
	}
}

void sl_ctx_inherit(const struct sl_task *parent, struct sl_task *child)
{
	if (parent && parent->sched_kind) {
		child->sched_kind = parent->sched_kind;
		child->policy = parent->policy;
	}
}

/* --- the markers --- */

/* A decimal integer in [lo, hi] that is all of s[0..len); false otherwise. */
static bool parse_int(const char *s, size_t len, int64_t lo, int64_t hi, int64_t *out)
{
	char buf[32], *end;
	long long v;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || *end || end == buf || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static bool one_of(const char *s, size_t len, const char *const *words)
{
	for (; *words; words++)
		if (strlen(*words) == len && !memcmp(s, *words, len))
			return true;
	return false;
}

/* "KEY=VALUE@FROM": a kernel fact. */
static void kernel_token(struct sl_context *c, const char *tok, size_t len, uint64_t ts)
{
	static const char *const froms[] = { "config", "debugfs", "cmdline", "default", "getattr",
					     NULL };
	static const char *const onoff[] = { "on", "off", NULL };
	static const char *const modes[] = { "none", "voluntary", "full", "lazy", "rt", NULL };
	const char *eq = memchr(tok, '=', len), *at = memchr(tok, '@', len);
	struct sl_kernel_fact *f = NULL;
	size_t klen, vlen, flen;
	int64_t hz;

	if (!eq || !at || at < eq) {
		garbage(c, ts, "kernel token", tok, len);
		return;
	}
	klen = (size_t)(eq - tok);
	vlen = (size_t)(at - eq - 1);
	flen = len - (size_t)(at - tok) - 1;
	if (!one_of(at + 1, flen, froms)) {
		garbage(c, ts, "kernel token", tok, len);
		return;
	}
	if (klen == 2 && !memcmp(tok, "hz", 2)) {
		if (!parse_int(eq + 1, vlen, 1, 100000, &hz)) {
			garbage(c, ts, "kernel token", tok, len);
			return;
		}
		f = &c->hz;
	} else if (klen == 6 && !memcmp(tok, "hrtick", 6)) {
		if (!one_of(eq + 1, vlen, onoff)) {
			garbage(c, ts, "kernel token", tok, len);
			return;
		}
		f = &c->hrtick;
	} else if (klen == 10 && !memcmp(tok, "base_slice", 10)) {
		int64_t ns;

		if (!parse_int(eq + 1, vlen, 1000, 1000000000, &ns)) {
			garbage(c, ts, "kernel token", tok, len);
			return;
		}
		c->base_slice_ns = (uint64_t)ns;
		f = &c->base_slice;
	} else if (klen == 7 && !memcmp(tok, "preempt", 7)) {
		if (!one_of(eq + 1, vlen, modes)) {
			garbage(c, ts, "kernel token", tok, len);
			return;
		}
		f = &c->preempt;
	} else {
		return;		/* a newer record's: not ours to judge */
	}
	snprintf(f->value, sizeof(f->value), "%.*s", (int)vlen, eq + 1);
	snprintf(f->from, sizeof(f->from), "%.*s", (int)flen, at + 1);
}

/* "ID PARENT WEIGHT KIND NAME" */
static void group_marker(struct sl_context *c, const char *text, uint64_t ts)
{
	static const char *const kinds[] = { "autogroup", "cpu", "cpu2", NULL };
	const char *p = text, *field[4];
	size_t flen[4];
	int64_t id, parent, weight;
	struct sl_group *g;

	for (int i = 0; i < 4; i++) {
		field[i] = p;
		flen[i] = strcspn(p, " ");
		p += flen[i];
		if (*p != ' ') {
			garbage(c, ts, "group", text, strlen(text));
			return;
		}
		p++;
	}
	if (!parse_int(field[0], flen[0], 1, SL_CTX_MAX_GROUPS - 1, &id) ||
	    !parse_int(field[1], flen[1], 0, id - 1, &parent) ||
	    !parse_int(field[2], flen[2], 1, 1 << 30, &weight) ||
	    !one_of(field[3], flen[3], kinds) || !*p || strlen(p) >= sizeof(g->name)) {
		garbage(c, ts, "group", text, strlen(text));
		return;
	}
	if ((uint32_t)parent >= c->nr_groups || !c->groups[parent].defined) {
		garbage(c, ts, "group of an undefined parent", text, strlen(text));
		return;
	}
	if ((uint32_t)id >= c->nr_groups) {
		c->groups = xrealloc(c->groups, (size_t)(id + 1) * sizeof(*c->groups));
		memset(c->groups + c->nr_groups, 0,
		       (size_t)(id + 1 - c->nr_groups) * sizeof(*c->groups));
		c->nr_groups = (uint32_t)id + 1;
	}
	g = &c->groups[id];
	*g = (struct sl_group){ .id = (uint32_t)id, .parent = (uint32_t)parent,
				.weight = (uint32_t)weight, .defined = true,
				.kind = field[3][0] == 'a' ? SL_GROUP_AUTOGROUP :
					flen[3] == 3 ? SL_GROUP_CGROUP_V1 : SL_GROUP_CGROUP_V2 };
	snprintf(g->name, sizeof(g->name), "%s", p);
}

/* "POLICY/PRIO/SLICE/GROUP" into k; false when it is not that. */
static bool parse_sched(struct sl_context *c, const char *s, size_t len, struct sl_sched_ctx *k)
{
	const char *f[4];
	size_t fl[4];
	const char *p = s, *end = s + len;
	int64_t prio, slice, group;
	int policy = -1;

	for (int i = 0; i < 4; i++) {
		const char *slash = memchr(p, '/', (size_t)(end - p));

		f[i] = p;
		fl[i] = (size_t)((i < 3 ? (slash ? slash : end) : end) - p);
		if (i < 3 && !slash)
			return false;
		p += fl[i] + 1;
	}
	for (int i = 1; i < SL_POLICY__COUNT; i++)
		if (strlen(policy_names[i]) == fl[0] && !memcmp(f[0], policy_names[i], fl[0]))
			policy = i;
	if (policy < 0 || !parse_int(f[1], fl[1], -20, 99, &prio) ||
	    !parse_int(f[2], fl[2], 0, INT64_MAX, &slice) ||
	    !parse_int(f[3], fl[3], 0, SL_CTX_MAX_GROUPS - 1, &group))
		return false;
	if ((policy == SL_POLICY_FIFO || policy == SL_POLICY_RR) ? prio < 1 : prio > 19)
		return false;
	if ((uint32_t)group >= c->nr_groups || !c->groups[group].defined)
		return false;
	*k = (struct sl_sched_ctx){ .policy = (uint8_t)policy, .prio = (int16_t)prio,
				    .slice_ns = (uint64_t)slice, .group = (uint32_t)group };
	return true;
}

int sl_ctx_parse_sched(struct sl_model *m, const char *tok, size_t len, uint64_t ts,
		       char *pids, size_t pids_len, uint32_t *kind)
{
	struct sl_context *c = context(m);
	const char *eq = memchr(tok, '=', len), *at;
	struct sl_sched_ctx k;
	size_t vlen;
	int64_t since;

	if (!eq || eq == tok || (size_t)(eq - tok) >= pids_len) {
		garbage(c, ts, "sched token", tok, len);
		return -EINVAL;
	}
	at = memchr(eq, '@', len - (size_t)(eq - tok));
	vlen = (size_t)((at ? at : tok + len) - eq - 1);
	if (!parse_sched(c, eq + 1, vlen, &k) ||
	    (at && !parse_int(at + 1, len - (size_t)(at - tok) - 1, 0, INT64_MAX, &since))) {
		garbage(c, ts, "sched token", tok, len);
		return -EINVAL;
	}
	memcpy(pids, tok, (size_t)(eq - tok));
	pids[eq - tok] = '\0';
	if (pids[strspn(pids, "0123456789,-")]) {
		garbage(c, ts, "sched token", tok, len);
		return -EINVAL;
	}
	*kind = intern_kind(c, &k);
	if (!*kind) {
		garbage(c, ts, "more distinct contexts than the 65536 kept, at", tok, len);
		return -EINVAL;
	}
	c->recorded = true;
	return 0;
}

void sl_ctx_pending(struct sl_model *m, int32_t pid, uint32_t kind)
{
	pend_put(context(m), pid, kind);
}

void sl_ctx_garbage(struct sl_model *m, uint64_t ts, const char *what, const char *tok, size_t len)
{
	garbage(context(m), ts, what, tok, len);
}

/* Each space-separated token of text to fn. */
static void tokens(struct sl_model *m, const char *text, uint64_t ts,
		   void (*fn)(struct sl_model *m, const char *tok, size_t len, uint64_t ts))
{
	while (*text) {
		size_t len = strcspn(text, " ");

		if (len)
			fn(m, text, len, ts);
		text += len;
		text += strspn(text, " ");
	}
}

static void kernel_fn(struct sl_model *m, const char *tok, size_t len, uint64_t ts)
{
	kernel_token(m->ctx, tok, len, ts);
}

bool sl_ctx_marker(struct sl_model *m, const char *text, uint64_t ts)
{
	if (!strncmp(text, SL_MARKER_KERNEL, strlen(SL_MARKER_KERNEL))) {
		context(m);
		tokens(m, text + strlen(SL_MARKER_KERNEL), ts, kernel_fn);
		return true;
	}
	if (!strncmp(text, SL_MARKER_GROUP, strlen(SL_MARKER_GROUP))) {
		group_marker(context(m), text + strlen(SL_MARKER_GROUP), ts);
		return true;
	}
	return false;
}

/* --- queries --- */

uint32_t sl_model_nr_groups(const struct sl_model *m)
{
	return m->ctx ? m->ctx->nr_groups : 1;
}

void sl_ctx_free(struct sl_model *m)
{
	struct sl_context *c = m->ctx;

	if (!c)
		return;
	free(c->groups);
	free(c->kinds);
	free(c->kind_index);
	free(c->pend);
	free(c);
	m->ctx = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * affinity.c - where each task may run: recorded by schedlint record, or inferred
 *
 * Recorded: schedlint record writes every task's Cpus_allowed_list into
 * the trace as trace_marker lines (SL_MARKER_AFFINITY, format in
 * model.h), and re-reads a task after its exec and after a move by the
 * migration/N stopper (what sched_setaffinity() does to a task running on
 * a CPU it may no longer use).  A task keeps the allowed CPUs it was
 * given as spans of time (struct sl_aff_span); a forked task inherits its
 * parent's, as the kernel copies them at fork.  Analyzers ask
 * sl_task_allowed_at(), at the end of the trace: a re-read is written up
 * to a drain round after the change it reports, and its "@NS" says when
 * the change happened.
 *
 * A move to a CPU outside the recorded mask (by anything but a stopper)
 * says the mask changed where record did not look: from then until its
 * next word on the task, the mask is the empty one, not known
 * (sl_aff_moved()).
 *
 * Inferred, for the tasks the trace gives no mask for: a move by a
 * migration/N stopper marks a possible affinity change, so only where the
 * task ran after its last such move counts (first_cpu and multi_cpu start
 * again there): seen on two CPUs since then is migratable.
 *
 * Bounded: masks are interned (a hash of their words), the pids a marker
 * names before their task is seen are kept up to AFF_MAX_PENDING, and a
 * marker's token applies to existing tasks by pid lookups, at most
 * SL_AFF_MAX_RANGE pids per range.  This file keeps the data; model.c
 * applies the markers, forks and stopper moves to its tasks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "schedlint/model.h"
#include "util/util.h"

#define AFF_MAX_PENDING	(1u << 20)	/* pids named before their task is seen */

struct pending {
	int32_t pid;			/* 0 = empty slot */
	uint32_t mask;
};

struct sl_aff_state {
	struct sl_cpuset *masks;	/* interned: mask id = index + 1 */
	uint32_t nr_masks;
	size_t masks_alloc;
	uint32_t *index;		/* open addressing: mask id, 0 empty */
	uint32_t index_slots;
	struct pending *pend;		/* pid -> mask for tasks not seen yet */
	uint32_t pend_slots, nr_pend;
	bool pend_full;
};

static uint64_t mask_hash(const uint64_t *w, uint32_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ w[i]) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static bool mask_equal(const struct sl_cpuset *a, const uint64_t *w, uint32_t n)
{
	return a->nr_words == n && !memcmp(a->words, w, n * sizeof(*w));
}

static void index_put(struct sl_aff_state *s, uint32_t id)
{
	const struct sl_cpuset *c = &s->masks[id - 1];
	uint32_t mask = s->index_slots - 1;

	for (uint32_t i = (uint32_t)mask_hash(c->words, c->nr_words) & mask;; i = (i + 1) & mask)
		if (!s->index[i]) {
			s->index[i] = id;
			return;
		}
}

/* The id of the mask with these words (trailing zero words ignored), interned. */
static uint32_t intern_mask(struct sl_aff_state *s, const uint64_t *w, uint32_t n)
{
	uint32_t slots, mask;
	uint64_t *copy;

	while (n && !w[n - 1])
		n--;
	if (s->index_slots) {
		mask = s->index_slots - 1;
		for (uint32_t i = (uint32_t)mask_hash(w, n) & mask; s->index[i]; i = (i + 1) & mask)
			if (mask_equal(&s->masks[s->index[i] - 1], w, n))
				return s->index[i];
	}
	if ((s->nr_masks + 1) * 2 > s->index_slots) {
		slots = s->index_slots ? 2 * s->index_slots : 64;
		free(s->index);
		s->index = xcalloc(slots, sizeof(*s->index));
		s->index_slots = slots;
		for (uint32_t id = 1; id <= s->nr_masks; id++)
			index_put(s, id);
	}
	GROW(s->masks, s->masks_alloc, (size_t)s->nr_masks + 1);
	copy = xmalloc((n ? n : 1) * sizeof(*copy));
	memcpy(copy, w, n * sizeof(*copy));
	s->masks[s->nr_masks++] = (struct sl_cpuset){ .words = copy, .nr_words = n };
	index_put(s, s->nr_masks);
	return s->nr_masks;
}

static uint32_t pid_slot(const struct sl_aff_state *s, int32_t pid)
{
	uint32_t mask = s->pend_slots - 1;
	uint32_t i = ((uint32_t)pid * 2654435761u) & mask;

	while (s->pend[i].pid && s->pend[i].pid != pid)
		i = (i + 1) & mask;
	return i;
}

static void pend_put(struct sl_aff_state *s, int32_t pid, uint32_t mask_id)
{
	uint32_t i;

	if (s->nr_pend >= AFF_MAX_PENDING) {
		s->pend_full = true;
		return;
	}
	if ((s->nr_pend + 1) * 2 > s->pend_slots) {
		struct pending *old = s->pend;
		uint32_t n = s->pend_slots;

		s->pend_slots = n ? 2 * n : 1024;
		s->pend = xcalloc(s->pend_slots, sizeof(*s->pend));
		for (uint32_t k = 0; k < n; k++)
			if (old[k].pid)
				s->pend[pid_slot(s, old[k].pid)] = old[k];
		free(old);
	}
	i = pid_slot(s, pid);
	if (!s->pend[i].pid)
		s->nr_pend++;
	s->pend[i] = (struct pending){ .pid = pid, .mask = mask_id };
}

static struct sl_aff_state *state(struct sl_model *m)
{
	if (!m->aff)
		m->aff = xcalloc(1, sizeof(*m->aff));
	return m->aff;
}

/* t may run on mask_id from `from` on (and before, when nothing was recorded for it). */
void sl_aff_add_span(struct sl_task *t, uint64_t from, uint32_t mask_id)
{
	if (t->nr_aff) {
		struct sl_aff_span *last = &t->aff[t->nr_aff - 1];

		if (last->mask == mask_id)
			return;
		if (from <= last->from) {
			/* a change said to be older than the last one known: it follows it */
			from = last->from;
			if (t->nr_aff == 1 || t->aff[t->nr_aff - 2].mask != mask_id) {
				last->mask = mask_id;
				return;
			}
			t->nr_aff--;	/* back to the mask before */
			return;
		}
	} else {
		from = 0;
	}
	if (t->nr_aff == t->aff_alloc) {
		t->aff_alloc = t->aff_alloc ? 2 * t->aff_alloc : 1;
		t->aff = xrealloc(t->aff, t->aff_alloc * sizeof(*t->aff));
	}
	t->aff[t->nr_aff++] = (struct sl_aff_span){ .from = from, .mask = mask_id };
}

const struct sl_cpuset *sl_task_allowed_at(const struct sl_model *m, const struct sl_task *t,
					   uint64_t ts)
{
	uint32_t lo = 0, hi;

	if (!t || !t->nr_aff)
		return NULL;
	hi = t->nr_aff;
	/* the last span that began at or before ts (the first one reaches back) */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->aff[mid].from <= ts)
			lo = mid;
		else
			hi = mid;
	}
	return &m->aff->masks[t->aff[lo].mask - 1];
}

uint32_t sl_cpuset_count(const struct sl_cpuset *s)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < s->nr_words; i++)
		n += (uint32_t)__builtin_popcountll(s->words[i]);
	return n;
}

int sl_aff_parse_token(struct sl_model *m, const char *tok, size_t len, uint64_t ts,
		       struct sl_aff_token *out)
{
	char buf[1024], *eq, *at, *end;
	uint64_t *words;
	uint32_t nr_words;

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, tok, len);
	buf[len] = '\0';
	eq = strchr(buf, '=');
	if (!eq || eq == buf)
		return -EINVAL;
	*eq++ = '\0';
	*out = (struct sl_aff_token){ .since = ts };
	at = strchr(eq, '@');
	if (at) {
		*at++ = '\0';
		errno = 0;
		out->since = strtoull(at, &end, 10);
		if (errno || end == at || *end)
			return -EINVAL;
		out->timed = true;
	}
	if (strlen(buf) >= sizeof(out->pids))
		return -EINVAL;
	for (const char *p = buf; *p; p++)
		if (!(*p >= '0' && *p <= '9') && *p != '-' && *p != ',')
			return -EINVAL;
	memcpy(out->pids, buf, strlen(buf) + 1);
	if (parse_cpulist(eq, &words, &nr_words))
		return -EINVAL;
	out->mask = intern_mask(state(m), words, nr_words);
	free(words);
	return 0;
}

int sl_aff_next_pids(const char **p, int32_t *lo, int32_t *hi)
{
	char *end;
	long a, b;

	if (!**p)
		return 0;
	a = strtol(*p, &end, 10);
	if (end == *p || a <= 0 || a > INT32_MAX)
		return -EINVAL;
	*p = end;
	b = a;
	if (**p == '-') {
		b = strtol(++*p, &end, 10);
		if (end == *p || b < a || b > INT32_MAX)
			return -EINVAL;
		*p = end;
	}
	if (**p == ',')
		++*p;
	else if (**p)
		return -EINVAL;
	if (b - a >= SL_AFF_MAX_RANGE)
		b = a + SL_AFF_MAX_RANGE - 1;
	*lo = (int32_t)a;
	*hi = (int32_t)b;
	return 1;
}

void sl_aff_pending(struct sl_model *m, int32_t pid, uint32_t mask)
{
	pend_put(state(m), pid, mask);
}

void sl_aff_new_task(struct sl_model *m, struct sl_task *t)
{
	struct sl_aff_state *s = m->aff;

	if (s && s->nr_pend) {
		uint32_t i = pid_slot(s, t->pid);

		if (s->pend[i].pid)
			sl_aff_add_span(t, 0, s->pend[i].mask);
	}
}

void sl_aff_moved(struct sl_model *m, struct sl_task *t, int dest, uint64_t ts)
{
	const struct sl_cpuset *allowed = sl_task_allowed_at(m, t, ts);
	uint64_t none = 0;

	if (!allowed || !allowed->nr_words || sl_cpuset_test(allowed, dest))
		return;		/* allowed there, or already not known */
	sl_aff_add_span(t, ts, intern_mask(state(m), &none, 1));
}

void sl_aff_inherit(struct sl_model *m, const struct sl_task *parent, struct sl_task *child,
		    uint64_t ts)
{
	const struct sl_cpuset *pm = sl_task_allowed_at(m, parent, ts);

	if (!pm)
		return;
	child->nr_aff = 0;	/* its own: from the fork on, what the parent had */
	sl_aff_add_span(child, 0, (uint32_t)(pm - m->aff->masks) + 1);
}

void sl_aff_task_free(struct sl_task *t)
{
	free(t->aff);
	t->aff = NULL;
	t->nr_aff = t->aff_alloc = 0;
}

void sl_aff_free(struct sl_model *m)
{
	struct sl_aff_state *s = m->aff;

	if (!s)
		return;
	for (uint32_t i = 0; i < s->nr_masks; i++)
		free(s->masks[i].words);
	free(s->masks);
	free(s->index);
	free(s->pend);
	free(s);
	m->aff = NULL;
}

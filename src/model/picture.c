// SPDX-License-Identifier: GPL-2.0
/*
 * picture.c - per-CPU pictures of one moment, for the findings' reports
 */
#include <stdlib.h>
#include <string.h>

#include "schedlint/model.h"
#include "schedlint/picture.h"
#include "util/util.h"

static void add_waiter(struct sl_picture_cpu *pc, int *n, const struct sl_task *t, bool pending)
{
	if (*n >= SL_PICTURE_WAITERS)
		return;
	pc->wait_pid[*n] = t->pid;
	pc->wait_comm[*n] = t->comm;
	pc->wait_pending[*n] = pending;
	(*n)++;
}

static void picture_cpu(struct sl_picture_cpu *pc, const struct sl_cpu *c, const struct sl_task *subject)
{
	int n = 0;

	memset(pc, 0, sizeof(*pc));
	pc->cpu = c->cpu;
	pc->state = !c->known ? SL_PICTURE_UNKNOWN :
		    sl_cpu_is_idle(c) ? SL_PICTURE_IDLE : SL_PICTURE_BUSY;
	pc->curr_pid = c->known && c->curr ? c->curr->pid : 0;
	pc->curr_comm = c->known && c->curr ? c->curr->comm : 0;
	pc->nr_queued = (uint16_t)MIN(c->nr_queued, UINT16_MAX);
	pc->nr_pending = (uint16_t)MIN(c->nr_pending, UINT16_MAX);
	if (subject && subject->cpu == c->cpu &&
	    (subject->state == SL_TASK_QUEUED || subject->state == SL_TASK_PENDING))
		add_waiter(pc, &n, subject, subject->state == SL_TASK_PENDING);
	for (const struct sl_task *t = c->queued; t && n < SL_PICTURE_WAITERS; t = t->q_next)
		if (t != subject)
			add_waiter(pc, &n, t, false);
	for (const struct sl_task *t = c->pending; t && n < SL_PICTURE_WAITERS; t = t->q_next)
		if (t != subject)
			add_waiter(pc, &n, t, true);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * Start picture p of this moment: the CPUs asked for (must, those >= 0,
 * at most 8) sorted into wanted, room for them beside the usual ones.
 * Returns how many are wanted.
 */
static int picture_begin(struct sl_picture *p, const struct sl_model *m,
			 const struct sl_task *subject, const int *must, int nr_must, int wanted[8])
{
	int nr_wanted = 0;
	uint32_t cap;

	for (int i = 0; i < nr_must && nr_wanted < 8; i++)
		if (must[i] >= 0)
			wanted[nr_wanted++] = must[i];
	qsort(wanted, (size_t)nr_wanted, sizeof(wanted[0]), cmp_int);
	cap = SL_PICTURE_MAX_CPUS + (uint32_t)nr_wanted;
	if (p->alloc < cap) {
		p->cpus = xrealloc(p->cpus, cap * sizeof(*p->cpus));
		p->alloc = cap;
	}
	p->ts = m->now;
	p->subject_pid = subject ? subject->pid : -1;
	p->nr = 0;
	p->rest_busy = p->rest_idle = p->rest_unknown = 0;
	return nr_wanted;
}

void sl_picture_take(struct sl_picture *p, const struct sl_model *m, int cpu,
		     const struct sl_task *subject, const int *must, int nr_must)
{
	int wanted[8], next = 0;
	int dom = m->nr_llc_cpus && cpu >= 0 && cpu < m->nr_llc_cpus ? m->llc_of[cpu] : -1;
	/* the CPUs asked for, in order, to be met as the pass goes by */
	int nr_wanted = picture_begin(p, m, subject, must, nr_must, wanted);

	for (int x = 0; x < m->nr_cpus; x++) {
		const struct sl_cpu *c = &m->cpus[x];
		bool needed = false;

		/* sl_same_llc(m, cpu, x), without a call per CPU */
		if (x != cpu && m->nr_llc_cpus && (dom < 0 || x >= m->nr_llc_cpus || m->llc_of[x] != dom))
			continue;
		while (next < nr_wanted && wanted[next] < x)
			next++;
		needed = next < nr_wanted && wanted[next] == x;
		if (p->nr >= SL_PICTURE_MAX_CPUS && !needed) {
			/* counted only: a picture of a large LLC costs a pass over it, no more */
			if (!c->known)
				p->rest_unknown++;
			else if (!c->curr && !c->nr_queued && !c->nr_pending)
				p->rest_idle++;
			else
				p->rest_busy++;
			continue;
		}
		if (p->nr < p->alloc)
			picture_cpu(&p->cpus[p->nr++], c, subject);
	}
}

/* --- the census: idle and unknown CPUs per LLC domain, for pictures of large LLCs --- */

static bool model_unknown(const struct sl_census *cs, const struct sl_model *m, int cpu)
{
	return cs->lost[cpu] || !m->cpus[cpu].known;
}

static void census_refresh(struct sl_census *cs, const struct sl_model *m, int cpu)
{
	bool u;

	if (cpu < 0 || cpu >= cs->nr_cpus)
		return;
	u = model_unknown(cs, m, cpu);
	if (u == cs->unknown[cpu])
		return;
	cs->unknown[cpu] = u;
	if (cs->dom[cpu] >= 0)
		cs->nr_unknown[cs->dom[cpu]] += u ? 1 : -1;
}

/* The domain of CPU x, as sl_same_llc() sees it: -1 when it shares one with none. */
static int census_dom_of(const struct sl_model *m, int x)
{
	if (!m->nr_llc_cpus)
		return 0;
	return x < m->nr_llc_cpus && m->llc_of[x] >= 0 ? m->llc_of[x] : -1;
}

/* room for n CPUs in the per-CPU arrays, grown geometrically */
static void census_fit(struct sl_census *cs, int n)
{
	int alloc = cs->cpus_alloc;

	if (n <= alloc && cs->dom)
		return;
	alloc = MAX(n, MIN(MAX(2 * alloc, 8), SL_MODEL_MAX_CPUS));
	cs->dom = xrealloc(cs->dom, (size_t)alloc * sizeof(*cs->dom));
	cs->members = xrealloc(cs->members, (size_t)alloc * sizeof(*cs->members));
	cs->unknown = xrealloc(cs->unknown, (size_t)alloc);
	cs->lost = xrealloc(cs->lost, (size_t)alloc);
	memset(cs->lost + cs->cpus_alloc, 0, (size_t)(alloc - cs->cpus_alloc));
	cs->cpus_alloc = alloc;
}

/* the masks' stride: room for every CPU that can ever join a domain */
static void census_fit_words(struct sl_census *cs, uint32_t words)
{
	if (words <= cs->words)
		return;
	/* one domain when the stride grows (no LLC layout): its bitmap only lengthens */
	words = MAX(words, MIN(2 * cs->words, (uint32_t)(SL_MODEL_MAX_CPUS + 63) / 64));
	cs->masks = xrealloc(cs->masks, ((size_t)cs->nr_doms * words + 1) * sizeof(*cs->masks));
	memset(cs->masks + (size_t)cs->nr_doms * cs->words, 0,
	       (size_t)cs->nr_doms * (words - cs->words) * sizeof(*cs->masks));
	cs->words = words;
}

/*
 * A new CPU x, above every CPU the census has: the last member of its
 * domain.  Moving the later domains' members up costs O(CPUs) at worst,
 * a memmove, not a rebuild.
 */
static void census_add(struct sl_census *cs, const struct sl_model *m, int x)
{
	int d = census_dom_of(m, x);

	cs->dom[x] = d;
	cs->unknown[x] = model_unknown(cs, m, x);
	if (d < 0)
		return;
	if (!m->nr_llc_cpus)
		census_fit_words(cs, (uint32_t)x / 64 + 1);
	memmove(&cs->members[cs->first[d + 1] + 1], &cs->members[cs->first[d + 1]],
		(size_t)(cs->first[cs->nr_doms] - cs->first[d + 1]) * sizeof(*cs->members));
	cs->members[cs->first[d + 1]] = x;
	for (int e = d + 1; e <= cs->nr_doms; e++)
		cs->first[e]++;
	cs->masks[(size_t)d * cs->words + (uint32_t)x / 64] |= 1ULL << (x % 64);
	cs->nr_unknown[d] += cs->unknown[x];
}

/*
 * The layout for the model's LLC domains: every domain a CPU of the model
 * can have, its mask wide enough for all of them, no CPU in it yet.
 */
static void census_layout(struct sl_census *cs, const struct sl_model *m)
{
	int limit = MIN(m->nr_llc_cpus, SL_MODEL_MAX_CPUS), nr_doms = 1;
	uint32_t words = 1;

	if (m->nr_llc_cpus) {
		nr_doms = 0;
		for (int x = 0; x < limit; x++)
			nr_doms = MAX(nr_doms, m->llc_of[x] + 1);
		words = (uint32_t)(limit + 63) / 64;
	}
	cs->llc_of = m->llc_of;
	cs->nr_llc_cpus = m->nr_llc_cpus;
	cs->nr_cpus = 0;
	cs->nr_doms = nr_doms;
	cs->words = words;
	cs->first = xrealloc(cs->first, (size_t)(nr_doms + 1) * sizeof(*cs->first));
	cs->nr_unknown = xrealloc(cs->nr_unknown, (size_t)(nr_doms + 1) * sizeof(*cs->nr_unknown));
	cs->masks = xrealloc(cs->masks, ((size_t)nr_doms * words + 1) * sizeof(*cs->masks));
	memset(cs->first, 0, (size_t)(nr_doms + 1) * sizeof(*cs->first));
	memset(cs->nr_unknown, 0, (size_t)(nr_doms + 1) * sizeof(*cs->nr_unknown));
	memset(cs->masks, 0, ((size_t)nr_doms * words + 1) * sizeof(*cs->masks));
}

void sl_census_sync(struct sl_census *cs, const struct sl_model *m)
{
	int n = m->nr_cpus;

	if (!cs->first || cs->llc_of != m->llc_of || cs->nr_llc_cpus != m->nr_llc_cpus) {
		census_layout(cs, m);
		cs->dirty = false;
	}
	if (n > cs->nr_cpus) {
		/* CPUs appear in ascending order: each new one joins its domain last */
		census_fit(cs, n);
		for (int x = cs->nr_cpus; x < n; x++)
			census_add(cs, m, x);
		cs->nr_cpus = n;
	}
	if (cs->dirty)
		for (int x = 0; x < n; x++)
			census_refresh(cs, m, x);
	cs->dirty = false;
}

void sl_census_free(struct sl_census *cs)
{
	free(cs->dom);
	free(cs->members);
	free(cs->first);
	free(cs->masks);
	free(cs->nr_unknown);
	free(cs->unknown);
	free(cs->lost);
	free(cs->idle);
	memset(cs, 0, sizeof(*cs));
}

/*
 * The hooks below keep the per-CPU facts; the layout (domains, counts) is
 * brought up to date by sl_census_sync() before it is used.
 */
void sl_census_idle_grow(struct sl_census *cs, int cpu)
{
	uint32_t need = (uint32_t)cpu / 64 + 1;

	if (need <= cs->idle_words)
		return;
	cs->idle = xrealloc(cs->idle, need * sizeof(*cs->idle));
	memset(cs->idle + cs->idle_words, 0, (need - cs->idle_words) * sizeof(*cs->idle));
	cs->idle_words = need;
}

void sl_census_on_cpu_lost(struct sl_census *cs, const struct sl_model *m, int cpu)
{
	if (cpu >= cs->nr_cpus)
		sl_census_sync(cs, m);
	if (cpu < 0 || cpu >= cs->nr_cpus)
		return;
	/* the model marks it unknown after the hooks, and only its next switch makes it known */
	cs->lost[cpu] = true;
	census_refresh(cs, m, cpu);
}

/*
 * t was switched in on the CPU in its slot: if it no longer runs there and
 * that CPU did not switch it out (which clears the slot), the model took
 * it off that CPU without a switch there: the CPU may be unknown now.
 */
static void census_check(struct sl_census *cs, const struct sl_model *m, const struct sl_task *t,
			 sl_census_slot *slot)
{
	int cpu = *slot - 1;

	if (cpu >= 0 && cpu < m->nr_cpus && m->cpus[cpu].curr == t)
		return;
	*slot = 0;
	if (cpu >= cs->nr_cpus)
		sl_census_sync(cs, m);
	census_refresh(cs, m, cpu);
}

void sl_census_switch_slow(struct sl_census *cs, const struct sl_model *m, int cpu,
			   const struct sl_task *prev, sl_census_slot *prev_slot,
			   const struct sl_task *next, sl_census_slot *next_slot)
{
	if (cpu < 0)
		return;
	if (cpu >= cs->nr_cpus)
		sl_census_sync(cs, m);
	/* prev switched out here, or taken off the CPU it ran on */
	if (prev_slot && *prev_slot) {
		if (*prev_slot != cpu + 1)
			census_check(cs, m, prev, prev_slot);
		*prev_slot = 0;
	}
	if (next_slot) {
		if (*next_slot && *next_slot != cpu + 1)
			census_check(cs, m, next, next_slot);
		*next_slot = cpu + 1;
	}
	/* a switch makes its CPU known */
	if (cs->unknown[cpu] || cs->lost[cpu]) {
		cs->lost[cpu] = false;
		census_refresh(cs, m, cpu);
	}
}

const uint64_t *sl_census_llc_mask(struct sl_census *cs, const struct sl_model *m, int cpu)
{
	sl_census_sync(cs, m);
	if (cpu < 0 || cpu >= cs->nr_cpus || cs->dom[cpu] < 0)
		return NULL;
	return &cs->masks[(size_t)cs->dom[cpu] * cs->words];
}

/*
 * SCHEDLINT_VERIFY_PICTURES=1 (for the tests): every picture taken with the
 * census is taken again by a pass over the LLC and compared; abort if not equal.
 */
static bool verify_pictures(void)
{
	static int on = -1;

	if (on < 0) {
		const char *v = getenv("SCHEDLINT_VERIFY_PICTURES");

		on = v && *v && strcmp(v, "0");
	}
	return on;
}

static bool census_idle(const struct sl_census *cs, int cpu)
{
	return (uint32_t)cpu / 64 < cs->idle_words && (cs->idle[cpu / 64] >> (cpu % 64) & 1);
}

void sl_picture_take_counted(struct sl_picture *p, struct sl_census *cs, const struct sl_model *m,
			     int cpu, const struct sl_task *subject, const int *must, int nr_must)
{
	int wanted[8], nr_wanted, d, n, k;
	const int *mem;
	const uint64_t *mask;
	uint32_t rest_unknown, rest_idle = 0;

	sl_census_sync(cs, m);
	nr_wanted = picture_begin(p, m, subject, must, nr_must, wanted);

	/* cpu's domain, as sl_picture_take() finds it */
	if (!m->nr_llc_cpus)
		d = 0;
	else
		d = cpu >= 0 && cpu < m->nr_llc_cpus && m->llc_of[cpu] >= 0 ? m->llc_of[cpu] : -1;
	if (d < 0 || d >= cs->nr_doms) {
		if (cpu >= 0 && cpu < m->nr_cpus)
			picture_cpu(&p->cpus[p->nr++], &m->cpus[cpu], subject);
		goto check;
	}
	mem = &cs->members[cs->first[d]];
	n = cs->first[d + 1] - cs->first[d];
	k = MIN(n, SL_PICTURE_MAX_CPUS);
	/* the rest: the domain's counts less the pictured CPUs' */
	mask = &cs->masks[(size_t)d * cs->words];
	rest_unknown = cs->nr_unknown[d];
	for (uint32_t w = 0; w < MIN(cs->words, cs->idle_words); w++)
		rest_idle += (uint32_t)__builtin_popcountll(cs->idle[w] & mask[w]);
	for (int i = 0; i < k; i++) {
		picture_cpu(&p->cpus[p->nr++], &m->cpus[mem[i]], subject);
		rest_unknown -= cs->unknown[mem[i]];
		rest_idle -= census_idle(cs, mem[i]);
	}
	/* the CPUs asked for beyond the first ones, in order, once each */
	for (int i = 0; k < n && i < nr_wanted; i++) {
		int x = wanted[i];

		if ((i && x == wanted[i - 1]) || x <= mem[k - 1] || x >= cs->nr_cpus || cs->dom[x] != d)
			continue;
		picture_cpu(&p->cpus[p->nr++], &m->cpus[x], subject);
		rest_unknown -= cs->unknown[x];
		rest_idle -= census_idle(cs, x);
	}
	p->rest_unknown = rest_unknown;
	p->rest_idle = rest_idle;
	p->rest_busy = (uint32_t)n - p->nr - rest_unknown - rest_idle;
check:
	if (verify_pictures()) {
		static struct sl_picture ref;

		sl_picture_take(&ref, m, cpu, subject, must, nr_must);
		if (ref.nr != p->nr || ref.rest_busy != p->rest_busy || ref.rest_idle != p->rest_idle ||
		    ref.rest_unknown != p->rest_unknown ||
		    memcmp(ref.cpus, p->cpus, p->nr * sizeof(*p->cpus))) {
			fprintf(stderr, "sl_picture_take_counted: cpu %d at %llu: nr %u/%u rest %u,%u,%u / %u,%u,%u\n",
				cpu, (unsigned long long)m->now, p->nr, ref.nr, p->rest_busy, p->rest_idle,
				p->rest_unknown, ref.rest_busy, ref.rest_idle, ref.rest_unknown);
			abort();
		}
	}
}

/* --- printing --- */

static const char *mark_of(const struct sl_picture_mark *marks, int nr, int cpu)
{
	for (int i = 0; i < nr; i++)
		if (marks[i].cpu == cpu)
			return marks[i].note;
	return NULL;
}

static bool plain(const struct sl_picture_cpu *pc)
{
	return pc->state != SL_PICTURE_BUSY;
}

static void task_name(char *buf, size_t len, const struct sl_model *m, uint32_t comm, int32_t pid,
		      bool star)
{
	snprintf(buf, len, "%s:%d%s", sl_str(m->strtab, comm), pid, star ? "*" : "");
}

/* "queued: a:1*, b:2 +3" for the waiters of one kind */
static size_t waiters(char *buf, size_t len, const struct sl_model *m, const struct sl_picture *p,
		      const struct sl_picture_cpu *pc, bool pending)
{
	unsigned total = pending ? pc->nr_pending : pc->nr_queued, named = 0;
	size_t n = 0;
	char name[64];

	if (!total)
		return 0;
	n += (size_t)snprintf(buf + n, len - n, "; %s ", pending ? "pending" : "queued");
	for (int i = 0; i < SL_PICTURE_WAITERS && n < len; i++) {
		if (!pc->wait_pid[i] || pc->wait_pending[i] != pending)
			continue;
		task_name(name, sizeof(name), m, pc->wait_comm[i], pc->wait_pid[i],
			  pc->wait_pid[i] == p->subject_pid);
		n += (size_t)snprintf(buf + n, len - n, "%s%s", named ? ", " : "", name);
		named++;
	}
	if (total > named && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s+%u", named ? " " : "", total - named);
	return n < len ? n : len - 1;
}

static void describe(char *buf, size_t len, const struct sl_model *m, const struct sl_picture *p,
		     const struct sl_picture_cpu *pc)
{
	size_t n;

	if (pc->state == SL_PICTURE_UNKNOWN) {
		snprintf(buf, len, "state unknown");
		return;
	}
	if (pc->curr_pid) {
		char name[64];

		task_name(name, sizeof(name), m, pc->curr_comm, pc->curr_pid,
			  pc->curr_pid == p->subject_pid);
		n = (size_t)snprintf(buf, len, "runs %s", name);
	} else {
		n = (size_t)snprintf(buf, len, "idle");
	}
	if (n < len)
		n += waiters(buf + n, len - n, m, p, pc, false);
	if (n < len)
		waiters(buf + n, len - n, m, p, pc, true);
}

static void print_line(FILE *out, const struct sl_picture *p, const struct sl_model *m,
		       const char *indent, int first, int last, const char *note)
{
	const struct sl_picture_cpu *pc = &p->cpus[first];
	char label[32], text[256];

	if (first == last)
		snprintf(label, sizeof(label), "cpu%d", pc->cpu);
	else
		snprintf(label, sizeof(label), "cpu%d-%d", pc->cpu, p->cpus[last].cpu);
	describe(text, sizeof(text), m, p, pc);
	fprintf(out, "%s%-9s %s%s%s\n", indent, label, text, note ? "   <- " : "", note ? note : "");
}

void sl_picture_print(FILE *out, const struct sl_picture *p, const struct sl_model *m,
		      const char *indent, const struct sl_picture_mark *marks, int nr_marks,
		      int max_lines)
{
	/* lines: runs [first, last] of the pictured CPUs */
	int *first = xcalloc(p->nr + 1, sizeof(*first)), *last = xcalloc(p->nr + 1, sizeof(*last));
	int nr_lines = 0, nr_marked = 0, budget;
	uint32_t skip_busy = p->rest_busy, skip_idle = p->rest_idle, skip_unknown = p->rest_unknown;

	for (uint32_t i = 0; i < p->nr; i++) {
		const struct sl_picture_cpu *pc = &p->cpus[i];
		int prev = nr_lines ? last[nr_lines - 1] : -1;

		if (prev >= 0 && plain(pc) && plain(&p->cpus[prev]) && pc->state == p->cpus[prev].state &&
		    pc->cpu == p->cpus[prev].cpu + 1 && !mark_of(marks, nr_marks, pc->cpu) &&
		    !mark_of(marks, nr_marks, p->cpus[prev].cpu)) {
			last[nr_lines - 1] = (int)i;
			continue;
		}
		first[nr_lines] = last[nr_lines] = (int)i;
		nr_lines++;
		if (mark_of(marks, nr_marks, pc->cpu))
			nr_marked++;
	}
	budget = nr_lines <= max_lines ? nr_lines : MAX(max_lines - 1 - nr_marked, 0);
	for (int l = 0; l < nr_lines; l++) {
		const char *note = first[l] == last[l] ? mark_of(marks, nr_marks, p->cpus[first[l]].cpu) : NULL;

		if (note || budget > 0) {
			print_line(out, p, m, indent, first[l], last[l], note);
			if (!note)
				budget--;
			continue;
		}
		for (int i = first[l]; i <= last[l]; i++) {
			uint8_t st = p->cpus[i].state;

			skip_busy += st == SL_PICTURE_BUSY;
			skip_idle += st == SL_PICTURE_IDLE;
			skip_unknown += st == SL_PICTURE_UNKNOWN;
		}
	}
	if (skip_busy + skip_idle + skip_unknown)
		fprintf(out, "%s... %u more CPUs: %u busy, %u idle, %u unknown\n", indent,
			skip_busy + skip_idle + skip_unknown, skip_busy, skip_idle, skip_unknown);
	free(first);
	free(last);
}

/* --- keeping a few --- */

void sl_picture_keeper_init(struct sl_picture_keeper *k, size_t max)
{
	memset(k, 0, sizeof(*k));
	k->max = max;
	k->kept = xcalloc(max ? max : 1, sizeof(*k->kept));
}

struct sl_picture *sl_picture_get(struct sl_picture_keeper *k)
{
	if (k->nr_pool)
		return k->pool[--k->nr_pool];
	return xcalloc(1, sizeof(struct sl_picture));
}

void sl_picture_put(struct sl_picture_keeper *k, struct sl_picture *p)
{
	if (!p)
		return;
	GROW(k->pool, k->alloc_pool, k->nr_pool + 1);
	k->pool[k->nr_pool++] = p;
}

static size_t cheapest(const struct sl_picture_keeper *k)
{
	size_t min = 0;

	for (size_t i = 1; i < k->nr; i++)
		if (k->kept[i].cost < k->kept[min].cost)
			min = i;
	return min;
}

bool sl_picture_wanted(const struct sl_picture_keeper *k, uint64_t cost)
{
	return k->nr < k->max || (k->max && cost > k->kept[cheapest(k)].cost);
}

void sl_picture_keep(struct sl_picture_keeper *k, struct sl_picture *pic, uint64_t cost,
		     int32_t pid, uint64_t ts, int32_t cpu)
{
	struct sl_kept_picture kp = { .cost = cost, .ts = ts, .pid = pid, .cpu = cpu, .pic = pic };
	size_t min;

	if (k->nr < k->max) {
		k->kept[k->nr++] = kp;
		return;
	}
	min = cheapest(k);
	if (!k->max || cost <= k->kept[min].cost) {
		sl_picture_put(k, pic);
		return;
	}
	sl_picture_put(k, k->kept[min].pic);
	k->kept[min] = kp;
}

const struct sl_picture *sl_picture_find(const struct sl_picture_keeper *k, int32_t pid,
					 uint64_t ts, int32_t cpu)
{
	for (size_t i = 0; i < k->nr; i++)
		if (k->kept[i].pid == pid && k->kept[i].ts == ts && k->kept[i].cpu == cpu)
			return k->kept[i].pic;
	return NULL;
}

static void picture_free(struct sl_picture *p)
{
	if (p)
		free(p->cpus);
	free(p);
}

void sl_picture_keeper_free(struct sl_picture_keeper *k)
{
	for (size_t i = 0; i < k->nr; i++)
		picture_free(k->kept[i].pic);
	for (size_t i = 0; i < k->nr_pool; i++)
		picture_free(k->pool[i]);
	free(k->kept);
	free(k->pool);
	memset(k, 0, sizeof(*k));
}

const char *sl_fmt_cpus(char *buf, size_t len, const int32_t *cpus, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		size_t j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			used += (size_t)snprintf(buf + used, len - used, "%s%d-%d", i ? "," : "",
						 cpus[i], cpus[j]);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "", cpus[i]);
		i = j;
	}
	return buf;
}

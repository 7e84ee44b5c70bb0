// SPDX-License-Identifier: GPL-2.0
/*
 * read_text_fields.c - event name to SL_EV_* type, and the fields after it
 *
 * The same event prints in three shapes:
 *
 *   kernel print fmt (tracefs, trace-cmd -N, perf script):
 *       prev_comm=Web Content prev_pid=7 prev_prio=120 prev_state=R+ ==> next_comm=...
 *   trace-cmd -R (raw fields): the same keys, numbers for prev_state,
 *       "parent_comm=" instead of "comm=" in sched_process_fork
 *   trace-cmd's sched plugin (default report):
 *       bash:2856 [120] S ==> foo:12 [120]        record.sh:8337 [120] CPU:000
 *
 * A comm may hold blanks, dashes, colons, brackets and '=', so a comm value
 * runs until the next key we expect (" prev_pid="), and a plugin
 * "comm:pid [prio]" is read from its end.
 *
 * prev_state pitfalls (SPEC rule 6): the plugin prints 'R' for a preempted
 * task (it only knows the low state bits), and old libtraceevent plugins
 * use the letters "SDTtZXxW" where the kernel says "SDTtXZPI": their 'W' is
 * an idle kthread ('I'), their 'x' is TASK_PARKED on >= 4.14 but TASK_DEAD
 * before.  Raw numbers changed meaning in 4.14: see text_prev_state().
 */
#define _GNU_SOURCE	/* memmem */
#include <errno.h>
#include <string.h>

#include "read_text.h"
#include "util/util.h"

/*
 * trace-cmd report -R prints a char array as "ARRAY[6b, 77, 00, ...]" when
 * one value of that field was not printable (libtraceevent then drops the
 * field's string flag for good: one odd comm turns every comm into hex).
 */
static size_t decode_array_comm(const char *s, size_t len, char *out, size_t out_size)
{
	static const char open[] = "ARRAY[";
	const char *p = s + sizeof(open) - 1, *end = s + len - 1;
	size_t n = 0;

	if (len < sizeof(open) || memcmp(s, open, sizeof(open) - 1) || *end != ']')
		return 0;
	while (p + 1 < end && n < out_size) {
		int hi = hex_digit(p[0]), lo = hex_digit(p[1]);

		if (hi < 0 || lo < 0)
			return 0;
		if (!hi && !lo)
			break;
		out[n++] = (char)(hi << 4 | lo);
		p += 2;
		if (p < end && (p[0] != ',' || p + 1 >= end || p[1] != ' '))
			return 0;
		p += 2;
	}
	return n;
}

/*
 * text_intern_comm - intern a comm field, through a cache keyed by pid: a
 * task's comm rarely changes, so most lines cost one short compare.
 */
uint32_t text_intern_comm(struct text_reader *r, int32_t pid, const char *s, size_t len)
{
	char decoded[64];

	if (len > 6 && s[0] == 'A') {
		size_t n = decode_array_comm(s, len, decoded, sizeof(decoded));

		if (n) {
			s = decoded;
			len = n;
		}
	}

	/* the last byte is in the key: every CPU's idle task is pid 0 ("swapper/1") */
	uint32_t slot = ((uint32_t)pid ^ (len ? (uint8_t)s[len - 1] << 4 : 0)) % COMM_CACHE_SIZE;
	struct comm_cache_entry *e = &r->comm_cache[slot];

	if (e->id && e->pid == pid && e->len == len && short_equal(e->bytes, s, len))
		return e->id;
	uint32_t id = sl_intern(r->strtab, s, len);

	if (len <= COMM_CACHE_BYTES) {
		e->pid = pid;
		e->id = id;
		e->len = (uint8_t)len;
		memcpy(e->bytes, s, len);
	}
	return id;
}

/* --- key=value lists --- */

/* A cursor over the fields of one line. */
struct kv {
	const char *p, *end;
};

#define KEY(c, lit)		kv_key(c, lit, sizeof(lit) - 1)
#define COMM_UNTIL(c, lit, s, l)	kv_comm(c, lit, sizeof(lit) - 1, s, l)

/*
 * "key=" at the cursor (after blanks): step over it.  Inlined so that the
 * compare with a literal of known length needs no call.
 */
static inline __attribute__((always_inline))
bool kv_key(struct kv *c, const char *key, size_t len)
{
	while (c->p < c->end && *c->p == ' ')
		c->p++;
	if ((size_t)(c->end - c->p) < len || memcmp(c->p, key, len))
		return false;
	c->p += len;
	return true;
}

/*
 * A comm value: everything up to " <next>" (next includes its '=').  The
 * key after a comm is always a pid, so a digit must follow: the comm
 * "prev_pid=1 z" is read whole, only " prev_pid=<digit>" inside a comm
 * would cut it.
 */
static inline __attribute__((always_inline))
bool kv_comm(struct kv *c, const char *next, size_t next_len, const char **s, size_t *len)
{
	for (const char *q = c->p; q + next_len + 1 < c->end; q++) {
		if (*q != ' ' || q[1] != next[0] || memcmp(q + 1, next, next_len) ||
		    !(is_digit(q[1 + next_len]) || q[1 + next_len] == '-'))
			continue;
		*s = c->p;
		*len = (size_t)(q - c->p);
		c->p = q + 1;
		return true;
	}
	return false;
}

/* A number that ends at a blank, a comma or the end of the line. */
static inline bool kv_int(struct kv *c, int32_t *v)
{
	if (!text_parse_i32(&c->p, c->end, v))
		return false;
	return c->p == c->end || *c->p == ' ' || *c->p == ',';
}

/* A word: up to the next blank. */
static void kv_word(struct kv *c, const char **s, size_t *len)
{
	const char *q = c->p;

	while (q < c->end && *q != ' ')
		q++;
	*s = c->p;
	*len = (size_t)(q - c->p);
	c->p = q;
}

/*
 * A kernel symbol as %pS prints it: "ttwu_queue_wakelist+0x11d/0x150".
 * Interned without the offset; a NULL pointer ("0x0", "(nil)") is 0.
 */
static uint32_t intern_symbol(struct text_reader *r, const char *s, size_t len)
{
	const char *plus;

	while (len && (s[len - 1] == ',' || s[len - 1] == ' '))
		len--;
	plus = memchr(s, '+', len);
	if (plus && plus > s)
		len = (size_t)(plus - s);
	if (!len || (len == 3 && !memcmp(s, "0x0", 3)) || (len == 5 && !memcmp(s, "(nil)", 5)))
		return 0;
	return sl_intern(r->strtab, s, len);
}

/* --- prev_state --- */

/*
 * Letters of the old sched plugin ("SDTtZXxW", libtraceevent <= 1.7) that
 * the kernel spells differently; X and Z are both dead and stay as printed.
 */
static char plugin_letter(const struct text_reader *r, char c)
{
	if (c == 'W')
		return r->state_enc == STATE_ENC_OLD ? 'K' : 'I';
	if (c == 'x' && r->state_enc != STATE_ENC_OLD)
		return 'P';
	return c;
}

static bool is_single_bit(uint64_t v)
{
	return v && !(v & (v - 1));
}

/*
 * learn_state_encoding - a raw prev_state that only one encoding explains:
 * 256 alone is TASK_REPORT_MAX (>= 4.14), a single bit >= 1024 is an old
 * TASK_STATE_MAX (1024, 2048 or 4096 depending on the version).
 */
static void learn_state_encoding(struct text_reader *r, uint64_t v)
{
	if (is_single_bit(v) && v >= 1024) {
		r->state_enc = STATE_ENC_OLD;
		if (v > r->preempt_bit)
			r->preempt_bit = v;
	} else if (v == 256 && r->state_enc == STATE_ENC_UNKNOWN) {
		r->state_enc = STATE_ENC_NEW;
	}
}

/*
 * lookahead_state_encoding - 64 or a plugin 'x' (dead or parked?) came
 * before anything that tells the encoding: look at the text that follows
 * (up to a megabyte of trace: text_read_ahead()) for raw prev_state numbers, or
 * for the old plugin's "D|W" (TASK_KILLABLE: 128 combines with other
 * states only before 4.14, where it was TASK_WAKEKILL).  Still unknown
 * after that means no preemption was seen: we take the >= 4.14 meaning.
 */
static void lookahead_state_encoding(struct text_reader *r)
{
	static const char key[] = "prev_state=", killable[] = "|W ==> ";
	const char *p, *end;

	r->state_lookahead_done = true;
	if (!r->buf)
		return;
	text_read_ahead(r);
	p = r->buf + r->pos;
	end = r->buf + r->len;
	if (p >= end)
		return;
	if (memmem(p, (size_t)(end - p), killable, sizeof(killable) - 1)) {
		r->state_enc = STATE_ENC_OLD;
		return;
	}
	while ((p = memmem(p, (size_t)(end - p), key, sizeof(key) - 1))) {
		uint64_t v;

		p += sizeof(key) - 1;
		if (text_parse_u64(&p, end, &v))
			learn_state_encoding(r, v);
		if (r->state_enc == STATE_ENC_OLD)
			return;
	}
}

/* Old (<= 4.13) task state bits, lowest first; >= 4.14 reports only the first 8. */
static const char old_state_letters[] = "SDTtXZxKWPN";
static const char new_state_letters[] = "SDTtXZPI";

static void numeric_prev_state(struct text_reader *r, uint64_t v, uint8_t *class, char *letter)
{
	const char *letters;
	uint64_t low;

	learn_state_encoding(r, v);
	if (r->state_enc == STATE_ENC_UNKNOWN && !r->state_lookahead_done &&
	    ((v & 64) || (v >= 256 && !is_single_bit(v))))
		lookahead_state_encoding(r);

	*letter = 'R';
	if (!v) {
		*class = SL_PREV_RUNNABLE;
		return;
	}
	if (r->state_enc == STATE_ENC_OLD) {
		if (v >= r->preempt_bit) {
			*class = SL_PREV_PREEMPTED;
			return;
		}
		letters = old_state_letters;
	} else {
		if (v >= 256) {		/* TASK_REPORT_MAX, or an old TASK_STATE_MAX */
			*class = SL_PREV_PREEMPTED;
			return;
		}
		letters = new_state_letters;
	}
	low = v & ((1ULL << (strlen(letters))) - 1);
	if (!low) {
		*class = SL_PREV_BLOCKED;
		*letter = '?';
		return;
	}
	*letter = letters[__builtin_ctzll(low)];
	*class = (low & (16 | 32)) || (letters == old_state_letters && (low & 64)) ?
		 SL_PREV_DEAD : SL_PREV_BLOCKED;
}

/*
 * text_prev_state - prev_state as printed: "R", "R+", "S", "S|D", "x",
 * a plugin letter, or a raw number (trace-cmd report -R).
 *
 * Raw numbers: 0 runnable; a bit >= 256 preempted (TASK_REPORT_MAX 256 on
 * >= 4.14, TASK_STATE_MAX 1024/2048/4096 before, sometimes with lower
 * bits); 16 and 32 dead; 64 is TASK_PARKED on >= 4.14 but TASK_DEAD
 * before.  The encoding is the one the file has shown: a lone 256 says
 * new, a lone bit >= 1024 says old (and is the preemption bit from then
 * on).  A 64 seen before either looks ahead in the read buffer.
 */
void text_prev_state(struct text_reader *r, const char *s, const char *end, bool plugin,
		     uint8_t *class, char *letter)
{
	bool dead = false, preempted = false;
	char first = 0;

	if (s < end && is_digit(*s)) {
		uint64_t v;

		if (text_parse_u64(&s, end, &v)) {
			numeric_prev_state(r, v, class, letter);
			return;
		}
	}
	if (plugin && r->state_enc == STATE_ENC_UNKNOWN) {
		if (end - s >= 2 && end[-1] == 'W' && end[-2] == '|')
			r->state_enc = STATE_ENC_OLD;		/* "D|W": see above */
		else if (memchr(s, 'x', (size_t)(end - s)) && !r->state_lookahead_done)
			lookahead_state_encoding(r);
	}
	for (; s < end; s++) {
		char c = *s;

		if (c == '|')
			continue;
		if (c == '+') {
			preempted = true;
			continue;
		}
		if (plugin)
			c = plugin_letter(r, c);
		if (!first)
			first = c;
		if (c == 'X' || c == 'Z' || (c == 'x' && (!plugin || r->state_enc == STATE_ENC_OLD)))
			dead = true;
	}
	*letter = first && !preempted ? first : 'R';
	if (preempted)
		*class = SL_PREV_PREEMPTED;
	else if (!first || first == 'R')
		*class = SL_PREV_RUNNABLE;
	else if (dead)
		*class = SL_PREV_DEAD;
	else
		*class = SL_PREV_BLOCKED;
}

/* --- cpumasks --- */

static void mask_set(struct text_reader *r, uint32_t cpu, uint32_t *nr_words)
{
	size_t need = cpu / 64 + 1;

	if (need > *nr_words) {
		GROW(r->mask_words, r->mask_alloc, need);
		memset(r->mask_words + *nr_words, 0, (need - *nr_words) * sizeof(uint64_t));
		*nr_words = (uint32_t)need;
	}
	r->mask_words[cpu / 64] |= 1ULL << (cpu % 64);
}

/* "00000000,00000003" (%*pb, the kernel): bit 0 is the last hex digit. */
static int parse_hex_mask(struct text_reader *r, const char *s, const char *end, uint32_t *nr)
{
	uint32_t bit = 0;

	for (const char *p = end; p > s; p--) {
		int v = hex_digit(p[-1]);

		if (p[-1] == ',')
			continue;
		if (v < 0)
			return -EINVAL;
		for (int i = 0; i < 4; i++, bit++) {
			if (!(v & (1 << i)))
				continue;
			if (bit > TEXT_MAX_CPU)
				return -EINVAL;
			mask_set(r, bit, nr);
		}
	}
	return 0;
}

/* "0-3,8" (libtraceevent >= 1.7 prints cpumasks as lists). */
static int parse_list_mask(struct text_reader *r, const char *p, const char *end, uint32_t *nr)
{
	while (p < end) {
		uint64_t a, b;

		if (!text_parse_u64(&p, end, &a) || a > TEXT_MAX_CPU)
			return -EINVAL;
		b = a;
		if (p < end && *p == '-') {
			p++;
			if (!text_parse_u64(&p, end, &b) || b < a || b > TEXT_MAX_CPU)
				return -EINVAL;
		}
		for (uint64_t c = a; c <= b; c++)
			mask_set(r, (uint32_t)c, nr);
		if (p < end && *p != ',')
			return -EINVAL;
		if (p < end)
			p++;
	}
	return 0;
}

/*
 * text_parse_cpumask - a cpumask as the kernel prints it (hex words,
 * zero-padded, a comma every 32 bits) or as libtraceevent prints it (a
 * CPU list).  A list has no hex letters and no group of 6+ digits (CPU
 * numbers stop at 65535); the kernel's hex always has 8-digit groups on
 * 64-bit machines.
 */
int text_parse_cpumask(struct text_reader *r, const char *s, const char *end,
		       struct sl_cpumask_ref *mask)
{
	bool hex = false;
	size_t group = 0;
	uint32_t nr = 0;
	int ret;

	for (const char *p = s; p < end; p++) {
		if (*p == ',') {
			group = 0;
			continue;
		}
		if (*p == '-')
			break;
		if (!is_digit(*p) || ++group >= 6) {
			hex = true;
			break;
		}
	}
	ret = hex ? parse_hex_mask(r, s, end, &nr) : parse_list_mask(r, s, end, &nr);
	if (ret)
		return ret;
	mask->words = nr ? r->mask_words : NULL;
	mask->nr_words = nr;
	return 0;
}

/* --- one parser per modelled event --- */

typedef int (*field_parser)(struct text_reader *r, struct kv *c, struct sl_event *ev);

/* plugin "comm:pid [prio]" in [s, e): comm up to the last ':' before the pid */
static bool plugin_task(struct text_reader *r, const char *s, const char *e,
			int32_t *pid, int32_t *prio, uint32_t *comm)
{
	const char *q = e, *digits;

	*prio = SL_PRIO_NONE;
	if (q > s && q[-1] == ']') {
		const char *open = q - 1;

		while (open > s && open[-1] != '[')
			open--;
		if (open == s || open - 1 == s || open[-2] != ' ')
			return false;
		const char *n = open;

		if (!text_parse_i32(&n, q - 1, prio) || n != q - 1)
			return false;
		q = open - 2;
	}
	digits = q;
	while (digits > s && is_digit(digits[-1]))
		digits--;
	if (digits == q || digits == s || digits[-1] != ':')
		return false;
	const char *n = digits;

	if (!text_parse_i32(&n, q, pid))
		return false;
	*comm = text_intern_comm(r, *pid, s, (size_t)(digits - 1 - s));
	return true;
}

/* The next " ==> " in [p, end), found by its rare '>'; NULL if none. */
static const char *find_arrow(const char *p, const char *end)
{
	for (const char *gt = p + 3; gt + 1 < end; gt++) {
		gt = memchr(gt, '>', (size_t)(end - gt));
		if (!gt || gt + 1 >= end)
			return NULL;
		if (gt[1] == ' ' && gt[-1] == '=' && gt[-2] == '=' && gt[-3] == ' ')
			return gt - 3;
	}
	return NULL;
}

/* "bash:2856 [120] S ==> foo:12 [120]": split at the " ==> " after a state. */
static int switch_plugin(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *arrow = c->p;

	while ((arrow = find_arrow(arrow, c->end))) {
		const char *state = arrow;

		while (state > c->p && state[-1] != ' ')
			state--;
		if (state > c->p && state < arrow &&
		    plugin_task(r, c->p, state - 1, &ev->sw.prev_pid, &ev->sw.prev_prio,
				&ev->sw.prev_comm) &&
		    plugin_task(r, arrow + 5, c->end, &ev->sw.next_pid,
				&ev->sw.next_prio, &ev->sw.next_comm)) {
			text_prev_state(r, state, arrow, true, &ev->sw.prev_class, &ev->sw.prev_letter);
			r->plugin_shape = true;
			return 0;
		}
		arrow++;
	}
	return -EINVAL;
}

static int parse_switch(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *s;
	size_t len;

	if (!KEY(c, "prev_comm="))
		return switch_plugin(r, c, ev);
	if (!COMM_UNTIL(c, "prev_pid=", &s, &len) ||
	    !KEY(c, "prev_pid=") || !kv_int(c, &ev->sw.prev_pid) ||
	    !KEY(c, "prev_prio=") || !kv_int(c, &ev->sw.prev_prio))
		return -EINVAL;
	ev->sw.prev_comm = text_intern_comm(r, ev->sw.prev_pid, s, len);
	if (!KEY(c, "prev_state="))
		return -EINVAL;
	kv_word(c, &s, &len);
	text_prev_state(r, s, s + len, false, &ev->sw.prev_class, &ev->sw.prev_letter);
	KEY(c, "==>");		/* -R prints the fields only */
	if (!KEY(c, "next_comm=") ||
	    !COMM_UNTIL(c, "next_pid=", &s, &len) ||
	    !KEY(c, "next_pid=") || !kv_int(c, &ev->sw.next_pid) ||
	    !KEY(c, "next_prio=") || !kv_int(c, &ev->sw.next_prio))
		return -EINVAL;
	ev->sw.next_comm = text_intern_comm(r, ev->sw.next_pid, s, len);
	return 0;
}

/* plugin "record.sh:8337 [120] CPU:000", old kernels "... success=1 CPU:000" */
static int wakeup_plugin(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *e = c->end, *q = e;
	int32_t v;

	while (q > c->p && is_digit(q[-1]))
		q--;
	if (q - c->p < 5 || q == e || memcmp(q - 5, " CPU:", 5))
		return -EINVAL;
	const char *n = q;

	if (!text_parse_i32(&n, e, &ev->wake.target_cpu))
		return -EINVAL;
	e = q - 5;
	q = e;
	while (q > c->p && is_digit(q[-1]))
		q--;
	if (q - c->p >= 9 && q < e && !memcmp(q - 9, " success=", 9)) {
		n = q;
		if (!text_parse_i32(&n, e, &v))
			return -EINVAL;
		ev->wake.success = v != 0;
		e = q - 9;
	}
	if (!plugin_task(r, c->p, e, &ev->wake.pid, &ev->wake.prio, &ev->wake.comm))
		return -EINVAL;
	r->plugin_shape = true;
	return 0;
}

static int parse_wakeup(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *s;
	size_t len;
	int32_t v;

	ev->wake.success = true;
	if (!KEY(c, "comm="))
		return wakeup_plugin(r, c, ev);
	if (!COMM_UNTIL(c, "pid=", &s, &len) ||
	    !KEY(c, "pid=") || !kv_int(c, &ev->wake.pid) ||
	    !KEY(c, "prio=") || !kv_int(c, &ev->wake.prio))
		return -EINVAL;
	ev->wake.comm = text_intern_comm(r, ev->wake.pid, s, len);
	if (KEY(c, "success=")) {
		if (!kv_int(c, &v))
			return -EINVAL;
		ev->wake.success = v != 0;
	}
	if (!KEY(c, "target_cpu=") || !kv_int(c, &ev->wake.target_cpu))
		return -EINVAL;
	return 0;
}

static int parse_migrate(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *s;
	size_t len;

	if (!KEY(c, "comm=") || !COMM_UNTIL(c, "pid=", &s, &len) ||
	    !KEY(c, "pid=") || !kv_int(c, &ev->migrate.pid) ||
	    !KEY(c, "prio=") || !kv_int(c, &ev->migrate.prio) ||
	    !KEY(c, "orig_cpu=") || !kv_int(c, &ev->migrate.orig_cpu) ||
	    !KEY(c, "dest_cpu=") || !kv_int(c, &ev->migrate.dest_cpu))
		return -EINVAL;
	ev->migrate.comm = text_intern_comm(r, ev->migrate.pid, s, len);
	return 0;
}

/* "comm=a pid=1 child_comm=b child_pid=2", -R: "parent_comm=a parent_pid=1 ..." */
static int parse_fork(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *s, *cs;
	size_t len, clen;

	if (KEY(c, "comm=")) {
		if (!COMM_UNTIL(c, "pid=", &s, &len) || !KEY(c, "pid="))
			return -EINVAL;
	} else if (KEY(c, "parent_comm=")) {
		if (!COMM_UNTIL(c, "parent_pid=", &s, &len) || !KEY(c, "parent_pid="))
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	if (!kv_int(c, &ev->fork.parent_pid) ||
	    !KEY(c, "child_comm=") || !COMM_UNTIL(c, "child_pid=", &cs, &clen) ||
	    !KEY(c, "child_pid=") || !kv_int(c, &ev->fork.child_pid))
		return -EINVAL;
	ev->fork.parent_comm = text_intern_comm(r, ev->fork.parent_pid, s, len);
	ev->fork.child_comm = text_intern_comm(r, ev->fork.child_pid, cs, clen);
	return 0;
}

/* "comm=x pid=1 prio=120", 6.x adds " group_dead=true" (-R: "=1") */
static int parse_exit(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *s;
	size_t len;

	if (!KEY(c, "comm=") || !COMM_UNTIL(c, "pid=", &s, &len) ||
	    !KEY(c, "pid=") || !kv_int(c, &ev->exit.pid))
		return -EINVAL;
	ev->exit.comm = text_intern_comm(r, ev->exit.pid, s, len);
	ev->exit.prio = SL_PRIO_NONE;
	if (KEY(c, "prio=") && !kv_int(c, &ev->exit.prio))
		return -EINVAL;
	return 0;
}

/* "callsite=SYM callback=SYM" or csd's "callsite=SYM func=SYM" */
static void parse_callsite_callback(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *s;
	size_t len;

	if (KEY(c, "callsite=")) {
		kv_word(c, &s, &len);
		ev->ipi.callsite = intern_symbol(r, s, len);
	}
	if (KEY(c, "callback=") || KEY(c, "func=")) {
		kv_word(c, &s, &len);
		ev->ipi.callback = intern_symbol(r, s, len);
	}
}

/* ipi_send_cpu "cpu=1 callsite=... callback=...", csd_queue_cpu "cpu=0 callsite=... func=..." */
static int parse_ipi_send_cpu(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	if (!KEY(c, "cpu=") || !kv_int(c, &ev->ipi.target_cpu))
		return -EINVAL;
	parse_callsite_callback(r, c, ev);
	return 0;
}

static int parse_ipi_send_cpumask(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *s;
	size_t len;

	ev->ipi.target_cpu = -1;
	if (!KEY(c, "cpumask="))
		return -EINVAL;
	kv_word(c, &s, &len);
	if (text_parse_cpumask(r, s, s + len, &ev->ipi.mask))
		return -EINVAL;
	parse_callsite_callback(r, c, ev);
	return 0;
}

/* arm64: the reason is the text in the last parentheses. */
static uint32_t ipi_reason(struct text_reader *r, const char *s, const char *end)
{
	const char *open = NULL;

	for (const char *p = s; p < end; p++)
		if (*p == '(')
			open = p;
	if (!open || end[-1] != ')' || end - 1 <= open + 1)
		return 0;
	return sl_intern(r->strtab, open + 1, (size_t)(end - 1 - open - 1));
}

/* arm64 "target_mask=00000000,00000001 (Function call interrupts)" */
static int parse_ipi_raise(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *s;
	size_t len;

	ev->ipi.target_cpu = -1;
	if (!KEY(c, "target_mask="))
		return -EINVAL;
	kv_word(c, &s, &len);
	if (parse_hex_mask(r, s, s + len, &ev->ipi.mask.nr_words))
		return -EINVAL;
	ev->ipi.mask.words = ev->ipi.mask.nr_words ? r->mask_words : NULL;
	ev->ipi.callsite = ipi_reason(r, c->p, c->end);
	return 0;
}

/* arm64 "(Rescheduling interrupts)": runs on the target */
static int parse_ipi_entry(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	ev->ipi.target_cpu = ev->cpu;
	ev->ipi.callsite = ipi_reason(r, c->p, c->end);
	return ev->ipi.callsite ? 0 : -EINVAL;
}

/* "func=flush_tlb_func, csd=0000000000000000": runs on the target */
static int parse_csd_function_entry(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *s;
	size_t len;

	ev->ipi.target_cpu = ev->cpu;
	if (!KEY(c, "func="))
		return -EINVAL;
	kv_word(c, &s, &len);
	ev->ipi.callback = intern_symbol(r, s, len);
	return 0;
}

/* x86 irq_vectors: "vector=253" */
static int parse_vector(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	ev->irq.vector = -1;
	if (KEY(c, "vector=") && !kv_int(c, &ev->irq.vector))
		return -EINVAL;
	return 0;
}

static int parse_wake_idle(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	if (!KEY(c, "cpu=") || !kv_int(c, &ev->idle_no_ipi.target_cpu))
		return -EINVAL;
	return 0;
}

/*
 * A trace_marker write, ftrace's print event ("%ps: %s" of the writer's ip
 * and the text): the tracefs file shows "tracing_mark_write: TEXT",
 * trace-cmd report "print: tracing_mark_write: TEXT" or, with -R,
 * "print: ip=tracing_mark_write buf=TEXT".  Named "print" either way, as
 * in a trace.dat.
 */
static int parse_marker(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	const char *p = c->p;

	if (ev->name == r->print_name) {
		/* skip the ip: "tracing_mark_write: " or "ip=... buf=" */
		const char *sep = KEY(c, "ip=") ? memmem(c->p, (size_t)(c->end - c->p), " buf=", 5)
						: memmem(p, (size_t)(c->end - p), ": ", 2);

		if (!sep)
			return -EINVAL;
		p = sep + (*sep == ':' ? 2 : 5);
	}
	ev->name = r->print_name;
	ev->marker.text = sl_intern(r->strtab, p, (size_t)(c->end - p));
	return 0;
}

/*
 * perf script --show-lost-events: "PERF_RECORD_LOST lost 9", perf's own
 * record that the kernel could not write 9 events into this CPU's buffer.
 * Its time is when it was written, after the gap: a lost-events marker
 * with a time, like ftrace's at the CPU's next event.
 */
static int parse_perf_lost(struct text_reader *r, struct kv *c, struct sl_event *ev)
{
	uint64_t count;

	if (!KEY(c, "lost ") || !text_parse_u64(&c->p, c->end, &count))
		return -EINVAL;
	ev->name = r->lost_name;
	ev->pid = -1;
	ev->lost.count = count;
	return 0;
}

struct known_event {
	const char *name;
	enum sl_event_type type;
	field_parser parse;
};

static const struct known_event known_events[] = {
	{ "sched_switch",		SL_EV_SWITCH,		parse_switch },
	{ "sched_waking",		SL_EV_WAKING,		parse_wakeup },
	{ "sched_wakeup",		SL_EV_WAKEUP,		parse_wakeup },
	{ "sched_wakeup_new",		SL_EV_WAKEUP_NEW,	parse_wakeup },
	{ "sched_migrate_task",		SL_EV_MIGRATE,		parse_migrate },
	{ "sched_process_fork",		SL_EV_FORK,		parse_fork },
	{ "sched_process_exit",		SL_EV_EXIT,		parse_exit },
	{ "ipi_send_cpu",		SL_EV_IPI_SEND_CPU,	parse_ipi_send_cpu },
	{ "ipi_send_cpumask",		SL_EV_IPI_SEND_CPUMASK,	parse_ipi_send_cpumask },
	{ "ipi_raise",			SL_EV_IPI_RAISE,	parse_ipi_raise },
	{ "ipi_entry",			SL_EV_IPI_ENTRY,	parse_ipi_entry },
	{ "reschedule_entry",		SL_EV_IRQ_VECTOR,	parse_vector },
	{ "call_function_entry",	SL_EV_IRQ_VECTOR,	parse_vector },
	{ "call_function_single_entry",	SL_EV_IRQ_VECTOR,	parse_vector },
	{ "local_timer_entry",		SL_EV_TIMER_TICK,	parse_vector },
	{ "sched_wake_idle_without_ipi", SL_EV_WAKE_IDLE_NO_IPI, parse_wake_idle },
	{ "csd_queue_cpu",		SL_EV_CSD_QUEUE,	parse_ipi_send_cpu },
	{ "csd_function_entry",		SL_EV_CSD_FUNC_ENTRY,	parse_csd_function_entry },
	{ "tracing_mark_write",		SL_EV_MARKER,		parse_marker },
	{ "print",			SL_EV_MARKER,		parse_marker },
	{ "PERF_RECORD_LOST",		SL_EV_LOST,		parse_perf_lost },
};

/*
 * Event names go through a direct-mapped cache keyed by a cheap hash of
 * the length and three characters; a hit costs one memcmp, a miss (a new
 * name, or two names fighting for a slot) looks the name up in the table.
 */
static inline uint32_t name_hash(const char *s, size_t len)
{
	return ((uint32_t)len * 31u + (uint8_t)s[0] * 7u + (uint8_t)s[len - 1] * 13u +
		(uint8_t)s[len / 2] * 3u + (uint8_t)s[len * 3 / 4]) % NAME_CACHE_SIZE;
}

static const struct known_event *find_known(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_events); i++)
		if (strlen(known_events[i].name) == len && !memcmp(known_events[i].name, s, len))
			return &known_events[i];
	return NULL;
}

void text_fields_init(struct text_reader *r)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_events); i++)
		r->type_name[known_events[i].type] = sl_intern_cstr(r->strtab, known_events[i].name);
	r->lost_name = sl_intern_cstr(r->strtab, "lost_events");
	r->function_name = sl_intern_cstr(r->strtab, "function");
	r->print_name = sl_intern_cstr(r->strtab, "print");
}

/* Name cache entries remember the table index + 1 (0 = not modelled). */
static uint32_t lookup_name(struct text_reader *r, const char *s, size_t len, int *known)
{
	struct name_cache_entry *e;
	const struct known_event *k;
	uint32_t id;

	if (len <= NAME_CACHE_BYTES) {
		e = &r->name_cache[name_hash(s, len)];
		if (e->id && e->len == len && short_equal(e->bytes, s, len)) {
			*known = e->known;
			return e->id;
		}
	} else {
		e = NULL;
	}
	k = find_known(s, len);
	*known = k ? (int)(k - known_events) + 1 : 0;
	id = sl_intern(r->strtab, s, len);
	if (e) {
		e->id = id;
		e->len = (uint8_t)len;
		e->known = (uint8_t)*known;
		memcpy(e->bytes, s, len);
	}
	return id;
}

/*
 * text_parse_event - fill ev from a split line: type, name and, for the
 * events we model, the fields.  Returns 0, or -EINVAL when a modelled
 * event's fields do not parse (a bad line: it is not half-reported).
 */
int text_parse_event(struct text_reader *r, const struct text_line *line,
		     struct sl_event *ev)
{
	struct kv c = { .p = line->fields, .end = line->end };
	int known;

	memset(ev, 0, sizeof(*ev));
	ev->ts = line->ts;
	ev->cpu = line->cpu;
	ev->pid = line->pid;
	ev->ctx = line->ctx;
	ev->name = lookup_name(r, line->name, line->name_len, &known);
	if (!known) {
		ev->type = SL_EV_OTHER;
		return 0;
	}
	ev->type = (uint16_t)known_events[known - 1].type;
	return known_events[known - 1].parse(r, &c, ev);
}

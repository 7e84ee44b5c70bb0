// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms.c - a trace.dat's kallsyms as a sorted table, for libtraceevent
 *
 * IPI events name their callsite and callback by kernel address, and a
 * trace.dat carries the machine's /proc/kallsyms to resolve them.
 * tep_parse_kallsyms() (libtraceevent 1.7) reads it with an sscanf() and
 * two mallocs per line: 68 ms and 16 MB of RSS for the 122,000 lines of
 * this VM's kernel, 5% of analyzing a 5 M-event trace.  This file reads
 * the same text in one pass into one array and gives it to libtraceevent
 * as its function resolver, so that tep_find_function() (and tep's own
 * event printing) go through it.
 *
 * The answers must be libtraceevent's, aliases included (several names
 * at one address: _stext and srso_alias_untrain_ret).  tep keeps what
 * tep_parse_kallsyms() registered, newest first, sorts it by address
 * with qsort() (glibc's merge sort: stable) and bsearch()es it with a
 * comparison that matches an address inside [addr, next addr).  We sort
 * into that order (by address, the last line first at one address) and
 * bsearch() with the same comparison.  The table is 16 bytes a symbol and
 * points into the section's own buffer, which keeps only the names, moved
 * to its front: no copy of the 5 MB text, and half of it given back.  A line this parser is not sure it reads as
 * sscanf("%16llx %c %n%*s%n%*1[\t][%n%*s%n") would (anything but
 * "ADDR TYPE NAME" with an optional "\t[MODULE]") sends the whole text to
 * tep_parse_kallsyms() instead.
 */
#include <event-parse.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "util/util.h"

struct ksym {
	uint64_t addr;
	uint32_t name, mod;	/* offsets into text; mod NO_MOD: none */
};

#define NO_MOD UINT32_MAX
/*
 * While the lines are read (parse_all()), a symbol without a module has
 * NAME_LEN | its name's length in mod; one with a module has its name
 * end 2 bytes before the module ("NAME\t[MODULE]").  Offsets stay below.
 */
#define NAME_LEN (1u << 31)

struct sl_kallsyms {
	char *text;		/* names NUL-terminated, moved to its front (keep_names()) */
	void *owner;		/* the allocation text lies in */
	size_t used;		/* text[0, used) holds the names the table keeps */
	uint32_t last_mod;	/* the module moved last, NO_MOD none */
	struct ksym *syms;	/* nr sorted entries and a terminating {0} */
	size_t nr;
};

/* isspace() in the C locale, by table: it is asked of every byte of 5 MB */
static const bool space_table[256] = {
	[' '] = true, ['\t'] = true, ['\n'] = true, ['\v'] = true, ['\f'] = true, ['\r'] = true,
};

static inline bool is_space(char c)
{
	return space_table[(unsigned char)c];
}

/*
 * The first space at or after p before e, or e.  Eight bytes a step: a
 * word with a byte below 0x21 (every space is one) stops at the first
 * such byte, which the table then judges (a control byte is part of a
 * name, as for isspace()).  The borrows of the subtraction run towards
 * the later bytes only, so no earlier byte is missed.
 */
static inline const char *space_or_end(const char *p, const char *e)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (e - p >= 8) {
		uint64_t x, low;

		memcpy(&x, p, sizeof(x));
		low = (x - 0x2121212121212121ull) & ~x & 0x8080808080808080ull;
		if (!low) {
			p += 8;
			continue;
		}
		p += __builtin_ctzll(low) / 8;
		if (is_space(*p))
			return p;
		p++;
	}
#endif
	while (p < e && !is_space(*p))
		p++;
	return p;
}

/*
 * Eight bytes of x (the first in its lowest byte, as a little-endian load
 * gives them) as 8 hex digits, the first the most significant: false when
 * one byte is not a hex digit (0-9, a-f, A-F, as hex_digit()).  A byte at
 * a time, by table, this was 130 instructions a line, a third of the parse.
 */
#define ONES 0x0101010101010101ull
#define HIGH (ONES * 0x80)
/* 0x80 in each byte b of x (all below 0x80) with m < b < n (Bit Twiddling Hacks' hasbetween) */
#define BETWEEN(x, m, n) \
	(((ONES * (127 + (n)) - ((x) & ONES * 127)) & ~(x) & (((x) & ONES * 127) + ONES * (127 - (m)))) & HIGH)

static inline bool hex8(uint64_t x, uint32_t *out)
{
	uint64_t letter, v;

	if (x & HIGH)
		return false;
	letter = BETWEEN(x | ONES * 0x20, 0x60, 0x67);	/* a-f, A-F */
	if ((BETWEEN(x, 0x2f, 0x3a) | letter) != HIGH)	/* 0-9 */
		return false;
	v = (x & ONES * 0x0f) + (letter >> 7) * 9;	/* each byte its digit's value */
	v = (v << 4 | v >> 8) & 0x00ff00ff00ff00ffull;	/* pairs: the first high */
	v = (v << 8 | v >> 16) & 0x0000ffff0000ffffull;
	*out = (uint32_t)(v << 16 | v >> 32);
	return true;
}

/*
 * [p, p + 16) as 16 hex digits (an address of kallsyms on a 64-bit
 * kernel): false when one is not.
 */
static inline bool hex16(const char *p, uint64_t *addr)
{
	uint64_t x, y;
	uint32_t hi, lo;

	memcpy(&x, p, sizeof(x));
	memcpy(&y, p + 8, sizeof(y));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
	y = __builtin_bswap64(y);
#endif
	if (!hex8(x, &hi) || !hex8(y, &lo))
		return false;
	*addr = (uint64_t)hi << 32 | lo;
	return true;
}

/*
 * One line [s, e), no '\n' in it: false when it is not of the plain
 * form.  *keep: tep would register it (not '$' names, not 'a'/'A');
 * *out: its address and where its name and module start in text (the
 * text is not written: a line refused later leaves it to tep intact).
 */
static bool parse_line(const char *text, const char *s, const char *e, struct ksym *out,
		       bool *keep)
{
	const char *p = s, *name, *mod = NULL;
	uint64_t addr = 0;
	char type;
	int n = 0, d;

	if (e - p > 16 && p[16] == ' ' && hex16(p, &addr)) {
		p += 16;	/* the usual line: what the loop below reads too */
	} else {
		while (p < e && n < 17 && (d = hex_digit(*p)) >= 0) {
			addr = addr << 4 | (uint64_t)d;
			p++;
			n++;
		}
		if (n == 0 || n > 16)
			return false;
	}
	if (e - p < 4 || p[0] != ' ' || is_space(p[1]) || p[2] != ' ' || is_space(p[3]))
		return false;
	type = p[1];
	name = p + 3;
	p = space_or_end(name, e);
	if (p < e) {
		/* "\t[MODULE]" and the end of the line */
		if (e - p < 3 || p[0] != '\t' || p[1] != '[')
			return false;
		if (space_or_end(p + 2, e) != e || e[-1] != ']')
			return false;
		mod = p + 2;
	}
	*keep = name[0] != '$' && type != 'A' && type != 'a';
	*out = (struct ksym){ .addr = addr, .name = (uint32_t)(name - text),
			      .mod = mod ? (uint32_t)(mod - text) : NAME_LEN | (uint32_t)(p - name) };
	return true;
}

/*
 * tep's order: by address, and at one address the line read last first
 * (its list is newest first and glibc's qsort is stable); a later line
 * has its name further into the text.
 */
static int by_addr(const void *x, const void *y)
{
	const struct ksym *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->name > b->name ? -1 : a->name < b->name;
}

/*
 * /proc/kallsyms is nearly sorted already: an insertion sort moves only
 * the aliases and the odd module symbol, and needs no second copy of the
 * table as qsort's merge sort does.  On a text far from sorted (a crafted
 * file) it stops after a budget of moves and qsort() finishes.
 */
static void sort_syms(struct ksym *a, size_t n)
{
	size_t budget = 8 * n + 100000;

	for (size_t i = 1; i < n; i++) {
		struct ksym x = a[i];
		size_t j = i;

		while (j > 0 && by_addr(&a[j - 1], &x) > 0) {
			a[j] = a[j - 1];
			j--;
			if (!--budget) {
				a[j] = x;
				qsort(a, n, sizeof(*a), by_addr);
				return;
			}
		}
		a[j] = x;
	}
}

/* libtraceevent's func_bcmp(): the entry whose [addr, next addr) holds the key */
static int in_range(const void *x, const void *y)
{
	const struct ksym *key = x, *f = y;

	if (key->addr == f->addr || (key->addr > f->addr && key->addr < f[1].addr))
		return 0;
	return key->addr < f->addr ? -1 : 1;
}

static const struct ksym *find(const struct sl_kallsyms *k, uint64_t addr)
{
	struct ksym key = { .addr = addr };

	if (!k || !k->nr)
		return NULL;
	return bsearch(&key, k->syms, k->nr, sizeof(*k->syms), in_range);
}

const char *sl_kallsyms_find(const struct sl_kallsyms *k, uint64_t addr, uint64_t *start)
{
	const struct ksym *f = find(k, addr);

	if (!f)
		return NULL;
	if (start)
		*start = f->addr;
	return k->text + f->name;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	const struct sl_kallsyms *k = priv;
	const struct ksym *f = find(k, *addrp);

	if (!f)
		return NULL;
	*addrp = f->addr;
	*modp = f->mod == NO_MOD ? NULL : k->text + f->mod;
	return k->text + f->name;
}

void sl_kallsyms_free(struct sl_kallsyms *k)
{
	if (!k)
		return;
	free(k->owner);
	free(k->syms);
	free(k);
}

/*
 * A kept symbol's name, and its module unless the symbol before had the
 * same, moved to the front of the text: the table then needs only
 * text[0, used), and the addresses, types and the lines tep does not
 * keep are given back (5.4 MB of text, 2.6 MB kept on this VM's
 * kernel).  In place, in the order of the lines: what is moved always
 * lands before the line being read, and a later line's name stays
 * further into the text (the sort's order of aliases).
 */
static size_t word_len(const char *s)
{
	const char *p = s;

	while (*p && !is_space(*p))
		p++;
	return (size_t)(p - s);
}

static struct ksym keep_names(struct sl_kallsyms *k, struct ksym sym)
{
	bool mod = !(sym.mod & NAME_LEN);
	size_t n = mod ? sym.mod - 2 - sym.name : sym.mod & ~NAME_LEN;

	memmove(k->text + k->used, k->text + sym.name, n);
	k->text[k->used + n] = '\0';
	sym.name = (uint32_t)k->used;
	k->used += n + 1;
	if (!mod) {
		sym.mod = NO_MOD;
		return sym;
	}
	/* "[MODULE]" to the end of the line: the module without its ']' */
	n = word_len(k->text + sym.mod) - 1;
	if (k->last_mod != NO_MOD && !strncmp(k->text + k->last_mod, k->text + sym.mod, n) &&
	    !k->text[k->last_mod + n]) {
		sym.mod = k->last_mod;
		return sym;
	}
	memmove(k->text + k->used, k->text + sym.mod, n);
	k->text[k->used + n] = '\0';
	sym.mod = k->last_mod = (uint32_t)k->used;
	k->used += n + 1;
	return sym;
}

/*
 * Each line of text[0, len) to parse_line(), the symbols tep would keep
 * into k->syms (room for a symbol a line); false at the first line it
 * refuses, the text untouched.
 */
static bool parse_all(struct sl_kallsyms *k, size_t len)
{
	for (char *s = k->text, *end = k->text + len; s < end;) {
		char *e;
		uint64_t addr;
		bool keep;

		/*
		 * The usual line, "ADDR16 T NAME" and its '\n', read without
		 * looking for its end first: no byte of its first 20 is a
		 * '\n', and the name ends at the first space, which is the
		 * '\n' (or the text's end).  What parse_line() would make of it.
		 */
		if (end - s >= 20 && s[16] == ' ' && s[18] == ' ' && !is_space(s[17]) &&
		    !is_space(s[19]) && hex16(s, &addr)) {
			char *name = s + 19, *p = (char *)space_or_end(name, end);

			if (p == end || *p == '\n') {
				k->syms[k->nr] = (struct ksym){ .addr = addr,
					.name = (uint32_t)(name - k->text),
					.mod = NAME_LEN | (uint32_t)(p - name) };
				k->nr += name[0] != '$' && s[17] != 'A' && s[17] != 'a';
				s = p + 1;
				continue;
			}
		}
		e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		if (e > s) {
			if (!parse_line(k->text, s, e, &k->syms[k->nr], &keep))
				return false;
			k->nr += keep;
		}
		s = e + 1;
	}
	return true;
}

/*
 * An upper bound of the symbols of text[0, len), without a pass over it:
 * the shortest line parse_line() takes is "0 t x" and its '\n'.  The room
 * past the symbols is never touched, and given back once they are read.
 */
static size_t most_syms(size_t len)
{
	return len / 6 + 1;
}

struct sl_kallsyms *sl_kallsyms_load(struct tep_handle *tep, char *text, size_t len, void *owner)
{
	struct sl_kallsyms *k = xcalloc(1, sizeof(*k));

	text[len] = '\0';
	len = strlen(text);		/* tep reads a C string */
	k->text = text;
	k->owner = owner;
	if (len >= NAME_LEN)
		goto tep;
	/* one pass reads every line; the text is written only once all were read */
	k->syms = xmalloc((most_syms(len) + 1) * sizeof(*k->syms));
	if (!parse_all(k, len))
		goto tep;
	k->last_mod = NO_MOD;
	for (size_t i = 0; i < k->nr; i++)
		k->syms[i] = keep_names(k, k->syms[i]);
	k->syms = xrealloc(k->syms, (k->nr + 1) * sizeof(*k->syms));
	sort_syms(k->syms, k->nr);
	k->syms[k->nr] = (struct ksym){ 0 };
	/* the names only: the rest of the text goes back (keep_names()) */
	size_t off = (size_t)(text - (char *)owner);

	k->owner = xrealloc(owner, off + k->used + 1);
	k->text = (char *)k->owner + off;
	if (tep_set_function_resolver(tep, resolve, k) < 0) {
		sl_kallsyms_free(k);	/* out of memory: no names, as tep without kallsyms */
		return NULL;
	}
	return k;
tep:
	tep_parse_kallsyms(tep, text);
	sl_kallsyms_free(k);
	return NULL;
}

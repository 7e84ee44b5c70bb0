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
 * comparison that matches an address inside [addr, next addr).  We build
 * the same array in the same order, sort it stably, and bsearch() it with
 * the same comparison.  A line this parser is not sure it reads as
 * sscanf("%16llx %c %n%*s%n%*1[\t][%n%*s%n") would (anything but
 * "ADDR TYPE NAME" with an optional "\t[MODULE]") sends the whole text to
 * tep_parse_kallsyms() instead.
 */
#include <event-parse.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "util.h"

struct ksym {
	uint64_t addr;
	char *name;
	char *mod;
	size_t order;		/* position before sorting: ties keep it */
};

struct sl_kallsyms {
	char *text;		/* our copy, names NUL-terminated in place */
	struct ksym *syms;	/* nr sorted entries and a terminating {0} */
	size_t nr;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * One line [s, e), no '\n' in it: false when it is not of the plain
 * form.  *keep: tep would register it (not '$' names, not 'a'/'A').
 */
static bool parse_line(char *s, char *e, struct ksym *out, bool *keep)
{
	char *p = s, *name, *mod = NULL;
	uint64_t addr = 0;
	char type;
	int n = 0, d;

	while (p < e && n < 17 && (d = hex_digit(*p)) >= 0) {
		addr = addr << 4 | (uint64_t)d;
		p++;
		n++;
	}
	if (n == 0 || n > 16)
		return false;
	if (e - p < 4 || p[0] != ' ' || is_space(p[1]) || p[2] != ' ' || is_space(p[3]))
		return false;
	type = p[1];
	name = p + 3;
	for (p = name; p < e && !is_space(*p); p++)
		;
	if (p < e) {
		char *m;

		/* "\t[MODULE]" and the end of the line */
		if (e - p < 3 || p[0] != '\t' || p[1] != '[')
			return false;
		for (m = p + 2; m < e && !is_space(*m); m++)
			;
		if (m != e || e[-1] != ']')
			return false;
		mod = p + 2;
		e[-1] = '\0';
	}
	*p = '\0';
	*keep = name[0] != '$' && type != 'A' && type != 'a';
	*out = (struct ksym){ .addr = addr, .name = name, .mod = mod };
	return true;
}

static int by_addr(const void *x, const void *y)
{
	const struct ksym *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* libtraceevent's func_bcmp(): the entry whose [addr, next addr) holds the key */
static int in_range(const void *x, const void *y)
{
	const struct ksym *key = x, *f = y;

	if (key->addr == f->addr || (key->addr > f->addr && key->addr < f[1].addr))
		return 0;
	return key->addr < f->addr ? -1 : 1;
}

const char *sl_kallsyms_find(const struct sl_kallsyms *k, uint64_t addr, uint64_t *start)
{
	struct ksym key = { .addr = addr };
	const struct ksym *f;

	if (!k || !k->nr)
		return NULL;
	f = bsearch(&key, k->syms, k->nr, sizeof(*k->syms), in_range);
	if (!f)
		return NULL;
	if (start)
		*start = f->addr;
	return f->name;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	const struct sl_kallsyms *k = priv;
	struct ksym key = { .addr = *addrp };
	const struct ksym *f;

	if (!k->nr)
		return NULL;
	f = bsearch(&key, k->syms, k->nr, sizeof(*k->syms), in_range);
	if (!f)
		return NULL;
	*addrp = f->addr;
	*modp = f->mod;
	return f->name;
}

void sl_kallsyms_free(struct sl_kallsyms *k)
{
	if (!k)
		return;
	free(k->text);
	free(k->syms);
	free(k);
}

struct sl_kallsyms *sl_kallsyms_load(struct tep_handle *tep, const char *text, size_t len)
{
	struct sl_kallsyms *k = xcalloc(1, sizeof(*k));
	size_t alloc = 0;

	len = strnlen(text, len);	/* tep reads a C string */
	k->text = xmalloc(len + 1);
	memcpy(k->text, text, len);
	k->text[len] = '\0';
	for (char *s = k->text, *end = k->text + len; s < end;) {
		char *e = memchr(s, '\n', (size_t)(end - s));
		struct ksym sym;
		bool keep;

		if (!e)
			e = end;
		if (e > s) {
			if (!parse_line(s, e, &sym, &keep)) {
				sl_kallsyms_free(k);
				tep_parse_kallsyms(tep, text);
				return NULL;
			}
			if (keep) {
				GROW(k->syms, alloc, k->nr + 2);
				k->syms[k->nr++] = sym;
			}
		}
		s = e + 1;
	}
	/* tep's list is newest first; sorting keeps that order among equal addresses */
	for (size_t i = 0; i < k->nr; i++) {
		if (i < k->nr - 1 - i) {
			struct ksym t = k->syms[i];

			k->syms[i] = k->syms[k->nr - 1 - i];
			k->syms[k->nr - 1 - i] = t;
		}
		k->syms[i].order = i;
	}
	if (k->nr)
		qsort(k->syms, k->nr, sizeof(*k->syms), by_addr);
	else
		k->syms = xcalloc(1, sizeof(*k->syms));
	k->syms[k->nr] = (struct ksym){ 0 };
	if (tep_set_function_resolver(tep, resolve, k) < 0) {
		sl_kallsyms_free(k);
		tep_parse_kallsyms(tep, text);
		return NULL;
	}
	return k;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * dat_format_check.c - event format text that libtraceevent cannot parse safely
 *
 * A format file, as trace.dat stores it:
 *
 *	name: sched_switch
 *	ID: 372
 *	format:
 *		field:unsigned short common_type;	offset:0;	size:2;	signed:0;
 *		field:char prev_comm[16];	offset:8;	size:16;	signed:0;
 *		field:__data_loc char[] comm;	...
 *
 *	print fmt: "...", REC->prev_comm, ..., __print_flags(REC->prev_state, ...)
 *
 * Only what libtraceevent trusts blindly is checked; the rest of the
 * text is its business (it refuses what it cannot parse).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dat_format_check.h"

#define MAX_FIELDS 128

struct name {
	const char *s;
	size_t len;
};

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Find needle in [p, end); NULL when absent. */
static const char *find(const char *p, const char *end, const char *needle)
{
	size_t n = strlen(needle);

	for (; p && (size_t)(end - p) >= n; p++) {
		p = memchr(p, needle[0], (size_t)(end - p));
		if (!p || (size_t)(end - p) < n)
			return NULL;
		if (p[1] == needle[1] && !memcmp(p, needle, n))	/* every needle has 2 bytes or more */
			return p;
	}
	return NULL;
}

/* The field name of a declaration "TYPE NAME", "TYPE NAME[N]", "__data_loc char[] NAME". */
static struct name decl_name(const char *decl, const char *end)
{
	struct name nm = { NULL, 0 };

	while (end > decl && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	while (end > decl && end[-1] == ']') {		/* array dimensions */
		const char *open = end - 1;

		while (open > decl && *open != '[')
			open--;
		end = open;
		while (end > decl && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
	}
	const char *start = end;

	while (start > decl && is_ident(start[-1]))
		start--;
	nm.s = start;
	nm.len = (size_t)(end - start);
	return nm;
}

/* The "name: " line's value, for the message. */
static struct name format_name(const char *text, const char *end)
{
	struct name nm = { "?", 1 };
	const char *p = find(text, end, "name: ");

	if (p) {
		p += 6;
		nm.s = p;
		/* printable only: it goes into an error message */
		while (p < end && *p >= 0x20 && *p < 0x7f)
			p++;
		nm.len = (size_t)(p - nm.s);
		if (nm.len > 64)
			nm.len = 64;
	}
	return nm;
}

/*
 * After a '/' or '%' operator: is the divisor a literal that reads as 0?
 * libtraceevent folds constant expressions while it parses, with
 * strtoull(base 0): "0x0000/008" divides by "008", octal 0 (found by
 * fuzz_dat: SIGFPE in both readers).  No kernel format divides by a
 * literal.
 */
static bool divides_by_zero(const char *p, const char *end)
{
	char buf[32];
	size_t n = 0;
	char *e;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '('))
		p++;
	if (p >= end || !isdigit((unsigned char)*p))
		return false;
	while (p < end && n < sizeof(buf) - 1 && isalnum((unsigned char)*p))
		buf[n++] = *p++;
	buf[n] = '\0';
	return strtoull(buf, &e, 0) == 0 && e != buf;
}

/* The last character before p that is not a blank, or 0. */
static char before_blanks(const char *start, const char *p)
{
	while (p > start && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n'))
		p--;
	return p > start ? p[-1] : 0;
}

#define MAX_STMT_DEPTH 16

/*
 * The bytes print_fmt_strings() acts on, outside a string and inside one:
 * it runs over every print format of the file (2,300 on a 6.18 kernel) at
 * every start, and skips the others in a loop of their own.
 */
enum { OUTSIDE = 1, INSIDE = 2 };
static const unsigned char acts_on[256] = {
	['"'] = OUTSIDE | INSIDE, ['/'] = OUTSIDE, ['%'] = OUTSIDE, ['{'] = OUTSIDE,
	['}'] = OUTSIDE, ['\\'] = INSIDE, ['\t'] = INSIDE,
	[0x00] = INSIDE, [0x01] = INSIDE, [0x02] = INSIDE, [0x03] = INSIDE, [0x04] = INSIDE,
	[0x05] = INSIDE, [0x06] = INSIDE, [0x07] = INSIDE, [0x08] = INSIDE, [0x0b] = INSIDE,
	[0x0c] = INSIDE, [0x0d] = INSIDE, [0x0e] = INSIDE, [0x0f] = INSIDE, [0x10] = INSIDE,
	[0x11] = INSIDE, [0x12] = INSIDE, [0x13] = INSIDE, [0x14] = INSIDE, [0x15] = INSIDE,
	[0x16] = INSIDE, [0x17] = INSIDE, [0x18] = INSIDE, [0x19] = INSIDE, [0x1a] = INSIDE,
	[0x1b] = INSIDE, [0x1c] = INSIDE, [0x1d] = INSIDE, [0x1e] = INSIDE, [0x1f] = INSIDE,
};

/*
 * The kernel's print formats hold in their strings no control character
 * but newline and tab, and a tab before a letter, a digit, a blank or a
 * '%'.  libtraceevent 1.7.1 dereferences NULL on some others, e.g. the
 * string "\t}" as the last operand of a ?: (found by fuzz_dat).  After a
 * string comes what C allows there in the kernel's formats: a comma, a
 * closing parenthesis or brace, a ':' or '?', another string, the end;
 * sched_switch's format with `"". REC->next_comm` for `"", REC->...`
 * crashed it too.  Inside a GNU statement expression, `({ char *s; switch
 * (REC->type) { case 3: s = "intr"; break; ... } s; })` (xhci-hcd's
 * xhci_urb_giveback), a string may also end a statement or open or close
 * a block: ';', '{' or '}'.  Returns what is wrong, or NULL.
 */
static const char *print_fmt_strings(const char *p, const char *end)
{
	const char *start = p;
	bool in_string = false;
	/* the open statement expressions: the brace depth each began at */
	int braces = 0, nr_stmt = 0, stmt_at[MAX_STMT_DEPTH];

	for (; p < end; p++) {
		unsigned char want = in_string ? INSIDE : OUTSIDE;

		while (!(acts_on[(unsigned char)*p] & want))	/* a byte that changes nothing */
			if (++p == end)
				return NULL;

		unsigned char c = (unsigned char)*p;

		if (!in_string) {
			in_string = c == '"';
			if ((c == '/' || c == '%') && divides_by_zero(p + 1, end))
				return "a division by zero";
			if (c == '{') {
				if (before_blanks(start, p) == '(') {
					if (nr_stmt == MAX_STMT_DEPTH)
						return "statement expressions nested too deep";
					stmt_at[nr_stmt++] = braces;
				}
				braces++;
			} else if (c == '}' && braces > 0) {
				braces--;
				if (nr_stmt && stmt_at[nr_stmt - 1] == braces)
					nr_stmt--;
			}
			continue;
		}
		if (c == '\\' && p + 1 < end) {
			p++;
			continue;
		}
		if (c == '"') {
			const char *q = p + 1;

			in_string = false;
			while (q < end && (*q == ' ' || *q == '\t' || *q == '\n'))
				q++;
			if (q < end && !strchr(nr_stmt ? ",):?}\";{" : ",):?}\"", *q))
				return nr_stmt ? "a string followed by something else than , ) } : ? ; { "
						 "or a string" :
						 "a string followed by something else than , ) } : ? or a string";
		} else if (c == '\t') {
			unsigned char next = p + 1 < end ? (unsigned char)p[1] : 0;

			if (next && next != '%' && next != '\t' && next != ' ' && ispunct(next))
				return "a tab before a punctuation mark in a string";
		} else if (c < 0x20 && c != '\n') {
			return "a control character in a string";
		}
	}
	return NULL;
}

/*
 * A field declaration holds printable ASCII, tabs and newlines only (the kernel
 * writes C declarations).  libtraceevent 1.7.1 reads any other byte as no
 * token at all (TEP_EVENT_NONE, a NULL string), and right after a '['
 * ("char comm[\x94]", "comm[\0]") it strcmp()s that NULL: both readers
 * crashed (found by fuzz_dat).  Returns the first such byte, or NULL.
 */
static const char *decl_unreadable(const char *p, const char *end)
{
	for (; p < end; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c < 0x20 && c != '\t' && c != '\n') || c >= 0x7f)
			return p;
	}
	return NULL;
}

int sl_dat_format_check(const char *text, size_t len, struct sl_error *err)
{
	const char *end = text + len, *p, *fmt, *fields_end, *problem;
	struct name fields[MAX_FIELDS];
	int nr = 0;

	fmt = find(text, end, "print fmt:");
	fields_end = fmt ? fmt : end;
	problem = fmt ? print_fmt_strings(fmt, end) : NULL;
	if (problem) {
		struct name ev = format_name(text, fmt);

		sl_error_set(err, "corrupt event format %.*s: its print fmt has %s",
			     (int)ev.len, ev.s, problem);
		return -EINVAL;
	}
	for (p = text; (p = find(p, fields_end, "field:")); ) {
		const char *decl = p + 6, *semi = memchr(decl, ';', (size_t)(fields_end - decl));
		const char *bad = decl_unreadable(decl, semi ? semi : fields_end);

		if (bad) {
			struct name ev = format_name(text, fields_end);

			sl_error_set(err, "corrupt event format %.*s: a field declaration holds "
				     "the byte 0x%02x", (int)ev.len, ev.s, (unsigned char)*bad);
			return -EINVAL;
		}
		if (!semi)
			break;
		if (nr < MAX_FIELDS)
			fields[nr++] = decl_name(decl, semi);
		p = semi;
	}
	if (!fmt)
		return 0;		/* nothing printed: nothing trusted */
	for (p = fmt; (p = find(p, end, "REC->")); ) {
		const char *s = p + 5, *e = s;
		bool known = false;

		while (e < end && is_ident(*e))
			e++;
		for (int i = 0; i < nr && !known; i++)
			known = fields[i].len == (size_t)(e - s) && !memcmp(fields[i].s, s, fields[i].len);
		if (!known && nr < MAX_FIELDS) {
			struct name ev = format_name(text, fmt);

			sl_error_set(err, "corrupt event format %.*s: it prints REC->%.*s, "
				     "which it does not declare", (int)ev.len, ev.s,
				     (int)(e - s > 64 ? 64 : e - s), s);
			return -EINVAL;
		}
		p = e;
	}
	return 0;
}

/* Does the line at p (before end) declare a field ("\tfield:...", "field :")? */
static bool field_line(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 5 || memcmp(p, "field", 5))
		return false;
	for (p += 5; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	return p < end && *p == ':';
}

size_t sl_dat_format_stub_len(const char *text, size_t len)
{
	const char *end = text + len;
	const char *fields = find(text, end, "\nformat:");
	const char *p;

	if (!fields)
		return 0;
	/*
	 * The field lines after "format:", up to the first line that
	 * declares none: the blank line that ends the common fields, as the
	 * kernel writes them, or whatever a corrupt file has instead (a
	 * "\n\n" further on, after the print format, does not count).
	 */
	p = memchr(fields + 1, '\n', (size_t)(end - fields - 1));
	while (p && p + 1 < end && field_line(p + 1, end)) {
		const char *nl = memchr(p + 1, '\n', (size_t)(end - p - 1));

		if (!nl)
			return len;	/* the last line declares a field */
		p = nl;
	}
	return p ? (size_t)(p - text) : len;
}

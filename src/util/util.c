// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - allocation, parsing and formatting helpers
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/*
 * One line and exit status 2, like any input we cannot handle (a trace
 * whose sizes ask for more than the machine has), not abort()'s core
 * dump; exit() runs the atexit handlers that put things back (the
 * terminal of explore, the tracing instance of record).
 */
static void oom(size_t size)
{
	fprintf(stderr, "schedlint: out of memory (%zu bytes)\n", size);
	exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

/*
 * Zeroed, on lines of its own: 128-byte aligned and padded (a pair of
 * cache lines, what the adjacent-line prefetcher moves at once), for
 * what one thread writes at every event while another writes its own
 * objects next to it in the heap.  free() releases it.
 */
void *xcalloc_lines(size_t size)
{
	return xcalloc_aligned(size, 128);
}

/*
 * Zeroed, align-byte aligned (a power of two) and padded to a multiple
 * of it: an object that starts on a cache line (align 64) spans the
 * fewest lines.  free() releases it.
 */
void *xcalloc_aligned(size_t size, size_t align)
{
	size_t n = (size + align - 1) & ~(align - 1);
	void *p;

	if (!n)
		n = align;
	if (posix_memalign(&p, align, n))
		oom(n);
	memset(p, 0, n);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom(strlen(s));
	return p;
}

void grow_array(void **arr, size_t *alloc, size_t need, size_t elem)
{
	size_t n = *alloc;

	if (need <= n)
		return;
	if (!n)
		n = 16;
	while (n < need)
		n *= 2;
	*arr = xrealloc(*arr, n * elem);
	memset((char *)*arr + *alloc * elem, 0, (n - *alloc) * elem);
	*alloc = n;
}

/* Parse "<number>[.<fraction>]" then a unit; scale is ns per unit. */
static int parse_scaled(const char *s, uint64_t scale_default, uint64_t *ns)
{
	const char *p = s;
	uint64_t whole = 0, frac = 0, frac_div = 1;
	int digits = 0;

	while (*p >= '0' && *p <= '9') {
		if (whole > UINT64_MAX / 10 - 10)
			return -EINVAL;
		whole = whole * 10 + (uint64_t)(*p++ - '0');
		digits++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (frac_div < 1000000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				frac_div *= 10;
			}
			p++;
			digits++;
		}
	}
	if (!digits)
		return -EINVAL;

	uint64_t scale;

	if (!*p)
		scale = scale_default;
	else if (!strcmp(p, "ns"))
		scale = 1;
	else if (!strcmp(p, "us"))
		scale = 1000;
	else if (!strcmp(p, "ms"))
		scale = 1000000;
	else if (!strcmp(p, "s"))
		scale = 1000000000;
	else
		return -EINVAL;

	if (whole > UINT64_MAX / scale)
		return -EINVAL;
	*ns = whole * scale + frac * scale / frac_div;
	return 0;
}

int parse_duration(const char *s, uint64_t *ns)
{
	return parse_scaled(s, 1, ns);
}

int parse_timestamp(const char *s, uint64_t *ns)
{
	return parse_scaled(s, 1000000000, ns);
}

/* s[0..n) is a unit a number is printed with, then punctuation at most */
static bool is_unit(const char *s, size_t n)
{
	static const char *const units[] = {
		"ns", "us", "ms", "s", "min", "h", "B", "KB", "kB", "MB", "GB", "KiB", "MiB", "GiB",
	};

	while (n && strchr(",.;:)]", s[n - 1]))
		n--;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (strlen(units[i]) == n && !memcmp(s, units[i], n))
			return true;
	return false;
}

size_t text_word_end(const char *s, size_t pos, size_t len)
{
	while (pos < len && s[pos] != ' ')
		pos++;
	while (pos + 1 < len && s[pos] == ' ' && pos && s[pos - 1] >= '0' && s[pos - 1] <= '9') {
		size_t end = pos + 1;

		while (end < len && s[end] != ' ')
			end++;
		if (!is_unit(s + pos + 1, end - pos - 1))
			break;
		pos = end;
	}
	return pos;
}

const char *fmt_duration(char *buf, size_t len, uint64_t ns)
{
	if (ns < 10000)
		snprintf(buf, len, "%.2f us", ns / 1e3);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

const char *fmt_ts(char *buf, size_t len, uint64_t ns)
{
	/* rounded to the microsecond, as trace-cmd report prints it (libtraceevent) */
	uint64_t us = ns / 1000 + (ns % 1000 >= 500);

	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(us / 1000000),
		 (unsigned long long)(us % 1000000));
	return buf;
}

void ts_as_printed(uint64_t ns, uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = ns;
	if (ns % 1000)
		return;
	*lo = ns >= 500 ? ns - 500 : 0;
	*hi = ns > UINT64_MAX - 499 ? UINT64_MAX : ns + 499;
}

int parse_cpulist(const char *s, uint64_t **words, uint32_t *nr_words)
{
	uint64_t *w = NULL;
	size_t alloc = 0;
	const char *p = s;
	uint32_t max_word = 0;

	if (!*p)
		return -EINVAL;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0 || a > 65535)
			goto bad;
		p = end;
		b = a;
		if (*p == '-') {
			p++;
			b = strtol(p, &end, 10);
			if (end == p || b < a || b > 65535)
				goto bad;
			p = end;
		}
		GROW(w, alloc, (size_t)b / 64 + 1);
		for (long c = a; c <= b; c++)
			w[c / 64] |= 1ULL << (c % 64);
		if ((uint32_t)(b / 64 + 1) > max_word)
			max_word = (uint32_t)(b / 64 + 1);
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	*words = w;
	*nr_words = max_word;
	return 0;
bad:
	free(w);
	return -EINVAL;
}

static char last_error[1024];

void error_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	fprintf(stderr, "schedlint: %s\n", last_error);
}

const char *error_msg_last(void)
{
	return last_error;
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("schedlint: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t r = write(fd, p, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

int sl_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *prev2, *prev, *cur, d;

	if (la > 64 || lb > 64)
		return 64;
	prev2 = xcalloc(lb + 1, sizeof(int));
	prev = xcalloc(lb + 1, sizeof(int));
	cur = xcalloc(lb + 1, sizeof(int));
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int *t;

		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];

			cur[j] = MIN(MIN(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
			/* two letters swapped count one */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				cur[j] = MIN(cur[j], prev2[j - 2] + 1);
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[lb];
	free(prev2);
	free(prev);
	free(cur);
	return d;
}

const char *sl_closest(const char *word, const char *const *names, size_t nr)
{
	const char *best = NULL;
	int best_d = 0;
	size_t len = strlen(word);
	/* a typo, not another word: at most 2 edits, 1 for short words */
	int max_d = len <= 3 ? 1 : 2;

	for (size_t i = 0; i < nr; i++) {
		int d = sl_edit_distance(word, names[i]);

		/* a prefix of a name ("--ful") is as good as one edit */
		if (len >= 3 && !strncmp(names[i], word, len))
			d = MIN(d, 1);
		if (d <= max_d && (!best || d < best_d)) {
			best = names[i];
			best_d = d;
		}
	}
	return best;
}

/*
 * Length of the valid UTF-8 sequence at s (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), 0 when it is not one.
 */
size_t sl_utf8_seq(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		unsigned char lo = s[0] == 0xe0 ? 0xa0 : 0x80, hi = s[0] == 0xed ? 0x9f : 0xbf;

		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		unsigned char lo = s[0] == 0xf0 ? 0x90 : 0x80, hi = s[0] == 0xf4 ? 0x8f : 0xbf;

		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 &&
		       (s[3] & 0xc0) == 0x80 ? 4 : 0;
	}
	return 0;
}

char *sl_utf8_repair(char *out, const unsigned char *s)
{
	size_t n;

	for (; *s; s += n) {
		n = *s < 0x80 ? 1 : sl_utf8_seq(s);
		if (n) {
			memcpy(out, s, n);
			out += n;
		} else {
			memcpy(out, "\xef\xbf\xbd", 3);
			out += 3;
			n = 1;
		}
	}
	return out;
}

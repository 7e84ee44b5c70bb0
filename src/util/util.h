/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - small helpers shared by every part of schedlint
 */
#ifndef SCHEDLINT_UTIL_H
#define SCHEDLINT_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* a + b, or UINT64_MAX past it: counts a corrupt trace claims (lost events) stay huge */
static inline uint64_t sat_add_u64(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* The value of a hex digit, -1 for any other character (no locale). */
static inline int hex_digit(char c)
{
	if ((unsigned char)(c - '0') < 10)
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Allocation failures are not recoverable for a trace analyzer: these exit(2). */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xcalloc_lines(size_t size);
void *xcalloc_aligned(size_t size, size_t align);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);

/* Grow *arr (of *alloc elements of size elem) to hold at least need elements. */
void grow_array(void **arr, size_t *alloc, size_t need, size_t elem);
/* Most calls have the room already: no call for them (one per event, in the model). */
static inline void grow_to(void **arr, size_t *alloc, size_t need, size_t elem)
{
	if (need > *alloc)
		grow_array(arr, alloc, need, elem);
}
#define GROW(arr, alloc, need) grow_to((void **)&(arr), &(alloc), (need), sizeof(*(arr)))

/*
 * Parse a duration such as "100us", "1.5ms", "2s", "250000" (ns when no unit).
 * Returns 0 and sets *ns, or -EINVAL.
 */
int parse_duration(const char *s, uint64_t *ns);
/* Parse a timestamp "913.684978" (seconds) or "913684978000ns" into ns. */
int parse_timestamp(const char *s, uint64_t *ns);
/*
 * Where the word at s[pos] ends in s[0..len): at the next blank, but a
 * blank between a number and its unit ("26.6 us", "5.12 ms,", "200.3 MB")
 * is inside the word: a wrapped line never breaks between the two.
 */
size_t text_word_end(const char *s, size_t pos, size_t len);
/* Format ns as a short human duration ("1.50 ms", "27 us", "3.2 s"). */
const char *fmt_duration(char *buf, size_t len, uint64_t ns);
/*
 * Format a trace timestamp ns as seconds with 6 decimals ("913.684978"),
 * rounded to the microsecond as trace-cmd report prints it.
 */
const char *fmt_ts(char *buf, size_t len, uint64_t ns);
/*
 * The times a trace time written to the microsecond stands for: every
 * time fmt_ts() prints so, [ns - 500, ns + 499].  A time with
 * nanoseconds in it stands for itself (*lo = *hi = ns).
 */
void ts_as_printed(uint64_t ns, uint64_t *lo, uint64_t *hi);

/* A CPU list "0-3,8,10-11" into a bitmap of nr_words 64-bit words; -EINVAL on error. */
int parse_cpulist(const char *s, uint64_t **words, uint32_t *nr_words);

/* The program's messages: "schedlint: " prefix, to stderr. */
/* write(2) all of buf to fd, again after EINTR: 0, or -errno (-EIO: wrote nothing) */
int write_all(int fd, const void *buf, size_t len);
/*
 * Length of the valid UTF-8 sequence at s (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), 0 when it is not one.
 */
size_t sl_utf8_seq(const unsigned char *s);
/*
 * The bytes of the string s written to out with each one that starts no
 * valid sequence replaced by U+FFFD (3 bytes): out has room for 3 *
 * strlen(s); returns the end of what was written (no '\0' added).
 */
char *sl_utf8_repair(char *out, const unsigned char *s);

void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The last message error_msg() printed (without "schedlint: "), "" none yet. */
const char *error_msg_last(void);
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Damerau-Levenshtein distance (adjacent swaps count one), capped at 64. */
int sl_edit_distance(const char *a, const char *b);
/* The name nearest word (a typo or a prefix of it), or NULL. */
const char *sl_closest(const char *word, const char *const *names, size_t nr);

#endif /* SCHEDLINT_UTIL_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - allocation, messages, number and time parsing, the random
 * generator
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "schedgen.h"

static void *check(void *p)
{
	if (!p) {
		fputs("schedgen: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1));
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *xrealloc(void *ptr, size_t size)
{
	return check(realloc(ptr, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

void sg_error(const char *fmt, ...)
{
	va_list ap;

	fputs("schedgen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * parse_time_ns - "1.5ms", "20us", "300ns", "2s", "0" into ns
 *
 * Decimal digits are taken exactly (no floating point), so "1.000001s" is
 * 1000001000 ns and a scenario's times are the trace's times to the ns.
 */
int parse_time_ns(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t mult;
	} units[] = {
		{ "ns", 1 }, { "us", NSEC_PER_USEC }, { "ms", NSEC_PER_MSEC }, { "s", NSEC_PER_SEC },
	};
	uint64_t whole = 0, frac = 0, frac_div = 1, mult = 0;
	const char *p = s;

	if (!(*p >= '0' && *p <= '9'))
		return -EINVAL;
	while (*p >= '0' && *p <= '9') {
		if (whole > UINT64_MAX / 10 - 10)
			return -ERANGE;
		whole = whole * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (frac_div >= NSEC_PER_SEC)
				return -EINVAL;	/* finer than a nanosecond */
			frac = frac * 10 + (*p++ - '0');
			frac_div *= 10;
		}
	}
	if (!*p) {
		if (whole == 0 && frac == 0) {
			*ns = 0;	/* "0" needs no unit */
			return 0;
		}
		return -EINVAL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(p, units[i].unit))
			mult = units[i].mult;
	if (!mult || (frac && (frac * mult) % frac_div))
		return -EINVAL;
	if (whole > UINT64_MAX / mult)
		return -ERANGE;
	*ns = whole * mult + frac * mult / frac_div;
	return 0;
}

int parse_int(const char *s, long long min, long long max, long long *v)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(s, &end, 0);
	if (errno || end == s || *end || x < min || x > max)
		return -EINVAL;
	*v = x;
	return 0;
}

/* A trace timestamp as seconds with all nine decimals: "1000.002000500". */
const char *fmt_time(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%09llu", (unsigned long long)(ns / NSEC_PER_SEC),
		 (unsigned long long)(ns % NSEC_PER_SEC));
	return buf;
}

/* ------------------------------------------------------------------ */
/* xoshiro256** with a splitmix64 seeding: fast, and the same everywhere */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sg_rng_seed(struct sg_rng *rng, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t sg_rng_next(struct sg_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t sg_rng_below(struct sg_rng *rng, uint64_t n)
{
	/* the multiply-shift reduction; its bias is far below what matters here */
	return (uint64_t)(((unsigned __int128)sg_rng_next(rng) * n) >> 64);
}

bool sg_rng_chance(struct sg_rng *rng, unsigned int percent)
{
	return sg_rng_below(rng, 100) < percent;
}

uint64_t sg_rng_exp(struct sg_rng *rng, uint64_t mean)
{
	/* 53 random bits in (0, 1] */
	double u = ((sg_rng_next(rng) >> 11) + 1) * (1.0 / 9007199254740992.0);
	double v = -log(u) * (double)mean;

	if (v < 1)
		return 1;
	if (v > 1e15)
		return (uint64_t)1e15;
	return (uint64_t)v;
}

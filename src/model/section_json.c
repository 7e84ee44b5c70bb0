// SPDX-License-Identifier: GPL-2.0
/*
 * section_json.c - what an analyzer's JSON member is written with
 *
 * Exact 64-bit integers, latency histograms and valid UTF-8, shared by
 * the analyzers' members and the object around them
 * (report/report_json.c).  Below the analyzers: they call these, these
 * call no analyzer.
 */
#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/report.h"
#include "util/util.h"

cJSON *sl_json_u64(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return cJSON_CreateRaw(buf);
}

void sl_json_add_u64(cJSON *obj, const char *name, uint64_t v)
{
	cJSON_AddItemToObject(obj, name, sl_json_u64(v));
}

void sl_json_add_i64(cJSON *obj, const char *name, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	cJSON_AddRawToObject(obj, name, buf);
}

cJSON *sl_hist_json(const struct sl_hist *h)
{
	cJSON *o = cJSON_CreateObject();

	sl_json_add_u64(o, "count", h->count);
	sl_json_add_u64(o, "min_ns", h->count ? h->min : 0);
	sl_json_add_u64(o, "mean_ns", sl_hist_mean(h));
	for (int i = 0; i < SL_NR_PCTS; i++)
		sl_json_add_u64(o, sl_pct_json[i], sl_hist_percentile(h, sl_pcts[i]));
	sl_json_add_u64(o, "max_ns", h->max);
	return o;
}

/*
 * Length of the valid UTF-8 sequence at s (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), 0 when it is not one.
 */
static size_t utf8_seq(const unsigned char *s)
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

/* s with each invalid byte replaced by U+FFFD, or NULL when s is valid. */
static char *utf8_fixed(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i, n, len = strlen(str);
	char *out, *o;

	for (i = 0; i < len; i += n)
		if (!(n = utf8_seq(s + i)))
			break;
	if (i == len)
		return NULL;
	out = o = xmalloc(3 * len + 1);
	for (i = 0; i < len; i += n) {
		n = utf8_seq(s + i);
		if (n) {
			memcpy(o, s + i, n);
			o += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			n = 1;
		}
	}
	*o = '\0';
	return out;
}

void sl_json_utf8(cJSON *item)
{
	for (; item; item = item->next) {
		char *fixed;

		if (item->string && !(item->type & cJSON_StringIsConst) &&
		    (fixed = utf8_fixed(item->string))) {
			cJSON_free(item->string);
			item->string = cJSON_malloc(strlen(fixed) + 1);
			strcpy(item->string, fixed);
			free(fixed);
		}
		if (cJSON_IsString(item) && item->valuestring &&
		    (fixed = utf8_fixed(item->valuestring))) {
			cJSON_SetValuestring(item, fixed);
			free(fixed);
		}
		sl_json_utf8(item->child);
	}
}

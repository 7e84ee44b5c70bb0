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

/*
 * A member the report cannot always give is null then, never absent nor
 * 0 (a diff of two reports and users' scripts tell "unknown" from 0).
 */

/* NAME: the string s, null when there is none (NULL or empty) */
void sl_json_add_str_or_null(cJSON *o, const char *name, const char *s)
{
	if (s && s[0])
		cJSON_AddStringToObject(o, name, s);
	else
		cJSON_AddNullToObject(o, name);
}

/* NAME: v when known, null otherwise */
void sl_json_add_u64_or_null(cJSON *o, const char *name, bool known, uint64_t v)
{
	if (known)
		sl_json_add_u64(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

/* NAME: an array, returned to be filled, when given; null otherwise (NULL returned) */
cJSON *sl_json_add_array_or_null(cJSON *o, const char *name, bool given)
{
	if (given)
		return cJSON_AddArrayToObject(o, name);
	cJSON_AddNullToObject(o, name);
	return NULL;
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

/* s with each invalid byte replaced by U+FFFD, or NULL when s is valid. */
static char *utf8_fixed(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i, n, len = strlen(str);
	char *out, *o;

	for (i = 0; i < len; i += n)
		if (!(n = sl_utf8_seq(s + i)))
			break;
	if (i == len)
		return NULL;
	out = xmalloc(3 * len + 1);
	o = sl_utf8_repair(out, s);
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

/* Fields into a cJSON object (report.h) */
static cJSON *tree_at(struct sl_fields *o)
{
	struct sl_fields_tree *t = (struct sl_fields_tree *)o;

	return t->at[t->depth];
}

static void tree_u64(struct sl_fields *o, const char *name, uint64_t v)
{
	sl_json_add_u64(tree_at(o), name, v);
}

static void tree_i64(struct sl_fields *o, const char *name, int64_t v)
{
	sl_json_add_i64(tree_at(o), name, v);
}

static void tree_str(struct sl_fields *o, const char *name, const char *s)
{
	cJSON_AddStringToObject(tree_at(o), name, s);
}

static void tree_bool(struct sl_fields *o, const char *name, bool v)
{
	cJSON_AddBoolToObject(tree_at(o), name, v);
}

static void tree_null(struct sl_fields *o, const char *name)
{
	cJSON_AddNullToObject(tree_at(o), name);
}

static void tree_ints(struct sl_fields *o, const char *name, const int32_t *v, size_t nr)
{
	cJSON *a = cJSON_AddArrayToObject(tree_at(o), name);

	for (size_t i = 0; i < nr; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
}

static void tree_object(struct sl_fields *o, const char *name)
{
	struct sl_fields_tree *t = (struct sl_fields_tree *)o;
	cJSON *obj = cJSON_AddObjectToObject(tree_at(o), name);

	if (t->depth + 1 >= SL_FIELDS_DEPTH)
		abort();			/* a finding's fields nest one deep */
	t->at[++t->depth] = obj;
}

static void tree_end(struct sl_fields *o)
{
	struct sl_fields_tree *t = (struct sl_fields_tree *)o;

	if (t->depth > 0)
		t->depth--;
}

static const struct sl_fields_ops tree_ops = {
	.u64 = tree_u64, .i64 = tree_i64, .str = tree_str, .boolean = tree_bool,
	.null = tree_null, .ints = tree_ints, .object = tree_object, .end = tree_end,
};

void sl_fields_tree_init(struct sl_fields_tree *t, cJSON *obj)
{
	memset(t, 0, sizeof(*t));
	t->base.ops = &tree_ops;
	t->at[0] = obj;
}

/* Fields as JSON text (report.h): what cJSON_PrintUnformatted() gives */
void sl_fields_text_raw(struct sl_fields_text *t, const char *s, size_t len)
{
	if (t->len + len + 1 > t->alloc) {
		size_t alloc = t->alloc ? t->alloc : 256;

		while (t->len + len + 1 > alloc)
			alloc *= 2;
		t->s = xrealloc(t->s, alloc);
		t->alloc = alloc;
	}
	memcpy(t->s + t->len, s, len);
	t->len += len;
	t->s[t->len] = '\0';
}

static void text_char(struct sl_fields_text *t, char c)
{
	sl_fields_text_raw(t, &c, 1);
}

/* cJSON's print_string_ptr(): the escapes it writes, every other byte as it is */
void sl_fields_text_string(struct sl_fields_text *t, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;

	text_char(t, '"');
	while (s[i]) {
		size_t run = i;
		char esc[8];

		/* the bytes written as they are */
		while (s[run] >= 32 && s[run] != '"' && s[run] != '\\' &&
		       (s[run] < 0x80 || sl_utf8_seq(s + run)))
			run += s[run] < 0x80 ? 1 : sl_utf8_seq(s + run);
		sl_fields_text_raw(t, (const char *)s + i, run - i);
		i = run;
		if (!s[i])
			break;
		if (s[i] >= 0x80) {			/* not UTF-8: U+FFFD (sl_json_utf8) */
			sl_fields_text_raw(t, "\xef\xbf\xbd", 3);
			i++;
			continue;
		}
		switch (s[i]) {
		case '"': n = (size_t)snprintf(esc, sizeof(esc), "\\\""); break;
		case '\\': n = (size_t)snprintf(esc, sizeof(esc), "\\\\"); break;
		case '\b': n = (size_t)snprintf(esc, sizeof(esc), "\\b"); break;
		case '\f': n = (size_t)snprintf(esc, sizeof(esc), "\\f"); break;
		case '\n': n = (size_t)snprintf(esc, sizeof(esc), "\\n"); break;
		case '\r': n = (size_t)snprintf(esc, sizeof(esc), "\\r"); break;
		case '\t': n = (size_t)snprintf(esc, sizeof(esc), "\\t"); break;
		default: n = (size_t)snprintf(esc, sizeof(esc), "\\u%04x", s[i]); break;
		}
		sl_fields_text_raw(t, esc, n);
		i++;
	}
	text_char(t, '"');
}

/*
 * ,"name": (the comma when a member came before at this depth).  Names are
 * the program's own ASCII words, with nothing to escape: copied as they are.
 */
static struct sl_fields_text *text_member(struct sl_fields *o, const char *name)
{
	struct sl_fields_text *t = (struct sl_fields_text *)o;
	size_t n = strlen(name);
	char buf[64], *p = buf;

	if (n > sizeof(buf) - 4) {
		if (t->started & (1u << t->depth))
			text_char(t, ',');
		t->started |= 1u << t->depth;
		sl_fields_text_string(t, name);
		text_char(t, ':');
		return t;
	}
	if (t->started & (1u << t->depth))
		*p++ = ',';
	t->started |= 1u << t->depth;
	*p++ = '"';
	memcpy(p, name, n);
	p += n;
	*p++ = '"';
	*p++ = ':';
	sl_fields_text_raw(t, buf, (size_t)(p - buf));
	return t;
}

/* v's decimal digits, '-' first when negative (what %" PRId64 " writes, without printf's cost per row) */
static void text_digits(struct sl_fields_text *t, uint64_t v, bool negative)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (negative)
		*--p = '-';
	sl_fields_text_raw(t, p, (size_t)(buf + sizeof(buf) - p));
}

static void text_u64(struct sl_fields *o, const char *name, uint64_t v)
{
	text_digits(text_member(o, name), v, false);
}

static void text_i64(struct sl_fields *o, const char *name, int64_t v)
{
	/* the magnitude of INT64_MIN too: 0 - v in unsigned arithmetic */
	text_digits(text_member(o, name), v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

static void text_str(struct sl_fields *o, const char *name, const char *s)
{
	sl_fields_text_string(text_member(o, name), s);
}

static void text_bool(struct sl_fields *o, const char *name, bool v)
{
	struct sl_fields_text *t = text_member(o, name);

	sl_fields_text_raw(t, v ? "true" : "false", v ? 4 : 5);
}

static void text_null(struct sl_fields *o, const char *name)
{
	sl_fields_text_raw(text_member(o, name), "null", 4);
}

/* cJSON prints a number holding an int as %d */
static void text_ints(struct sl_fields *o, const char *name, const int32_t *v, size_t nr)
{
	struct sl_fields_text *t = text_member(o, name);
	char buf[16];

	text_char(t, '[');
	for (size_t i = 0; i < nr; i++)
		sl_fields_text_raw(t, buf, (size_t)snprintf(buf, sizeof(buf), i ? ",%d" : "%d",
							    (int)v[i]));
	text_char(t, ']');
}

static void text_object(struct sl_fields *o, const char *name)
{
	struct sl_fields_text *t = text_member(o, name);

	text_char(t, '{');
	if (t->depth + 1 >= 32)
		abort();			/* a finding's fields nest one deep */
	t->depth++;
	t->started &= ~(1u << t->depth);
}

static void text_end(struct sl_fields *o)
{
	struct sl_fields_text *t = (struct sl_fields_text *)o;

	text_char(t, '}');
	if (t->depth > 0)
		t->depth--;
}

static const struct sl_fields_ops text_ops = {
	.u64 = text_u64, .i64 = text_i64, .str = text_str, .boolean = text_bool,
	.null = text_null, .ints = text_ints, .object = text_object, .end = text_end,
};

void sl_fields_text_init(struct sl_fields_text *t)
{
	memset(t, 0, sizeof(*t));
	t->base.ops = &text_ops;
}

void sl_fields_text_reset(struct sl_fields_text *t, bool more)
{
	t->len = 0;
	if (t->s)
		t->s[0] = '\0';
	t->depth = 0;
	t->started = more ? 1 : 0;
}

void sl_fields_text_free(struct sl_fields_text *t)
{
	free(t->s);
	sl_fields_text_init(t);
}

/*
 * Long lists.  The placeholder is a raw member "\x01N\x01" (N: the list's
 * index in m->json_lists): cJSON prints a raw value as it is, and no
 * other text of a report holds a control character (cJSON escapes them
 * in strings).
 */
void sl_json_add_list(struct sl_model *m, cJSON *obj, const char *name,
		      const struct sl_json_list *list)
{
	char mark[32];

	m->json_lists = xrealloc(m->json_lists, (m->nr_json_lists + 1) * sizeof(*m->json_lists));
	m->json_lists[m->nr_json_lists] = *list;
	snprintf(mark, sizeof(mark), "\x01%zu\x01", m->nr_json_lists++);
	cJSON_AddRawToObject(obj, name, mark);
}

/* The list a placeholder stands for, NULL when item is none (or it was used) */
static struct sl_json_list *list_of(struct sl_model *m, const char *s)
{
	char *end;
	unsigned long i;

	if (!s || s[0] != '\x01')
		return NULL;
	i = strtoul(s + 1, &end, 10);
	if (*end != '\x01' || i >= m->nr_json_lists || !m->json_lists[i].next)
		return NULL;
	return &m->json_lists[i];
}

static void list_done(struct sl_json_list *l)
{
	if (l->free)
		l->free(l->ctx);
	l->next = NULL;
	l->free = NULL;
	l->ctx = NULL;
}

static cJSON *list_next(struct sl_json_list *l)
{
	cJSON *e = l->next(l->ctx);

	if (e)
		sl_json_utf8(e);
	return e;
}

void sl_json_lists_fill(struct sl_model *m, cJSON *root)
{
	for (cJSON *item = root ? root->child : NULL, *next; item; item = next) {
		struct sl_json_list *l;

		next = item->next;
		if (cJSON_IsRaw(item) && (l = list_of(m, item->valuestring))) {
			cJSON *arr = cJSON_CreateArray(), *e;

			while ((e = list_next(l)))
				cJSON_AddItemToArray(arr, e);
			list_done(l);
			/* the member keeps its name */
			arr->string = item->string;
			arr->type |= item->type & cJSON_StringIsConst;
			item->string = NULL;
			cJSON_ReplaceItemViaPointer(root, item, arr);
		} else {
			sl_json_lists_fill(m, item);
		}
	}
}

/* s[0, n) with tabs more tabs after each newline */
static void write_indented(FILE *out, const char *s, int tabs)
{
	static const char many[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
	const char *nl;

	while ((nl = strchr(s, '\n'))) {
		fwrite(s, 1, (size_t)(nl - s) + 1, out);
		for (int t = tabs; t > 0; t -= (int)sizeof(many) - 1)
			fwrite(many, 1, (size_t)MIN(t, (int)sizeof(many) - 1), out);
		s = nl + 1;
	}
	fputs(s, out);
}

/*
 * cJSON prints an array as "[" elements joined by ", " "]", and a
 * member at depth d (d tabs before its name) with its value's inner
 * lines at d + 1 tabs and more: an element printed alone, with d + 1
 * tabs added after each of its newlines, is the text it has in the tree.
 */
static void stream_list(struct sl_json_list *l, FILE *out, int tabs)
{
	bool first = true;
	cJSON *e;

	fputc('[', out);
	while ((e = list_next(l))) {
		char *text = cJSON_PrintBuffered(e, 4096, 1);

		if (!first)
			fputs(", ", out);
		first = false;
		if (text)
			write_indented(out, text, tabs);
		free(text);
		cJSON_Delete(e);
	}
	fputc(']', out);
	list_done(l);
}

bool sl_json_print_streamed(struct sl_model *m, cJSON *root, FILE *out)
{
	char *text = cJSON_PrintBuffered(root, 1 << 16, 1);
	const char *p = text, *mark;

	if (!text)
		return false;
	while ((mark = strchr(p, '\x01'))) {
		struct sl_json_list *l = list_of(m, mark);
		const char *line = mark, *end = strchr(mark + 1, '\x01');
		int tabs = 0;

		if (!l || !end)
			break;		/* not ours: cannot happen, printed as it is */
		while (line > text && line[-1] != '\n')
			line--;
		while (line[tabs] == '\t')
			tabs++;
		fwrite(p, 1, (size_t)(mark - p), out);
		stream_list(l, out, tabs + 1);
		p = end + 1;
	}
	fputs(p, out);
	free(text);
	return !ferror(out);
}

void sl_json_lists_free(struct sl_model *m)
{
	for (size_t i = 0; i < m->nr_json_lists; i++)
		if (m->json_lists[i].next)
			list_done(&m->json_lists[i]);
	free(m->json_lists);
	m->json_lists = NULL;
	m->nr_json_lists = 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * section_text.c - what an analyzer's terminal section is written with
 *
 * Colors, headings and schbench-style latency rows, shared by the
 * analyzers' sections and the report around them (report/report_text.c),
 * so every section looks like the rest.  Below the analyzers: they call
 * these, these call no analyzer.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlint/findings.h"
#include "schedlint/reader.h"
#include "schedlint/report.h"
#include "util/util.h"

const char *sl_color(const struct sl_report *r, enum sl_color c)
{
	static const char *const codes[] = {
		[SL_C_RESET] = "\033[0m", [SL_C_BOLD] = "\033[1m", [SL_C_DIM] = "\033[2m",
		[SL_C_RED] = "\033[31m", [SL_C_YELLOW] = "\033[33m", [SL_C_GREEN] = "\033[32m",
		[SL_C_CYAN] = "\033[36m",
	};
	return r->color ? codes[c] : "";
}

void sl_report_section(struct sl_report *r, const char *title)
{
	fprintf(r->out, "\n%s%s%s\n", sl_color(r, SL_C_BOLD), title, sl_color(r, SL_C_RESET));
}

const char *sl_report_cell(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%5" PRIu64 "ns", ns);
	else if (ns < 100000)
		snprintf(buf, len, "%5.1fus", ns / 1e3);
	else if (ns < 1000000)
		snprintf(buf, len, "%5.0fus", ns / 1e3);
	else if (ns < 100000000)
		snprintf(buf, len, "%5.2fms", ns / 1e6);
	else if (ns < 10000000000ULL)
		snprintf(buf, len, "%5.0fms", ns / 1e6);
	else
		snprintf(buf, len, "%6.1fs", ns / 1e9);
	return buf;
}

int sl_report_width(const struct sl_report *r)
{
	if (r->width <= 0)
		return 80;
	return r->width < SL_REPORT_MIN_WIDTH ? SL_REPORT_MIN_WIDTH : r->width;
}

/* The length of the escape sequence at s (ESC [ ... final byte), 0 if none. */
static size_t escape_len(const char *s)
{
	size_t n = 2;

	if (s[0] != '\033' || s[1] != '[')
		return 0;
	while (s[n] && !(s[n] >= 0x40 && s[n] <= 0x7e))
		n++;
	return s[n] ? n + 1 : n;
}

int sl_display_width(const char *s)
{
	int cols = 0;

	while (*s) {
		size_t e = escape_len(s);

		if (e) {
			s += e;
			continue;
		}
		/* a UTF-8 continuation byte belongs to the character before */
		if (((unsigned char)*s & 0xc0) != 0x80)
			cols++;
		s++;
	}
	return cols;
}

/* Write n spaces. */
static void pad(FILE *out, int n)
{
	for (; n > 0; n--)
		fputc(' ', out);
}

/*
 * The bytes of s that fill at most cols display columns (escape
 * sequences ride along), never splitting a UTF-8 character.
 */
size_t sl_bytes_for_cols(const char *s, size_t len, int cols)
{
	size_t i = 0;
	int used = 0;

	while (i < len) {
		size_t e = escape_len(s + i);
		size_t n = 1;

		if (e) {
			i += e;
			continue;
		}
		if (used == cols)
			break;
		while (i + n < len && ((unsigned char)s[i + n] & 0xc0) == 0x80)
			n++;
		i += n;
		used++;
	}
	return i;
}

int sl_span_width(const char *s, size_t len)
{
	char buf[1024];
	char *tmp = len < sizeof(buf) ? buf : xmalloc(len + 1);
	int w;

	memcpy(tmp, s, len);
	tmp[len] = '\0';
	w = sl_display_width(tmp);
	if (tmp != buf)
		free(tmp);
	return w;
}

/* n bytes of s, each SL_GLUE a space */
static void put_glued(FILE *out, const char *s, size_t n)
{
	for (const char *g; n && (g = memchr(s, SL_GLUE[0], n)); n -= (size_t)(g + 1 - s), s = g + 1) {
		fwrite(s, 1, (size_t)(g - s), out);
		fputc(' ', out);
	}
	fwrite(s, 1, n, out);
}

void sl_fit_line(FILE *out, const char *line, int width, int hang)
{
	size_t len = strlen(line), pos = 0;
	int col = 0;
	bool line_start = true;		/* nothing but the indentation on this line yet */

	if (width < SL_REPORT_MIN_WIDTH)
		width = SL_REPORT_MIN_WIDTH;
	if (hang > width / 2)
		hang = width / 2;
	if (sl_display_width(line) <= width) {
		put_glued(out, line, len);
		fputc('\n', out);
		return;
	}
	/* the first line's own indentation stays */
	while (line[pos] == ' ')
		pos++;
	put_glued(out, line, pos);
	col = (int)pos;
	while (pos < len) {
		size_t start = pos, wlen;
		int w, gap = 0;

		while (pos < len && line[pos] == ' ')
			pos++, gap++;
		start = pos;
		pos = text_word_end(line, pos, len);	/* a number with its unit */
		wlen = pos - start;
		if (!wlen)
			break;		/* trailing blanks */
		w = sl_span_width(line + start, wlen);
		/* the blanks between words stay as they were, unless a line breaks there */
		if (!line_start && col + gap + w > width) {
			fputc('\n', out);
			pad(out, hang);
			col = hang;
			line_start = true;
		}
		if (!line_start) {
			pad(out, gap);
			col += gap;
		}
		line_start = false;
		/* a word longer than a whole line is cut */
		while (col + w > width) {
			size_t n = sl_bytes_for_cols(line + start, wlen, width - col);

			put_glued(out, line + start, n);
			fputc('\n', out);
			pad(out, hang);
			col = hang;
			start += n;
			wlen -= n;
			w = sl_span_width(line + start, wlen);
		}
		put_glued(out, line + start, wlen);
		col += w;
	}
	fputc('\n', out);
}

void sl_report_wrap(struct sl_report *r, int indent, int hang, const char *fmt, ...)
{
	char *text, *line;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	text = xmalloc((size_t)(n < 0 ? 0 : n) + 1);
	va_start(ap, fmt);
	n = vsnprintf(text, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0, text[0] = '\0';
	line = xmalloc((size_t)indent + (size_t)n + 1);
	memset(line, ' ', (size_t)indent);
	memcpy(line + indent, text, (size_t)n + 1);
	/* the text may hold several lines: each is wrapped on its own */
	for (char *p = line, *nl; p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (*p || nl)
			sl_fit_line(r->out, p, sl_report_width(r), hang);
	}
	free(line);
	free(text);
}

uint64_t sl_cols_fit(const struct sl_report *r, int indent, const struct sl_col *cols, int nr)
{
	return sl_cols_fit_width(sl_report_width(r), indent, cols, nr);
}

uint64_t sl_cols_fit_width(int width, int indent, const struct sl_col *cols, int nr)
{
	uint64_t shown = nr >= 64 ? ~0ULL : (1ULL << nr) - 1;
	int total = indent - 1;

	for (int i = 0; i < nr && i < 64; i++)
		total += 1 + cols[i].width;
	while (total > width) {
		int worst = -1;

		for (int i = 0; i < nr && i < 64; i++)
			if ((shown >> i & 1) && cols[i].drop &&
			    (worst < 0 || cols[i].drop > cols[worst].drop))
				worst = i;
		if (worst < 0)
			break;
		shown &= ~(1ULL << worst);
		total -= 1 + cols[worst].width;
	}
	return shown;
}

void sl_cols_row(struct sl_report *r, int indent, const struct sl_col *cols, int nr,
		 uint64_t shown, const char *const *cells)
{
	char *row = NULL;
	size_t size = 0, end;
	FILE *f = open_memstream(&row, &size);
	bool first = true;

	if (!f)
		abort();
	pad(f, indent);
	for (int i = 0; i < nr && i < 64; i++) {
		const char *text = cells ? cells[i] : cols[i].head;
		int w;

		if (!(shown >> i & 1))
			continue;
		if (!first)
			fputc(' ', f);
		first = false;
		w = sl_display_width(text);
		if (!cols[i].left)
			pad(f, cols[i].width - w);
		fputs(text, f);
		if (cols[i].left)
			pad(f, cols[i].width - w);
	}
	fclose(f);
	/* no trailing blanks: a left-aligned last column or empty cells */
	for (end = size; end > 0 && row[end - 1] == ' '; end--)
		;
	row[end] = '\0';
	if (cells)
		fprintf(r->out, "%s\n", row);
	else
		fprintf(r->out, "%s%s%s\n", sl_color(r, SL_C_DIM), row, sl_color(r, SL_C_RESET));
	free(row);
}

const char *sl_task_label(char *buf, size_t len, const char *comm, int32_t pid, int width)
{
	char id[16];
	int room;

	snprintf(id, sizeof(id), ":%d", pid);
	room = width - (int)strlen(id);
	if (room < 1)
		room = 1;
	snprintf(buf, len, "%.*s%s", (int)sl_bytes_for_cols(comm, strlen(comm), room), comm, id);
	return buf;
}

/* The latency columns: count, min, the percentiles, max, mean. */
enum { LAT_COUNT, LAT_MIN, LAT_PCT0, LAT_MAX = LAT_PCT0 + SL_NR_PCTS, LAT_MEAN, LAT__NR };

int sl_latency_pct_drop(double pct)
{
	/* the order they go in when the terminal is narrow (0: they stay) */
	static const struct { double pct; int drop; } pct_drop[] = {
		{ 50, 0 }, { 75, 9 }, { 90, 5 }, { 95, 8 }, { 99, 0 }, { 99.5, 10 }, { 99.9, 4 },
	};

	for (size_t j = 0; j < ARRAY_SIZE(pct_drop); j++)
		if (pct_drop[j].pct == pct)
			return pct_drop[j].drop;
	return 3;
}

static void latency_cols(struct sl_col cols[LAT__NR])
{
	cols[LAT_COUNT] = (struct sl_col){ "count", 8, 0, false };
	cols[LAT_MIN] = (struct sl_col){ "min", 8, 6, false };
	for (int i = 0; i < SL_NR_PCTS; i++)
		cols[LAT_PCT0 + i] = (struct sl_col){ sl_pct_names[i], 8,
						      sl_latency_pct_drop(sl_pcts[i]), false };
	cols[LAT_MAX] = (struct sl_col){ "max", 8, 0, false };
	cols[LAT_MEAN] = (struct sl_col){ "mean", 8, 7, false };
}

/* The label is a column of its own, left of the table. */
static uint64_t latency_shown(const struct sl_report *r, int w, struct sl_col cols[LAT__NR])
{
	latency_cols(cols);
	return sl_cols_fit(r, 2 + w + 1, cols, LAT__NR);
}

void sl_report_latency_header(struct sl_report *r, int w)
{
	struct sl_col cols[LAT__NR];
	uint64_t shown = latency_shown(r, w, cols);

	fprintf(r->out, "  %*s", w, "");
	sl_cols_row(r, 1, cols, LAT__NR, shown, NULL);
}

void sl_report_latency_row(struct sl_report *r, int w, const char *label, const struct sl_hist *h)
{
	struct sl_col cols[LAT__NR];
	uint64_t shown = latency_shown(r, w, cols);
	char b[LAT__NR][32];
	const char *cells[LAT__NR];

	snprintf(b[LAT_COUNT], sizeof(b[0]), "%" PRIu64, h->count);
	if (!h->count) {
		fprintf(r->out, "  %-*.*s %8s\n", w, w, label, b[LAT_COUNT]);
		return;
	}
	sl_report_cell(b[LAT_MIN], sizeof(b[0]), h->min);
	for (int i = 0; i < SL_NR_PCTS; i++)
		if (shown >> (LAT_PCT0 + i) & 1)
			sl_report_cell(b[LAT_PCT0 + i], sizeof(b[0]), sl_hist_percentile(h, sl_pcts[i]));
		else
			b[LAT_PCT0 + i][0] = '\0';
	sl_report_cell(b[LAT_MAX], sizeof(b[0]), h->max);
	sl_report_cell(b[LAT_MEAN], sizeof(b[0]), sl_hist_mean(h));
	for (int i = 0; i < LAT__NR; i++)
		cells[i] = b[i];
	fprintf(r->out, "  %-*.*s", w, w, label);
	sl_cols_row(r, 1, cols, LAT__NR, shown, cells);
}

/* A word for a shell: as it is when it needs no quoting, else in single quotes. */
static void shell_word(char *buf, size_t len, const char *s)
{
	size_t o = 0;

	if (*s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+-,:=@%")]) {
		snprintf(buf, len, "%s", s);
		return;
	}
	if (len < 3) {
		buf[0] = '\0';
		return;
	}
	buf[o++] = '\'';
	for (; *s && o + 6 < len; s++) {
		if (*s == '\'') {
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			buf[o++] = *s;
		}
	}
	buf[o++] = '\'';
	buf[o] = '\0';
}

/* words[] as one command line, continued with " \" where the width ends. */
static void print_command(struct sl_report *r, int indent, const char *prefix, char **words, int nr)
{
	int width = sl_report_width(r), hang = indent + sl_display_width(prefix) + 2;
	int col = indent + sl_display_width(prefix);

	pad(r->out, indent);
	fputs(prefix, r->out);
	for (int i = 0; i < nr; i++) {
		int w = sl_display_width(words[i]);
		/* room for " \" after it unless it is the last */
		int need = w + (i + 1 < nr ? 2 : 0);

		if (i && col + 1 + need > width) {
			fputs(" \\\n", r->out);
			pad(r->out, hang);
			col = hang;
		} else if (i) {
			fputc(' ', r->out);
			col++;
		}
		fputs(words[i], r->out);
		col += w;
	}
	fputc('\n', r->out);
}

void sl_report_look_at(struct sl_report *r, const struct sl_model *m, int indent,
		       const struct sl_finding *f, bool tracecmd)
{
	struct sl_moment mo;
	char from[32], to[32], cpus[96] = "", path[512], buffer[300], filter[128];
	char *words[13];
	int nr = 0;
	size_t o = 0;

	sl_finding_moment(f, m, &mo);
	fmt_ts(from, sizeof(from), mo.from);
	fmt_ts(to, sizeof(to), mo.to);
	for (int i = 0; i < mo.nr_cpus && o < sizeof(cpus) - 12; i++)
		o += (size_t)snprintf(cpus + o, sizeof(cpus) - o, "%s%d", i ? "," : "", mo.cpus[i]);
	shell_word(path, sizeof(path), r->path ? r->path : "trace.dat");
	words[nr++] = (char *)"schedlint";
	words[nr++] = (char *)"dump";
	words[nr++] = (char *)"--from";
	words[nr++] = from;
	words[nr++] = (char *)"--to";
	words[nr++] = to;
	words[nr++] = (char *)"--cpus";
	words[nr++] = cpus;
	if (m->cfg->read.dat_buffer) {
		words[nr++] = (char *)"--buffer";
		shell_word(buffer, sizeof(buffer), m->cfg->read.dat_buffer);
		words[nr++] = buffer;
	}
	words[nr++] = path;
	print_command(r, indent, "look at: ", words, nr);
	/*
	 * trace-cmd report has no time window: awk keeps the events of the
	 * moment, by the time after the CPU field ("comm-pid [cpu] time:"): a
	 * comm may hold spaces ("tmux: client"), so the time is not always $3
	 */
	if (!tracecmd || m->cfg->read.dat_buffer ||
	    (m->info->format != SL_FMT_DAT6 && m->info->format != SL_FMT_DAT7))
		return;
	nr = 0;
	words[nr++] = (char *)"trace-cmd";
	words[nr++] = (char *)"report";
	words[nr++] = (char *)"-i";
	words[nr++] = path;
	words[nr++] = (char *)"--cpu";
	words[nr++] = cpus;
	words[nr++] = (char *)"|";
	words[nr++] = (char *)"awk";
	words[nr++] = (char *)"-F'] +'";
	snprintf(filter, sizeof(filter), "'$2+0 >= %s && $2+0 <= %s'", from, to);
	words[nr++] = filter;
	print_command(r, indent, "         ", words, nr);
}

void sl_finding_dump_cmd(const struct sl_model *m, const struct sl_finding *f, const char *path,
			 char *buf, size_t len)
{
	struct sl_moment mo;
	char from[32], to[32], cpus[96] = "", word[512], buffer[300] = "";
	size_t o = 0;

	sl_finding_moment(f, m, &mo);
	for (int i = 0; i < mo.nr_cpus && o < sizeof(cpus) - 12; i++)
		o += (size_t)snprintf(cpus + o, sizeof(cpus) - o, "%s%d", i ? "," : "", mo.cpus[i]);
	shell_word(word, sizeof(word), path ? path : "trace.dat");
	if (m->cfg->read.dat_buffer) {
		char b[260];

		shell_word(b, sizeof(b), m->cfg->read.dat_buffer);
		snprintf(buffer, sizeof(buffer), " --buffer %s", b);
	}
	snprintf(buf, len, "schedlint dump --from %s --to %s --cpus %s%s %s",
		 fmt_ts(from, sizeof(from), mo.from), fmt_ts(to, sizeof(to), mo.to), cpus, buffer,
		 word);
}

void sl_report_next_steps(struct sl_report *r, const struct sl_model *m, int kind)
{
	const struct sl_kind_info *k;
	const char *label = "knobs";

	if (kind < 0 || kind >= SL_KIND__COUNT || !m->findings->summary[kind].count)
		return;
	k = &sl_kinds[kind];
	if (!k->kernel && !k->knobs && !k->patch)
		return;
	fprintf(r->out, "\n  %swhat to do next%s\n", sl_color(r, SL_C_DIM), sl_color(r, SL_C_RESET));
	if (k->kernel)
		sl_report_wrap(r, 2, 11, "kernel   %s", k->kernel);
	/* one knob a line: a command is never cut */
	for (const char *p = k->knobs; p && *p; label = "") {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		sl_report_wrap(r, 2, 11, "%-8s %.*s", label, len, p);
		p = nl ? nl + 1 : NULL;
	}
	if (k->patch)
		sl_report_wrap(r, 2, 11, "patch    %s", k->patch);
	if (k->patch_url)
		fprintf(r->out, "    %s\n", k->patch_url);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * read_text_line.c - the columns of one event line, in every text dialect
 *
 * What comes before the event's fields differs between the producers:
 *
 *   tracefs trace, trace_pipe  "   comm-pid     [(tgid)] [001] d.h1.  123.456789: name: f"
 *   trace-cmd report           "   comm-pid     [001]   123.456789: name:      f"
 *                              (>= 3.2 adds "d.h1." like tracefs; -R "[001]-0x9";
 *                              -t 9 decimals; --ts-diff "(+12)" after the time;
 *                              with instances "inst: " in front of the line)
 *   trace-cmd report -l        "comm8-pid    1d.h1.  123.456789: name: f"
 *   perf script                "    comm   pid [001]   123.456789:  sys:name: f"
 *                              (--show-lost-events: "... 123.456789: PERF_RECORD_LOST lost 9")
 *
 * Comms hold anything but NUL ("Web Content", "kworker/u8:2-events_unbound",
 * "(sd-pam)", ":1", even "[x]"), so the comm is never parsed forward: we
 * find the "[CPU]" column first (the first "[digits]" preceded by a blank
 * and by something that looks like a pid) and read the pid backwards from
 * it.  Only the pid of the TASK-PID column is used downstream (event.pid),
 * so the column's comm is never interned.  Perf right-aligns the pid after
 * a blank and prints "-1" for tasks that are gone; tracefs and trace-cmd
 * glue it to the comm with a dash.
 */
#include <errno.h>
#include <string.h>

#include "read_text.h"
#include "util/util.h"

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static inline const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/* The pid token that ends right before q, as found by pid_before(). */
struct pid_token {
	uint64_t value;
	char sep;		/* the character before the digits: '-' or ' ' */
	bool may_be_negative;	/* "... -1": a dash that follows a blank (perf) */
};

/*
 * pid_before - read the pid that ends at q (blanks and a "(tgid)" column
 * may sit between it and q).  perf's "pid/tid" gives the tid.
 */
static bool pid_before(const char *start, const char *q, struct pid_token *tok)
{
	const char *digits_end, *d;
	uint64_t v = 0, scale = 1;

	while (q > start && is_blank(q[-1]))
		q--;
	if (q > start && q[-1] == ')') {	/* tracefs record-tgid: "(  1977)" or "(-------)" */
		const char *open = q - 1;

		while (open > start && open[-1] != '(' && q - open < 12)
			open--;
		if (open == start || open[-1] != '(')
			return false;
		q = open - 1;
		while (q > start && is_blank(q[-1]))
			q--;
	}
	digits_end = q;
	d = q;
	while (d > start && is_digit(d[-1]) && digits_end - d < 10)
		d--;
	if (d == digits_end || d == start)
		return false;
	for (const char *s = digits_end; s > d; s--) {
		v += (uint64_t)(s[-1] - '0') * scale;
		scale *= 10;
	}
	/*
	 * perf -F pid,tid: "pid/tid", and "pid/-1" for a thread that has
	 * exited (the tid is -1, not 1: the dash is no comm-pid separator).
	 */
	bool tid_gone = d[-1] == '-' && d - 1 > start && d[-2] == '/';

	if (tid_gone)
		d--;
	if (d[-1] == '/') {
		d--;
		while (d > start && is_digit(d[-1]))
			d--;
		if (d == start)
			return false;
	}
	tok->value = v;
	tok->sep = d[-1];
	tok->may_be_negative = tid_gone ||
			       (d[-1] == '-' && (d - 1 == start || is_blank(d[-2])));
	return tok->sep == '-' || is_blank(tok->sep);
}

/* After "[CPU]": a blank, or trace-cmd -R's raw flags "-0x..". */
static bool cpu_column_ends(const char *q, const char *end)
{
	return q < end && (is_blank(*q) ||
			   (end - q > 3 && q[0] == '-' && q[1] == '0' && q[2] == 'x'));
}

/*
 * find_cpu_column - the first "[CPU]" at or after p: "[", digits, "]",
 * with a blank before it and a pid before that.  Returns the char after
 * ']'.
 */
static const char *find_cpu_column(const char *start, const char *p, const char *end,
				   int32_t *cpu, struct pid_token *pid)
{
	while ((p = memchr(p, '[', (size_t)(end - p)))) {
		const char *q = p + 1;
		uint32_t v = 0;

		while (q < end && is_digit(*q) && v <= TEXT_MAX_CPU)
			v = v * 10 + (uint32_t)(*q++ - '0');
		if (q > p + 1 && q < end && *q == ']' && v <= TEXT_MAX_CPU &&
		    cpu_column_ends(q + 1, end) &&
		    p > start && is_blank(p[-1]) && pid_before(start, p, pid)) {
			*cpu = (int32_t)v;
			return q + 1;
		}
		p++;
	}
	return NULL;
}

/*
 * ctx_from_flags - the irq-info column ("d.h1." or "d.h1" on older
 * kernels): its third character says hardirq 'h', softirq 's', both 'H',
 * NMI 'z' and NMI in hardirq 'Z'.
 */
static uint8_t ctx_from_flags(const char *flags, size_t len)
{
	uint8_t ctx = SL_CTX_KNOWN;

	if (len < 3)
		return 0;
	switch (flags[2]) {
	case 'h':
		ctx |= SL_CTX_HARDIRQ;
		break;
	case 's':
		ctx |= SL_CTX_SOFTIRQ;
		break;
	case 'H':
		ctx |= SL_CTX_HARDIRQ | SL_CTX_SOFTIRQ;
		break;
	case 'z':
		ctx |= SL_CTX_NMI;
		break;
	case 'Z':
		ctx |= SL_CTX_NMI | SL_CTX_HARDIRQ;
		break;
	case '.':
		break;
	default:
		return 0;	/* not an irq-info column we know */
	}
	return ctx;
}

/* trace-cmd report -R prints common_flags as "-0x%x": TRACE_FLAG_* bits. */
static const char *parse_raw_flags(const char *p, const char *end, uint8_t *ctx)
{
	uint32_t flags = 0;
	int digits = 0;

	if (end - p < 4 || p[0] != '-' || p[1] != '0' || p[2] != 'x')
		return NULL;
	for (p += 3; p < end && hex_digit(*p) >= 0 && digits < 8; p++, digits++)
		flags = flags << 4 | (uint32_t)hex_digit(*p);
	if (!digits)
		return NULL;
	*ctx = SL_CTX_KNOWN;
	if (flags & 0x08)	/* TRACE_FLAG_HARDIRQ */
		*ctx |= SL_CTX_HARDIRQ;
	if (flags & 0x10)	/* TRACE_FLAG_SOFTIRQ */
		*ctx |= SL_CTX_SOFTIRQ;
	if (flags & 0x40)	/* TRACE_FLAG_NMI */
		*ctx |= SL_CTX_NMI;
	return p;
}

/*
 * parse_flags_column - an optional irq-info column after the CPU: a short
 * word that does not start with a digit (the timestamp does).
 */
static const char *parse_flags_column(const char *p, const char *end, uint8_t *ctx)
{
	const char *word;

	if (p < end && *p == '-')
		return parse_raw_flags(p, end, ctx);
	p = skip_blanks(p, end);
	if (p >= end || is_digit(*p))
		return p;
	word = p;
	while (p < end && !is_blank(*p))
		p++;
	if (p - word > 8)
		return NULL;
	if (p - word >= 2 && word[0] == '-' && word[1] == '0')	/* " -0x9" */
		return parse_raw_flags(word, end, ctx) == p ? p : NULL;
	*ctx = ctx_from_flags(word, (size_t)(p - word));
	if (!*ctx)
		return NULL;
	return p;
}

/*
 * parse_timestamp_column - "SECS.FRACTION:" with 6 (us) or 9 (ns)
 * decimals, or a bare counter "123456789:" (counter clocks).  Returns the
 * char after the colon.
 */
static const char *parse_timestamp_column(const char *p, const char *end, uint64_t *ts)
{
	static const uint64_t frac_scale[10] = {
		1000000000, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1,
	};
	uint64_t secs = 0, frac = 0;
	int int_digits = 0, frac_digits = 0;

	p = skip_blanks(p, end);
	while (p < end && is_digit(*p)) {
		if (++int_digits > 19)
			return NULL;
		secs = secs * 10 + (uint64_t)(*p++ - '0');
	}
	if (!int_digits)
		return NULL;
	if (p < end && *p == '.') {
		p++;
		while (p < end && is_digit(*p)) {
			if (frac_digits < 9) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				frac_digits++;
			}
			p++;
		}
		if (!frac_digits || int_digits > 10)
			return NULL;
		*ts = secs * 1000000000ULL + frac * frac_scale[frac_digits];
	} else {
		*ts = secs;
	}
	if (p >= end || *p != ':')
		return NULL;
	return p + 1;
}

/* Anything but a blank or a colon can be in an event name ("p_foo.isra.0"). */
static const uint8_t not_name_char[256] = { [' '] = 1, [':'] = 1, ['\t'] = 1 };

static inline bool is_name_char(char c)
{
	return !not_name_char[(uint8_t)c];
}

/*
 * parse_event_name - "name:" or perf's "sys:name:", then blanks (trace-cmd
 * pads names to 20 columns).  The function tracer has no colon:
 * "do_sys_open <-sys_open" is a "function" event.
 */
static bool parse_event_name(struct text_reader *r, const char *p, const char *end,
			     struct text_line *line)
{
	const char *name;

	p = skip_blanks(p, end);
	if (p < end && *p == '(') {		/* trace-cmd --ts-diff: "(+12)" */
		while (p < end && !is_blank(*p))
			p++;
		p = skip_blanks(p, end);
	}
	name = p;
	while (p < end && is_name_char(*p))
		p++;
	if (p == name)
		return false;
	if (p < end && *p == ':' && p + 1 < end && is_name_char(p[1])) {
		name = ++p;		/* perf: "sched:sched_switch:" */
		while (p < end && is_name_char(*p))
			p++;
		if (p == name || p >= end || *p != ':')
			return false;
		line->perf = true;
	} else if (p < end && *p == ':') {
		line->perf = false;
	} else if (p - name == 16 && !memcmp(name, "PERF_RECORD_LOST", 16) &&
		   p < end && *p == ' ') {
		line->perf = true;	/* perf script --show-lost-events: "... lost 9" */
	} else if (end - p >= 3 && p[0] == ' ' && p[1] == '<' && p[2] == '-') {
		line->name = sl_str(r->strtab, r->function_name);
		line->name_len = strlen(line->name);
		line->fields = name;
		return true;
	} else {
		return false;
	}
	line->name = name;
	line->name_len = (size_t)(p - name);
	line->fields = skip_blanks(p + 1, end);
	return true;
}

/* The latency layout from the dash before the pid: "-%-5d %3d" + flags. */
static const char *parse_latency_at(const char *dash, const char *end, struct text_line *line)
{
	const char *q = dash + 1;
	uint64_t pid = 0;
	uint32_t cpu = 0;
	int digits = 0;

	while (q < end && is_digit(*q) && digits++ < 10)
		pid = pid * 10 + (uint64_t)(*q++ - '0');
	if (!digits || q >= end || *q != ' ')
		return NULL;
	q = skip_blanks(q, end);
	digits = 0;
	while (q < end && is_digit(*q) && cpu <= TEXT_MAX_CPU) {
		cpu = cpu * 10 + (uint32_t)(*q++ - '0');
		digits++;
	}
	if (!digits || cpu > TEXT_MAX_CPU || q >= end || is_blank(*q) || pid > INT32_MAX)
		return NULL;
	line->pid = (int32_t)pid;
	line->cpu = (int32_t)cpu;
	if (*q == '-')
		return parse_raw_flags(q, end, &line->ctx);
	dash = q;
	while (q < end && !is_blank(*q))
		q++;
	line->ctx = ctx_from_flags(dash, (size_t)(q - dash));
	return line->ctx ? q : NULL;
}

/*
 * parse_latency_layout - trace-cmd report -l: "%8.8s-%-5d %3d" then the
 * latency flags glued to the CPU ("  <idle>-0       1d.h1.").  The dash
 * is in column 8, unless trace-cmd put an instance name ("name: ") or
 * its padding in front: then the first dash after which the whole layout
 * (pid, CPU, flags, timestamp) parses is the one.
 */
static const char *parse_latency_layout(const char *p, const char *end, struct text_line *line)
{
	const char *dash, *limit = end - p > 160 ? p + 160 : end;
	const char *q;
	uint64_t ts;

	if (end - p > 9 && p[8] == '-' && (q = parse_latency_at(p + 8, end, line)) &&
	    parse_timestamp_column(q, end, &ts))
		return q;
	for (dash = p; (dash = memchr(dash, '-', (size_t)(limit - dash))); dash++) {
		q = parse_latency_at(dash, end, line);
		if (q && parse_timestamp_column(q, end, &ts))
			return q;
	}
	return NULL;
}

/*
 * text_parse_line - split an event line into its columns.
 * Returns 0, or -EINVAL when the line is not an event line.
 */
int text_parse_line(struct text_reader *r, const char *p, const char *end,
		    struct text_line *line)
{
	struct pid_token pid;
	const char *bracket = p, *q;

	line->ctx = 0;
	line->perf = false;
	line->latency = false;
	line->end = end;
	line->fields = p;

	/* a comm such as "foo 12 [3]" looks like a column: then try the next one */
	while ((q = find_cpu_column(p, bracket, end, &line->cpu, &pid))) {
		bracket = q;
		line->ctx = 0;
		q = parse_flags_column(q, end, &line->ctx);
		if (q && (q = parse_timestamp_column(q, end, &line->ts)) &&
		    parse_event_name(r, q, end, line))
			break;
	}
	if (!q) {
		q = parse_latency_layout(p, end, line);
		if (!q || !(q = parse_timestamp_column(q, end, &line->ts)) ||
		    !parse_event_name(r, q, end, line))
			return -EINVAL;
		line->latency = true;
		pid.value = (uint64_t)line->pid;
		pid.may_be_negative = false;
	}
	if (pid.value > INT32_MAX)
		return -EINVAL;
	line->pid = (int32_t)pid.value;
	if (line->perf && pid.may_be_negative)
		line->pid = -line->pid;	/* perf's ":-1 -1": the task has exited */
	return 0;
}

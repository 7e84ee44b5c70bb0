// SPDX-License-Identifier: GPL-2.0
/*
 * dat_meta.c - a trace.dat's metadata into a libtraceevent handle
 *
 * The flyrecord reader needs what libtracecmd's tracecmd_open_head()
 * gives: the header page format, the event formats, kallsyms, printk
 * formats parsed into a tep_handle (and the saved cmdlines read, not
 * parsed: see sl_dat_tep_load()).  We read the
 * sections ourselves (dat_layout.c found and checked them) and hand each
 * one to the libtraceevent parser libtracecmd would call, in the same
 * order with the same arguments, so both readers decode with the same
 * formats.  Not through libtracecmd because Debian 12's libtracecmd is
 * built without zlib: it cannot open a zlib-compressed file at all.
 */
#define _GNU_SOURCE		/* memmem */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dat_decode.h"
#include "dat_format_check.h"
#include "dat_meta.h"
#include "kallsyms.h"
#include "util/util.h"

#define PROGRESS_REC 160	/* "system/name", as the child sends them */

/* A bounds-checked walk over a section's bytes. */
struct walk {
	const uint8_t *p;
	uint64_t len, pos;
	bool big_endian;
	bool bad;
};

static uint64_t take_num(struct walk *w, int size)
{
	uint64_t v = 0;

	if (w->bad || w->len - w->pos < (uint64_t)size) {
		w->bad = true;
		return 0;
	}
	for (int i = 0; i < size; i++)
		v |= (uint64_t)w->p[w->pos + (w->big_endian ? size - 1 - i : i)] << (8 * i);
	w->pos += (uint64_t)size;
	return v;
}

/* size bytes at the cursor, or NULL */
static const char *take(struct walk *w, uint64_t size)
{
	const char *s;

	if (w->bad || w->len - w->pos < size) {
		w->bad = true;
		return NULL;
	}
	if (!w->p)
		return NULL;	/* an absent section: no text (and no NULL + 0) */
	s = (const char *)w->p + w->pos;
	w->pos += size;
	return s;
}

static const char *take_string(struct walk *w)
{
	const uint8_t *nul;
	const char *s;

	if (w->bad || !(nul = memchr(w->p + w->pos, '\0', w->len - w->pos))) {
		w->bad = true;
		return NULL;
	}
	s = (const char *)w->p + w->pos;
	w->pos = (uint64_t)(nul - w->p) + 1;
	return s;
}

static int load(int fd, const struct sl_dat_layout *l, enum sl_dat_section_id id,
		struct walk *w, struct sl_error *err)
{
	uint8_t *buf;
	uint64_t len;
	int ret;

	memset(w, 0, sizeof(*w));
	w->big_endian = l->big_endian;
	if (!l->sections[id].size)
		return 0;
	ret = sl_dat_section_read(fd, l, id, &buf, &len, err);
	if (ret)
		return ret;
	w->p = buf;
	w->len = len;
	return 0;
}

static void unload(struct walk *w)
{
	free((void *)w->p);
	w->p = NULL;
}

static int parse_header_info(struct tep_handle *tep, const struct sl_dat_layout *l,
			     struct walk *w, struct sl_error *err)
{
	const char *name = take_string(w);
	uint64_t size;
	const char *data;

	if (!name || strcmp(name, "header_page"))
		goto bad;
	size = take_num(w, 8);
	data = take(w, size);
	if (!data)
		goto bad;
	if (tep_parse_header_page(tep, (char *)data, size, l->long_size)) {
		sl_error_set(err, "corrupt trace.dat: cannot parse the ring-buffer page header");
		return -EINVAL;
	}
	/* header_event: libtracecmd reads it and uses nothing from it */
	return 0;
bad:
	sl_error_set(err, "corrupt trace.dat: malformed header info");
	return -EINVAL;
}

/*
 * An event we only count by name needs its name, id and the common
 * fields, not its print format: libtraceevent's expression parser is
 * most of the cost of opening a trace (a kernel has ~1500 formats), and
 * it runs here outside the sandbox (formats_survive() parses the events
 * we decode only), so a print format it would crash on must never reach
 * it.  Give it the format up to the end of the common fields
 * (sl_dat_format_stub_len(): also when no blank line ends them) and an
 * empty print format; a format without a "format:" line not at all (a
 * format libtraceevent cannot parse is skipped, as libtracecmd does).
 */
static int parse_stub(struct tep_handle *tep, const char *format, uint64_t size,
		      const char *system)
{
	size_t len = sl_dat_format_stub_len(format, (size_t)size);
	static const char tail[] = "\n\nprint fmt: \"\"\n";
	char *stub;
	int ret;

	if (!len)
		return -1;
	stub = xmalloc(len + sizeof(tail));
	memcpy(stub, format, len);
	memcpy(stub + len, tail, sizeof(tail));
	ret = tep_parse_event(tep, stub, len + sizeof(tail) - 1, system);
	free(stub);
	return ret;
}

/*
 * Note an event by its name and id only ("name: ...\nID: 123\n"): parsing
 * the common fields of the 2,300 formats of a 6.18 kernel into tep took 30
 * ms at every start, for events whose fields nothing reads.  false when
 * the format has no sensible ID line (tep then decides, as before).
 */
static bool add_name(struct sl_dat_names *names, const char *format, uint64_t size,
		     const char *name)
{
	const char *id = memmem(format, size, "\nID: ", 5), *end = format + size;
	int32_t v = 0;

	if (!id || !name[0])
		return false;
	for (id += 5; id < end && *id >= '0' && *id <= '9'; id++) {
		v = v * 10 + (*id - '0');
		if (v > 0xffff)
			return false;	/* beyond the decoder's ids: tep and the decoder refuse it */
	}
	if (id >= end || *id != '\n' || id[-1] == ' ')
		return false;
	GROW(names->v, names->alloc, (size_t)names->nr + 1);
	names->v[names->nr].id = v;
	names->v[names->nr].name = xstrdup(name);
	names->nr++;
	return true;
}

void sl_dat_names_free(struct sl_dat_names *names)
{
	for (uint32_t i = 0; i < names->nr; i++)
		free(names->v[i].name);
	free(names->v);
	memset(names, 0, sizeof(*names));
}

/* The event name of a format ("name: sched_switch\nID: ..."), in buf. */
static const char *format_name(const char *format, uint64_t size, char *buf, size_t len)
{
	const char *end;

	buf[0] = '\0';
	if (size < 6 || memcmp(format, "name: ", 6))
		return "";
	end = memchr(format + 6, '\n', (size_t)size - 6);
	if (!end)
		return "";
	/* snprintf("%.*s")'s copy, at a tenth of its cost (2,300 formats a start) */
	size_t n = strnlen(format + 6, (size_t)(end - format - 6));

	if (n > len - 1)
		n = len - 1;
	memcpy(buf, format + 6, n);
	buf[n] = '\0';
	return buf;
}

/*
 * Every format is checked first (sl_dat_format_check()): libtraceevent
 * crashes on a print format that names an undeclared field, and
 * libtracecmd hands it every format in full.  One such format refuses the
 * file (a corrupt one: the kernel never writes them).  0, or -EINVAL with
 * err set.
 */
/* How the formats are parsed: as the flyrecord reader needs them, or as libtracecmd will. */
struct parse_how {
	bool full;		/* every print fmt, as libtracecmd parses them */
	bool decoded_only;	/* only the formats of the events we decode */
	int progress;		/* >= 0: write each format's name there before parsing it */
	struct sl_dat_names *names;	/* not full: the others by name only, once tep has */
	bool have_common;	/* an event with the common fields (the decoder binds them) */
	bool check_only;	/* run our checks, parse nothing */
};

static void tell_progress(int fd, const char *system, const char *name)
{
	char rec[PROGRESS_REC] = "";

	snprintf(rec, sizeof(rec), "%s/%s", system, name);
	if (write(fd, rec, sizeof(rec)) != (ssize_t)sizeof(rec))
		_exit(0);	/* the parent is gone */
}

static int parse_formats(struct tep_handle *tep, struct walk *w, const char *system,
			 struct parse_how *how, struct sl_error *err)
{
	char name[128];

	for (uint32_t n = (uint32_t)take_num(w, 4); n && !w->bad; n--) {
		uint64_t size = take_num(w, 8);
		const char *format = take(w, size);
		struct sl_error check = { "" };

		if (!format)
			break;
		format_name(format, size, name, sizeof(name));
		bool decodes = sl_dat_decodes(system, name);

		/*
		 * The sandbox's parse (formats_survive()) looks at the events
		 * we decode only: the others' checks would decide nothing
		 * there (it has no names to count them in), and were 31 M of
		 * its 45 M instructions for the 2,300 formats of a 6.18 kernel.
		 */
		if (how->decoded_only && !decodes)
			continue;
		/*
		 * A format our checks refuse is refused with the file when
		 * libtraceevent parses it in full (the events we decode; every
		 * event for libtracecmd).  Any other is never handed to it:
		 * its events are counted by name, and the report says so.
		 */
		if (sl_dat_format_check(format, (size_t)size, &check)) {
			if (how->full || decodes) {
				*err = check;
				return -EINVAL;
			}
			if (how->names) {
				if (!how->names->nr_ignored++)
					snprintf(how->names->first_ignored,
						 sizeof(how->names->first_ignored), "%s:%s",
						 system, name);
				if (how->have_common)
					add_name(how->names, format, size, name);
			}
			continue;
		}
		if (how->check_only)
			continue;
		if (how->progress >= 0)
			tell_progress(how->progress, system, name);
		/* like libtracecmd: a format libtraceevent cannot parse is skipped */
		if (how->full || decodes) {
			if (!tep_parse_event(tep, format, size, system))
				how->have_common = true;
		} else if (!how->names || !how->have_common ||
			   !add_name(how->names, format, size, name)) {
			if (!parse_stub(tep, format, size, system))
				how->have_common = true;
		}
	}
	return 0;
}

static struct tep_handle *tep_for(const struct sl_dat_layout *l)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_loglevel(TEP_LOG_NONE);
	tep_set_file_bigendian(tep, l->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, l->long_size);
	tep_set_page_size(tep, (int)l->page_size);
	tep_set_cpus(tep, l->nr_cpus);
	return tep;
}

/*
 * The three sections of formats, read (and decompressed) once before the
 * sandbox forks: its child and then the parent parse the same buffers.
 * A section that does not read keeps its error, returned where the parse
 * would have read it, so a file is refused as it was when each parse read
 * its own (6 M instructions for the child's copy on a 6.18 kernel).
 */
static const enum sl_dat_section_id format_ids[] = {
	SL_DAT_HEADER_INFO, SL_DAT_FTRACE_EVENTS, SL_DAT_EVENT_FORMATS,
};

struct formats_read {
	struct walk w[ARRAY_SIZE(format_ids)];
	int ret[ARRAY_SIZE(format_ids)];
	struct sl_error err[ARRAY_SIZE(format_ids)];
};

static void formats_read(int fd, const struct sl_dat_layout *l, struct formats_read *fr)
{
	for (size_t i = 0; i < ARRAY_SIZE(format_ids); i++)
		fr->ret[i] = load(fd, l, format_ids[i], &fr->w[i], &fr->err[i]);
}

static void formats_unread(struct formats_read *fr)
{
	for (size_t i = 0; i < ARRAY_SIZE(format_ids); i++)
		unload(&fr->w[i]);
}

/* Section i of format_ids into w: from fr, or read now when fr is NULL (then unload() it). */
static int format_section(int fd, const struct sl_dat_layout *l, const struct formats_read *fr,
			  size_t i, struct walk *w, struct sl_error *err)
{
	if (!fr)
		return load(fd, l, format_ids[i], w, err);
	*w = fr->w[i];
	if (fr->ret[i])
		*err = fr->err[i];
	return fr->ret[i];
}

/* The header page, ftrace and event formats into tep.  0, or -errno with err set. */
static int parse_all_formats(int fd, const struct sl_dat_layout *l, const struct formats_read *fr,
			     struct tep_handle *tep, struct parse_how *how, struct sl_error *err)
{
	struct walk w;
	int ret;

	ret = format_section(fd, l, fr, 0, &w, err);
	if (ret)
		return ret;
	ret = parse_header_info(tep, l, &w, err);
	if (!fr)
		unload(&w);
	if (ret)
		return ret;

	ret = format_section(fd, l, fr, 1, &w, err);
	if (ret)
		return ret;
	if (w.p)
		ret = parse_formats(tep, &w, "ftrace", how, err);
	if (!fr)
		unload(&w);
	if (ret)
		return ret;

	ret = format_section(fd, l, fr, 2, &w, err);
	if (ret)
		return ret;
	for (uint32_t sys = w.p ? (uint32_t)take_num(&w, 4) : 0; sys && !w.bad; sys--) {
		const char *system = take_string(&w);

		if (system && (ret = parse_formats(tep, &w, system, how, err)))
			break;
	}
	if (!fr)
		unload(&w);
	if (ret)
		return ret;
	if (w.bad) {
		sl_error_set(err, "corrupt trace.dat: malformed event formats");
		return -EINVAL;
	}
	return 0;
}

/*
 * libtraceevent 1.7.1's format parser dereferences NULL or divides by
 * zero on malformed print formats: fuzzing found six different ones in
 * a day, each then refused by a check of its own (dat_format_check.c),
 * and its parser has more.  A damaged file must not crash us, so the
 * formats are parsed first in a child process, which tells the parent
 * each format's name before it parses it: if it dies, that format is
 * refused, with the signal.  full: every format, as libtracecmd will
 * parse them (50 ms for the 2,300 formats of a 6.18 kernel); otherwise
 * only the dozen events the flyrecord reader decodes, whose print formats
 * it parses (a few ms; the others it parses without their print format,
 * and their field declarations are checked in dat_format_check.c).
 */
static int formats_survive(int fd, const struct sl_dat_layout *l, const struct formats_read *fr,
			   bool full, struct sl_error *err)
{
	char rec[PROGRESS_REC], last[PROGRESS_REC] = "";
	int p[2], status;
	pid_t pid;

	/* our checks first, of every format parsed in full: the child's exit would not say */
	if (full) {
		struct parse_how how = { .full = true, .check_only = true, .progress = -1 };
		struct tep_handle *tep = tep_for(l);
		int ret;

		if (!tep) {
			sl_error_set(err, "out of memory");
			return -ENOMEM;
		}
		ret = parse_all_formats(fd, l, fr, tep, &how, err);
		tep_free(tep);
		if (ret)
			return ret;
	}

	if (pipe(p))
		return 0;		/* no sandbox: parse as before */
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return 0;
	}
	if (pid == 0) {
		static const int deadly[] = { SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT };
		struct parse_how how = { .full = full, .decoded_only = !full, .progress = p[1] };
		struct sl_error e;
		int null = open("/dev/null", O_WRONLY);
		struct tep_handle *tep;

		close(p[0]);
		/* die of it, silently: no sanitizer's or fuzzer's handler in here */
		for (size_t i = 0; i < ARRAY_SIZE(deadly); i++)
			signal(deadly[i], SIG_DFL);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		tep = tep_for(l);
		if (tep)
			parse_all_formats(fd, l, fr, tep, &how, &e);
		_exit(0);
	}
	close(p[1]);
	for (;;) {
		size_t got = 0;
		ssize_t n = 0;

		while (got < sizeof(rec) && (n = read(p[0], rec + got, sizeof(rec) - got)) > 0)
			got += (size_t)n;
		if (n < 0 && errno == EINTR)
			continue;
		if (got < sizeof(rec))
			break;
		memcpy(last, rec, sizeof(rec));
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	last[sizeof(last) - 1] = '\0';
	if (WIFSIGNALED(status))
		sl_error_set(err, "corrupt event format %s: libtraceevent cannot parse it "
			     "(it crashed on it: %s)", last[0] ? last : "?", strsignal(WTERMSIG(status)));
	else
		sl_error_set(err, "corrupt event format %s: libtraceevent cannot parse it",
			     last[0] ? last : "?");
	return -EINVAL;
}

int sl_dat_formats_check(int fd, const struct sl_dat_layout *l, struct sl_error *err)
{
	return formats_survive(fd, l, NULL, true, err);
}

/*
 * tep_parse_printk_formats() (libtraceevent 1.7.1) splits each line at
 * its first ':' and copies from the byte after the one that follows: on a
 * line without a ':', or one that ends at it, that is past the line's end
 * (past the buffer, on the last line; fuzzing found it), and
 * tep_register_print_string() then looks at the last three bytes of the
 * format after its opening quote, before its start when it is shorter.
 * The kernel writes "0xaddr : \"fmt\\n\"": hand it only lines with a
 * format of three bytes or more after ": " and the quote.
 */
static void parse_printk(struct tep_handle *tep, const char *text)
{
	size_t len = strlen(text), out = 0;
	char *clean = xmalloc(len + 2);	/* a newline may be added to the last line */

	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
		const char *tok = line, *colon, *fmt;

		while (tok < end && *tok == ':')	/* strtok_r() skips leading separators */
			tok++;
		colon = memchr(tok, ':', (size_t)(end - tok));
		fmt = colon ? colon + 2 : end;		/* after ": " */

		if (fmt < end && *fmt == '"')
			fmt++;
		if (fmt < end && end - fmt >= 3) {
			memcpy(clean + out, line, (size_t)(end - line));
			out += (size_t)(end - line);
			clean[out++] = '\n';
		}
		line = nl ? nl + 1 : end;
	}
	clean[out] = '\0';
	if (out)
		tep_parse_printk_formats(tep, clean);
	free(clean);
}

int sl_dat_tep_load(int fd, const struct sl_dat_layout *l, struct tep_handle **out,
		    struct sl_kallsyms **ksyms, struct sl_dat_names *names, struct sl_error *err)
{
	return sl_dat_tep_load_cmdlines(fd, l, out, ksyms, names, NULL, err);
}

int sl_dat_tep_load_cmdlines(int fd, const struct sl_dat_layout *l, struct tep_handle **out,
			     struct sl_kallsyms **ksyms, struct sl_dat_names *names,
			     struct sl_dat_cmdlines *cmdlines, struct sl_error *err)
{
	struct parse_how how = { .full = false, .progress = -1, .names = names };
	struct formats_read fr;
	struct tep_handle *tep;
	struct walk w;
	int ret;

	*out = NULL;
	if (ksyms)
		*ksyms = NULL;
	if (cmdlines)
		memset(cmdlines, 0, sizeof(*cmdlines));
	formats_read(fd, l, &fr);
	ret = formats_survive(fd, l, &fr, false, err);
	if (ret) {
		formats_unread(&fr);
		return ret;
	}
	tep = tep_for(l);
	if (!tep) {
		formats_unread(&fr);
		sl_error_set(err, "out of memory");
		return -ENOMEM;
	}
	ret = parse_all_formats(fd, l, &fr, tep, &how, err);
	formats_unread(&fr);
	if (ret)
		goto fail;

	/* kallsyms and printk formats: 4-byte size + text; cmdlines: 8-byte size + text */
	static const struct { enum sl_dat_section_id id; int size_bytes; } texts[] = {
		{ SL_DAT_KALLSYMS, 4 }, { SL_DAT_PRINTK, 4 }, { SL_DAT_CMDLINES, 8 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		uint64_t size;
		const char *text;

		if (texts[i].id == SL_DAT_KALLSYMS && !ksyms)
			continue;

		ret = load(fd, l, texts[i].id, &w, err);
		if (ret)
			goto fail;
		size = w.p ? take_num(&w, texts[i].size_bytes) : 0;
		text = take(&w, size);
		if (text && size) {
			/*
			 * The parsers want a C string.  The section buffer has a
			 * NUL after its end, so a text that ends the section is one.
			 */
			char *copy = NULL;

			if (w.pos != w.len) {
				copy = xmalloc(size + 1);
				memcpy(copy, text, size);
				copy[size] = '\0';
				text = copy;
			}
			if (texts[i].id == SL_DAT_KALLSYMS) {
				/* the table keeps the text (5 MB here): no copy of it */
				void *owner = copy ? copy : (void *)w.p;

				*ksyms = sl_kallsyms_load(tep, (char *)text, (size_t)size, owner);
				if (owner == w.p)
					w.p = NULL;
				copy = NULL;
			} else if (texts[i].id == SL_DAT_PRINTK) {
				parse_printk(tep, text);
			} else if (cmdlines) {
				/*
				 * The saved cmdlines are loaded (a section that is
				 * not there or does not decompress is refused as
				 * before) but not parsed: every comm we report but
				 * one comes from an event's fields, and
				 * tep_parse_saved_cmdlines() takes a sscanf() and a
				 * sorted insert per line: 17.7 M instructions for
				 * the 82 KB of a hackbench recording, 11% of the
				 * reader's start-up.  The one: timehist's name of a
				 * task no event has named (sl_dat_cmdlines_comm()
				 * parses them then).  The text is kept as loaded,
				 * not copied.
				 */
				cmdlines->text = text;
				cmdlines->buf = copy ? copy : (char *)w.p;
				if (!copy)
					w.p = NULL;
				copy = NULL;
			}
			free(copy);
		}
		unload(&w);
	}
	*out = tep;
	return 0;
fail:
	if (names)
		sl_dat_names_free(names);
	if (cmdlines)
		sl_dat_cmdlines_free(cmdlines);
	tep_free(tep);
	return ret;
}

const char *sl_dat_cmdlines_comm(struct sl_dat_cmdlines *c, int pid)
{
	if (!c->tep && c->text) {
		c->tep = tep_alloc();
		if (c->tep && tep_parse_saved_cmdlines(c->tep, c->text)) {
			tep_free(c->tep);
			c->tep = NULL;
		}
		free(c->buf);
		c->buf = NULL;
		c->text = NULL;
	}
	if (!c->tep || pid <= 0 || !tep_is_pid_registered(c->tep, pid))
		return NULL;
	return tep_data_comm_from_pid(c->tep, pid);
}

void sl_dat_cmdlines_free(struct sl_dat_cmdlines *c)
{
	free(c->buf);
	if (c->tep)
		tep_free(c->tep);
	memset(c, 0, sizeof(*c));
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dat_meta.h - a trace.dat's metadata into a libtraceevent handle
 */
#ifndef SCHEDLINT_DAT_META_H
#define SCHEDLINT_DAT_META_H

#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

#include "dat_layout.h"

struct sl_kallsyms;

/* Events known by name and id only (sl_dat_tep_load()'s names). */
struct sl_dat_names {
	struct sl_dat_name {
		int32_t id;
		char *name;
	} *v;
	uint32_t nr;
	size_t alloc;
	/* formats of events not decoded that dat_format_check.c refuses: never parsed */
	uint32_t nr_ignored;
	char first_ignored[128];	/* "system:name (what is wrong)" of the first */
};
void sl_dat_names_free(struct sl_dat_names *names);

/*
 * Parse the header page, ftrace and event formats, kallsyms and printk
 * formats of the file (open as fd, layout l) into a new tep handle, as
 * libtracecmd would; its saved cmdlines are read but not parsed (tep's
 * pid -> comm table stays empty; sl_dat_tep_load_cmdlines() keeps them).  0 and *out (tep_free() it, then
 * sl_kallsyms_free(*ksyms)), or -errno with err set.  The kallsyms are
 * read only when ksyms is not NULL (kallsyms.c; *ksyms may be NULL then
 * too: tep's own parser took them).  Every event is in tep, its print
 * format parsed only for the events the flyrecord reader decodes; with
 * names (zeroed by the caller, sl_dat_names_free() it), the others go to
 * names instead, by name and id (all the decoder needs), once tep holds
 * an event with the common fields.
 */
int sl_dat_tep_load(int fd, const struct sl_dat_layout *l, struct tep_handle **out,
		    struct sl_kallsyms **ksyms, struct sl_dat_names *names, struct sl_error *err);

/*
 * A trace.dat's saved cmdlines (the pid -> comm table the kernel kept,
 * as it stood at the recording's end): the section's text, kept by
 * sl_dat_tep_load_cmdlines() (which zeroes *cmdlines first; NULL: not
 * kept), parsed by libtraceevent (tep_parse_saved_cmdlines(), into a tep
 * of their own) at the first sl_dat_cmdlines_comm() only.  That returns
 * pid's name, valid until sl_dat_cmdlines_free(), or NULL: none saved.
 * It touches nothing but *c: it may run on another thread than the
 * reader's next() (one thread at a time).
 */
struct sl_dat_cmdlines {
	const char *text;		/* not parsed yet (NULL: none, or parsed), in buf */
	char *buf;
	struct tep_handle *tep;		/* parsed */
};
int sl_dat_tep_load_cmdlines(int fd, const struct sl_dat_layout *l, struct tep_handle **out,
			     struct sl_kallsyms **ksyms, struct sl_dat_names *names,
			     struct sl_dat_cmdlines *cmdlines, struct sl_error *err);
const char *sl_dat_cmdlines_comm(struct sl_dat_cmdlines *c, int pid);
void sl_dat_cmdlines_free(struct sl_dat_cmdlines *c);

/*
 * Would libtraceevent survive parsing every format of the file in full,
 * as libtracecmd will?  Tried in a child process (dat_meta.c).  0, or
 * -EINVAL with err naming the format it crashed on.
 */
int sl_dat_formats_check(int fd, const struct sl_dat_layout *l, struct sl_error *err);

#endif /* SCHEDLINT_DAT_META_H */

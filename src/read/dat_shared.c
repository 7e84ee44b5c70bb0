// SPDX-License-Identifier: GPL-2.0
/*
 * dat_shared.c - what both trace.dat readers share
 *
 * read_dat.c (libtracecmd) and read_flyrecord.c (our own) call these
 * after the layout walk; reader.c chooses between the two.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <trace-cmd.h>

#include "dat_decode.h"
#include "dat_shared.h"
#include "util/util.h"

void sl_dat_warn_buffers(const char *path, const struct sl_dat_layout *l)
{
	char names[256];

	if (l->buffer[0] || !l->nr_buffers)
		return;
	sl_dat_buffer_names(l, names, sizeof(names));
	warn_msg("%s: read the top-level buffer only; the file also has buffer%s %s "
		 "(trace-cmd -B; read one with --buffer=NAME)", path,
		 l->nr_buffers > 1 ? "s" : "", names);
}

struct tracecmd_input *sl_dat_open_head(const char *path, const struct sl_dat_layout *l,
					struct sl_error *err)
{
	struct tracecmd_input *handle;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle && l->compression == SL_DAT_COMPRESS_ZLIB)
		sl_error_set(err, "this libtracecmd cannot read zlib-compressed files "
			     "(use --reader=flyrecord)");
	else if (!handle)
		sl_error_set(err, "libtracecmd cannot read the headers of this trace.dat "
			     "(corrupt event formats or metadata)");
	return handle;
}

static void fill_kernel_release(struct sl_trace_info *info, const char *uname)
{
	/* "Linux host 6.18.44-fc #1 SMP ..." : the release is the third word */
	const char *p = uname;

	snprintf(info->uname, sizeof(info->uname), "%s", uname);
	for (int word = 0; word < 2 && p; word++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p)
		return;
	size_t len = strcspn(p, " ");

	if (len >= sizeof(info->kernel))
		len = sizeof(info->kernel) - 1;
	memcpy(info->kernel, p, len);
	info->kernel[len] = '\0';
}

void sl_dat_info_fill(struct sl_trace_info *info, const struct sl_dat_layout *layout,
		      struct tep_handle *tep)
{
	info->file_version = layout->version;
	info->format = layout->version >= 7 ? SL_FMT_DAT7 : SL_FMT_DAT6;
	info->ncpus = layout->nr_cpus;
	if (layout->uname[0])
		fill_kernel_release(info, layout->uname);
	snprintf(info->clock, sizeof(info->clock), "%s", layout->clock);
	snprintf(info->compression, sizeof(info->compression), "%s", layout->compression_name);
	sl_dat_fill_info(tep, info);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - reader -> model -> analyzers, once over the trace
 */
#include <stdlib.h>
#include <string.h>

#include "schedlint/analysis.h"
#include "util.h"

int sl_analysis_run(const char *path, const struct sl_config *cfg,
		    sl_event_cb cb, void *cb_data,
		    struct sl_analysis **out, struct sl_error *err)
{
	struct sl_analysis *an = xcalloc(1, sizeof(*an));
	struct sl_reader *reader;
	struct sl_event ev;
	int ret;

	*out = NULL;
	an->path = xstrdup(path);
	an->strtab = sl_strtab_new();
	ret = sl_reader_open(path, &cfg->read, an->strtab, &reader, err);
	if (ret < 0) {
		sl_analysis_free(an);
		return ret;
	}
	an->info = reader->info;
	an->model = sl_model_new(cfg, an->strtab, &an->info);

	while ((ret = sl_reader_next(reader, &ev)) > 0) {
		/* past --to: nothing later can be reported */
		if (an->model->cfg->to_set && !an->model->cfg->to_rel &&
		    ev.ts > an->model->cfg->to_ns)
			break;
		if (cb)
			cb(cb_data, &ev);
		sl_model_feed(an->model, &ev);
		/* facts the reader learns while reading (lost events, CPU count, bad lines) */
		if (ev.type == SL_EV_LOST)
			an->info = reader->info;
	}
	if (ret < 0) {
		sl_reader_close(reader);
		sl_analysis_free(an);
		return ret;
	}
	an->info = reader->info;
	sl_reader_close(reader);
	sl_model_finish(an->model);
	*out = an;
	return 0;
}

void sl_analysis_free(struct sl_analysis *an)
{
	if (!an)
		return;
	sl_model_free(an->model);
	sl_strtab_free(an->strtab);
	free(an->path);
	free(an);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * model_only.c - a trace through schedlint's reader and model, with no
 * analyzer: the same sl_analysis_run() as analyze (two threads, or one
 * with SCHEDLINT_THREADS=1), its config with the analyzers taken out,
 * and no report.  With read_only.c it splits analyze's cost three ways:
 * the reader (read_only), the model (model_only less read_only) and the
 * analyzers with the report (analyze less model_only).
 *
 *   model_only [--reader=flyrecord|libtracecmd] TRACE   -> "events N"
 */
#include <stdio.h>
#include <string.h>

#include "cmd/options.h"
#include "schedlint/analysis.h"
#include "schedlint/config.h"

int main(int argc, char **argv)
{
	struct sl_config cfg;
	struct sl_error err = { "" };
	struct sl_analysis *an;
	int arg = 1;

	sl_config_init(&cfg);
	if (argc == 3 && !strncmp(argv[1], "--reader=", 9)) {
		if (sl_parse_reader_opt(argv[1] + 9, &cfg.read.dat_reader)) {
			fprintf(stderr, "model_only: unknown reader %s\n", argv[1] + 9);
			return 2;
		}
		arg = 2;
	}
	if (arg != argc - 1) {
		fprintf(stderr, "usage: model_only [--reader=flyrecord|libtracecmd] TRACE\n");
		return 2;
	}
	cfg.nr_analyzers = 0;		/* the model's own work only */
	if (sl_analysis_run(argv[arg], &cfg, NULL, NULL, &an, &err) < 0) {
		fprintf(stderr, "%s: %s\n", argv[arg], err.msg);
		sl_config_free(&cfg);
		return 2;
	}
	printf("events %llu\n", (unsigned long long)an->model->nr_events);
	sl_analysis_free(an);
	sl_config_free(&cfg);
	return 0;
}

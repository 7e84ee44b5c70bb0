// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_dump.c - schedlint dump: print the normalized event stream
 *
 * One line per event, the same for every input format, so a user can
 * see what schedlint understood of a trace, and tests can compare the
 * readers (trace.dat vs its text, libtracecmd vs our flyrecord reader).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "options.h"
#include "output.h"
#include "read/dat_layout.h"
#include "schedlint/reader.h"
#include "util/util.h"

static const char dump_usage[] =
	"usage: schedlint dump [--reader=flyrecord|libtracecmd] [--buffer=NAME] [TRACE]\n"
	"       schedlint dump --layout [--buffer=NAME] [TRACE.dat]\n"
	"\n"
	"Print the normalized events schedlint reads from TRACE (default trace.dat),\n"
	"one per line: ts_ns cpu pid ctx name type fields.\n"
	"--layout prints where a trace.dat keeps its CPU data instead.\n"
	"--buffer reads a trace.dat's instance buffer (trace-cmd -B NAME).\n";

static void print_ctx(FILE *f, uint8_t ctx)
{
	if (!(ctx & SL_CTX_KNOWN)) {
		fputs("-", f);
		return;
	}
	fputc(ctx & SL_CTX_NMI ? 'n' : ctx & SL_CTX_HARDIRQ ? 'h' : ctx & SL_CTX_SOFTIRQ ? 's' : '.', f);
}

static void print_mask(FILE *f, const struct sl_cpumask_ref *m)
{
	bool first = true;

	fputs(" mask=", f);
	for (uint32_t w = 0; w < m->nr_words; w++)
		for (int b = 0; b < 64; b++)
			if (m->words[w] >> b & 1) {
				fprintf(f, "%s%u", first ? "" : ",", w * 64 + b);
				first = false;
			}
}

void sl_dump_event(FILE *f, const struct sl_strtab *st, const struct sl_event *ev)
{
	static const char *const classes[] = { "R", "R+", "B", "X" };

	fprintf(f, "%" PRIu64 " %d %d ", ev->ts, ev->cpu, ev->pid);
	print_ctx(f, ev->ctx);
	fprintf(f, " %s %s", sl_str(st, ev->name), sl_event_type_name(ev->type));
	switch (ev->type) {
	case SL_EV_SWITCH:
		fprintf(f, " prev=%d:%s:%d:%s:%c next=%d:%s:%d",
			ev->sw.prev_pid, sl_str(st, ev->sw.prev_comm), ev->sw.prev_prio,
			classes[ev->sw.prev_class & 3], ev->sw.prev_letter ? ev->sw.prev_letter : '?',
			ev->sw.next_pid, sl_str(st, ev->sw.next_comm), ev->sw.next_prio);
		break;
	case SL_EV_WAKING:
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		fprintf(f, " pid=%d comm=%s prio=%d target=%d%s", ev->wake.pid,
			sl_str(st, ev->wake.comm), ev->wake.prio, ev->wake.target_cpu,
			ev->wake.success ? "" : " success=0");
		break;
	case SL_EV_MIGRATE:
		fprintf(f, " pid=%d comm=%s prio=%d orig=%d dest=%d", ev->migrate.pid,
			sl_str(st, ev->migrate.comm), ev->migrate.prio,
			ev->migrate.orig_cpu, ev->migrate.dest_cpu);
		break;
	case SL_EV_FORK:
		fprintf(f, " parent=%d:%s child=%d:%s", ev->fork.parent_pid,
			sl_str(st, ev->fork.parent_comm), ev->fork.child_pid,
			sl_str(st, ev->fork.child_comm));
		break;
	case SL_EV_EXIT:
		fprintf(f, " pid=%d comm=%s prio=%d", ev->exit.pid, sl_str(st, ev->exit.comm),
			ev->exit.prio);
		break;
	case SL_EV_IPI_SEND_CPU:
	case SL_EV_IPI_SEND_CPUMASK:
	case SL_EV_IPI_RAISE:
	case SL_EV_IPI_ENTRY:
	case SL_EV_CSD_QUEUE:
	case SL_EV_CSD_FUNC_ENTRY:
		if (ev->ipi.target_cpu >= 0)
			fprintf(f, " target=%d", ev->ipi.target_cpu);
		else
			print_mask(f, &ev->ipi.mask);
		fprintf(f, " callsite=%s callback=%s", sl_str(st, ev->ipi.callsite),
			sl_str(st, ev->ipi.callback));
		break;
	case SL_EV_IRQ_VECTOR:
	case SL_EV_TIMER_TICK:
		fprintf(f, " vector=%d", ev->irq.vector);
		break;
	case SL_EV_WAKE_IDLE_NO_IPI:
		fprintf(f, " target=%d", ev->idle_no_ipi.target_cpu);
		break;
	case SL_EV_LOST:
		fprintf(f, " count=%" PRIu64, ev->lost.count);
		break;
	case SL_EV_MARKER:
		fprintf(f, " text=%s", sl_str(st, ev->marker.text));
		break;
	default:
		break;
	}
	fputc('\n', f);
}

/* dump --layout: what the layout walk found, one fact per line. */
static int dump_layout(const char *path, const char *buffer)
{
	struct sl_dat_layout l;
	struct sl_error err = { "" };
	int status = 0;

	if (sl_dat_layout_read_buffer(path, buffer, &l, &err) < 0) {
		error_msg("%s: %s", path, err.msg);
		return 2;
	}
	sl_output_begin(stdout);
	printf("version %d\nendian %s\nlong_size %d\npage_size %u\nsubbuf_size %u\n"
	       "file_size %" PRIu64 "\ncompression %s\ncpus %d\nclock %s\n",
	       l.version, l.big_endian ? "big" : "little", l.long_size, l.page_size,
	       l.subbuf_size, l.file_size, l.compression_name, l.nr_cpus,
	       l.clock[0] ? l.clock : "-");
	printf("buffer %s\n", l.buffer[0] ? l.buffer : "-");
	for (int i = 0; i < l.nr_buffers && i < SL_DAT_MAX_BUFFERS; i++)
		printf("instance %s\n", l.buffers[i]);
	for (int i = 0; i < l.nr_cpu_data; i++)
		printf("cpu %d offset %" PRIu64 " size %" PRIu64 " %s\n", l.cpu_data[i].cpu,
		       l.cpu_data[i].offset, l.cpu_data[i].size,
		       l.cpu_compressed ? "chunks" : "pages");
	if (sl_output_end(stdout) < 0)
		status = 2;
	sl_dat_layout_free(&l);
	return status;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "layout", no_argument,       NULL, 'l' },
		{ "reader", required_argument, NULL, 'r' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "help",   no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sl_read_opts ropts = { 0 };
	struct sl_reader *reader;
	struct sl_strtab *st;
	struct sl_error err = { "" };
	struct sl_event ev;
	const char *path = "trace.dat";
	bool layout = false;
	int c, ret, status = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (sl_parse_reader_opt(optarg, &ropts.dat_reader)) {
				error_msg("dump: --reader must be libtracecmd or flyrecord");
				return 2;
			}
			break;
		case 'b':
			ropts.dat_buffer = optarg;
			break;
		case 'l':
			layout = true;
			break;
		case 'h':
			fputs(dump_usage, stdout);
			return 0;
		default:
			fputs(dump_usage, stderr);
			return 2;
		}
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc) {
		error_msg("dump: more than one trace given");
		return 2;
	}
	if (layout)
		return dump_layout(path, ropts.dat_buffer);

	st = sl_strtab_new();
	ret = sl_reader_open(path, &ropts, st, &reader, &err);
	if (ret < 0) {
		error_msg("%s: %s", path, err.msg);
		sl_strtab_free(st);
		return 2;
	}
	sl_output_begin(stdout);
	while ((ret = sl_reader_next(reader, &ev)) > 0) {
		sl_dump_event(stdout, st, &ev);
		if (ferror(stdout))
			break;		/* reported below; no use reading the rest */
	}
	if (ret < 0) {
		error_msg("%s: %s", path, err.msg);
		status = 2;
	}
	if (sl_output_end(stdout) < 0)
		status = 2;
	sl_reader_close(reader);
	sl_strtab_free(st);
	return status;
}

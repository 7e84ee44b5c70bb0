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
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "options.h"
#include "output.h"
#include "pager.h"
#include "read/dat_layout.h"
#include "schedlint/model.h"
#include "schedlint/reader.h"
#include "util/util.h"

static const char dump_usage[] =
	"usage: schedlint dump [options] [TRACE | -i TRACE]\n"
	"       schedlint dump --layout [--buffer=NAME] [TRACE.dat]\n"
	"\n"
	"Print the normalized events schedlint reads from TRACE (default trace.dat),\n"
	"one per line: time cpu pid ctx name type fields; the time in seconds as\n"
	"trace-cmd report prints it (rounded to the microsecond).\n"
	"\n"
	"  --ns                  the time in nanoseconds, exact\n"
	"  --from=T, --to=T      only this window: trace seconds (913.5) or\n"
	"                        +DURATION from the first event (+100ms)\n"
	"  --cpus=LIST           only the events these CPUs logged, e.g. 0-3,8\n"
	"  --pid=PID[,PID...]    only events of or about these tasks\n"
	"  --comm=COMM           only events of or about tasks named COMM (repeatable)\n"
	"  --reader=R            trace.dat reader: flyrecord (default) or libtracecmd\n"
	"  --buffer=NAME         trace.dat: this instance buffer (trace-cmd -B NAME)\n"
	"  --layout              where a trace.dat keeps its CPU data, not the events\n"
	"                        (the events' options are refused with it)\n"
	"  --no-pager            never page (as schedlint --no-pager dump)\n";

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

/* One event; its time in ns (ns) or in trace-cmd's seconds. */
static void dump_event(FILE *f, const struct sl_strtab *st, const struct sl_event *ev, bool ns)
{
	static const char *const classes[] = { "R", "R+", "B", "X" };
	char ts[32];

	if (ns)
		fprintf(f, "%" PRIu64 " %d %d ", ev->ts, ev->cpu, ev->pid);
	else
		fprintf(f, "%s %d %d ", fmt_ts(ts, sizeof(ts), ev->ts), ev->cpu, ev->pid);
	print_ctx(f, ev->ctx);
	fprintf(f, " %s %s", sl_str(st, ev->name), sl_event_type_name(ev->type));
	switch (ev->type) {
	case SL_EV_SWITCH:
		fprintf(f, " prev=%d:%s:%d:%s:%c next=%d:%s:%d",
			ev->sw.prev_pid, sl_str(st, ev->sw.prev_comm),
			sl_prio_shown(ev->sw.prev_prio),
			classes[ev->sw.prev_class & 3], ev->sw.prev_letter ? ev->sw.prev_letter : '?',
			ev->sw.next_pid, sl_str(st, ev->sw.next_comm),
			sl_prio_shown(ev->sw.next_prio));
		break;
	case SL_EV_WAKING:
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		fprintf(f, " pid=%d comm=%s prio=%d target=%d%s", ev->wake.pid,
			sl_str(st, ev->wake.comm),
			sl_prio_shown(ev->wake.prio), ev->wake.target_cpu,
			ev->wake.success ? "" : " success=0");
		break;
	case SL_EV_MIGRATE:
		fprintf(f, " pid=%d comm=%s prio=%d orig=%d dest=%d", ev->migrate.pid,
			sl_str(st, ev->migrate.comm), sl_prio_shown(ev->migrate.prio),
			ev->migrate.orig_cpu, ev->migrate.dest_cpu);
		break;
	case SL_EV_FORK:
		fprintf(f, " parent=%d:%s child=%d:%s", ev->fork.parent_pid,
			sl_str(st, ev->fork.parent_comm), ev->fork.child_pid,
			sl_str(st, ev->fork.child_comm));
		break;
	case SL_EV_EXIT:
		fprintf(f, " pid=%d comm=%s prio=%d", ev->exit.pid, sl_str(st, ev->exit.comm),
		sl_prio_shown(ev->exit.prio));
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

/* The tests' and fuzzers' form: the time in ns. */
void sl_dump_event(FILE *f, const struct sl_strtab *st, const struct sl_event *ev)
{
	dump_event(f, st, ev, true);
}

/* The tasks an event is of (its common pid) or about (woken, switched, ...): up to 3. */
static int event_tasks(const struct sl_event *ev, int32_t pid[3], uint32_t comm[3])
{
	int n = 0;

	switch (ev->type) {
	case SL_EV_SWITCH:
		pid[n] = ev->sw.prev_pid, comm[n++] = ev->sw.prev_comm;
		pid[n] = ev->sw.next_pid, comm[n++] = ev->sw.next_comm;
		break;
	case SL_EV_WAKING:
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		pid[n] = ev->wake.pid, comm[n++] = ev->wake.comm;
		break;
	case SL_EV_MIGRATE:
		pid[n] = ev->migrate.pid, comm[n++] = ev->migrate.comm;
		break;
	case SL_EV_FORK:
		pid[n] = ev->fork.parent_pid, comm[n++] = ev->fork.parent_comm;
		pid[n] = ev->fork.child_pid, comm[n++] = ev->fork.child_comm;
		break;
	case SL_EV_EXIT:
		pid[n] = ev->exit.pid, comm[n++] = ev->exit.comm;
		break;
	default:
		break;
	}
	return n;
}

/*
 * dump's filters.  A task's comm is known from the events that name it;
 * the task an event is logged by (common_pid) is matched by the comm it
 * had when last named (comm_of[pid]).
 */
struct dump_filter {
	const struct sl_config *cfg;
	const struct sl_strtab *st;
	uint64_t from, to;		/* inclusive, in ns, after the first event */
	bool resolved;			/* +DURATION made absolute */
	uint32_t *comm_of;		/* by pid, when --comm is given */
	size_t nr_comm_of;
};

static bool comm_wanted(const struct dump_filter *df, uint32_t comm)
{
	const char *name = sl_str(df->st, comm);

	for (size_t i = 0; i < df->cfg->nr_comms; i++)
		if (!strcmp(df->cfg->comms[i], name))
			return true;
	return false;
}

static bool pid_wanted(const struct dump_filter *df, int32_t pid)
{
	for (size_t i = 0; i < df->cfg->nr_pids; i++)
		if (df->cfg->pids[i] == pid)
			return true;
	return false;
}

/* -1: past --to (nothing later passes), 0: filtered out, 1: print it */
static int dump_filter(struct dump_filter *df, const struct sl_event *ev)
{
	const struct sl_config *cfg = df->cfg;
	int32_t pid[3];
	uint32_t comm[3];
	int n = event_tasks(ev, pid, comm);
	bool task_ok;

	if (!df->resolved) {
		/*
		 * "+100ms" counts from the first event, not from a lost-events
		 * marker (as the model's start_trace()): the markers before it
		 * are before such a --from and such a --to's end
		 */
		bool wait = ev->type == SL_EV_LOST && ((cfg->from_set && cfg->from_rel) ||
							(cfg->to_set && cfg->to_rel));

		df->from = !cfg->from_set ? 0 : !cfg->from_rel ? cfg->from_ns :
			   wait ? UINT64_MAX : cfg->from_ns + ev->ts;
		df->to = !cfg->to_set || (cfg->to_rel && wait) ? UINT64_MAX :
			 cfg->to_ns + (cfg->to_rel ? ev->ts : 0);
		df->resolved = !wait;
	}
	if (cfg->nr_comms) {
		for (int i = 0; i < n; i++)
			if (pid[i] > 0 && (size_t)pid[i] < (1u << 22)) {
				GROW(df->comm_of, df->nr_comm_of, (size_t)pid[i] + 1);
				df->comm_of[pid[i]] = comm[i];
			}
	}
	if (ev->ts > df->to)
		return -1;
	if (ev->ts < df->from || !sl_filter_cpu(cfg, ev->cpu))
		return 0;
	if (!cfg->nr_pids && !cfg->nr_comms)
		return 1;
	task_ok = pid_wanted(df, ev->pid);
	for (int i = 0; i < n && !task_ok; i++)
		task_ok = pid_wanted(df, pid[i]);
	if (cfg->nr_comms) {
		if (ev->pid > 0 && (size_t)ev->pid < df->nr_comm_of && df->comm_of[ev->pid])
			task_ok = task_ok || comm_wanted(df, df->comm_of[ev->pid]);
		for (int i = 0; i < n && !task_ok; i++)
			task_ok = comm_wanted(df, comm[i]);
	}
	return task_ok;
}

/* dump --layout: what the layout walk found, one fact per line. */
static bool has_filter(const struct sl_config *cfg)
{
	return cfg->cpus.nr_words || cfg->nr_pids || cfg->nr_comms || cfg->from_set || cfg->to_set;
}

/* The filters given, by name: "--cpus, --pid, --from/--to" */
static const char *filter_names(const struct sl_config *cfg)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s%s%s%s", cfg->cpus.nr_words ? ", --cpus" : "",
		 cfg->nr_pids ? ", --pid" : "", cfg->nr_comms ? ", --comm" : "",
		 cfg->from_set && cfg->to_set ? ", --from/--to" : cfg->from_set ? ", --from" :
		 cfg->to_set ? ", --to" : "");
	return buf + 2;
}

static int dump_layout(const char *path, const char *buffer)
{
	struct sl_dat_layout l;
	struct sl_error err = { "" };
	int status = 0;

	if (sl_dat_layout_read_buffer(path, buffer, &l, &err) < 0) {
		char magic[10] = "";
		FILE *f = fopen(path, "rb");

		/* a perf.data or a text is no damaged trace.dat ("bad magic"): it has no such layout */
		if (f && fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
		    memcmp(magic, "\027\010\104tracing", sizeof(magic)))
			error_msg("%s: not a trace.dat: --layout shows a trace.dat's layout; schedlint "
				  "dump without it reads %s", path,
				  !memcmp(magic, "PERFILE2", 8) ? "this perf.data" : "any trace");
		else
			error_msg("%s: %s", path, err.msg);
		if (f)
			fclose(f);
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
	enum { OPT_NS = 1, OPT_NO_PAGER };
	static const struct option long_opts[] = {
		{ "layout", no_argument,       NULL, 'l' },
		{ "reader", required_argument, NULL, 'r' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "ns",     no_argument,       NULL, OPT_NS },
		{ "no-pager", no_argument,     NULL, OPT_NO_PAGER },
		{ "cpus",   required_argument, NULL, SL_OPT_CPUS },
		{ "pid",    required_argument, NULL, SL_OPT_PID },
		{ "comm",   required_argument, NULL, SL_OPT_COMM },
		{ "from",   required_argument, NULL, SL_OPT_FROM },
		{ "to",     required_argument, NULL, SL_OPT_TO },
		{ "help",   no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sl_config cfg;
	struct dump_filter df = { .cfg = &cfg };
	struct sl_reader *reader;
	struct sl_strtab *st;
	struct sl_error err = { "" };
	struct sl_event ev;
	const char *path = NULL;
	bool layout = false, ns = false;
	const char *events_only = NULL;	/* the last option --layout has no use for */
	uint64_t printed = 0;
	int c, ret, status = 0;

	sl_config_init(&cfg);
	optind = 1;
	while ((c = sl_getopt(argc, argv, "hi:", long_opts)) != -1) {
		switch (c) {
		case 'r':
			if (sl_parse_reader_opt(optarg, &cfg.read.dat_reader)) {
				error_msg("dump: --reader must be libtracecmd or flyrecord");
				goto usage;
			}
			events_only = "--reader";
			break;
		case 'b':
			cfg.read.dat_buffer = optarg;
			break;
		case 'l':
			layout = true;
			break;
		case OPT_NS:
			ns = true;
			events_only = "--ns";
			break;
		case OPT_NO_PAGER:
			sl_no_pager = true;
			break;
		case 'i':
			if (path) {
				error_msg("dump: more than one trace given");
				goto usage;
			}
			path = optarg;
			break;
		case 'h':
			fputs(dump_usage, stdout);
			sl_config_free(&cfg);
			return 0;
		default:
			if (c >= SL_OPT_BASE && c < SL_OPT__END) {
				if (sl_config_option(&cfg, c, optarg, "dump"))
					goto usage;
				events_only = c == SL_OPT_CPUS ? "--cpus" : c == SL_OPT_PID ? "--pid" :
					      c == SL_OPT_COMM ? "--comm" : c == SL_OPT_FROM ? "--from" :
					      "--to";
				break;
			}
			goto usage;
		}
	}
	if (optind < argc && path) {
		error_msg("dump: more than one trace given");
		goto usage;
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc) {
		error_msg("dump: more than one trace given");
		goto usage;
	}
	if (!path)
		path = "trace.dat";
	if (layout && events_only) {
		error_msg("dump: %s applies to the events, not to --layout", events_only);
		goto usage;
	}
	if (layout) {
		status = dump_layout(path, cfg.read.dat_buffer);
		sl_config_free(&cfg);
		return status;
	}

	st = sl_strtab_new();
	df.st = st;
	ret = sl_reader_open(path, &cfg.read, st, &reader, &err);
	if (ret < 0) {
		error_msg("%s: %s", path, err.msg);
		sl_strtab_free(st);
		sl_config_free(&cfg);
		return 2;
	}
	sl_pager_start();
	sl_output_begin(stdout);
	while ((ret = sl_reader_next(reader, &ev)) > 0) {
		int pass = dump_filter(&df, &ev);

		if (pass < 0)
			break;		/* past --to */
		if (pass) {
			dump_event(stdout, st, &ev, ns);
			printed++;
		}
		if (ferror(stdout))
			break;		/* reported below; no use reading the rest */
	}
	if (ret < 0) {
		error_msg("%s: %s", path, err.msg);
		status = 2;
	} else if (!printed && has_filter(&cfg)) {
		/* fail closed, as analyze does: a typo printed nothing, exit 0 */
		error_msg("%s: no event of the trace passes %s", path, filter_names(&cfg));
		status = 2;
	}
	if (sl_output_end(stdout) < 0)
		status = 2;
	sl_reader_close(reader);
	sl_strtab_free(st);
	free(df.comm_of);
	sl_config_free(&cfg);
	return status;

usage:
	fputs("usage: schedlint dump [options] [TRACE]   (--help for the options)\n", stderr);
	sl_config_free(&cfg);
	return 2;
}

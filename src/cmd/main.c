// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - schedlint: the subcommand table
 */
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "output.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct cmd commands[] = {
	{ "analyze", cmd_analyze, "report bad scheduler decisions and wakeup latency of a trace" },
	{ "diff",    cmd_diff,    "compare runs metric by metric; fail a CI job on a regression" },
	{ "dump",    cmd_dump,    "print the normalized events schedlint reads from a trace" },
	{ "timehist", cmd_timehist, "one line per wakeup: when woken, waited, ran (perf sched timehist)" },
	{ "record",  cmd_record,  "record a trace.dat of a command's run through a tracefs instance" },
	{ "explore", cmd_explore, "browse the analysis of a trace in the terminal" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: schedlint <command> [options] [TRACE]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nTRACE is a trace.dat (v6/v7), a perf.data, a tracefs trace file, trace-cmd\n"
		   "report or perf script output; '-' reads text (or perf record -o -) from\n"
		   "stdin.  'schedlint <command> --help' describes each command; see also\n"
		   "schedlint(1).\n");
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("schedlint %s\n", SCHEDLINT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "schedlint: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}

int main(int argc, char **argv)
{
	int status = run(argc, argv);

	/* whatever a command printed (help, a version) reached its reader */
	if (sl_output_end(stdout) < 0)
		status = 2;
	return status;
}

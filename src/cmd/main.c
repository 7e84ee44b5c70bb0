// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - schedlint: the subcommand table
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "options.h"
#include "output.h"
#include "pager.h"
#include "util/util.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct cmd commands[] = {
	{ "analyze", cmd_analyze, "report bad scheduler decisions and wakeup latency of a trace" },
	{ "diff",    cmd_diff,    "compare runs metric by metric; fail a CI job on a regression" },
	{ "dump",    cmd_dump,    "print the normalized events schedlint reads from a trace" },
	{ "timehist", cmd_timehist, "a row per context switch, as perf sched timehist prints it" },
	{ "record",  cmd_record,  "record a trace.dat of a command's run through a tracefs instance" },
	{ "explore", cmd_explore, "browse the analysis of a trace in the terminal" },
	{ "export",  cmd_export,  "write the analysis for Perfetto's UI, or as NDJSON rows" },
};

/* Other spellings people type */
static const struct { const char *alias, *name; } aliases[] = {
	{ "analyse", "analyze" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: schedlint [--no-pager] <command> [options] [TRACE]\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "  %-9s %s\n", "help", "open a command's manual page: schedlint help analyze");
	fprintf(f, "  %-9s %s\n", "version", "print schedlint's version");
	fprintf(f, "\nTRACE is a trace.dat (v6/v7), a perf.data, a tracefs trace file, trace-cmd\n"
		   "report or perf script output; '-' reads text (or perf record -o -) from\n"
		   "stdin.  'schedlint <command> --help' lists each command's options; see also\n"
		   "schedlint(1).\n");
}

static const struct cmd *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(name, aliases[i].alias))
			name = aliases[i].name;
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/*
 * "schedlint: unknown command 'analze'; did you mean 'analyze'?"; returns
 * whether it had a suggestion.
 */
static bool unknown_command(const char *who, const char *name)
{
	const char *names[ARRAY_SIZE(commands) + 2];
	const char *best;
	size_t nr = 0;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		names[nr++] = commands[i].name;
	names[nr++] = "help";
	names[nr++] = "version";
	best = sl_closest(name, names, nr);
	if (best)
		fprintf(stderr, "%s: unknown command '%s'; did you mean '%s'?\n", who, name, best);
	else
		fprintf(stderr, "%s: unknown command '%s'\n", who, name);
	return best != NULL;
}

extern char **environ;

/* Does man know page (installed, or on MANPATH)?  Asked without showing anything. */
static bool man_has_page(const char *page)
{
	char *argv[] = { (char *)"man", (char *)"-w", (char *)page, NULL };
	posix_spawn_file_actions_t fa;
	int status;
	pid_t pid;

	if (posix_spawn_file_actions_init(&fa))
		return false;
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "man", &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		return false;
	}
	posix_spawn_file_actions_destroy(&fa);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/*
 * The page file next to the binary: man/PAGE.1 of the source tree it
 * was built in, ../share/man/man1/PAGE.1 of the prefix it was installed
 * or staged under, or PAGE.1 beside it.  0 and path, or -1.
 */
static int local_page(const char *page, char *path, size_t len)
{
	static const char *const where[] = { "%s/man/%s.1", "%s/../share/man/man1/%s.1", "%s/%s.1" };
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(where); i++) {
		if (snprintf(path, len, where[i], exe, page) >= (int)len)
			continue;
		if (!access(path, R_OK))
			return 0;
	}
	return -1;
}

/*
 * The manual page of a command: the one next to the binary (man -l),
 * else the installed one, else - no man, or no page anywhere (a staged
 * binary) - the command's --help, with a line on stderr saying so.
 */
static int help_command(const char *name)
{
	const struct cmd *c = name ? find_command(name) : NULL;
	char page[64], local[PATH_MAX + 80];
	const char *why;

	if (!name) {
		usage(stdout);
		return 0;
	}
	/* help and version are described in schedlint(1) ("did you mean 'help'" was the answer) */
	if (!strcmp(name, "schedlint") || !strcmp(name, "help") || !strcmp(name, "version"))
		snprintf(page, sizeof(page), "schedlint");
	else if (c)
		snprintf(page, sizeof(page), "schedlint-%s", c->name);
	else {
		unknown_command("schedlint help", name);
		return 2;
	}
	fflush(stdout);
	if (!local_page(page, local, sizeof(local))) {
		execlp("man", "man", "-l", local, (char *)NULL);
		why = strerror(errno);
	} else if (man_has_page(page)) {
		execlp("man", "man", page, (char *)NULL);
		why = strerror(errno);
	} else {
		why = NULL;
	}
	if (why)
		fprintf(stderr, "schedlint help: cannot run man (%s); here is 'schedlint %s --help'\n",
			why, c ? c->name : "--help");
	else
		fprintf(stderr, "schedlint help: no manual page %s here (not installed, none "
			"next to the binary); here is 'schedlint %s --help'\n", page,
			c ? c->name : "--help");
	if (!c) {
		usage(stdout);
		return 0;
	}
	char *argv[] = { (char *)c->name, (char *)"--help", NULL };

	return c->fn(2, argv);
}

static const char short_usage[] =
	"usage: schedlint [--no-pager] <command> [options] [TRACE]   (schedlint --help lists the commands)\n";

/* 'schedlint version --bogus': refused, not the version printed over it */
static int no_arguments(const char *what, const char *got)
{
	fprintf(stderr, "schedlint: '%s' takes no arguments (got '%s')\n", what, got);
	return 2;
}

static int run(int argc, char **argv)
{
	static char who[64];
	const struct cmd *c;

	/* global options before the command, as git takes them */
	while (argc > 1 && !strcmp(argv[1], "--no-pager")) {
		sl_no_pager = true;
		argc--;
		argv++;
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		if (argc > 2)
			return no_arguments(argv[1], argv[2]);
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc > 3) {
			fprintf(stderr, "schedlint: 'help' takes one command (got '%s' too)\n", argv[3]);
			return 2;
		}
		return help_command(argc > 2 ? argv[2] : NULL);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "-v") ||
	    !strcmp(argv[1], "version")) {
		if (argc > 2)
			return no_arguments(argv[1], argv[2]);
		printf("schedlint %s\n", SCHEDLINT_VERSION);
		return 0;
	}
	if (argv[1][0] == '-' && argv[1][1]) {
		/* an option before the command that is not a global one */
		fprintf(stderr, "schedlint: unknown option '%s'\n%s", argv[1], short_usage);
		return 2;
	}
	c = find_command(argv[1]);
	if (!c) {
		/* a typo gets its one line, as git's; anything else the commands */
		if (!unknown_command("schedlint", argv[1])) {
			fputc('\n', stderr);
			usage(stderr);
		}
		return 2;
	}
	/* getopt's messages start with argv[0]: "schedlint analyze: unrecognized option" */
	snprintf(who, sizeof(who), "schedlint %s", c->name);
	argv[1] = who;
	return c->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	int status = run(argc, argv);

	/* whatever a command printed (help, a version) reached its reader */
	if (sl_output_end(stdout) < 0)
		status = 2;
	sl_pager_finish();
	return status;
}

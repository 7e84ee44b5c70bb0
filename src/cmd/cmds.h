/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmds.h - one entry point per subcommand: cmd_NAME(argc, argv), argv[0] = "schedlint NAME"
 *
 * Each returns the exit status: 0 success, 1 a --fail-on rule failed,
 * 2 usage or input error.
 */
#ifndef SCHEDLINT_CMDS_H
#define SCHEDLINT_CMDS_H

int cmd_analyze(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_timehist(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_explore(int argc, char **argv);
int cmd_export(int argc, char **argv);

#endif /* SCHEDLINT_CMDS_H */

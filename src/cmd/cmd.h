/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Subcommands. Each takes argv with argv[0] = its own name, returns an
 * exit code (util.h) and has already said why when that is not 0. To add
 * one: a file here, a prototype below, a line in src/main.c's table, a
 * section in doc/schedlab.1 and README.md.
 */
#ifndef SCHEDLAB_CMD_H
#define SCHEDLAB_CMD_H

int cmd_bench(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);

#endif

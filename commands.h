/*
 * commands.h - the subcommands, git style: each lives with its module and
 * takes the arguments after its name (argv[0] is the subcommand). Each
 * returns the process exit status; only commands print errors and exit.
 */
#ifndef PERFLOG_COMMANDS_H
#define PERFLOG_COMMANDS_H

int cmd_start(int argc, char **argv);		/* collector/cmd_start.c */
int cmd_stop(int argc, char **argv);		/* collector/cmd_control.c */
int cmd_status(int argc, char **argv);		/* collector/cmd_control.c */
int cmd_counters(int argc, char **argv);	/* collector/cmd_counters.c */
int cmd_export(int argc, char **argv);		/* export/cmd_export.c */
int cmd_mark(int argc, char **argv);		/* collector/cmd_mark.c */
int cmd_run(int argc, char **argv);		/* run/cmd_run.c */
int cmd_workload(int argc, char **argv);	/* workload/cmd_workload.c */
int cmd_report(int argc, char **argv);		/* report/cmd_report.c */
int cmd_estimate(int argc, char **argv);	/* estimate/cmd_estimate.c */
int cmd_view(int argc, char **argv);		/* viewer/cmd_view.c */
int cmd_import(int argc, char **argv);		/* import/cmd_import.c */
int cmd_receive(int argc, char **argv);		/* collector/cmd_receive.c */

#endif

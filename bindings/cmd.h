/* cmd.h -- what the warplab command's files share: main.c (the help
 * text and the dispatch to a command), cmd_common.c (output, files and
 * the command line), and one file per command: cmd_litmus.c,
 * cmd_sample.c, cmd_cuda.c (its -o through lfile.c's wll_save_file),
 * cmd_compare.c, cmd_gen.c, cmd_run.c,
 * cmd_report.c.  Not part of the Lua module (warplab.so).  Not
 * installed. */
#ifndef WL_CMD_H
#define WL_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <lua.h>

#include "../engine/warplab.h"

/* bindings/lwarplab.c */
int luaopen_warplab(lua_State *L);

/* main.c */
/* Prints the overview (the commands, the exit status) to f. */
void wll_print_usage(FILE *f);
/* Prints command cmd's help (usage, what it does, its options, an
 * example) to f; -1 when there is no such command. */
int wll_print_help(FILE *f, const char *cmd);

/* cmd_common.c */
/* A wl_write_fn that writes to standard output. */
int wll_write_stdout(void *ud, const char *s, size_t n);
/* Flushes standard output and checks that all that was written to it
 * got there; 0, or 1 after "warplab: writing stdout: REASON" (once). */
int wll_stdout_done(void);
/* Seconds on the monotonic clock. */
double wll_seconds(void);
/* The whole file at path ("-": standard input, read once), malloc'd;
 * NULL with the reason in err. */
char *wll_read_file(const char *path, size_t *len, char *err,
                    size_t errlen);
/* The usage error for getopt_long's answer c ('?' or ':'): exit 2. */
int wll_opt_error(const char *cmd, int c, char **argv);
/* A count: digits, or a number like 1e6 that is a whole number. */
int wll_parse_count(const char *v, uint64_t lo, uint64_t hi, uint64_t *out);
/* A number of seconds: positive, at most 1e9. */
int wll_parse_seconds(const char *v, double *out);
/* "warplab CMD: OPT takes WANT, not 'V'": exit 2. */
int wll_bad_value(const char *cmd, const char *opt, const char *v,
                  const char *want);
/* The operands after getopt_long's last, appended to files[n..]. */
int wll_add_rest(int argc, char **argv, const char **files, int n);
/* The exit status after a signal: 128 + its number (130, 143). */
int wll_sig_status(int sig);
/* Loads the model named by --model; 0, or the exit status after
 * printing the reason. */
int wll_load_model(wl_ctx *ctx, const char *name, wl_model **out);

/* cmd_ranks_sample.c: wll_sample_parallel with the runs split over
 * the ranks (ranks.h) of an MPI job: rank r runs its range of the run
 * indices on its own pool, rank 0 merges the histograms in rank order
 * into *out (NULL on the other ranks); every rank gets the same answer
 * and *partial.  With one rank, wll_sample_parallel itself. */
int wll_sample_ranks(wl_ctx *ctx, const wl_litmus *t,
                     const wl_sample_opts *base, int jobs, double timeout_s,
                     int progress, wl_hist **out, int *partial, char *err,
                     size_t errlen);
/* cmd_common.c: the file at path as wll_read_file reads it, read on rank
 * 0 and sent to every rank (ranks.h), so that a file only rank 0 can
 * read (standard input under mpirun) is every rank's; NULL with the
 * reason in err on every rank alike. */
char *wll_read_file_ranks(const char *path, size_t *len, char *err,
                          size_t errlen);

/* The commands: argv[0] is the command's name (for wll_cmd_run, the
 * program's, argv[1] "run"); each returns the exit status. */
int wll_cmd_litmus(int argc, char **argv);  /* cmd_litmus.c */
int wll_cmd_sample(int argc, char **argv);  /* cmd_sample.c */
int wll_cmd_cuda(int argc, char **argv);    /* cmd_cuda.c */
int wll_cmd_compare(int argc, char **argv); /* cmd_compare.c */
int wll_cmd_gen(int argc, char **argv);     /* cmd_gen.c */
int wll_cmd_run(int argc, char **argv);     /* cmd_run.c */
int wll_cmd_report(int argc, char **argv);  /* cmd_report.c */
int wll_cmd_merge(int argc, char **argv);   /* cmd_merge.c */
int wll_cmd_campaign(int argc, char **argv); /* cmd_campaign.c */

#endif

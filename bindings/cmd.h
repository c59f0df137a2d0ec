/* cmd.h -- what the warplab command's files share: main.c (the help
 * text and the dispatch to a command), cmd_common.c (output, files and
 * the command line), and one file per command: cmd_litmus.c,
 * cmd_sample.c, cmd_cuda.c (its -o through lfile.c's wll_save_file),
 * cmd_compare.c, cmd_gen.c, cmd_run.c, cmd_report.c; cmd_out.c holds
 * a file's output until its turn when files run on the pool
 * (bindings/lpool.h), cmd_graph.c writes litmus --graph's files.  Not
 * part of the Lua module (warplab.so).  Not installed. */
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
/* The default and the check of --jobs for commands on many files:
 * *jobs is wll_pool_default_jobs(nfiles) until -j/--jobs sets it;
 * wll_parse_jobs checks v (1..1024), 0 or the usage error's status 2
 * after "warplab CMD: --jobs takes a number from 1 to 1024". */
int wll_parse_jobs(const char *cmd, const char *v, int *jobs);
/* Each file's cost for the pool's dealing: its size in bytes (0 when it
 * cannot be read: its error comes in its turn). */
uint64_t wll_file_cost(const char *path);
/* A .litmus file's cost for the pool: wl_litmus_cost of it parsed in
 * ctx (from text, len when text is not NULL, else read from path), so
 * that spin-loop tests, which take nearly all of a corpus's time, start
 * first; its size when its text shows no loop (no label whose name comes
 * again after it: not parsed) or it does not parse, 0 when it cannot be
 * read. */
uint64_t wll_litmus_cost(wl_ctx *ctx, const char *path, const char *text,
                         size_t len, int unroll);
/* mkdir -p: makes dir and the folders above it that are missing (each
 * mode 0777 less the umask); 0, or -1 with errno (EEXIST when dir or a
 * folder above it is there but no folder). */
int wll_mkdir_p(const char *dir);

/* cmd_graph.c: --graph's files (the calling thread only). */
typedef struct wll_membuf { /* text held in memory */
  char *p;
  size_t n, cap;
  int oom;
} wll_membuf;
/* A wl_write_fn appending to a wll_membuf (ud), NUL-ended. */
int wll_membuf_write(void *ud, const char *s, size_t n);
/* dot -Tsvg IN -o IN-with-.svg; 0 when it worked or dot is not
 * installed (said once: *missing is set, later calls do nothing), -1
 * after a message when dot failed. */
int wll_render_svg(const char *in, int *missing);
/* The graph file names of a run: STEM per test, unique in the run. */
typedef struct wll_stems {
  char **p;
  size_t n, cap;
} wll_stems;
/* The stem of test name (from file) in out (n bytes): letters, digits
 * and ".+-_" kept, other bytes '_'; a stem the run had gets -2, -3, ...
 * (a note on stderr).  0, or -1 out of memory (said). */
int wll_graph_stem(wll_stems *u, const char *file, const char *name,
                   char *out, size_t n);
void wll_stems_free(wll_stems *u);
/* DIR/STEM.what.dot in buf; 0, or -1 after a message. */
int wll_graph_path(char *buf, size_t n, const char *dir, const char *stem,
                   const char *what);
/* path's text, written whole or not at all; 0, or -1 after a message. */
int wll_save_text(const char *path, const wll_membuf *m);

/* cmd_out.c: one unit's output, held until its turn. */
enum { WLL_OUT_STDOUT = 1, WLL_OUT_STDERR = 2 };
typedef struct wll_out_seg {
  int stream; /* WLL_OUT_* */
  size_t off, len;
} wll_out_seg;
typedef struct wll_out {
  char *text; /* every segment's bytes, in order */
  size_t len, cap;
  wll_out_seg *seg;
  size_t nseg, segcap;
  int oom; /* something could not be held: said when flushed */
} wll_out;
void wll_out_init(wll_out *o);
void wll_out_free(wll_out *o);
/* Appends n bytes for stream (a WLL_OUT_*); 0, or -1 out of memory. */
int wll_out_write(wll_out *o, int stream, const char *s, size_t n);
int wll_out_printf(wll_out *o, int stream, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* wl_write_fn's to o's stdout and stderr (ud: the wll_out). */
int wll_out_stdout(void *ud, const char *s, size_t n);
int wll_out_stderr(void *ud, const char *s, size_t n);
/* Writes o's segments in order (stdout flushed before each stderr
 * segment); 0, or -1 when stdout failed (wll_stdout_done says why) or
 * o ran out of memory (said on stderr). */
int wll_out_flush(const wll_out *o);

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

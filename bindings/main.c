/* main.c -- the warplab command. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "../engine/warplab.h"
#include "lsched.h"
#include "lwarplab.h"

/* bindings/lwarplab.c */
int luaopen_warplab(lua_State *L);

/* The help text, in pieces (C11 guarantees string literals of 4095
 * characters only); the first holds the one %d. */
static const char usage[] =
    "usage: warplab <command> [options] [args]\n"
    "\n"
    "Options may come before, between or after the files; '--' ends the\n"
    "options; a file '-' is standard input; every command takes --help.\n"
    "\n"
    "commands:\n"
    "  litmus [options] FILE...   explore every outcome the PTX 6.0 memory\n"
    "                             model allows for each .litmus file and\n"
    "                             print it in herd7's format\n"
    "      --json                 print JSON instead (one array of results,\n"
    "                             with every final state and a witness\n"
    "                             execution per state)\n"
    "      --model FILE.cat       evaluate this cat model literally over\n"
    "                             every candidate execution (the second\n"
    "                             engine; a name without a folder is also\n"
    "                             looked up in $WARPLAB_SHARED/spec and\n"
    "                             ../shared/spec), e.g. ptx-v7.5.cat for\n"
    "                             the proxy tests; default: the built-in\n"
    "                             explorer of ptx-v6.0-isa.cat's axioms\n"
    "      --unroll N             take each backward branch at most N times\n"
    "                             (default %d; spin-loop iterations that\n"
    "                             change nothing are free); when the bound\n"
    "                             cuts an execution the verdict line reads\n"
    "                             'Loop Ok'/'Loop No' and a Warning line\n"
    "                             follows\n"
    "      --timeout SECONDS      give up on a file after this long (the\n"
    "                             file counts as failed; the rest go on)\n"
    "      --max-memory SIZE      stop a file's exploration when it holds\n"
    "                             more than SIZE (MiB, or with a K, M or G\n"
    "                             suffix): the states found so far are\n"
    "                             printed, marked partial, and the file\n"
    "                             counts as failed (default: three\n"
    "                             quarters of the machine's memory)\n"
    "      --count-executions     count every consistent execution (herd's\n"
    "                             Positive/Negative); by default the\n"
    "                             explorer finds each final state once, and\n"
    "                             the counts are counts of states\n"
    "      --full-states          tell final states apart by every register\n"
    "                             and location; by default (not with --json)\n"
    "                             only the observed variables (the\n"
    "                             condition's and 'locations') tell them\n"
    "                             apart, and executions that differ only\n"
    "                             elsewhere are not searched\n"
    "      -q, --quiet            print only 'NAME Ok|No' per file\n"
    ;
/* litmus's options, continued (a string literal stays under 4095
 * characters, the least a C compiler must take) */
static const char usage_litmus2[] =
    "      --check-error          exit with status 4 when some file has a\n"
    "                             finding: a data race (two conflicting\n"
    "                             accesses not morally strong and not\n"
    "                             ordered by causality) or a hang (a spin\n"
    "                             loop that may never end, a barrier too\n"
    "                             few threads reach); each is printed as a\n"
    "                             'Race NAME: ...' / 'Hang NAME: ...' line\n"
    "                             after the states (\"race\" and \"hang\"\n"
    "                             in --json)\n"
    "      --no-checks            skip the data-race and hang searches\n"
    "      --graph DIR            write the witness of every state as a\n"
    "                             graph, DIR/NAME.N.dot (and .svg when\n"
    "                             Graphviz's dot is installed), and, when\n"
    "                             the condition's outcome is forbidden,\n"
    "                             DIR/NAME.whynot.dot (.svg)\n"
    "      --why-not              when no state satisfies the condition,\n"
    "                             say which axiom of the model (--model,\n"
    "                             default ptx-v6.0-isa.cat) rules the\n"
    "                             outcome out, on the closest candidate\n"
    "                             execution (with --json: a \"whynot\"\n"
    "                             object in the test's result)\n"
    "  A progress line is drawn on stderr (a terminal only) when a file\n"
    "  takes longer than a second.\n"
    ;
static const char usage_sample[] =
    "  sample [options] FILE...   run each .litmus file many times on the\n"
    "                             operational simulator and print the\n"
    "                             histogram of outcomes in litmus7's style\n"
    "                             (count, '*>' where the condition holds,\n"
    "                             'weak' for outcomes sequential\n"
    "                             consistency cannot give, the verdict)\n"
    "      --json                 print JSON instead (one array of\n"
    "                             histograms: every outcome with its\n"
    "                             values, count, condition and weak mark)\n"
    "      -n, --runs N           runs per file (default 100000)\n"
    "      --seed S               seed (default 1); the same seed gives the\n"
    "                             same histogram for any --jobs\n"
    "      --profile weak|h100    weak: weak outcomes frequent; h100: at\n"
    "                             rates like an H100's (default h100)\n"
    "      -j, --jobs J           worker threads (default: the number of\n"
    "                             CPUs; fewer, with a note, when the\n"
    "                             address space or the thread limit\n"
    "                             cannot hold J 8 MiB stacks)\n"
    "      --timeout SECONDS      stop a file's runs after this long and\n"
    "                             print the partial histogram\n"
    "      --max-steps N          scheduler steps before a run counts as\n"
    "                             hung (default 10000)\n"
    "                             A progress line is drawn on stderr when\n"
    "                             it is a terminal.  Ctrl-C (SIGINT) or\n"
    "                             SIGTERM stops the workers, prints the\n"
    "                             partial histogram marked Partial and\n"
    "                             exits with 130 (143)\n"
    ;

static const char usage_gen[] =
    "  gen [options]              write litmus tests (Dat3M's PTX dialect):\n"
    "                             families from cycles of relations\n"
    "                             (diy7-style) or random programs; to\n"
    "                             stdout, one after another with a blank\n"
    "                             line between, or one file per test\n"
    "      --cycle \"EDGES\"        one cycle, e.g. \"PodWW Rfe PodRR Fre\",\n"
    "                             under every annotation and placement\n"
    "      --family NAME|all      a classic shape (MP, SB, LB, S, R, 2+2W,\n"
    "                             WRC, RWC, WWC, IRIW, ISA2, W+RWC, 3.SB,\n"
    "                             3.LB, 3.2W, CoRR, CoRW, CoWR) or all\n"
    "      --edges \"LIST\"         every cycle of 3..--max-size N edges\n"
    "                             (default 4) from the vocabulary; edges:\n"
    "                             Pod/Pos+XY, Rfe Rfi Fre Fri Coe Coi,\n"
    "                             Rmw, DpDatadW, DpCtrldR|W, FenceSc|\n"
    "                             FenceAcqRel+Cta|Gpu|Sys+d|s+XY ('*' in a\n"
    "                             word: R and W)\n"
    "      --random               random programs: --threads N (2)\n"
    "                             --insns N (4) --locs N (2) --mix LIST\n"
    "                             (weak,relaxed,acqrel,atom,red,fence,dep,\n"
    "                             bar; default all)\n"
    "      --sample               draw cycles, annotations and placements\n"
    "                             at random instead of enumerating them\n"
    "      --annotations LIST     weak,rlx,ra,mix (default: all but mix;\n"
    "                             with --sample all)\n"
    "      --placements LIST      cta,gpu,sys,mix: threads in one CTA, one\n"
    "                             CTA each, one GPU each, drawn (default:\n"
    "                             all but mix; with --sample all)\n"
    "      --scopes LIST          cta,gpu,sys (default all)\n"
    "      --count N              at most N tests (default: the whole\n"
    "                             enumeration; 10 for --sample, --random)\n"
    "      --seed S               the seed (default 1): the same seed gives\n"
    "                             the same tests\n"
    "      -o DIR                 write DIR/NAME.litmus for each test\n"
    "                             (DIR is created)\n"
    "      --list                 print the names only\n"
    "      --explore              explore each test; print 'NAME Ok|No\n"
    "                             STATES' (--unroll N as for litmus)\n"
    "      --families             print the classic shapes' cycles\n"
    ;

static const char usage_cuda[] =
    "  cuda [options] FILE        write a CUDA program that runs the test\n"
    "                             on an NVIDIA GPU (nvcc -arch=sm_70 or\n"
    "                             later): the test's instructions as\n"
    "                             inline PTX, many instances per launch,\n"
    "                             outcomes counted on the GPU and printed\n"
    "                             like sample's histogram; the program\n"
    "                             takes these settings again (-h); a\n"
    "                             test on GPUs 0 and 1 gets a two-GPU\n"
    "                             program (one launch per GPU, peer\n"
    "                             access, each location on its home GPU)\n"
    "      -o FILE.cu             write there (default: stdout)\n"
    "      --blocks N             test blocks per launch (default 1024)\n"
    "      --threads N            threads per block (default 256)\n"
    "      --launches N           launches (default 200)\n"
    "      --stress N             extra blocks of memory stress (0)\n"
    "      --stress-iters N       accesses per stress thread (256)\n"
    "      --spacing N            words between instances' copies of a\n"
    "                             location (1); above 1 the stress hits\n"
    "                             the words between (the test's lines)\n"
    "      --seed S               seed of the thread-to-role tables (1)\n"
    "      --budget N             backward branches per thread before its\n"
    "                             instance counts as hung (10000)\n"
    "      --no-shuffle           roles in order, not drawn at random\n"
    "      --rounds N             two GPUs: instances each slot runs per\n"
    "                             launch, its threads in step (100)\n"
    "      --sm any|same|different\n"
    "                             threads in several CTAs: count only the\n"
    "                             instances whose blocks ran on one SM\n"
    "                             (same) or on several (different), read\n"
    "                             from %smid (default any: all)\n"
    "  compare HIST FILE...       put a histogram (from a cuda program or\n"
    "                             sample) beside the outcomes the model\n"
    "                             allows for each FILE: observed outcomes\n"
    "                             the model forbids are flagged (exit\n"
    "                             status 4), allowed outcomes never seen\n"
    "                             are listed\n"
    "      --model FILE.cat       judge with this cat model (as litmus)\n"
    ;

static const char usage_run[] =
    "  run SCRIPT.lua [ARGS...]   run a Lua script with the warplab module\n"
    "                             preloaded (require \"warplab\"); arg and\n"
    "                             ... hold ARGS as in lua5.4; '-' reads the\n"
    "                             script from stdin.  An error prints\n"
    "                             'warplab: script.lua:LINE: message' and a\n"
    "                             traceback, and exits with status 1.\n"
    "                             Ctrl-C or SIGTERM raises the error\n"
    "                             'interrupted by SIGINT' (SIGTERM) in the\n"
    "                             script, which pcall can catch; uncaught,\n"
    "                             it exits with 130 (143).\n"
    "                             Scripts build litmus tests (wl.litmus),\n"
    "                             explore and sample them, and run kernels\n"
    "                             on a simulated GPU: wl.device{preset =\n"
    "                             \"sm_90\"|\"sm_80\"|\"sm_70\"|\"sm_35\"|\"toy\"|\n"
    "                             \"banks5\", ...}, dev:malloc/constant/\n"
    "                             malloc_managed, wl.kernel(fn), dev:launch\n"
    "                             (k, {grid=, block=, shared=}, ...) with\n"
    "                             per-line counters named as Nsight\n"
    "                             Compute names them (README.md)\n"
    "    options (before SCRIPT.lua):\n"
    "      --check[=LIST]         run the kernel checkers on every launch\n"
    "                             that sets no check option: races (data\n"
    "                             races by the PTX definition, warp-\n"
    "                             synchronous hazards), uninit (reads of\n"
    "                             memory never written), spin (weak loads\n"
    "                             polled in a loop); LIST like races,spin\n"
    "                             (default all); a summary of every\n"
    "                             finding follows the script's output\n"
    "      --check-error          exit with status 4 when a checker found\n"
    "                             something (for CI)\n"
    "      --json                 print the summary as one JSON object\n"
    "  report [options] FILE...   one self-contained HTML page (no network\n"
    "                             needed) about .litmus files and .lua\n"
    "                             scripts (the tests they explore and the\n"
    "                             kernels they launch): allowed states,\n"
    "                             sampled histograms, witness graphs,\n"
    "                             why-not explanations, checker findings,\n"
    "                             per-line costs, bank heatmaps, occupancy\n"
    "      -o FILE                the page (default report.html)\n"
    "      --runs N               sampled runs per test (default 1000; 0:\n"
    "                             no histograms)\n"
    "      --seed S               the sampling seed (default 1)\n"
    "      --graphs N             witness graphs per test (default 4)\n"
    "      --title TEXT           the page's title\n"
    "      --model FILE.cat       the model of the why-not explanations\n"
    "  help                       this text\n"
    "  version                    the version\n"
    "\n"
    "Exit status: 0 when every file ran, 1 when some file could not be\n"
    "read, parsed, explored or sampled (the reason goes to stderr as\n"
    "file:line:col: message), 2 on a usage error; for sample also 3\n"
    "when --timeout cut a file's runs short (and no file failed); for\n"
    "run and litmus --check-error 4 when a checker found something;\n"
    "130\n"
    "after Ctrl-C (SIGINT) and 143 after SIGTERM, for every command: the\n"
    "work stops, what it found is printed marked Partial, and the files\n"
    "after the interrupted one are skipped.\n"
    "compare exits with 4 when an observed outcome is one the model\n"
    "forbids.\n"
    "\n"
    "The .litmus dialect is Dat3M's PTX dialect; README.md describes it.\n";

static void print_usage(FILE *f) {
  fprintf(f, usage, WL_DEFAULT_UNROLL);
  fputs(usage_litmus2, f);
  fputs(usage_sample, f);
  fputs(usage_gen, f);
  fputs(usage_cuda, f);
  fputs(usage_run, f);
}

static int write_stdout(void *ud, const char *s, size_t n) {
  (void)ud;
  return fwrite(s, 1, n, stdout) == n ? 0 : -1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The whole file at path ("-": standard input, read once). */
static char *read_file(const char *path, size_t *len, char *err,
                       size_t errlen) {
  int is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  char *buf = NULL;
  size_t cap = 0, n = 0;
  if (f == NULL) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return NULL;
  }
  errno = 0;
  for (;;) {
    size_t got;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 4096;
      char *p;
      if (ncap > ((size_t)64 << 20)) {
        snprintf(err, errlen, "%s: file too large (over 64 MiB)", path);
        free(buf);
        if (!is_stdin)
          fclose(f);
        return NULL;
      }
      p = realloc(buf, ncap);
      if (p == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(buf);
        if (!is_stdin)
          fclose(f);
        return NULL;
      }
      buf = p;
      cap = ncap;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0)
      break;
  }
  if (ferror(f)) {
    snprintf(err, errlen, "%s: %s", path,
             errno != 0 ? strerror(errno) : "read error");
    free(buf);
    if (!is_stdin)
      fclose(f);
    return NULL;
  }
  if (!is_stdin)
    fclose(f);
  *len = n;
  return buf;
}

/* ------------------------------------------------------------------ */
/* command lines: getopt_long everywhere                               */
/* ------------------------------------------------------------------ */

/* Options may come anywhere among the operands ("warplab sample FILE -n
 * N"); "--" ends the options; "-" as a file is standard input.  The
 * optstring starts with "-" (operands come back in order as option 1,
 * whatever POSIXLY_CORRECT says) and ":" (a missing value is ':'). */

/* The usage error for getopt_long's answer c ('?' or ':'): exit 2.  A
 * long option is named as written (up to any '='), a short one by its
 * letter (optopt; it may sit in a cluster like -qx). */
static int opt_error(const char *cmd, int c, char **argv) {
  const char *arg = argv[optind - 1];
  char name[64];
  if (arg[0] == '-' && arg[1] == '-')
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
  else
    snprintf(name, sizeof name, "-%c", optopt);
  if (c == ':')
    fprintf(stderr, "warplab %s: %s needs a value (see warplab help)\n", cmd,
            name);
  else
    fprintf(stderr, "warplab %s: unknown option '%s' (see warplab help)\n",
            cmd, name);
  return 2;
}

/* A count: digits, or a number like 1e6 that is a whole number. */
static int parse_count(const char *v, uint64_t lo, uint64_t hi, uint64_t *out) {
  char *end;
  unsigned long long u;
  if (*v == '\0' || *v == '-' || *v == '+' || *v == ' ')
    return -1;
  errno = 0;
  u = strtoull(v, &end, 10);
  if (*end != '\0' || errno != 0) {
    double d = strtod(v, &end);
    if (*end != '\0' || !(d >= 0) || d > 9007199254740992.0)
      return -1;
    u = (unsigned long long)d;
    if ((double)u != d) /* not a whole number */
      return -1;
  }
  if (u < lo || u > hi)
    return -1;
  *out = u;
  return 0;
}

/* A number of seconds: positive, at most 1e9. */
static int parse_seconds(const char *v, double *out) {
  char *end;
  double d = strtod(v, &end);
  if (*v == '\0' || *end != '\0' || !(d > 0) || d > 1e9)
    return -1;
  *out = d;
  return 0;
}

static int bad_value(const char *cmd, const char *opt, const char *v,
                     const char *want) {
  fprintf(stderr, "warplab %s: %s takes %s, not '%s'\n", cmd, opt, want, v);
  return 2;
}

/* The operands, gathered in order: those getopt_long returned as option
 * 1 and those after "--".  files must have room for argc entries. */
static int add_rest(int argc, char **argv, const char **files, int n) {
  for (; optind < argc; optind++)
    files[n++] = argv[optind];
  return n;
}

/* The exit status after a signal: 128 + its number (130, 143). */
static int sig_status(int sig) { return 128 + sig; }

/* ------------------------------------------------------------------ */
/* warplab litmus [options] FILE...                                    */
/* ------------------------------------------------------------------ */

typedef struct litmus_stop {
  double deadline; /* 0: none */
  double started;  /* the file's start, for the progress line */
  const char *file;
  int shown;       /* a progress line is on the terminal */
} litmus_stop;

/* The progress line: on a terminal only, once a file has taken more than
 * a second, at most ten times a second; erased before the result. */
static void litmus_progress(void *ud, const wl_explore_progress *p) {
  litmus_stop *ls = ud;
  static double last;
  double t = now();
  if (t - ls->started < 1 || t - last < 0.1 || !isatty(2))
    return;
  last = t;
  fprintf(stderr, "\r\033[K%s: %.0f s, %zu states, %llu combinations, %zu MB",
          ls->file, t - ls->started, p->states,
          (unsigned long long)p->combinations, p->memory >> 20);
  ls->shown = 1;
}

static void litmus_unprogress(litmus_stop *ls) {
  if (ls->shown)
    fputs("\r\033[K", stderr);
  ls->shown = 0;
}

/* "512", "512M", "2G", "64k": a size; a bare number is in MiB.  0 on a
 * bad or zero size. */
static size_t parse_size(const char *v) {
  char *end;
  double n = strtod(v, &end);
  double mul = 1 << 20;
  if (*v == '\0' || !(n > 0))
    return 0;
  if (*end == 'k' || *end == 'K')
    mul = 1 << 10, end++;
  else if (*end == 'm' || *end == 'M')
    end++;
  else if (*end == 'g' || *end == 'G')
    mul = (double)(1 << 30), end++;
  if (*end == 'B' || *end == 'b')
    end++;
  if (*end != '\0' || n * mul > 1e18)
    return 0;
  return (size_t)(n * mul);
}

/* The explorer's should_stop: --timeout, SIGINT and SIGTERM. */
static int litmus_should_stop(void *ud) {
  const litmus_stop *ls = ud;
  return wll_sig_pending() || (ls->deadline > 0 && now() > ls->deadline);
}

/* A file's exploration ended by a signal with no result to print (the
 * explorer normally keeps the states found so far, keep_partial, and
 * those are printed instead): the Partial line alone. */
static void litmus_partial(const char *name, int sig, int json, int quiet,
                           int first, double secs) {
  if (quiet)
    printf("%s Partial\n", name);
  else if (json)
    printf("%s{\"test\": \"%s\", \"partial\": true, \"interrupted\": "
           "\"%s\", \"time\": %.2f}",
           first ? "" : ",\n", name, wll_sig_name(sig), secs);
  else
    printf("Test %s Partial\nStates 0\nPartial %s: interrupted by %s "
           "after %.2f s, before the exploration ended (no states)\n\n",
           name, name, wll_sig_name(sig), secs);
}


/* ---------------- graphs and why-not for litmus ---------------- */

typedef struct membuf {
  char *p;
  size_t n, cap;
  int oom;
} membuf;

static int write_mem(void *ud, const char *s, size_t n) {
  membuf *m = ud;
  if (m->n + n + 1 > m->cap) {
    size_t cap = (m->cap ? m->cap * 2 : 4096) + n;
    char *p = realloc(m->p, cap);
    if (p == NULL) {
      m->oom = 1;
      return -1;
    }
    m->p = p;
    m->cap = cap;
  }
  memcpy(m->p + m->n, s, n);
  m->n += n;
  m->p[m->n] = '\0';
  return 0;
}

/* dot -Tsvg in -o out; 0 when it worked.  *missing is set once dot
 * cannot be run, and later calls do nothing. */
static int render_svg(const char *in, int *missing) {
  char out[1200];
  size_t n = strlen(in);
  pid_t pid;
  int st;
  if (*missing || n < 4 || n + 1 > sizeof out)
    return -1;
  memcpy(out, in, n - 4);
  memcpy(out + n - 4, ".svg", 5);
  fflush(NULL);
  pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    execlp("dot", "dot", "-Tsvg", in, "-o", out, (char *)NULL);
    _exit(127);
  }
  if (waitpid(pid, &st, 0) < 0)
    return -1;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
    *missing = 1;
    fprintf(stderr, "warplab: Graphviz's dot is not installed: only the "
                    ".dot files are written (Debian: apt-get install "
                    "graphviz)\n");
    return -1;
  }
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* DIR/NAME.what.dot with the test's name made a file name. */
static void graph_path(char *buf, size_t n, const char *dir,
                       const char *name, const char *what) {
  size_t k, len;
  snprintf(buf, n, "%s/", dir);
  len = strlen(buf);
  for (k = 0; name[k] && len + 1 < n; k++) {
    char c = name[k];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
             (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' ||
             c == '_';
    buf[len++] = ok ? c : '_';
  }
  buf[len] = '\0';
  snprintf(buf + len, n - len, ".%s.dot", what);
}

static int save_text(const char *path, const membuf *m) {
  FILE *f = fopen(path, "w");
  int ok;
  if (f == NULL) {
    fprintf(stderr, "warplab: cannot write '%s': %s\n", path,
            strerror(errno));
    return -1;
  }
  ok = fwrite(m->p ? m->p : "", 1, m->n, f) == m->n;
  if (fclose(f) != 0 || !ok) {
    fprintf(stderr, "warplab: cannot write '%s'\n", path);
    return -1;
  }
  return 0;
}

/* Writes every state's witness graph of r under dir; 0 or -1. */
static int write_graphs(const wl_result *r, const char *dir,
                        const char *name, int *missing) {
  size_t s;
  for (s = 0; s < wl_result_nstates(r); s++) {
    char path[1200], what[32];
    membuf m = {NULL, 0, 0, 0};
    snprintf(what, sizeof what, "%zu", s + 1);
    graph_path(path, sizeof path, dir, name, what);
    if (wl_result_write_dot(r, s, write_mem, &m) != 0 || m.oom ||
        save_text(path, &m) != 0) {
      free(m.p);
      return -1;
    }
    free(m.p);
    render_svg(path, missing);
  }
  return 0;
}

/* Whether no final state is in the condition's outcome (what why-not
 * explains): none satisfies it (exists, ~exists), or none violates it
 * (forall). */
static int outcome_absent(const wl_result *r) {
  size_t s;
  int forall = wl_result_cond_kind(r) == WL_COND_FORALL;
  for (s = 0; s < wl_result_nstates(r); s++)
    if (wl_result_state_sat(r, s) != forall)
      return 0;
  return 1;
}

/* Loads the model named by --model (a bare name is also looked up among
 * the specs: wll_find_model).  0, or the exit status after printing the
 * reason: 1 for a model that does not parse, 2 for one that cannot be
 * read. */
static int load_model(wl_ctx *ctx, const char *name, wl_model **out) {
  char found[1200];
  const char *path = wll_find_model(name, found, sizeof found);
  int rc = wl_model_load(ctx, path, out);
  if (rc == 0)
    return 0;
  fprintf(stderr, "warplab: %s\n", wl_ctx_errmsg(ctx));
  return rc == WL_ESYNTAX ? 1 : 2;
}

static int cmd_litmus(int argc, char **argv) {
  enum { O_JSON = 256, O_UNROLL, O_TIMEOUT, O_MODEL, O_GRAPH, O_WHYNOT,
         O_MAXMEM, O_COUNTEX, O_FULL, O_CHECK_ERROR, O_NO_CHECKS };
  static const struct option longopts[] = {
      {"json", no_argument, NULL, O_JSON},
      {"max-memory", required_argument, NULL, O_MAXMEM},
      {"count-executions", no_argument, NULL, O_COUNTEX},
      {"full-states", no_argument, NULL, O_FULL},
      {"check-error", no_argument, NULL, O_CHECK_ERROR},
      {"no-checks", no_argument, NULL, O_NO_CHECKS},
      {"graph", required_argument, NULL, O_GRAPH},
      {"why-not", no_argument, NULL, O_WHYNOT},
      {"quiet", no_argument, NULL, 'q'},
      {"unroll", required_argument, NULL, O_UNROLL},
      {"timeout", required_argument, NULL, O_TIMEOUT},
      {"model", required_argument, NULL, O_MODEL},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  wl_explore_opts opts;
  wl_ctx *ctx;
  wl_model *model = NULL;
  const char *model_path = NULL, **files;
  litmus_stop ls = {0};
  int c, i, nf = 0, json = 0, quiet = 0, failed = 0, first = 1, sig = 0;
  int whynot = 0, no_dot = 0, interrupted = 0, full = 0;
  int check_error = 0, nfound = 0;
  const char *graph_dir = NULL;
  wl_model *why_model = NULL; /* the default model, loaded on first use */
  uint64_t u;
  double timeout = 0;
  memset(&opts, 0, sizeof opts);
  opts.keep_partial = 1; /* a signal prints what was found */
  if ((files = malloc((size_t)argc * sizeof *files)) == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "-:qh", longopts, NULL)) != -1) {
    switch (c) {
    case 1:
      files[nf++] = optarg;
      break;
    case O_JSON:
      json = 1;
      break;
    case 'q':
      quiet = 1;
      break;
    case O_UNROLL:
      if (parse_count(optarg, 1, 1000, &u) != 0) {
        free(files);
        return bad_value("litmus", "--unroll", optarg,
                         "a number from 1 to 1000");
      }
      opts.unroll = (int)u;
      break;
    case O_TIMEOUT:
      if (parse_seconds(optarg, &timeout) != 0) {
        free(files);
        return bad_value("litmus", "--timeout", optarg,
                         "a positive number of seconds");
      }
      break;
    case O_MAXMEM:
      if ((opts.max_memory = parse_size(optarg)) == 0) {
        free(files);
        return bad_value("litmus", "--max-memory", optarg,
                         "a size (MiB, or with a K, M or G suffix)");
      }
      opts.keep_partial = 1;
      break;
    case O_COUNTEX:
      opts.count_executions = 1;
      break;
    case O_FULL:
      full = 1;
      break;
    case O_CHECK_ERROR:
      check_error = 1;
      break;
    case O_NO_CHECKS:
      opts.no_checks = 1;
      break;
    case O_MODEL:
      model_path = optarg;
      break;
    case O_GRAPH:
      graph_dir = optarg;
      break;
    case O_WHYNOT:
      whynot = 1;
      break;
    case 'h':
      free(files);
      print_usage(stdout);
      return 0;
    default:
      free(files);
      return opt_error("litmus", c, argv);
    }
  }
  nf = add_rest(argc, argv, files, nf);
  /* the text shows the observed variables only, so states that differ
   * elsewhere need not be told apart; --json lists every full state */
  opts.observed_only = !json && !full;
  if (opts.max_memory == 0) /* never the out-of-memory killer */
    opts.max_memory = wll_default_max_memory();
  if (nf == 0) {
    free(files);
    fprintf(stderr, "warplab litmus: no .litmus file given (see warplab "
                    "help)\n");
    return 2;
  }
  opts.should_stop = litmus_should_stop;
  opts.stop_ud = &ls;
  opts.progress = litmus_progress;
  opts.progress_ud = &ls;
  if (wl_ctx_new(NULL, &ctx) != 0) {
    free(files);
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  if (model_path != NULL) {
    int rc = load_model(ctx, model_path, &model);
    if (rc != 0) {
      wl_ctx_free(ctx);
      free(files);
      return rc;
    }
    opts.model = model;
  }
  if (json)
    fputs("[", stdout);
  for (i = 0; i < nf && sig == 0; i++) {
    const char *f = files[i];
    char err[600];
    size_t len = 0;
    char *src;
    wl_litmus *t = NULL;
    wl_result *r = NULL;
    double t0;
    int rc;
    if ((sig = wll_sig_take()) != 0)
      break; /* a signal between files: the rest are skipped */
    src = read_file(f, &len, err, sizeof err);
    if (src == NULL) {
      fprintf(stderr, "warplab: %s\n", err);
      failed++;
      continue;
    }
    t0 = now();
    ls.deadline = timeout > 0 ? t0 + timeout : 0;
    ls.started = t0;
    ls.file = f;
    rc = wl_litmus_parse(ctx, f, src, len, &t);
    free(src);
    if (rc == 0)
      rc = wl_explore(ctx, t, &opts, &r);
    litmus_unprogress(&ls);
    interrupted = 0;
    if (rc == 0 && wl_result_partial(r, NULL) == WL_ESTOPPED) {
      /* a signal: what was found is printed, marked partial, and the
       * files after it are skipped; --timeout: the file failed */
      if ((interrupted = wll_sig_take()) == 0) {
        rc = WL_ESTOPPED;
        wl_result_free(r);
        r = NULL;
      }
    }
    if (rc == WL_ESTOPPED && (sig = wll_sig_take()) != 0) {
      litmus_partial(wl_litmus_name(t), sig, json, quiet, first, now() - t0);
      first = 0;
      fflush(stdout);
      fprintf(stderr, "warplab: %s: interrupted by %s; the files after it "
                      "are skipped\n", f, wll_sig_name(sig));
      wl_litmus_free(t);
      break;
    }
    if (rc != 0) {
      const char *m = wl_ctx_errmsg(ctx);
      if (strncmp(m, f, strlen(f)) == 0)
        fprintf(stderr, "warplab: %s\n", m);
      else
        fprintf(stderr, "warplab: %s: %s\n", f, m);
      if (rc == WL_ESTOPPED)
        fprintf(stderr, "warplab: %s: gave up after --timeout %g s\n", f,
                timeout);
      wl_litmus_free(t);
      failed++;
      continue;
    }
    {
      double secs = now() - t0;
      wl_whynot *w = NULL;
      membuf wj = {NULL, 0, 0, 0};
      if ((whynot || graph_dir != NULL) && outcome_absent(r)) {
        const wl_model *m = model;
        if (m == NULL && why_model == NULL) {
          char found[1200];
          const char *path =
              wll_find_model("ptx-v6.0-isa.cat", found, sizeof found);
          if (wl_model_load(ctx, path, &why_model) != 0)
            fprintf(stderr, "warplab: why-not: %s\n", wl_ctx_errmsg(ctx));
        }
        if (m == NULL)
          m = why_model;
        if (m != NULL &&
            wl_whynot_explain(ctx, t, m, opts.unroll, &w) != 0) {
          fprintf(stderr, "warplab: %s: why-not: %s\n", f,
                  wl_ctx_errmsg(ctx));
          w = NULL;
        }
      }
      if (quiet) {
        printf("%s %s%s\n", wl_litmus_name(t),
               wl_result_bound_hit(r) ? "Loop " : "",
               wl_result_verdict(r) ? "Ok" : "No");
      } else if (json) {
        membuf rj = {NULL, 0, 0, 0};
        if (!first)
          fputs(",\n", stdout);
        if (whynot && w != NULL &&
            wl_result_write_json(r, secs, write_mem, &rj) == 0 &&
            wl_whynot_write_json(w, write_mem, &wj) == 0 && rj.n > 2 &&
            wj.n > 1) {
          /* the result's object, with "whynot" added before its end */
          while (rj.n > 0 && (rj.p[rj.n - 1] == '\n' || rj.p[rj.n - 1] == '}'))
            if (rj.p[--rj.n] == '}')
              break;
          while (wj.n > 0 && wj.p[wj.n - 1] == '\n')
            wj.n--;
          fwrite(rj.p, 1, rj.n, stdout);
          fputs(",\n  \"whynot\": ", stdout);
          fwrite(wj.p, 1, wj.n, stdout);
          fputs("}\n", stdout);
        } else {
          wl_result_write_json(r, secs, write_stdout, NULL);
        }
        free(rj.p);
        first = 0;
      } else {
        wl_result_write_herd(r, secs, write_stdout, NULL);
        wl_result_write_findings(r, write_stdout, NULL);
        if (whynot && w != NULL)
          wl_whynot_write_text(w, write_stdout, NULL);
      }
      nfound += wl_result_nfindings(r);
      if (graph_dir != NULL) {
        mkdir(graph_dir, 0777);
        if (write_graphs(r, graph_dir, wl_litmus_name(t), &no_dot) != 0)
          failed++;
        if (w != NULL && wl_whynot_status(w) == WL_WHYNOT_FORBIDDEN) {
          char path[1200];
          membuf m = {NULL, 0, 0, 0};
          graph_path(path, sizeof path, graph_dir, wl_litmus_name(t),
                     "whynot");
          if (wl_whynot_write_dot(w, write_mem, &m) == 0 &&
              save_text(path, &m) == 0)
            render_svg(path, &no_dot);
          else
            failed++;
          free(m.p);
        }
      }
      free(wj.p);
      wl_whynot_free(w);
    }
    {
      const char *why;
      if (interrupted) {
        if (quiet)
          printf("%s Partial\n", wl_litmus_name(t));
        else if (!json)
          printf("Partial %s: interrupted by %s after %.2f s; the states "
                 "above were found before it\n\n",
                 wl_litmus_name(t), wll_sig_name(interrupted), now() - t0);
        fflush(stdout);
        fprintf(stderr, "warplab: %s: interrupted by %s; the result above "
                        "is partial and the files after it are skipped\n",
                f, wll_sig_name(interrupted));
        sig = interrupted;
        wl_result_free(r);
        wl_litmus_free(t);
        break;
      }
      if (wl_result_partial(r, &why)) {
        fflush(stdout);
        fprintf(stderr, "warplab: %s: %s; the result above is partial\n", f,
                why);
        failed++;
      }
    }
    wl_result_free(r);
    wl_litmus_free(t);
  }
  if (json)
    fputs("]\n", stdout);
  wl_model_free(why_model);
  wl_model_free(model);
  wl_ctx_free(ctx);
  free(files);
  if (fflush(stdout) != 0)
    return 1;
  return sig ? sig_status(sig) : failed ? 1 : check_error && nfound ? 4 : 0;
}

/* ------------------------------------------------------------------ */
/* warplab sample [options] FILE...                                    */
/* ------------------------------------------------------------------ */

/* The histogram's writer: stops the output when a new signal comes. */
static int write_stdout_sig(void *ud, const char *s, size_t n) {
  if (wll_sig_pending())
    return -1;
  return write_stdout(ud, s, n);
}

static int cmd_sample(int argc, char **argv) {
  enum { O_SEED = 256, O_PROFILE, O_TIMEOUT, O_MAXSTEPS, O_JSON };
  static const struct option longopts[] = {
      {"json", no_argument, NULL, O_JSON},
      {"runs", required_argument, NULL, 'n'},
      {"seed", required_argument, NULL, O_SEED},
      {"profile", required_argument, NULL, O_PROFILE},
      {"jobs", required_argument, NULL, 'j'},
      {"timeout", required_argument, NULL, O_TIMEOUT},
      {"max-steps", required_argument, NULL, O_MAXSTEPS},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  wl_sample_opts opts;
  const char **files;
  uint64_t u;
  int c, i, nf = 0, jobs = wll_ncpus(), failed = 0, cut = 0, sig = 0;
  int progress = isatty(2), json = 0, first = 1;
  double timeout = 0;
  memset(&opts, 0, sizeof opts);
  opts.runs = 100000;
  opts.seed = 1;
  opts.profile = WL_PROFILE_H100;
  if ((files = malloc((size_t)argc * sizeof *files)) == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "-:n:j:h", longopts, NULL)) != -1) {
    const char *v = optarg;
    int bad = 0;
    switch (c) {
    case 1:
      files[nf++] = v;
      break;
    case O_JSON:
      json = 1;
      break;
    case 'n':
      if (parse_count(v, 1, UINT64_MAX, &opts.runs) != 0)
        bad = bad_value("sample", "-n", v, "a number of runs of at least 1");
      break;
    case O_SEED:
      if (parse_count(v, 0, UINT64_MAX, &opts.seed) != 0)
        bad = bad_value("sample", "--seed", v, "a non-negative integer");
      break;
    case O_PROFILE:
      if (strcmp(v, "weak") == 0)
        opts.profile = WL_PROFILE_WEAK;
      else if (strcmp(v, "h100") == 0)
        opts.profile = WL_PROFILE_H100;
      else
        bad = bad_value("sample", "--profile", v, "weak or h100");
      break;
    case 'j':
      if (parse_count(v, 1, 1024, &u) != 0)
        bad = bad_value("sample", "--jobs", v, "a number from 1 to 1024");
      jobs = (int)u;
      break;
    case O_MAXSTEPS:
      if (parse_count(v, 1, INT_MAX, &u) != 0)
        bad = bad_value("sample", "--max-steps", v, "a positive number");
      opts.max_steps = (int)u;
      break;
    case O_TIMEOUT:
      if (parse_seconds(v, &timeout) != 0)
        bad = bad_value("sample", "--timeout", v,
                        "a positive number of seconds");
      break;
    case 'h':
      free(files);
      print_usage(stdout);
      return 0;
    default:
      bad = opt_error("sample", c, argv);
      break;
    }
    if (bad) {
      free(files);
      return bad;
    }
  }
  nf = add_rest(argc, argv, files, nf);
  if (nf == 0) {
    free(files);
    fprintf(stderr, "warplab sample: no .litmus file given (see warplab "
                    "help)\n");
    return 2;
  }
  {
    /* fewer workers when the address space or the thread limit cannot
     * hold them all (libuv would abort): say so, and go on */
    char note[300];
    int w = wll_pool_start(jobs, note, sizeof note);
    if (note[0] != '\0')
      fprintf(stderr, "warplab sample: %s\n", note);
    jobs = w > 0 ? w : 1;
  }
  if (json)
    fputs("[", stdout);
  for (i = 0; i < nf && sig == 0; i++) {
    const char *f = files[i];
    char err[600];
    size_t len = 0;
    char *src;
    wl_ctx *ctx = NULL;
    wl_litmus *t = NULL;
    wl_hist *h = NULL;
    double t0;
    int rc, partial = WLL_STOP_NONE;
    if ((sig = wll_sig_take()) != 0)
      break; /* a signal between files: the rest are skipped */
    src = read_file(f, &len, err, sizeof err);
    if (src == NULL) {
      fprintf(stderr, "warplab: %s\n", err);
      failed++;
      continue;
    }
    /* the test's context only parses; the workers have their own */
    rc = wl_ctx_new(NULL, &ctx);
    if (rc == 0)
      rc = wl_litmus_parse(ctx, f, src, len, &t);
    free(src);
    if (rc != 0) {
      const char *m = ctx != NULL ? wl_ctx_errmsg(ctx) : "";
      if (m[0] == '\0')
        m = wl_strerror(rc);
      if (strncmp(m, f, strlen(f)) == 0)
        fprintf(stderr, "warplab: %s\n", m);
      else
        fprintf(stderr, "warplab: %s: %s\n", f, m);
      wl_ctx_free(ctx);
      failed++;
      continue;
    }
    t0 = now();
    rc = wll_sample_parallel(ctx, t, &opts, jobs, timeout, progress, &h,
                             &partial, err, sizeof err);
    if (partial == WLL_STOP_SIGNAL)
      sig = wll_sig_take(); /* reported below; a new one stops the output */
    if (rc != 0) {
      if (strncmp(err, f, strlen(f)) == 0)
        fprintf(stderr, "warplab: %s\n", err);
      else
        fprintf(stderr, "warplab: %s: %s\n", f, err);
      failed++;
    } else {
      /* a signal during the output ends the SC search (no outcome is
       * then called weak) and the output itself */
      wl_hist_set_stop(h, wll_sig_stop, NULL);
      if (json && !first)
        fputs(",\n", stdout);
      first = 0;
      rc = (json ? wl_hist_write_json : wl_hist_write)(
          h, partial != WLL_STOP_NONE, now() - t0, write_stdout_sig, NULL);
      if (rc != 0 && wll_sig_pending()) {
        int s2 = wll_sig_take();
        fflush(stdout);
        fprintf(stderr, "\nwarplab: %s: output interrupted by %s\n", f,
                wll_sig_name(s2));
        if (sig == 0)
          sig = s2;
      } else if (rc != 0) {
        fprintf(stderr, "warplab: %s: %s\n", f, wl_ctx_errmsg(ctx));
        failed++;
      }
      if (partial != WLL_STOP_NONE) {
        char why[64];
        fflush(stdout);
        if (partial == WLL_STOP_TIMEOUT)
          snprintf(why, sizeof why, "stopped by --timeout");
        else
          snprintf(why, sizeof why, "interrupted by %s", wll_sig_name(sig));
        fprintf(stderr,
                "warplab: %s: %s after %llu of %llu runs; the histogram "
                "is partial\n",
                f, why, (unsigned long long)wl_hist_runs(h),
                (unsigned long long)opts.runs);
        if (partial == WLL_STOP_TIMEOUT)
          cut++;
      }
    }
    wl_hist_free(h);
    wl_litmus_free(t);
    wl_ctx_free(ctx);
  }
  if (json)
    fputs("]\n", stdout);
  free(files);
  if (fflush(stdout) != 0)
    return 1;
  return sig ? sig_status(sig) : failed ? 1 : cut ? 3 : 0;
}

/* ------------------------------------------------------------------ */
/* warplab cuda [options] FILE: the test as a CUDA program             */
/* ------------------------------------------------------------------ */

static int cuda_usage(const char *opt, const char *v, const char *want) {
  fprintf(stderr, "warplab cuda: %s takes %s, not '%s'\n", opt, want, v);
  return 2;
}

static int write_file(void *ud, const char *s, size_t n) {
  return fwrite(s, 1, n, (FILE *)ud) == n ? 0 : -1;
}

static int cmd_cuda(int argc, char **argv) {
  static const struct {
    const char *name, *want;
    long lo, hi;
  } nums[] = {{"--blocks", "a number from 1 to 1048576", 1, 1L << 20},
              {"--threads", "a number from 1 to 1024", 1, 1024},
              {"--launches", "a number of at least 1", 1, 1L << 30},
              {"--stress", "a number from 0 to 65536", 0, 1L << 16},
              {"--stress-iters", "a non-negative number", 0, 1L << 30},
              {"--spacing", "a number from 1 to 1024", 1, 1024},
              {"--seed", "a non-negative integer", 0, 0x7fffffffL},
              {"--budget", "a positive number", 1, 1L << 30},
              {"--rounds", "a number from 1 to 1048576", 1, 1L << 20}};
  wl_cuda_opts o;
  const char *out = NULL, *file = NULL;
  char err[600];
  size_t len = 0;
  char *src;
  wl_ctx *ctx;
  wl_litmus *t = NULL;
  FILE *f;
  int c, rc;
  static const struct option longopts[] = {
      {"blocks", required_argument, NULL, 256},
      {"threads", required_argument, NULL, 257},
      {"launches", required_argument, NULL, 258},
      {"stress", required_argument, NULL, 259},
      {"stress-iters", required_argument, NULL, 260},
      {"spacing", required_argument, NULL, 261},
      {"seed", required_argument, NULL, 262},
      {"budget", required_argument, NULL, 263},
      {"rounds", required_argument, NULL, 264},
      {"sm", required_argument, NULL, 'S'},
      {"no-shuffle", no_argument, NULL, 'N'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  wl_cuda_opts_init(&o);
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "-:o:h", longopts, NULL)) != -1) {
    uint64_t u;
    int k = c - 256;
    if (c == 1) {
      if (file != NULL) {
        fprintf(stderr, "warplab cuda: one .litmus file at a time ('%s' "
                        "is a second)\n", optarg);
        return 2;
      }
      file = optarg;
    } else if (c == 'o') {
      out = optarg;
    } else if (c == 'N') {
      o.no_shuffle = 1;
    } else if (c == 'S') {
      if (strcmp(optarg, "any") == 0)
        o.sm = WL_CUDA_SM_ANY;
      else if (strcmp(optarg, "same") == 0)
        o.sm = WL_CUDA_SM_SAME;
      else if (strcmp(optarg, "different") == 0)
        o.sm = WL_CUDA_SM_DIFFERENT;
      else
        return cuda_usage("--sm", optarg, "any, same or different");
    } else if (c == 'h') {
      print_usage(stdout);
      return 0;
    } else if (k >= 0 && (size_t)k < sizeof nums / sizeof nums[0]) {
      if (parse_count(optarg, (uint64_t)nums[k].lo, (uint64_t)nums[k].hi,
                      &u) != 0)
        return cuda_usage(nums[k].name, optarg, nums[k].want);
      switch (k) {
      case 0: o.blocks = (int)u; break;
      case 1: o.threads = (int)u; break;
      case 2: o.launches = (int)u; break;
      case 3: o.stress_blocks = (int)u; break;
      case 4: o.stress_iters = (int)u; break;
      case 5: o.spacing = (int)u; break;
      case 6: o.seed = u; break;
      case 7: o.budget = (int)u; break;
      default: o.rounds = (int)u; break;
      }
    } else if (c == ':') {
      fprintf(stderr, "warplab cuda: %s needs a value (see warplab help)\n",
              argv[optind - 1]);
      return 2;
    } else {
      fprintf(stderr, "warplab cuda: unknown option '%s' (see warplab "
                      "help)\n", argv[optind - 1]);
      return 2;
    }
  }
  for (; optind < argc; optind++) { /* after "--" */
    if (file != NULL) {
      fprintf(stderr, "warplab cuda: one .litmus file at a time ('%s' is "
                      "a second)\n", argv[optind]);
      return 2;
    }
    file = argv[optind];
  }
  if (file == NULL) {
    fprintf(stderr, "warplab cuda: no .litmus file given (see warplab "
                    "help)\n");
    return 2;
  }
  if ((src = read_file(file, &len, err, sizeof err)) == NULL) {
    fprintf(stderr, "warplab: %s\n", err);
    return 1;
  }
  if (wl_ctx_new(NULL, &ctx) != 0) {
    free(src);
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  rc = wl_litmus_parse(ctx, file, src, len, &t);
  free(src);
  f = stdout;
  if (rc == 0 && out != NULL && (f = fopen(out, "wb")) == NULL) {
    fprintf(stderr, "warplab cuda: %s: %s\n", out, strerror(errno));
    wl_litmus_free(t);
    wl_ctx_free(ctx);
    return 1;
  }
  if (rc == 0)
    rc = wl_cuda_emit(ctx, t, &o, write_file, f);
  if (rc != 0) {
    const char *m = wl_ctx_errmsg(ctx);
    if (strncmp(m, file, strlen(file)) == 0)
      fprintf(stderr, "warplab: %s\n", m);
    else
      fprintf(stderr, "warplab: %s: %s\n", file, m);
  }
  if (f != stdout && fclose(f) != 0 && rc == 0) {
    fprintf(stderr, "warplab cuda: %s: %s\n", out, strerror(errno));
    rc = WL_EIO;
  }
  if (rc != 0 && f != stdout)
    remove(out);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  if (f == stdout && fflush(stdout) != 0)
    return 1;
  return rc != 0 ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* warplab compare HIST FILE...: observations beside the model          */
/* ------------------------------------------------------------------ */

static int cmd_compare(int argc, char **argv) {
  wl_explore_opts opts;
  wl_model *model = NULL;
  const char *model_path = NULL, *hist_path;
  char err[600];
  char *hist;
  size_t hlen = 0;
  wl_ctx *ctx;
  int i = 0, failed = 0, forbidden = 0;
  static const struct option longopts[] = {
      {"model", required_argument, NULL, 'm'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  int c;
  memset(&opts, 0, sizeof opts);
  opterr = 0;
  optind = 1;
  /* GNU getopt_long moves the histogram and the files after the options,
   * wherever they were written */
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    if (c == 'm') {
      model_path = optarg;
    } else if (c == 'h') {
      print_usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "warplab compare: %s '%s' (see warplab help)\n",
              c == ':' ? "a value is missing after" : "unknown option",
              argv[optind - 1]);
      return 2;
    }
  }
  i = optind;
  if (argc - i < 2) {
    fprintf(stderr, "warplab compare: give a histogram and one or more "
                    ".litmus files (see warplab help)\n");
    return 2;
  }
  hist_path = argv[i++];
  if ((hist = read_file(hist_path, &hlen, err, sizeof err)) == NULL) {
    fprintf(stderr, "warplab: %s\n", err);
    return 1;
  }
  if (wl_ctx_new(NULL, &ctx) != 0) {
    free(hist);
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  if (model_path != NULL) {
    int rc = load_model(ctx, model_path, &model);
    if (rc != 0) {
      wl_ctx_free(ctx);
      free(hist);
      return rc;
    }
    opts.model = model;
  }
  for (; i < argc; i++) {
    size_t len = 0;
    char *src = read_file(argv[i], &len, err, sizeof err);
    wl_litmus *t = NULL;
    wl_result *r = NULL;
    wl_compare_report rep;
    int rc;
    if (src == NULL) {
      fprintf(stderr, "warplab: %s\n", err);
      failed++;
      continue;
    }
    rc = wl_litmus_parse(ctx, argv[i], src, len, &t);
    free(src);
    if (rc == 0)
      rc = wl_explore(ctx, t, &opts, &r);
    if (rc == 0)
      rc = wl_compare(ctx, t, r, hist_path, hist, hlen, write_stdout, NULL,
                      &rep);
    if (rc != 0) {
      const char *m = wl_ctx_errmsg(ctx);
      if (strncmp(m, argv[i], strlen(argv[i])) == 0 ||
          strncmp(m, hist_path, strlen(hist_path)) == 0)
        fprintf(stderr, "warplab: %s\n", m);
      else
        fprintf(stderr, "warplab: %s: %s\n", argv[i], m);
      failed++;
    } else {
      if (rep.forbidden > 0) {
        fflush(stdout);
        fprintf(stderr,
                "warplab: %s: %zu outcome%s the model forbids observed in "
                "%s (%llu runs): a model or hardware bug, or a harness "
                "that does not run the test as written\n",
                wl_litmus_name(t), rep.forbidden,
                rep.forbidden > 1 ? "s" : "", hist_path,
                (unsigned long long)rep.forbidden_runs);
        forbidden++;
      }
      if (wl_result_bound_hit(r))
        printf("Warning %s: the unroll bound cut some executions; allowed "
               "states may be missing\n", wl_litmus_name(t));
      fputs("\n", stdout);
    }
    wl_result_free(r);
    wl_litmus_free(t);
  }
  wl_model_free(model);
  wl_ctx_free(ctx);
  free(hist);
  if (fflush(stdout) != 0)
    return 1;
  return forbidden ? 4 : failed ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* warplab gen [options]: litmus tests from cycles or at random        */
/* ------------------------------------------------------------------ */

/* A comma-separated list of words to the bits of their positions in
 * words[] (NULL-terminated); -1 naming nothing valid. */
static int word_bits(const char *v, const char *const words[],
                     unsigned *out) {
  unsigned bits = 0;
  const char *p = v;
  while (*p != '\0') {
    size_t n = strcspn(p, ",");
    int k, found = -1;
    for (k = 0; words[k] != NULL; k++)
      if (strlen(words[k]) == n && strncmp(p, words[k], n) == 0)
        found = k;
    if (found < 0)
      return -1;
    bits |= 1u << found;
    p += n;
    if (*p == ',')
      p++;
  }
  if (bits == 0)
    return -1;
  *out = bits;
  return 0;
}

static int gen_usage(const char *opt, const char *v, const char *want) {
  fprintf(stderr, "warplab gen: %s takes %s, not '%s'\n", opt, want, v);
  return 2;
}

/* Writes text to DIR/NAME.litmus; 0 or -1 (message printed). */
static int gen_write_file(const char *dir, const char *name,
                          const char *text, size_t len) {
  char path[4096];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s.litmus", dir, name);
  f = fopen(path, "wb");
  if (f == NULL || fwrite(text, 1, len, f) != len) {
    fprintf(stderr, "warplab gen: %s: %s\n", path, strerror(errno));
    if (f != NULL)
      fclose(f);
    return -1;
  }
  if (fclose(f) != 0) {
    fprintf(stderr, "warplab gen: %s: %s\n", path, strerror(errno));
    return -1;
  }
  return 0;
}

static int cmd_gen(int argc, char **argv) {
  static const char *const ann_words[] = {"weak", "rlx", "ra", "mix", NULL};
  static const char *const place_words[] = {"cta", "gpu", "sys", "mix",
                                            NULL};
  static const char *const mix_words[] = {"weak", "relaxed", "acqrel",
                                          "atom", "red",     "fence",
                                          "dep",  "bar",     NULL};
  enum { O_CYCLE = 256, O_FAMILY, O_EDGES, O_MAXSIZE, O_RANDOM, O_SAMPLE,
         O_ANN, O_PLACE, O_SCOPES, O_COUNT, O_SEED, O_THREADS, O_INSNS,
         O_LOCS, O_MIX, O_LIST, O_EXPLORE, O_UNROLL, O_FAMILIES };
  static const struct option longopts[] = {
      {"cycle", required_argument, NULL, O_CYCLE},
      {"family", required_argument, NULL, O_FAMILY},
      {"edges", required_argument, NULL, O_EDGES},
      {"max-size", required_argument, NULL, O_MAXSIZE},
      {"random", no_argument, NULL, O_RANDOM},
      {"sample", no_argument, NULL, O_SAMPLE},
      {"annotations", required_argument, NULL, O_ANN},
      {"placements", required_argument, NULL, O_PLACE},
      {"scopes", required_argument, NULL, O_SCOPES},
      {"count", required_argument, NULL, O_COUNT},
      {"seed", required_argument, NULL, O_SEED},
      {"threads", required_argument, NULL, O_THREADS},
      {"insns", required_argument, NULL, O_INSNS},
      {"locs", required_argument, NULL, O_LOCS},
      {"mix", required_argument, NULL, O_MIX},
      {"list", no_argument, NULL, O_LIST},
      {"explore", no_argument, NULL, O_EXPLORE},
      {"unroll", required_argument, NULL, O_UNROLL},
      {"families", no_argument, NULL, O_FAMILIES},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  wl_gen_opts o;
  wl_explore_opts xo;
  wl_ctx *ctx = NULL;
  wl_gen *g = NULL;
  const char *dir = NULL;
  int c, modes = 0, list = 0, explore = 0, count_set = 0, rc, failed = 0;
  int sig = 0;
  uint64_t u, n = 0;
  memset(&o, 0, sizeof o);
  memset(&xo, 0, sizeof xo);
  o.seed = 1;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "+:o:h", longopts, NULL)) != -1) {
    const char *v = optarg;
    switch (c) {
    case O_CYCLE:
      o.mode = WL_GEN_CYCLE;
      o.cycle = v;
      modes++;
      break;
    case O_FAMILY:
      o.mode = WL_GEN_FAMILY;
      o.family = v;
      modes++;
      break;
    case O_EDGES:
      o.mode = WL_GEN_EDGES;
      o.edges = v;
      modes++;
      break;
    case O_RANDOM:
      o.mode = WL_GEN_RANDOM;
      modes++;
      break;
    case O_SAMPLE:
      o.sample = 1;
      break;
    case O_MAXSIZE:
      if (parse_count(v, 3, 12, &u) != 0)
        return gen_usage("--max-size", v, "a number from 3 to 12");
      o.max_size = (int)u;
      break;
    case O_THREADS:
    case O_INSNS:
    case O_LOCS: {
      int hi = c == O_INSNS ? 16 : 8;
      const char *nm = c == O_THREADS ? "--threads"
                       : c == O_INSNS ? "--insns"
                                      : "--locs";
      if (parse_count(v, 1, (uint64_t)hi, &u) != 0) {
        fprintf(stderr, "warplab gen: %s takes a number from 1 to %d, not "
                        "'%s'\n", nm, hi, v);
        return 2;
      }
      if (c == O_THREADS)
        o.threads = (int)u;
      else if (c == O_INSNS)
        o.insns = (int)u;
      else
        o.locs = (int)u;
      break;
    }
    case O_ANN:
      if (word_bits(v, ann_words, &o.annotations) != 0)
        return gen_usage("--annotations", v, "a list of weak,rlx,ra,mix");
      break;
    case O_PLACE:
      if (word_bits(v, place_words, &o.placements) != 0)
        return gen_usage("--placements", v, "a list of cta,gpu,sys,mix");
      break;
    case O_SCOPES:
      if (word_bits(v, place_words, &o.scopes) != 0 || (o.scopes & 8u))
        return gen_usage("--scopes", v, "a list of cta,gpu,sys");
      break;
    case O_MIX:
      if (word_bits(v, mix_words, &o.mix) != 0)
        return gen_usage("--mix", v,
                         "a list of weak,relaxed,acqrel,atom,red,fence,dep,"
                         "bar");
      break;
    case O_COUNT:
      if (parse_count(v, 1, UINT64_MAX, &o.count) != 0)
        return gen_usage("--count", v, "a number of at least 1");
      count_set = 1;
      break;
    case O_SEED:
      if (parse_count(v, 0, UINT64_MAX, &o.seed) != 0)
        return gen_usage("--seed", v, "a non-negative integer");
      break;
    case O_UNROLL:
      if (parse_count(v, 1, 1000, &u) != 0)
        return gen_usage("--unroll", v, "a number from 1 to 1000");
      xo.unroll = (int)u;
      break;
    case 'o':
      dir = v;
      break;
    case O_LIST:
      list = 1;
      break;
    case O_EXPLORE:
      explore = 1;
      break;
    case O_FAMILIES: {
      const char *const *f = wl_gen_families();
      for (; *f != NULL; f++)
        printf("%-6s %s\n", *f, wl_gen_family_cycle(*f));
      return fflush(stdout) != 0;
    }
    case 'h':
      print_usage(stdout);
      return 0;
    default:
      return opt_error("gen", c, argv);
    }
  }
  if (optind < argc) {
    fprintf(stderr, "warplab gen: unexpected argument '%s' (see warplab "
                    "help)\n", argv[optind]);
    return 2;
  }
  if (modes != 1) {
    fprintf(stderr, "warplab gen: give one of --cycle, --family, --edges or "
                    "--random (see warplab help)\n");
    return 2;
  }
  if (!count_set && (o.sample || o.mode == WL_GEN_RANDOM))
    o.count = 10;
  if (wl_ctx_new(NULL, &ctx) != 0) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  rc = wl_gen_new(ctx, &o, &g);
  if (rc != 0) {
    fprintf(stderr, "warplab gen: %s\n", wl_ctx_errmsg(ctx));
    wl_ctx_free(ctx);
    return rc == WL_ENOMEM ? 1 : 2;
  }
  if (dir != NULL && mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "warplab gen: %s: %s\n", dir, strerror(errno));
    wl_gen_free(g);
    wl_ctx_free(ctx);
    return 1;
  }
  xo.should_stop = wll_sig_stop; /* SIGINT/SIGTERM */
  for (;;) {
    const char *text;
    size_t len;
    if ((sig = wll_sig_take()) != 0) {
      /* the tests so far are out; say where it stopped */
      fflush(stdout);
      fprintf(stderr, "warplab gen: interrupted by %s after %llu tests\n",
              wll_sig_name(sig), (unsigned long long)n);
      break;
    }
    if ((rc = wl_gen_next(g, &text, &len)) != 0) {
      fprintf(stderr, "warplab gen: %s\n", wl_ctx_errmsg(ctx));
      failed++;
      break;
    }
    if (text == NULL)
      break;
    n++;
    if (dir != NULL && gen_write_file(dir, wl_gen_name(g), text, len) != 0) {
      failed++;
      break;
    }
    if (explore) {
      wl_litmus *t = NULL;
      wl_result *r = NULL;
      rc = wl_litmus_parse(ctx, wl_gen_name(g), text, len, &t);
      if (rc == 0)
        rc = wl_explore(ctx, t, &xo, &r);
      if (rc == WL_ESTOPPED && wll_sig_pending()) {
        printf("%s Partial\n", wl_gen_name(g)); /* seen at the loop's top */
      } else if (rc != 0) {
        fprintf(stderr, "warplab gen: %s: %s\n", wl_gen_name(g),
                wl_ctx_errmsg(ctx));
        failed++;
      } else {
        printf("%s %s%s %zu\n", wl_gen_name(g),
               wl_result_bound_hit(r) ? "Loop " : "",
               wl_result_verdict(r) ? "Ok" : "No", wl_result_nstates(r));
      }
      wl_result_free(r);
      wl_litmus_free(t);
    } else if (list) {
      printf("%s\n", wl_gen_name(g));
    } else if (dir == NULL) {
      if (n > 1)
        fputc('\n', stdout);
      fwrite(text, 1, len, stdout);
    }
  }
  if (dir != NULL && !failed)
    fprintf(stderr, "warplab gen: wrote %llu tests to %s\n",
            (unsigned long long)n, dir);
  wl_gen_free(g);
  wl_ctx_free(ctx);
  if (fflush(stdout) != 0)
    return 1;
  return sig ? sig_status(sig) : failed ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* warplab run SCRIPT [ARGS]: lua.c's way of running a script          */
/* ------------------------------------------------------------------ */

/* lua.c's msghandler; a message that already carries a traceback (an
 * error of a thread function re-raised by test:explore) keeps its own. */
static int run_msghandler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      return 1;
    msg =
        lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  if (strstr(msg, "\nstack traceback:") != NULL)
    return 1;
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/* warplab run's options */
typedef struct run_opts {
  const char *check; /* --check's list, "all"; NULL: off */
  int check_error, json;
  lua_Integer found; /* the checkers' findings */
} run_opts;

/* Pushes the warplab module's field name (require "warplab"). */
static void module_field(lua_State *L, const char *name) {
  lua_getglobal(L, "require");
  lua_pushliteral(L, "warplab");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, name);
  lua_remove(L, -2);
}

/* Runs in protected mode: argv[k] is the script, those after it its
 * arguments, those before the command line up to it (arg[-1] ...). */
static int run_main(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = lua_touserdata(L, 2);
  int k = (int)lua_tointeger(L, 3);
  run_opts *o = lua_touserdata(L, 4);
  const char *script = argv[k];
  int i, n;
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_warplab);
  lua_setfield(L, -2, "warplab");
  lua_pop(L, 1);
  lua_settop(L, 0);
  if (o->check != NULL) {
    module_field(L, "set_check");
    lua_pushstring(L, o->check);
    lua_call(L, 1, 0);
  }
  /* arg: the script at 0, its arguments from 1, the command below */
  lua_createtable(L, argc - k - 1, k + 1);
  for (i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - k);
  }
  lua_setglobal(L, "arg");
  lua_pushcfunction(L, run_msghandler);
  if (luaL_loadfile(L, strcmp(script, "-") == 0 ? NULL : script) != LUA_OK)
    return lua_error(L);
  n = argc - k - 1;
  luaL_checkstack(L, n + 1, "too many arguments to script");
  for (i = k + 1; i < argc; i++)
    lua_pushstring(L, argv[i]);
  /* SIGINT/SIGTERM interrupt the script with an error it may catch */
  wll_sig_lua(L);
  if (lua_pcall(L, n, 0, lua_gettop(L) - n - 1) != LUA_OK) {
    wll_sig_lua(NULL);
    return lua_error(L);
  }
  wll_sig_lua(NULL);
  if (o->check != NULL) { /* the summary, after the script's output */
    module_field(L, "check_summary");
    lua_pushboolean(L, o->json);
    lua_call(L, 1, 2);
    fflush(stdout);
    printf("%s\n", lua_tostring(L, -2));
    o->found = lua_tointeger(L, -1);
  }
  return 0;
}

/* The script's Lua state allocates small blocks from size-class free
 * lists: kernels create many short-lived objects (warp-vector kernels a
 * lane vector per operation), and malloc/free were a tenth of their
 * time.  Blocks over POOL_MAX go to realloc/free.  Only this one state
 * uses the pool (libuv workers make their own states with
 * luaL_newstate), so it needs no lock. */
#define POOL_MAX 512
#define POOL_CHUNK (256 * 1024)
typedef struct pool_blk {
  struct pool_blk *next;
} pool_blk;
typedef struct pool_chunk {
  struct pool_chunk *next;
} pool_chunk;
typedef struct pool {
  pool_blk *free[POOL_MAX / 16 + 1];
  pool_chunk *chunks;
  char *cur;    /* unused part of the newest chunk */
  size_t left;
} pool;

static size_t pool_class(size_t n) { return (n + 15) / 16; }

static void *pool_get(pool *P, size_t c) {
  pool_blk *b = P->free[c];
  size_t sz = c * 16;
  if (b != NULL) {
    P->free[c] = b->next;
    return b;
  }
  if (P->left < sz) {
    pool_chunk *k = malloc(POOL_CHUNK);
    if (k == NULL)
      return NULL;
    k->next = P->chunks;
    P->chunks = k;
    P->cur = (char *)k + 16;
    P->left = POOL_CHUNK - 16;
  }
  b = (pool_blk *)(void *)P->cur;
  P->cur += sz;
  P->left -= sz;
  return b;
}

static void pool_put(pool *P, void *p, size_t c) {
  pool_blk *b = p;
  b->next = P->free[c];
  P->free[c] = b;
}

static void *pool_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  pool *P = ud;
  size_t oc, nc;
  if (ptr == NULL)
    osize = 0; /* then osize names the kind of object, not a size */
  oc = osize > 0 && osize <= POOL_MAX ? pool_class(osize) : 0;
  nc = nsize > 0 && nsize <= POOL_MAX ? pool_class(nsize) : 0;
  if (nsize == 0) {
    if (ptr != NULL) {
      if (oc)
        pool_put(P, ptr, oc);
      else
        free(ptr);
    }
    return NULL;
  }
  if (ptr != NULL && oc == 0 && nc == 0)
    return realloc(ptr, nsize);
  if (ptr != NULL && oc != 0 && oc == nc)
    return ptr;
  {
    void *q = nc ? pool_get(P, nc) : malloc(nsize);
    if (q == NULL)
      return NULL; /* Lua keeps ptr */
    if (ptr != NULL) {
      memcpy(q, ptr, osize < nsize ? osize : nsize);
      if (oc)
        pool_put(P, ptr, oc);
      else
        free(ptr);
    }
    return q;
  }
}

static void pool_release(pool *P) {
  while (P->chunks != NULL) {
    pool_chunk *k = P->chunks;
    P->chunks = k->next;
    free(k);
  }
}

static int lua_panic_fn(lua_State *L) {
  const char *msg = lua_tostring(L, -1);
  fprintf(stderr, "warplab: unprotected Lua error: %s\n",
          msg ? msg : "(error object is not a string)");
  return 0; /* Lua aborts */
}

/* Lua's warn(): off until "@on", as in lua5.4 */
static int warn_on;
static void lua_warn_fn(void *ud, const char *msg, int tocont) {
  static int cont;
  (void)ud;
  if (!cont && msg[0] == '@') {
    if (strcmp(msg, "@on") == 0)
      warn_on = 1;
    else if (strcmp(msg, "@off") == 0)
      warn_on = 0;
    return;
  }
  if (warn_on) {
    if (!cont)
      fputs("Lua warning: ", stderr);
    fputs(msg, stderr);
    if (!tocont)
      fputc('\n', stderr);
  }
  cont = tocont;
}

/* warplab run [--] SCRIPT [ARGS...]: argv is main's; options end at the
 * script (what follows is the script's). */
static int cmd_run(int argc, char **argv) {
  enum { O_CHECK = 256, O_CHECK_ERROR, O_JSON };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},
      {"check", optional_argument, NULL, O_CHECK},
      {"check-error", no_argument, NULL, O_CHECK_ERROR},
      {"json", no_argument, NULL, O_JSON},
      {NULL, 0, NULL, 0}};
  static pool P;
  lua_State *L;
  int c, k, rc, status = 0;
  run_opts o;
  memset(&o, 0, sizeof o);
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc - 1, argv + 1, "+:h", longopts, NULL)) != -1) {
    switch (c) {
    case 'h':
      print_usage(stdout);
      return 0;
    case O_CHECK:
      o.check = optarg != NULL ? optarg : "all";
      if (strspn(o.check, "racesuntiplo, ") != strlen(o.check) ||
          o.check[0] == 0) {
        fprintf(stderr, "warplab run: --check: a list of races, uninit, "
                        "spin (or all) expected, got '%s'\n",
                o.check);
        return 2;
      }
      break;
    case O_CHECK_ERROR:
      o.check_error = 1;
      if (o.check == NULL)
        o.check = "all";
      break;
    case O_JSON:
      o.json = 1;
      break;
    default:
      return opt_error("run", c, argv + 1);
    }
  }
  k = optind + 1; /* the script, in main's argv */
  if (k >= argc) {
    fprintf(stderr, "warplab run: no script given (see warplab help)\n");
    return 2;
  }
  /* WARPLAB_NO_POOL=1: plain malloc, so valgrind sees every Lua block */
  L = getenv("WARPLAB_NO_POOL") != NULL ? luaL_newstate()
                                        : lua_newstate(pool_alloc, &P);
  if (L == NULL) {
    fprintf(stderr, "warplab: cannot create a Lua state (out of memory)\n");
    return 1;
  }
  if (getenv("WARPLAB_NO_POOL") == NULL) {
    lua_atpanic(L, lua_panic_fn);
    lua_setwarnf(L, lua_warn_fn, NULL);
  }
  lua_pushcfunction(L, run_main);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  lua_pushinteger(L, k);
  lua_pushlightuserdata(L, &o);
  rc = lua_pcall(L, 4, 0, 0);
  if (rc != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "warplab: %s\n",
            msg != NULL ? msg : "(error object is not a string)");
    /* a script ended by the interrupt error it did not catch: the
     * signal's status, as for the other commands */
    if (msg != NULL && strstr(msg, "interrupted by SIGINT") != NULL)
      status = sig_status(SIGINT);
    else if (msg != NULL && strstr(msg, "interrupted by SIGTERM") != NULL)
      status = sig_status(SIGTERM);
  }
  lua_close(L);
  pool_release(&P);
  if (fflush(stdout) != 0)
    return 1;
  if (status == 0 && rc == LUA_OK && o.check_error && o.found > 0)
    status = 4;
  return status ? status : rc == LUA_OK ? 0 : 1;
}


/* warplab report: wl.report{FILE..., output = ...} in a fresh state. */
typedef struct report_args {
  const char **files;
  int nf;
  const char *out, *title, *model;
  uint64_t runs, seed, graphs;
} report_args;

static int report_main(lua_State *L) {
  const report_args *a = lua_touserdata(L, 1);
  int i;
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_warplab);
  lua_setfield(L, -2, "warplab");
  lua_pop(L, 1);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "warplab");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "report");
  lua_createtable(L, a->nf, 6);
  for (i = 0; i < a->nf; i++) {
    lua_pushstring(L, a->files[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushstring(L, a->out);
  lua_setfield(L, -2, "output");
  if (a->title != NULL) {
    lua_pushstring(L, a->title);
    lua_setfield(L, -2, "title");
  }
  if (a->model != NULL) {
    lua_pushstring(L, a->model);
    lua_setfield(L, -2, "model");
  }
  lua_pushinteger(L, (lua_Integer)a->runs);
  lua_setfield(L, -2, "runs");
  lua_pushinteger(L, (lua_Integer)a->seed);
  lua_setfield(L, -2, "seed");
  lua_pushinteger(L, (lua_Integer)a->graphs);
  lua_setfield(L, -2, "graphs");
  wll_sig_lua(L);
  lua_call(L, 1, 0);
  wll_sig_lua(NULL);
  return 0;
}

static int cmd_report(int argc, char **argv) {
  enum { O_RUNS = 256, O_SEED, O_TITLE, O_MODEL, O_GRAPHS };
  static const struct option longopts[] = {
      {"output", required_argument, NULL, 'o'},
      {"runs", required_argument, NULL, O_RUNS},
      {"seed", required_argument, NULL, O_SEED},
      {"title", required_argument, NULL, O_TITLE},
      {"model", required_argument, NULL, O_MODEL},
      {"graphs", required_argument, NULL, O_GRAPHS},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  report_args a;
  lua_State *L;
  int c, rc;
  memset(&a, 0, sizeof a);
  a.out = "report.html";
  a.runs = 1000;
  a.seed = 1;
  a.graphs = 4;
  if ((a.files = malloc((size_t)argc * sizeof *a.files)) == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "-:o:h", longopts, NULL)) != -1) {
    switch (c) {
    case 1:
      a.files[a.nf++] = optarg;
      break;
    case 'o':
      a.out = optarg;
      break;
    case O_RUNS:
      if (parse_count(optarg, 0, 100000000, &a.runs) != 0) {
        free(a.files);
        return bad_value("report", "--runs", optarg,
                         "a number from 0 to 100000000");
      }
      break;
    case O_SEED:
      if (parse_count(optarg, 0, UINT64_MAX, &a.seed) != 0) {
        free(a.files);
        return bad_value("report", "--seed", optarg, "a number");
      }
      break;
    case O_GRAPHS:
      if (parse_count(optarg, 0, 1000, &a.graphs) != 0) {
        free(a.files);
        return bad_value("report", "--graphs", optarg,
                         "a number from 0 to 1000");
      }
      break;
    case O_TITLE:
      a.title = optarg;
      break;
    case O_MODEL:
      a.model = optarg;
      break;
    case 'h':
      free(a.files);
      print_usage(stdout);
      return 0;
    default:
      free(a.files);
      return opt_error("report", c, argv);
    }
  }
  a.nf = add_rest(argc, argv, a.files, a.nf);
  if (a.nf == 0) {
    free(a.files);
    fprintf(stderr, "warplab report: no file given (see warplab help)\n");
    return 2;
  }
  L = luaL_newstate();
  if (L == NULL) {
    free(a.files);
    fprintf(stderr, "warplab: cannot create a Lua state (out of memory)\n");
    return 1;
  }
  lua_pushcfunction(L, report_main);
  lua_pushlightuserdata(L, &a);
  rc = lua_pcall(L, 1, 0, 0);
  if (rc != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "warplab: report: %s\n",
            msg != NULL ? msg : "(error object is not a string)");
  }
  lua_close(L);
  free(a.files);
  return rc == LUA_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  /* one signal policy for every command (lsignal.c): SIGINT and SIGTERM
   * end the work, which reports what it has */
  if (strcmp(argv[1], "litmus") == 0 || strcmp(argv[1], "sample") == 0 ||
      strcmp(argv[1], "run") == 0 || strcmp(argv[1], "gen") == 0 ||
      strcmp(argv[1], "report") == 0)
    wll_sig_enter();
  if (strcmp(argv[1], "litmus") == 0)
    return cmd_litmus(argc - 1, argv + 1);
  if (strcmp(argv[1], "sample") == 0)
    return cmd_sample(argc - 1, argv + 1);
  if (strcmp(argv[1], "run") == 0)
    return cmd_run(argc, argv);
  if (strcmp(argv[1], "gen") == 0)
    return cmd_gen(argc - 1, argv + 1);
  if (strcmp(argv[1], "report") == 0)
    return cmd_report(argc - 1, argv + 1);
  if (strcmp(argv[1], "cuda") == 0)
    return cmd_cuda(argc - 1, argv + 1);
  if (strcmp(argv[1], "compare") == 0)
    return cmd_compare(argc - 1, argv + 1);
  if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
      strcmp(argv[1], "-h") == 0) {
    print_usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
    printf("warplab %s\n", WL_VERSION);
    return 0;
  }
  fprintf(stderr, "warplab: unknown command '%s'\n\n", argv[1]);
  print_usage(stderr);
  return 2;
}

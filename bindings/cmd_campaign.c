/* cmd_campaign.c -- warplab campaign: a campaign of .litmus files as a
 * Slurm job array over shards of the file list plus a merge job, or the
 * same shards on a workstation through GNU parallel or xargs -P.
 *
 * The list is cut into contiguous shards of about equal cost (the
 * files' sizes): each shard's output is then a run of the whole
 * output, and `warplab merge` of the shards in order is what one
 * `warplab litmus` over the list prints (Time lines aside).  Slurm does
 * the scheduling; this command only writes the scripts (and with
 * --submit hands them to sbatch).  Every script runs from the folder
 * the campaign was made in, so that file names print as given. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "cmd.h"
#include "lwarplab.h"

/* A growable string. */
typedef struct str {
  char *p;
  size_t n, cap;
  int oom;
} str;

static void add(str *s, const char *t, size_t n) {
  if (s->oom)
    return;
  if (s->n + n + 1 > s->cap) {
    size_t cap = s->cap ? s->cap : 1024;
    char *q;
    while (cap < s->n + n + 1)
      cap *= 2;
    if ((q = realloc(s->p, cap)) == NULL) {
      s->oom = 1;
      return;
    }
    s->p = q;
    s->cap = cap;
  }
  memcpy(s->p + s->n, t, n);
  s->n += n;
  s->p[s->n] = '\0';
}

static void adds(str *s, const char *t) { add(s, t, strlen(t)); }

static void addf(str *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void addf(str *s, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof buf) {
    s->oom = 1;
    return;
  }
  add(s, buf, (size_t)n);
}

/* t as one shell word: single-quoted, each ' as '\'' */
static void addq(str *s, const char *t) {
  adds(s, "'");
  for (; *t != '\0'; t++)
    if (*t == '\'')
      adds(s, "'\\''");
    else
      add(s, t, 1);
  adds(s, "'");
}

static int save(const char *dir, const char *name, const str *s) {
  char path[PATH_MAX + 64], err[PATH_MAX + 300];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (s->oom) {
    fprintf(stderr, "warplab campaign: out of memory\n");
    return -1;
  }
  if (wll_save_file(path, s->p ? s->p : "", s->n, err, sizeof err) != 0) {
    fprintf(stderr, "warplab campaign: %s\n", err);
    return -1;
  }
  return 0;
}

/* Adds the paths of list (one a line; blank lines and a '\r' before
 * the newline dropped) to *files; *keep holds their text (free it). */
static int read_list(const char *list, char ***files, int *nf, int *cap,
                     char **keep) {
  char err[PATH_MAX + 300], *s, *q;
  size_t len = 0, i = 0;
  s = wll_read_file(list, &len, err, sizeof err);
  if (s == NULL) {
    fprintf(stderr, "warplab campaign: %s\n", err);
    return -1;
  }
  if ((q = realloc(s, len + 1)) == NULL) {
    free(s);
    fprintf(stderr, "warplab: out of memory\n");
    return -1;
  }
  s = q;
  s[len] = '\0';
  *keep = s;
  while (i < len) {
    size_t e = i;
    while (e < len && s[e] != '\n')
      e++;
    s[e] = '\0';
    if (e > i && s[e - 1] == '\r')
      s[e - 1] = '\0';
    if (s[i] != '\0') {
      if (*nf == *cap) {
        char **f = realloc(*files, (size_t)(*cap * 2) * sizeof *f);
        if (f == NULL) {
          fprintf(stderr, "warplab: out of memory\n");
          return -1;
        }
        *files = f;
        *cap *= 2;
      }
      (*files)[(*nf)++] = s + i;
    }
    i = e + 1;
  }
  return 0;
}

int wll_cmd_campaign(int argc, char **argv) {
  enum { O_SHARDS = 256, O_LIST, O_JSON, O_HERD, O_SBATCH, O_SUBMIT,
         O_WARPLAB, O_ARG, O_RANKS, O_WLMPI };
  static const struct option longopts[] = {
      {"dir", required_argument, NULL, 'o'},
      {"shards", required_argument, NULL, O_SHARDS},
      {"list", required_argument, NULL, O_LIST},
      {"json", no_argument, NULL, O_JSON},
      {"herd", no_argument, NULL, O_HERD},
      {"sbatch", required_argument, NULL, O_SBATCH},
      {"submit", no_argument, NULL, O_SUBMIT},
      {"warplab", required_argument, NULL, O_WARPLAB},
      {"litmus-arg", required_argument, NULL, O_ARG},
      {"ranks", required_argument, NULL, O_RANKS},
      {"warplab-mpi", required_argument, NULL, O_WLMPI},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  const char *dir = "campaign", *wl = NULL, *fmt = "", *ext = "txt";
  const char *wlmpi = NULL;
  uint64_t ranks = 0; /* --ranks: one MPI job instead of the array */
  char selfmpi[PATH_MAX + 8];
  const char **sb = NULL, **args = NULL;
  char **files = NULL, *lists[64];
  int c, nf = 0, cap = 64, nsb = 0, nargs = 0, nlists = 0, submit = 0;
  int rc = 1, k, i, nshards;
  uint64_t u = 0, want = 8, *cost = NULL, total = 0, before = 0;
  int *shard_of = NULL;
  char cwd[PATH_MAX], dabs[PATH_MAX], self[PATH_MAX];
  str s = {NULL, 0, 0, 0};
  files = malloc((size_t)cap * sizeof *files);
  sb = malloc((size_t)argc * sizeof *sb);
  args = malloc((size_t)argc * sizeof *args);
  if (files == NULL || sb == NULL || args == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    goto done;
  }
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "-:o:h", longopts, NULL)) != -1) {
    const char *v = optarg;
    switch (c) {
    case 1:
      if (nf == cap) {
        char **q = realloc(files, (size_t)(cap *= 2) * sizeof *q);
        if (q == NULL) {
          fprintf(stderr, "warplab: out of memory\n");
          goto done;
        }
        files = q;
      }
      files[nf++] = (char *)v;
      break;
    case 'o':
      dir = v;
      break;
    case O_SHARDS:
      if (wll_parse_count(v, 1, 100000, &want) != 0) {
        rc = wll_bad_value("campaign", "--shards", v,
                           "a number from 1 to 100000");
        goto done;
      }
      break;
    case O_LIST:
      if (nlists == (int)(sizeof lists / sizeof lists[0])) {
        fprintf(stderr, "warplab campaign: at most 64 --list files\n");
        rc = 2;
        goto done;
      }
      lists[nlists] = NULL;
      if (read_list(v, &files, &nf, &cap, &lists[nlists]) != 0) {
        nlists++;
        goto done;
      }
      nlists++;
      break;
    case O_JSON:
      fmt = "--json ";
      ext = "json";
      break;
    case O_HERD:
      fmt = "--herd ";
      ext = "herd";
      break;
    case O_SBATCH:
      if (strchr(v, '\n') != NULL || v[0] != '-') {
        rc = wll_bad_value("campaign", "--sbatch", v,
                           "one sbatch option, like --time=1:00:00");
        goto done;
      }
      sb[nsb++] = v;
      break;
    case O_SUBMIT:
      submit = 1;
      break;
    case O_WARPLAB:
      wl = v;
      break;
    case O_RANKS:
      if (wll_parse_count(v, 1, 1000000, &ranks) != 0) {
        rc = wll_bad_value("campaign", "--ranks", v,
                           "a number from 1 to 1000000");
        goto done;
      }
      break;
    case O_WLMPI:
      wlmpi = v;
      break;
    case O_ARG:
      args[nargs++] = v;
      break;
    case 'h':
      wll_print_help(stdout, "campaign");
      rc = wll_stdout_done();
      goto done;
    default:
      rc = wll_opt_error("campaign", c, argv);
      goto done;
    }
  }
  /* the operands after "--" */
  while (optind < argc) {
    if (nf == cap) {
      char **q = realloc(files, (size_t)(cap *= 2) * sizeof *q);
      if (q == NULL) {
        fprintf(stderr, "warplab: out of memory\n");
        goto done;
      }
      files = q;
    }
    files[nf++] = argv[optind++];
  }
  if (nf == 0) {
    fprintf(stderr, "warplab campaign: no .litmus file given (see warplab "
                    "campaign --help)\n");
    rc = 2;
    goto done;
  }
  for (i = 0; i < nf; i++)
    if (strchr(files[i], '\n') != NULL || files[i][0] == '\0') {
      fprintf(stderr, "warplab campaign: a file name with a newline, or "
                      "empty, cannot go in a shard's list\n");
      rc = 2;
      goto done;
    }
  if (getcwd(cwd, sizeof cwd) == NULL) {
    fprintf(stderr, "warplab campaign: the current folder: %s\n",
            strerror(errno));
    goto done;
  }
  if (wl == NULL) {
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
      fprintf(stderr, "warplab campaign: where this program is: %s (give "
                      "--warplab PATH)\n",
              strerror(errno));
      goto done;
    }
    self[n] = '\0';
    wl = self;
  }
  if (wlmpi == NULL) { /* warplab-mpi beside the warplab the jobs run */
    snprintf(selfmpi, sizeof selfmpi, "%s-mpi", wl);
    wlmpi = selfmpi;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "warplab campaign: %s: %s\n", dir, strerror(errno));
    goto done;
  }
  if (realpath(dir, dabs) == NULL) {
    fprintf(stderr, "warplab campaign: %s: %s\n", dir, strerror(errno));
    goto done;
  }
  {
    char sub[PATH_MAX + 8];
    const char *names[] = {"out", "log"};
    for (k = 0; k < 2; k++) {
      snprintf(sub, sizeof sub, "%s/%s", dabs, names[k]);
      if (mkdir(sub, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "warplab campaign: %s: %s\n", sub, strerror(errno));
        goto done;
      }
    }
  }
  /* contiguous shards of about equal cost: file i goes to the shard its
   * cost's midpoint falls in; empty shards are dropped */
  cost = malloc((size_t)nf * sizeof *cost);
  shard_of = malloc((size_t)nf * sizeof *shard_of);
  if (cost == NULL || shard_of == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    goto done;
  }
  for (i = 0; i < nf; i++) {
    struct stat st;
    cost[i] = stat(files[i], &st) == 0 && st.st_size > 0
                  ? (uint64_t)st.st_size
                  : 1;
    total += cost[i];
  }
  if (want > (uint64_t)nf)
    want = (uint64_t)nf;
  nshards = 0;
  for (i = 0; i < nf; i++) {
    long double mid = (long double)before + (long double)cost[i] / 2;
    uint64_t b = (uint64_t)(mid * (long double)want / (long double)total);
    if (b >= want)
      b = want - 1;
    before += cost[i];
    /* renumbered densely: a shard is the next number when it changes */
    if (i == 0)
      shard_of[i] = 0;
    else
      shard_of[i] = shard_of[i - 1] + (b != u);
    u = b;
  }
  nshards = shard_of[nf - 1] + 1;
  /* the lists */
  for (k = 0, i = 0; k < nshards; k++) {
    char name[64];
    s.n = 0;
    for (; i < nf && shard_of[i] == k; i++) {
      adds(&s, files[i]);
      adds(&s, "\n");
    }
    snprintf(name, sizeof name, "shard-%d.list", k);
    if (save(dabs, name, &s) != 0)
      goto done;
  }
  /* shard.sh K */
  s.n = 0;
  adds(&s, "#!/bin/sh\n"
           "# shard.sh K -- shard K of this campaign (written by warplab "
           "campaign):\n"
           "# warplab litmus on the files of shard-K.list, from the folder "
           "the\n"
           "# campaign was made in; the output goes to out/shard-K.EXT, "
           "its exit\n"
           "# status to out/shard-K.rc, its stderr to log/shard-K.err.\n"
           "set -u\nD=");
  addq(&s, dabs);
  adds(&s, "\nk=${1:?usage: shard.sh K}\ncd ");
  addq(&s, cwd);
  adds(&s, " || exit 1\nset --\n"
           "while IFS= read -r f; do set -- \"$@\" \"$f\"; done < "
           "\"$D/shard-$k.list\"\n");
  addq(&s, wl);
  addf(&s, " litmus %s", fmt);
  for (i = 0; i < nargs; i++) {
    addq(&s, args[i]);
    adds(&s, " ");
  }
  addf(&s, "-- \"$@\" > \"$D/out/shard-$k.%s.tmp\" 2> "
           "\"$D/log/shard-$k.err\"\n"
           "rc=$?\n"
           "mv \"$D/out/shard-$k.%s.tmp\" \"$D/out/shard-$k.%s\" &&\n"
           "  echo $rc > \"$D/out/shard-$k.rc\"\n"
           "exit $rc\n",
       ext, ext, ext);
  if (save(dabs, "shard.sh", &s) != 0)
    goto done;
  /* merge.sh */
  s.n = 0;
  adds(&s, "#!/bin/sh\n"
           "# merge.sh -- the shards' outputs merged in shard order into "
           "merged.EXT\n"
           "# (written by warplab campaign).  Exit 0 when every file ran, "
           "1 when\n"
           "# some file failed (as one warplab litmus would), or when a "
           "shard did not\n"
           "# finish (then nothing is merged).\n"
           "set -u\nD=");
  addq(&s, dabs);
  addf(&s, "\nN=%d\nst=0\nk=0\nset --\n"
           "while [ $k -lt $N ]; do\n"
           "  if [ ! -f \"$D/out/shard-$k.rc\" ]; then\n"
           "    echo \"warplab campaign: shard $k did not finish (see "
           "$D/log/)\" >&2\n"
           "    st=2\n"
           "  elif [ \"$(cat \"$D/out/shard-$k.rc\")\" -gt 1 ]; then\n"
           "    echo \"warplab campaign: shard $k exited $(cat "
           "\"$D/out/shard-$k.rc\") (see $D/log/shard-$k.err)\" >&2\n"
           "    st=2\n"
           "  elif [ \"$(cat \"$D/out/shard-$k.rc\")\" -ne 0 ] && "
           "[ $st -eq 0 ]; then\n"
           "    st=1\n"
           "  fi\n"
           "  set -- \"$@\" \"$D/out/shard-$k.%s\"\n"
           "  k=$((k + 1))\n"
           "done\n"
           "[ $st -le 1 ] || exit 1\n",
       nshards, ext);
  addq(&s, wl);
  addf(&s, " merge -o \"$D/merged.%s\" \"$@\" || exit 1\n"
           "echo \"warplab campaign: $D/merged.%s\" >&2\n"
           "exit $st\n",
       ext, ext);
  if (save(dabs, "merge.sh", &s) != 0)
    goto done;
  /* local.sh [JOBS] */
  s.n = 0;
  adds(&s, "#!/bin/sh\n"
           "# local.sh [JOBS] -- the shards on this machine, JOBS at a time "
           "(default:\n"
           "# its CPUs), through GNU parallel when it is installed, else "
           "xargs -P;\n"
           "# then merge.sh (written by warplab campaign).\n"
           "set -u\nD=");
  addq(&s, dabs);
  addf(&s, "\nN=%d\n"
           "j=${1:-$(nproc 2>/dev/null || echo 2)}\n"
           "if parallel --version 2>/dev/null | grep -q 'GNU parallel'; "
           "then\n"
           "  seq 0 $((N - 1)) | parallel -j \"$j\" sh \"$D/shard.sh\" {}\n"
           "else\n"
           "  seq 0 $((N - 1)) | xargs -P \"$j\" -n 1 sh \"$D/shard.sh\"\n"
           "fi\n"
           "exec sh \"$D/merge.sh\"\n",
       nshards);
  if (save(dabs, "local.sh", &s) != 0)
    goto done;
  /* array.sbatch and merge.sbatch */
  s.n = 0;
  addf(&s, "#!/bin/sh\n"
           "# The shards as a Slurm job array (written by warplab campaign)."
           "\n"
           "#SBATCH --job-name=warplab-shards\n"
           "#SBATCH --array=0-%d\n"
           "#SBATCH --ntasks=1\n"
           "#SBATCH --output=%s/log/slurm-%%A_%%a.out\n",
       nshards - 1, dabs);
  for (i = 0; i < nsb; i++)
    addf(&s, "#SBATCH %s\n", sb[i]);
  adds(&s, "exec sh ");
  addq(&s, dabs);
  adds(&s, "/shard.sh \"${SLURM_ARRAY_TASK_ID:?run it with sbatch}\"\n");
  if (save(dabs, "array.sbatch", &s) != 0)
    goto done;
  s.n = 0;
  addf(&s, "#!/bin/sh\n"
           "# The merge, after the array (written by warplab campaign).\n"
           "#SBATCH --job-name=warplab-merge\n"
           "#SBATCH --ntasks=1\n"
           "#SBATCH --output=%s/log/slurm-merge-%%j.out\n",
       dabs);
  for (i = 0; i < nsb; i++)
    addf(&s, "#SBATCH %s\n", sb[i]);
  adds(&s, "exec sh ");
  addq(&s, dabs);
  adds(&s, "/merge.sh\n");
  if (save(dabs, "merge.sbatch", &s) != 0)
    goto done;
  /* mpi.sbatch: every file in one MPI job of --ranks tasks (default 4),
   * warplab-mpi litmus dealing them to its ranks and rank 0 writing
   * merged.EXT itself */
  s.n = 0;
  addf(&s, "#!/bin/sh\n"
           "# Every file in one MPI job (written by warplab campaign): "
           "warplab-mpi\n"
           "# litmus deals them to its ranks; rank 0 writes merged.%s.\n"
           "#SBATCH --job-name=warplab-mpi\n"
           "#SBATCH --ntasks=%llu\n"
           "#SBATCH --output=%s/log/slurm-mpi-%%j.out\n",
       ext, (unsigned long long)(ranks ? ranks : 4), dabs);
  for (i = 0; i < nsb; i++)
    addf(&s, "#SBATCH %s\n", sb[i]);
  adds(&s, "set -u\nD=");
  addq(&s, dabs);
  adds(&s, "\ncd ");
  addq(&s, cwd);
  adds(&s, " || exit 1\n"
           "# Open MPI refuses root unless told (a throw-away CI node)\n"
           "if [ \"$(id -u)\" = 0 ]; then\n"
           "  export OMPI_ALLOW_RUN_AS_ROOT=1 "
           "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1\n"
           "fi\n"
           "set --\n"
           "k=0\n"
           "while [ -f \"$D/shard-$k.list\" ]; do\n"
           "  while IFS= read -r f; do set -- \"$@\" \"$f\"; done < "
           "\"$D/shard-$k.list\"\n"
           "  k=$((k + 1))\n"
           "done\n"
           "mpirun -np \"${SLURM_NTASKS:-1}\" ");
  addq(&s, wlmpi);
  addf(&s, " litmus %s", fmt);
  for (i = 0; i < nargs; i++) {
    addq(&s, args[i]);
    adds(&s, " ");
  }
  addf(&s, "-- \"$@\" > \"$D/merged.%s.tmp\" 2> \"$D/log/mpi.err\"\n"
           "rc=$?\n"
           "mv \"$D/merged.%s.tmp\" \"$D/merged.%s\" && echo $rc > "
           "\"$D/out/mpi.rc\"\n"
           "exit $rc\n",
       ext, ext, ext);
  if (save(dabs, "mpi.sbatch", &s) != 0)
    goto done;
  /* submit.sh: the array, then the merge once every task ended; or,
   * with --ranks, the MPI job */
  s.n = 0;
  adds(&s, "#!/bin/sh\n"
           "# submit.sh -- sbatch the array, then the merge after it, "
           "however its\n"
           "# tasks end; with --ranks, the one MPI job (written by warplab "
           "campaign).\n"
           "# Prints the job ids.\n"
           "set -u\nD=");
  addq(&s, dabs);
  if (ranks > 0)
    adds(&s, "\nid=$(sbatch --parsable \"$D/mpi.sbatch\") || exit 1\n"
             "echo \"mpi ${id%%;*}\"\n");
  else
    adds(&s, "\nid=$(sbatch --parsable \"$D/array.sbatch\") || exit 1\n"
             "id=${id%%;*}\n"
             "mid=$(sbatch --parsable --dependency=afterany:$id "
             "\"$D/merge.sbatch\") || exit 1\n"
             "echo \"shards $id merge ${mid%%;*}\"\n");
  if (save(dabs, "submit.sh", &s) != 0)
    goto done;
  printf("warplab campaign: %d files in %d shards in %s\n"
         "  on Slurm:      sh %s/submit.sh    (%s)\n"
         "  on this machine: sh %s/local.sh [JOBS]\n"
         "  the result:    %s/merged.%s\n",
         nf, nshards, dabs, dabs,
         ranks > 0 ? "sbatch mpi.sbatch: one MPI job"
                   : "sbatch the array, then the merge",
         dabs, dabs, ext);
  rc = 0;
  if (submit) {
    str cmd = {NULL, 0, 0, 0};
    int st;
    fflush(stdout);
    adds(&cmd, "sh ");
    addq(&cmd, dabs);
    adds(&cmd, "/submit.sh");
    st = cmd.oom ? -1 : system(cmd.p);
    free(cmd.p);
    if (st != 0) {
      fprintf(stderr, "warplab campaign: sbatch failed (is Slurm "
                      "running here?); the scripts are in %s\n",
              dabs);
      rc = 1;
    }
  }
  if (wll_stdout_done() != 0)
    rc = 1;
done:
  for (k = 0; k < nlists; k++)
    free(lists[k]);
  free(s.p);
  free(cost);
  free(shard_of);
  free(files);
  free(sb);
  free(args);
  return rc;
}

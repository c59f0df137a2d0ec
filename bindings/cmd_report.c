/* cmd_report.c -- warplab report: wl.report{FILE..., output = ...}
 * (an HTML report of litmus files) in a fresh Lua state. */
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include <unistd.h>

#include "cmd.h"
#include "lpool.h"
#include "lsched.h"
#include "lwarplab.h"
#include "ranks.h"

/* warplab report: wl.report{FILE..., output = ...} in a fresh state. */
typedef struct report_args {
  const char **files;
  int nf;
  const char *out, *title, *model;
  uint64_t runs, seed, graphs;
  int problems; /* wl.report's second result, printed */
} report_args;

static int report_main(lua_State *L) {
  report_args *a = lua_touserdata(L, 1);
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
  lua_call(L, 1, 2);
  wll_sig_lua(NULL);
  /* the page is written; what went wrong goes to stderr too */
  if (lua_istable(L, -1)) {
    lua_Integer k, n = luaL_len(L, -1);
    for (k = 1; k <= n; k++) {
      lua_geti(L, -1, k);
      fprintf(stderr, "warplab report: %s\n", luaL_tolstring(L, -1, NULL));
      lua_pop(L, 2);
    }
    a->problems = (int)n;
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* .litmus files on the pool: each file's part of the page made in a   */
/* Lua state of its own (wl._report_file), the page put together in    */
/* file order on the calling thread (wl._report_page): the page        */
/* wl.report makes.  A .lua script runs the user's code, which may keep */
/* state from item to item: with one in the list, the report runs as    */
/* before, on the calling thread.                                       */
/* ------------------------------------------------------------------ */

/* A file's part, or the error that ended it. */
typedef struct rep_part {
  char *body, *toc;
  char **problems;
  size_t nproblems;
  char *error; /* the Lua error (no part) */
} rep_part;

typedef struct rep_job {
  report_args *a;
  rep_part **parts; /* per file, in file order (emit) */
  const char *error; /* the first error, in file order */
} rep_job;

static void rep_part_free(rep_part *p) {
  size_t k;
  if (p == NULL)
    return;
  free(p->body);
  free(p->toc);
  for (k = 0; k < p->nproblems; k++)
    free(p->problems[k]);
  free(p->problems);
  free(p->error);
  free(p);
}

static char *dup_str(const char *s) {
  char *p = malloc(strlen(s) + 1);
  if (p != NULL)
    strcpy(p, s);
  return p;
}

static char *dup_lua(lua_State *L, int idx) {
  size_t n;
  const char *s = lua_tolstring(L, idx, &n);
  char *p = malloc(n + 1);
  if (p == NULL)
    luaL_error(L, "out of memory");
  if (s != NULL)
    memcpy(p, s, n);
  p[s != NULL ? n : 0] = '\0';
  return p;
}

/* The spec table of a report of a's options, on top of L. */
static void push_spec(lua_State *L, const report_args *a) {
  lua_createtable(L, 0, 6);
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
}

/* A pool slot's Lua state, with the module loaded. */
static int rep_state_init(lua_State *L) {
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_warplab);
  lua_setfield(L, -2, "warplab");
  lua_pop(L, 1);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "warplab");
  lua_call(L, 1, 1);
  lua_setglobal(L, "wl_report_module");
  return 0;
}

static int rep_worker_new(void *ud, wl_ctx *ctx, void **worker) {
  lua_State *L = luaL_newstate();
  (void)ud;
  (void)ctx; /* the Lua state's objects have contexts of their own */
  if (L == NULL)
    return -1;
  lua_pushcfunction(L, rep_state_init);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
    lua_close(L);
    return -1;
  }
  *worker = L;
  return 0;
}

static void rep_worker_free(void *ud, void *worker) {
  (void)ud;
  lua_close(worker);
}

typedef struct rep_call {
  const report_args *a;
  size_t unit;
  rep_part *part;
} rep_call;

/* In the slot's state: wl._report_file(FILE, spec, n), copied out. */
static int rep_file_main(lua_State *L) {
  rep_call *c = lua_touserdata(L, 1);
  rep_part *p = c->part;
  lua_Integer k, n;
  lua_getglobal(L, "wl_report_module");
  lua_getfield(L, -1, "_report_file");
  lua_pushstring(L, c->a->files[c->unit]);
  push_spec(L, c->a);
  lua_pushinteger(L, (lua_Integer)c->unit + 1);
  lua_call(L, 3, 3);
  p->body = dup_lua(L, -3);
  p->toc = dup_lua(L, -2);
  n = luaL_len(L, -1);
  if (n > 0 && (p->problems = calloc((size_t)n, sizeof *p->problems)) ==
                   NULL)
    return luaL_error(L, "out of memory");
  for (k = 1; k <= n; k++) {
    lua_geti(L, -1, k);
    luaL_tolstring(L, -1, NULL);
    p->problems[p->nproblems++] = dup_lua(L, -1);
    lua_pop(L, 2);
  }
  return 0;
}

/* On a pool thread: one file's part, in the slot's own Lua state (the
 * report's Lua code, its explore, sample and graphs: no lua_State is
 * shared, and a sampling there runs on this thread, lpool.h). */
static int rep_run(void *ud, size_t unit, wl_ctx *ctx, void *worker,
                   void *stop_ud, void **outp) {
  rep_job *j = ud;
  lua_State *L = worker;
  rep_call c;
  int sig;
  (void)ctx;
  (void)stop_ud;
  *outp = NULL;
  if (wll_sig_pending())
    return WLL_UNIT_STOPPED;
  c.a = j->a;
  c.unit = unit;
  if ((c.part = calloc(1, sizeof *c.part)) == NULL)
    return WLL_UNIT_DONE;
  *outp = c.part;
  lua_pushcfunction(L, rep_file_main);
  lua_pushlightuserdata(L, &c);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    c.part->error = dup_str(msg != NULL ? msg
                                        : "(error object is not a string)");
    lua_pop(L, 1);
    /* SIGINT, SIGTERM: the Lua binding took the signal to raise its
     * error; given back, so that the whole run stops */
    sig = msg == NULL ? 0
          : strstr(msg, "interrupted by SIGINT") != NULL  ? SIGINT
          : strstr(msg, "interrupted by SIGTERM") != NULL ? SIGTERM
                                                          : 0;
    if (sig != 0) {
      wll_sig_put_back(sig);
      return WLL_UNIT_STOPPED;
    }
  }
  lua_gc(L, LUA_GCCOLLECT); /* the file's tests and results, freed now */
  return WLL_UNIT_DONE;
}

static int rep_emit(void *ud, size_t unit, void *outp, int stopped) {
  rep_job *j = ud;
  rep_part *p = outp;
  j->parts[unit] = p;
  if (stopped)
    return 0; /* the signal: no page */
  if (p == NULL || p->error != NULL) {
    /* an error wl.report would have raised: no page, as there */
    j->error = p == NULL ? "out of memory" : p->error;
    return 1;
  }
  return 0;
}

static void rep_drop(void *ud, size_t unit, void *outp) {
  (void)ud;
  (void)unit;
  rep_part_free(outp);
}

/* Under MPI (ranks.h): a file's part from its rank to rank 0. */
static int rep_pack(void *ud, size_t unit, const void *outp, void **buf,
                    size_t *len) {
  const rep_part *p = outp;
  wll_pack b = {NULL, 0, 0, 0};
  size_t k;
  (void)ud;
  (void)unit;
  wll_pack_u64(&b, p != NULL);
  if (p != NULL) {
    const char *t[] = {p->body, p->toc, p->error};
    for (k = 0; k < 3; k++) {
      wll_pack_u64(&b, t[k] != NULL);
      if (t[k] != NULL)
        wll_pack_bytes(&b, t[k], strlen(t[k]));
    }
    wll_pack_u64(&b, (uint64_t)p->nproblems);
    for (k = 0; k < p->nproblems; k++)
      wll_pack_bytes(&b, p->problems[k], strlen(p->problems[k]));
  }
  if (b.oom) {
    free(b.p);
    return -1;
  }
  *buf = b.p;
  *len = b.n;
  return 0;
}

/* A NUL-ended copy of the next bytes; -1 bad bytes or out of memory. */
static int rep_text(wll_unpack *r, char **out) {
  size_t n;
  const char *s = wll_unpack_bytes(r, &n);
  if (r->bad || (*out = malloc(n + 1)) == NULL)
    return -1;
  memcpy(*out, s, n);
  (*out)[n] = '\0';
  return 0;
}

static int rep_unpack(void *ud, size_t unit, const void *buf, size_t len,
                      void **outp) {
  wll_unpack r = {buf, len, 0, 0};
  rep_part *p;
  char **t[3];
  uint64_t n, k;
  (void)ud;
  (void)unit;
  *outp = NULL;
  if (wll_unpack_u64(&r) == 0)
    return r.bad ? -1 : 0; /* NULL: out of memory there */
  if ((p = calloc(1, sizeof *p)) == NULL)
    return -1;
  t[0] = &p->body;
  t[1] = &p->toc;
  t[2] = &p->error;
  for (k = 0; k < 3; k++)
    if (wll_unpack_u64(&r) != 0 && rep_text(&r, t[k]) != 0)
      goto bad;
  n = wll_unpack_u64(&r);
  if (r.bad || n > (len - r.at) / 8)
    goto bad;
  if (n > 0 && (p->problems = calloc((size_t)n, sizeof *p->problems)) == NULL)
    goto bad;
  for (k = 0; k < n; k++, p->nproblems++)
    if (rep_text(&r, &p->problems[k]) != 0)
      goto bad;
  if (r.bad || r.at != len)
    goto bad;
  *outp = p;
  return 0;
bad:
  rep_part_free(p);
  return -1;
}

/* The page of the parts, in the calling thread's state. */
static int rep_page_main(lua_State *L) {
  rep_job *j = lua_touserdata(L, 1);
  report_args *a = j->a;
  int i;
  size_t k;
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_warplab);
  lua_setfield(L, -2, "warplab");
  lua_pop(L, 1);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "warplab");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "_report_page");
  push_spec(L, a);
  lua_createtable(L, a->nf, 0);
  lua_createtable(L, a->nf, 0);
  for (i = 0; i < a->nf; i++) {
    lua_pushstring(L, j->parts[i]->body);
    lua_rawseti(L, -3, i + 1);
    lua_pushstring(L, j->parts[i]->toc);
    lua_rawseti(L, -2, i + 1);
  }
  lua_call(L, 3, 0);
  /* the page is written; what went wrong goes to stderr too */
  for (i = 0; i < a->nf; i++)
    for (k = 0; k < j->parts[i]->nproblems; k++) {
      fprintf(stderr, "warplab report: %s\n", j->parts[i]->problems[k]);
      a->problems++;
    }
  return 0;
}

/* A file's cost for the pool (lpool.h's cost: on the pool's threads,
 * not one stat after another on this one before any file runs): its
 * size. */
static uint64_t rep_cost(void *ud, size_t unit, wl_ctx *ctx) {
  const rep_job *j = ud;
  (void)ctx;
  return wll_file_cost(j->a->files[unit]);
}

/* The report of a's .litmus files on jobs workers; 0 and a->problems
 * set, or the exit status after a message. */
static int report_pool(lua_State *L, report_args *a, int jobs) {
  rep_job j;
  wll_pool_opts po;
  wll_pool_fns fns;
  wll_pool_result res;
  static const wll_ranks_codec codec = {rep_pack, rep_unpack};
  size_t nf = (size_t)(a->nf > 0 ? a->nf : 1);
  uint64_t *costs = malloc(nf * sizeof *costs);
  char note[300], perr[300];
  int i, rc, status = 0;
  memset(&j, 0, sizeof j);
  j.a = a;
  j.parts = calloc(nf, sizeof *j.parts);
  if (costs == NULL || j.parts == NULL) {
    free(costs);
    free(j.parts);
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  /* under MPI, rank 0's plan needs them here (cmd_ranks_pool.c) */
  for (i = 0; wll_nranks() > 1 && i < a->nf; i++)
    costs[i] = wll_file_cost(a->files[i]);
  memset(&po, 0, sizeof po);
  memset(&fns, 0, sizeof fns);
  po.jobs = jobs;
  po.progress = isatty(2);
  po.what = "report";
  po.units = "files";
  if (wll_nranks() > 1)
    po.costs = costs;
  else
    po.cost = rep_cost;
  fns.worker_new = rep_worker_new;
  fns.worker_free = rep_worker_free;
  fns.run = rep_run;
  fns.emit = rep_emit;
  fns.drop = rep_drop;
  /* under MPI the files are dealt to the ranks, and rank 0 writes the
   * page */
  rc = wll_ranks_pool_run((size_t)a->nf, &po, &fns, &codec, &j, &res, note,
                          sizeof note, perr, sizeof perr);
  free(costs);
  if (note[0] != '\0')
    fprintf(stderr, "warplab report: %s\n", note);
  if (wll_rank() != 0) {
    status = rc != 0 || res.stop != WLL_STOP_NONE; /* rank 0's says why */
  } else if (rc != 0) {
    fprintf(stderr, "warplab: report: %s\n", perr);
    status = 1;
  } else if (res.stop == WLL_STOP_SIGNAL && wll_sig_pending()) {
    /* SIGINT, SIGTERM: the report stops (no page), as on one thread */
    int sig = wll_sig_take();
    fprintf(stderr, "warplab: report: interrupted by %s\n",
            wll_sig_name(sig));
    status = wll_sig_status(sig);
  } else if (j.error != NULL) {
    fprintf(stderr, "warplab: report: %s\n", j.error);
    status = 1;
  } else if (res.emitted < (size_t)a->nf) {
    fprintf(stderr, "warplab: report: out of memory\n");
    status = 1;
  } else {
    lua_pushcfunction(L, rep_page_main);
    lua_pushlightuserdata(L, &j);
    wll_sig_lua(L);
    rc = lua_pcall(L, 1, 0, 0);
    wll_sig_lua(NULL);
    if (rc != LUA_OK) {
      const char *msg = lua_tostring(L, -1);
      fprintf(stderr, "warplab: report: %s\n",
              msg != NULL ? msg : "(error object is not a string)");
      status = msg != NULL && strstr(msg, "interrupted by SIGINT") != NULL
                   ? wll_sig_status(SIGINT)
               : msg != NULL && strstr(msg, "interrupted by SIGTERM") != NULL
                   ? wll_sig_status(SIGTERM)
                   : 1;
    }
  }
  for (i = 0; i < a->nf; i++)
    rep_part_free(j.parts[i]);
  free(j.parts);
  return status;
}

int wll_cmd_report(int argc, char **argv) {
  enum { O_RUNS = 256, O_SEED, O_TITLE, O_MODEL, O_GRAPHS };
  static const struct option longopts[] = {
      {"output", required_argument, NULL, 'o'},
      {"runs", required_argument, NULL, O_RUNS},
      {"seed", required_argument, NULL, O_SEED},
      {"title", required_argument, NULL, O_TITLE},
      {"model", required_argument, NULL, O_MODEL},
      {"graphs", required_argument, NULL, O_GRAPHS},
      {"jobs", required_argument, NULL, 'j'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  report_args a;
  lua_State *L;
  int c, rc, status = 0, jobs = 0, i, pool = 1;
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
  while ((c = getopt_long(argc, argv, "-:o:hj:", longopts, NULL)) != -1) {
    switch (c) {
    case 1:
      a.files[a.nf++] = optarg;
      break;
    case 'j':
      if (wll_parse_jobs("report", optarg, &jobs) != 0) {
        free(a.files);
        return 2;
      }
      break;
    case 'o':
      if (optarg[0] == '\0') {
        free(a.files);
        return wll_bad_value("report", "-o", optarg, "a file name");
      }
      a.out = optarg;
      break;
    case O_RUNS:
      if (wll_parse_count(optarg, 0, 100000000, &a.runs) != 0) {
        free(a.files);
        return wll_bad_value("report", "--runs", optarg,
                             "a number from 0 to 100000000");
      }
      break;
    case O_SEED:
      if (wll_parse_count(optarg, 0, UINT64_MAX, &a.seed) != 0) {
        free(a.files);
        return wll_bad_value("report", "--seed", optarg, "a number");
      }
      break;
    case O_GRAPHS:
      if (wll_parse_count(optarg, 0, 1000, &a.graphs) != 0) {
        free(a.files);
        return wll_bad_value("report", "--graphs", optarg,
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
      wll_print_help(stdout, "report");
      return wll_stdout_done();
    default:
      free(a.files);
      return wll_opt_error("report", c, argv);
    }
  }
  a.nf = wll_add_rest(argc, argv, a.files, a.nf);
  if (a.nf == 0) {
    free(a.files);
    fprintf(stderr,
            "warplab report: no file given (see warplab report --help)\n");
    return 2;
  }
  {
    struct stat st; /* found before the work, not after */
    if (stat(a.out, &st) == 0 && S_ISDIR(st.st_mode)) {
      free(a.files);
      fprintf(stderr, "warplab report: -o %s: a directory\n", a.out);
      return 2;
    }
  }
  L = luaL_newstate();
  if (L == NULL) {
    free(a.files);
    fprintf(stderr, "warplab: cannot create a Lua state (out of memory)\n");
    return 1;
  }
  /* .litmus files only (no script, no standard input): on the pool */
  for (i = 0; i < a.nf; i++) {
    size_t n = strlen(a.files[i]);
    if (strcmp(a.files[i], "-") == 0 ||
        (n >= 4 && strcmp(a.files[i] + n - 4, ".lua") == 0))
      pool = 0;
  }
  if (jobs == 0)
    jobs = wll_pool_default_jobs((size_t)a.nf);
  /* under MPI: .litmus files over the ranks; else rank 0 alone */
  if (pool && a.nf > 1 && (jobs > 1 || wll_nranks() > 1)) {
    status = report_pool(L, &a, jobs);
    if (status == 0 && a.problems > 0) {
      fprintf(stderr, "warplab report: %s written, with %d error%s\n", a.out,
              a.problems, a.problems > 1 ? "s" : "");
      status = 1;
    }
    lua_close(L);
    free(a.files);
    if (wll_stdout_done() != 0 && status == 0)
      status = 1;
    /* every rank exits with rank 0's status */
    return (int)wll_ranks_max(wll_rank() == 0 ? status : 0);
  }
  if (wll_rank() != 0) { /* a script or standard input: rank 0 alone */
    lua_close(L);
    free(a.files);
    return 0;
  }
  lua_pushcfunction(L, report_main);
  lua_pushlightuserdata(L, &a);
  rc = lua_pcall(L, 1, 0, 0);
  if (rc != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "warplab: report: %s\n",
            msg != NULL ? msg : "(error object is not a string)");
    /* SIGINT, SIGTERM: the report stops (no page), the signal's status
     * as for the other commands */
    if (msg != NULL && strstr(msg, "interrupted by SIGINT") != NULL)
      status = wll_sig_status(SIGINT);
    else if (msg != NULL && strstr(msg, "interrupted by SIGTERM") != NULL)
      status = wll_sig_status(SIGTERM);
    else
      status = 1;
  } else if (a.problems > 0) {
    fprintf(stderr, "warplab report: %s written, with %d error%s\n", a.out,
            a.problems, a.problems > 1 ? "s" : "");
    status = 1;
  }
  lua_close(L);
  free(a.files);
  if (wll_stdout_done() != 0 && status == 0)
    status = 1; /* what a script wrote with io.write */
  return status;
}

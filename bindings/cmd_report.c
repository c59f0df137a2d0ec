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

#include "cmd.h"
#include "lwarplab.h"

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

int wll_cmd_report(int argc, char **argv) {
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
  int c, rc, status = 0;
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

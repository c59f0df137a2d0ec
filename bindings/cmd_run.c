/* cmd_run.c -- warplab run: a Lua script in a fresh state with the
 * warplab module, run the way lua.c runs one (message handler, pooled
 * allocator, panic and warn functions). */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "cmd.h"
#include "lmempool.h"
#include "lwarplab.h"

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
  int jobs; /* --jobs: of launches that set none (0: run whole) */
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
  if (o->jobs > 0) {
    module_field(L, "set_launch_jobs");
    lua_pushinteger(L, o->jobs);
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
int wll_cmd_run(int argc, char **argv) {
  enum { O_CHECK = 256, O_CHECK_ERROR, O_JSON };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},
      {"check", optional_argument, NULL, O_CHECK},
      {"check-error", no_argument, NULL, O_CHECK_ERROR},
      {"json", no_argument, NULL, O_JSON},
      {"jobs", required_argument, NULL, 'j'},
      {NULL, 0, NULL, 0}};
  lua_State *L;
  int c, k, rc, status = 0;
  run_opts o;
  memset(&o, 0, sizeof o);
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc - 1, argv + 1, "+:hj:", longopts, NULL)) !=
         -1) {
    switch (c) {
    case 'h':
      wll_print_help(stdout, "run");
      return wll_stdout_done();
    case 'j':
      if (wll_parse_jobs("run", optarg, &o.jobs) != 0)
        return 2;
      break;
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
      return wll_opt_error("run", c, argv + 1);
    }
  }
  k = optind + 1; /* the script, in main's argv */
  if (k >= argc) {
    fprintf(stderr, "warplab run: no script given (see warplab run --help)\n");
    return 2;
  }
  /* WARPLAB_NO_POOL=1: plain malloc, so valgrind sees every Lua block */
  L = wll_newstate(); /* small blocks from a pool (lmempool.c) */
  if (L == NULL) {
    fprintf(stderr, "warplab: cannot create a Lua state (out of memory)\n");
    return 1;
  }
  if (wll_state_pooled(L)) {
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
      status = wll_sig_status(SIGINT);
    else if (msg != NULL && strstr(msg, "interrupted by SIGTERM") != NULL)
      status = wll_sig_status(SIGTERM);
  }
  wll_closestate(L);
  if (wll_stdout_done() != 0)
    return 1;
  if (status == 0 && rc == LUA_OK && o.check_error && o.found > 0)
    status = 4;
  return status ? status : rc == LUA_OK ? 0 : 1;
}

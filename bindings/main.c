/* main.c -- the warplab command. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "../engine/warplab.h"

/* bindings/lwarplab.c */
int luaopen_warplab(lua_State *L);

static const char usage[] =
    "usage: warplab <command> [options] [args]\n"
    "\n"
    "commands:\n"
    "  litmus [options] FILE...   explore every outcome the PTX 6.0 memory\n"
    "                             model allows for each .litmus file and\n"
    "                             print it in herd7's format\n"
    "      --json                 print JSON instead (one array of results,\n"
    "                             with every final state and a witness\n"
    "                             execution per state)\n"
    "      --unroll N             take each backward branch at most N times\n"
    "                             (default %d; spin-loop iterations that\n"
    "                             change nothing are free); when the bound\n"
    "                             cuts an execution the verdict line reads\n"
    "                             'Loop Ok'/'Loop No' and a Warning line\n"
    "                             follows\n"
    "      --timeout SECONDS      give up on a file after this long (the\n"
    "                             file counts as failed; the rest go on)\n"
    "      -q, --quiet            print only 'NAME Ok|No' per file\n"
    "  run SCRIPT.lua [ARGS...]   run a Lua script with the warplab module\n"
    "                             preloaded (require \"warplab\"); arg and\n"
    "                             ... hold ARGS as in lua5.4; '-' reads the\n"
    "                             script from stdin.  An error prints\n"
    "                             'warplab: script.lua:LINE: message' and a\n"
    "                             traceback, and exits with status 1\n"
    "  help                       this text\n"
    "  version                    the version\n"
    "\n"
    "Exit status: 0 when every file ran, 1 when some file could not be\n"
    "read, parsed or explored (the reason goes to stderr as\n"
    "file:line:col: message), 2 on a usage error.\n"
    "\n"
    "The .litmus dialect is Dat3M's PTX dialect; README.md describes it.\n";

static int write_stdout(void *ud, const char *s, size_t n) {
  (void)ud;
  return fwrite(s, 1, n, stdout) == n ? 0 : -1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double deadline;

static int past_deadline(void *ud) {
  (void)ud;
  return now() > deadline;
}

static char *read_file(const char *path, size_t *len, char *err,
                       size_t errlen) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t cap = 0, n = 0;
  if (f == NULL) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return NULL;
  }
  for (;;) {
    size_t got;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 4096;
      char *p;
      if (ncap > ((size_t)64 << 20)) {
        snprintf(err, errlen, "%s: file too large (over 64 MiB)", path);
        free(buf);
        fclose(f);
        return NULL;
      }
      p = realloc(buf, ncap);
      if (p == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(buf);
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
    snprintf(err, errlen, "%s: read error", path);
    free(buf);
    fclose(f);
    return NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

static int cmd_litmus(int argc, char **argv) {
  wl_explore_opts opts;
  wl_ctx *ctx;
  int i, json = 0, quiet = 0, failed = 0, nfiles = 0, first = 1;
  double timeout = 0;
  memset(&opts, 0, sizeof opts);
  for (i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0) {
      quiet = 1;
    } else if (strcmp(argv[i], "--unroll") == 0 ||
               strncmp(argv[i], "--unroll=", 9) == 0) {
      const char *v = argv[i][8] == '=' ? argv[i] + 9 : NULL;
      char *end;
      long n;
      if (v == NULL) {
        if (i + 1 >= argc) {
          fprintf(stderr, "warplab litmus: --unroll needs a number\n");
          return 2;
        }
        v = argv[++i];
      }
      n = strtol(v, &end, 10);
      if (*v == '\0' || *end != '\0' || n < 1 || n > 1000) {
        fprintf(stderr,
                "warplab litmus: --unroll takes a number from 1 to 1000, "
                "not '%s'\n",
                v);
        return 2;
      }
      opts.unroll = (int)n;
    } else if (strcmp(argv[i], "--timeout") == 0) {
      char *end;
      if (i + 1 >= argc) {
        fprintf(stderr, "warplab litmus: --timeout needs a number of "
                        "seconds\n");
        return 2;
      }
      timeout = strtod(argv[++i], &end);
      if (*argv[i] == '\0' || *end != '\0' || !(timeout > 0)) {
        fprintf(stderr,
                "warplab litmus: --timeout takes a positive number of "
                "seconds, not '%s'\n",
                argv[i]);
        return 2;
      }
      opts.should_stop = past_deadline;
    } else if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr,
              "warplab litmus: unknown option '%s' (see warplab "
              "help)\n",
              argv[i]);
      return 2;
    } else {
      break;
    }
  }
  if (i >= argc) {
    fprintf(stderr, "warplab litmus: no .litmus file given (see warplab "
                    "help)\n");
    return 2;
  }
  if (wl_ctx_new(NULL, &ctx) != 0) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  if (json)
    fputs("[", stdout);
  for (; i < argc; i++) {
    char err[600];
    size_t len = 0;
    char *src = read_file(argv[i], &len, err, sizeof err);
    wl_litmus *t = NULL;
    wl_result *r = NULL;
    double t0;
    int rc;
    nfiles++;
    if (src == NULL) {
      fprintf(stderr, "warplab: %s\n", err);
      failed++;
      continue;
    }
    t0 = now();
    deadline = t0 + timeout;
    rc = wl_litmus_parse(ctx, argv[i], src, len, &t);
    free(src);
    if (rc == 0)
      rc = wl_explore(ctx, t, &opts, &r);
    if (rc != 0) {
      const char *m = wl_ctx_errmsg(ctx);
      if (strncmp(m, argv[i], strlen(argv[i])) == 0)
        fprintf(stderr, "warplab: %s\n", m);
      else
        fprintf(stderr, "warplab: %s: %s\n", argv[i], m);
      if (rc == WL_ESTOPPED)
        fprintf(stderr, "warplab: %s: gave up after --timeout %g s\n", argv[i],
                timeout);
      wl_litmus_free(t);
      failed++;
      continue;
    }
    if (quiet) {
      printf("%s %s%s\n", wl_litmus_name(t),
             wl_result_bound_hit(r) ? "Loop " : "",
             wl_result_verdict(r) ? "Ok" : "No");
    } else if (json) {
      if (!first)
        fputs(",\n", stdout);
      wl_result_write_json(r, now() - t0, write_stdout, NULL);
      first = 0;
    } else {
      wl_result_write_herd(r, now() - t0, write_stdout, NULL);
    }
    wl_result_free(r);
    wl_litmus_free(t);
  }
  if (json)
    fputs("]\n", stdout);
  wl_ctx_free(ctx);
  if (fflush(stdout) != 0)
    return 1;
  return failed ? 1 : 0;
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

/* Runs in protected mode: argv[0] is the script, the rest its args. */
static int run_main(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = lua_touserdata(L, 2);
  const char *script = argv[2];
  int i, n;
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_warplab);
  lua_setfield(L, -2, "warplab");
  lua_pop(L, 1);
  /* arg: the script at 0, its arguments from 1, the command below */
  lua_createtable(L, argc - 3, 3);
  for (i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - 2);
  }
  lua_setglobal(L, "arg");
  lua_pushcfunction(L, run_msghandler);
  if (luaL_loadfile(L, strcmp(script, "-") == 0 ? NULL : script) != LUA_OK)
    return lua_error(L);
  n = argc - 3;
  luaL_checkstack(L, n + 1, "too many arguments to script");
  for (i = 3; i < argc; i++)
    lua_pushstring(L, argv[i]);
  if (lua_pcall(L, n, 0, lua_gettop(L) - n - 1) != LUA_OK)
    return lua_error(L);
  return 0;
}

static int cmd_run(int argc, char **argv) {
  lua_State *L;
  int rc;
  if (argc < 3) {
    fprintf(stderr, "warplab run: no script given (see warplab help)\n");
    return 2;
  }
  L = luaL_newstate();
  if (L == NULL) {
    fprintf(stderr, "warplab: cannot create a Lua state (out of memory)\n");
    return 1;
  }
  lua_pushcfunction(L, run_main);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  rc = lua_pcall(L, 2, 0, 0);
  if (rc != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "warplab: %s\n",
            msg != NULL ? msg : "(error object is not a string)");
  }
  lua_close(L);
  if (fflush(stdout) != 0)
    return 1;
  return rc == LUA_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, usage, WL_DEFAULT_UNROLL);
    return 2;
  }
  if (strcmp(argv[1], "litmus") == 0)
    return cmd_litmus(argc - 2, argv + 2);
  if (strcmp(argv[1], "run") == 0)
    return cmd_run(argc, argv);
  if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
      strcmp(argv[1], "-h") == 0) {
    printf(usage, WL_DEFAULT_UNROLL);
    return 0;
  }
  if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
    printf("warplab %s\n", WL_VERSION);
    return 0;
  }
  fprintf(stderr, "warplab: unknown command '%s'\n\n", argv[1]);
  fprintf(stderr, usage, WL_DEFAULT_UNROLL);
  return 2;
}

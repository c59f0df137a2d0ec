/* lsignal.c -- one signal policy for every long piece of work.
 *
 * SIGINT and SIGTERM only record which came (an atomic the handler
 * stores, C11 7.14.1.1 allows no more); long work polls it: the
 * explorer and the sampler through their should_stop hooks, the
 * scheduler's workers, a kernel launch between steps, the commands
 * between files.  Whoever stops because of it either reports the
 * partial result, marked Partial, and exits 128 + the signal (the
 * commands), or raises a Lua error the script can catch (pcall) naming
 * the signal; raising it takes the signal, so that one signal is one
 * error.
 *
 * A script running pure Lua is interrupted as lua.c interrupts it: the
 * handler sets a hook on the script's state (wll_sig_lua), which raises
 * the error at the next instruction there and gives the state back the
 * hook it had (lua_sethook may be called from a signal handler; ldebug.c
 * says under which assumptions).  libuv's pool threads block both
 * signals (lsched.c), so the handler runs on the script's thread.
 *
 * The handlers are installed by wll_sig_enter and the ones they replaced
 * put back by the matching wll_sig_leave: the warplab command enters once
 * for the whole process; the module's long functions enter and leave
 * around their work, so that under lua5.4 Ctrl-C is lua.c's again
 * between them. */
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "lwarplab.h"

static atomic_int pending;      /* the signal not yet taken, or 0 */
static atomic_int depth;        /* wll_sig_enter nesting (pool threads
                                 * running Lua enter and leave too) */
static struct sigaction old_int, old_term;
static lua_State *script;       /* wll_sig_lua */
static atomic_int armed;        /* the hook is set on script */
static lua_Hook saved_hook;     /* what the hook replaced */
static int saved_mask, saved_count;

static void sig_hook(lua_State *L, lua_Debug *ar) {
  int sig;
  (void)ar;
  lua_sethook(L, saved_hook, saved_mask, saved_count);
  atomic_store(&armed, 0);
  sig = wll_sig_take();
  if (sig != 0)
    luaL_error(L, "interrupted by %s", wll_sig_name(sig));
}

static void on_signal(int sig) {
  atomic_store(&pending, sig);
  if (script != NULL && !atomic_exchange(&armed, 1)) {
    saved_hook = lua_gethook(script);
    saved_mask = lua_gethookmask(script);
    saved_count = lua_gethookcount(script);
    lua_sethook(script, sig_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT,
                1);
  }
}

void wll_sig_enter(void) {
  struct sigaction sa;
  if (atomic_fetch_add(&depth, 1) > 0)
    return;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
}

void wll_sig_leave(void) {
  int d = atomic_load(&depth);
  /* never below 0 (a leave without its enter is ignored) */
  do {
    if (d == 0)
      return;
  } while (!atomic_compare_exchange_weak(&depth, &d, d - 1));
  if (d > 1)
    return;
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
}

int wll_sig_pending(void) { return atomic_load(&pending); }

int wll_sig_take(void) { return atomic_exchange(&pending, 0); }

void wll_sig_put_back(int sig) {
  int none = 0;
  if (sig != 0)
    atomic_compare_exchange_strong(&pending, &none, sig);
}

int wll_sig_stop(void *ud) {
  (void)ud;
  return atomic_load_explicit(&pending, memory_order_relaxed) != 0;
}

const char *wll_sig_name(int sig) {
  return sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "a signal";
}

void wll_sig_lua(lua_State *L) {
  if (L == NULL && script != NULL && atomic_exchange(&armed, 0))
    lua_sethook(script, saved_hook, saved_mask, saved_count);
  script = L;
}

int wll_sig_in(const char *msg) {
  if (msg == NULL)
    return 0;
  if (strstr(msg, "interrupted by SIGINT") != NULL)
    return SIGINT;
  if (strstr(msg, "interrupted by SIGTERM") != NULL)
    return SIGTERM;
  return 0;
}

int wll_sig_error(lua_State *L, const char *what) {
  int sig = wll_sig_take();
  return luaL_error(L, "%s: interrupted by %s", what, wll_sig_name(sig));
}

/* lkwatch.c -- the time bound of a launch for Lua code that makes no
 * device call, without Lua's count hook in the hot path.
 *
 * A count hook (LUA_MASKCOUNT) makes Lua's VM take its slow path on
 * every instruction (luaG_traceexec), whatever the count: 16% of a
 * per-thread kernel's instructions (callgrind), about as much of its
 * time.  So a launch sets no hook: a timer of this thread
 * (timer_create, SIGEV_THREAD_ID) ticks every WATCH_TICK_NS while the
 * probe or the launch runs, and its handler,
 * once the time bound has passed or SIGINT/SIGTERM has come, sets the
 * count hook (lkrun.c's wll_count_hook) on the coroutine running then,
 * which raises at its next instruction.  lua_sethook may be called from
 * a signal handler (ldebug.c says under which assumptions; lua.c does it
 * for Ctrl-C), and the handler runs on the launching thread, so the
 * coroutine it names is the one that thread runs or resumes next.  A
 * coroutine that yields back to the scheduler is stopped there
 * (past_deadline); one that never does is running when a later tick
 * comes.
 *
 * Where the timer cannot be had (not Linux, the signal blocked in this
 * thread or taken by someone else, timer_create failing) or a hook of
 * someone else's is set on the state, the launch keeps the count hook
 * (wll_hook_on), as before.  What the watch alone would not see: a
 * coroutine the kernel makes itself (coroutine.create inside the
 * kernel) that loops in pure Lua forever; the count hook sees it, since
 * coroutines inherit the hook of the state that makes them; so while a
 * launch is watched, coroutine.create and coroutine.wrap set the count hook on
 * the coroutines they make (wll_watch_coroutines).  WARPLAB_COUNT_HOOK=1
 * in the environment keeps the count hook (the slow path) for every
 * launch. */
#define _GNU_SOURCE /* SIGEV_THREAD_ID, sigev_notify_thread_id */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include <lualib.h>

#include "lkernel.h"

#if defined(__linux__) && defined(SIGEV_THREAD_ID)
#define HAVE_WATCH 1
#ifndef sigev_notify_thread_id /* glibc before 2.35 names no member */
#define sigev_notify_thread_id _sigev_un._tid
#endif
#else
#define HAVE_WATCH 0
#endif

#define WATCH_TICK_NS 50000000L /* 50 ms */

#if HAVE_WATCH
/* per thread (the handler runs on the thread whose timer ticked): the
 * launch watched, and the thread's timer, made at its first launch and
 * kept (disarmed between launches) */
static _Thread_local krun *volatile watched;
static _Thread_local timer_t timer;
static _Thread_local int have_timer;

static int watch_signal(void) { return SIGRTMAX - 3; }

static void on_tick(int sig, siginfo_t *si, void *uc) {
  krun *r = watched;
  lua_State *co;
  struct timespec ts;
  int saved = errno;
  (void)sig;
  (void)si;
  (void)uc;
  if (r != NULL) {
    clock_gettime(CLOCK_MONOTONIC, &ts);
    co = r->co;
    if (((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 >= r->deadline ||
         wll_sig_pending()) &&
        co != NULL && lua_gethook(co) != wll_count_hook)
      lua_sethook(co, wll_count_hook, LUA_MASKCOUNT, 1);
  }
  errno = saved;
}

/* Installs on_tick for the signal, unless the signal is blocked in this
 * thread or someone else's; makes this thread's timer. */
static int watch_ready(void) {
  struct sigaction sa, old;
  struct sigevent sev;
  sigset_t cur;
  int sig = watch_signal();
  if (pthread_sigmask(SIG_BLOCK, NULL, &cur) != 0 || sigismember(&cur, sig))
    return 0;
  if (sigaction(sig, NULL, &old) != 0)
    return 0;
  if (!((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == on_tick)) {
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
      return 0; /* someone else's */
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_tick;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    if (sigaction(sig, &sa, NULL) != 0)
      return 0;
  }
  if (!have_timer) {
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = sig;
    sev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
    if (timer_create(CLOCK_MONOTONIC, &sev, &timer) != 0)
      return 0;
    have_timer = 1;
  }
  return 1;
}

static void set_timer(long ns) {
  struct itimerspec its;
  its.it_interval.tv_sec = its.it_value.tv_sec = 0;
  its.it_interval.tv_nsec = its.it_value.tv_nsec = ns;
  timer_settime(timer, 0, &its, NULL);
}
#endif

int wll_watch_usable(void) {
#if HAVE_WATCH
  const char *e = getenv("WARPLAB_COUNT_HOOK");
  if (e != NULL && e[0] != 0 && strcmp(e, "0") != 0)
    return 0;
  return watch_ready();
#else
  return 0;
#endif
}

void *wll_watch_start(krun *r) {
#if HAVE_WATCH
  krun *prev = watched;
  if (!r->watch)
    return NULL;
  watched = r;
  if (prev == NULL)
    set_timer(WATCH_TICK_NS);
  return prev;
#else
  (void)r;
  return NULL;
#endif
}

void wll_watch_stop(krun *r, void *prev) {
#if HAVE_WATCH
  if (!r->watch)
    return;
  if (prev == NULL)
    set_timer(0); /* a tick already pending finds nothing watched */
  watched = prev;
#else
  (void)r;
  (void)prev;
#endif
}

/* ---------------- coroutines the kernel makes itself ---------------- */

/* The registry key of the library's own coroutine.create and wrap while
 * ours stand in for them. */
static const char co_key = 0;

/* coroutine.create or coroutine.wrap (upvalue 1) with the count hook set
 * on the calling coroutine for the call: a new coroutine takes the hook
 * of the one that makes it (lua_newthread), so this one, looping in
 * pure Lua, is stopped by the time bound as the launch's own are by the
 * watch.  (Its slow path is the price; kernels rarely make coroutines.)
 * The caller gets its own hook back, unless the watch's tick set the
 * stopping one meanwhile. */
static int co_make(lua_State *L) {
  int n = lua_gettop(L), set = lua_gethook(L) == NULL, rc;
  if (set)
    lua_sethook(L, wll_count_hook, LUA_MASKCOUNT, WLL_HOOK_COUNT);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  rc = lua_pcall(L, n, LUA_MULTRET, 0);
  if (set && lua_gethook(L) == wll_count_hook &&
      lua_gethookcount(L) == WLL_HOOK_COUNT)
    lua_sethook(L, NULL, 0, 0);
  if (rc != LUA_OK)
    return lua_error(L);
  return lua_gettop(L);
}

void wll_watch_coroutines(lua_State *L, kstate *ks, int on) {
  static const char *const names[] = {"create", "wrap"};
  int i;
  if (on == ks->co_wrapped)
    return;
  luaL_checkstack(L, 4, "coroutines");
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  if (lua_getfield(L, -1, LUA_COLIBNAME) != LUA_TTABLE) {
    lua_pop(L, 2); /* no coroutine library: nothing to stand in for */
    return;
  }
  if (on) {
    lua_createtable(L, 0, 2); /* the library's own */
    for (i = 0; i < 2; i++) {
      lua_getfield(L, -2, names[i]);
      if (lua_tocfunction(L, -1) == co_make || lua_isnil(L, -1)) {
        lua_pop(L, 1);
        continue;
      }
      lua_pushvalue(L, -1);
      lua_setfield(L, -3, names[i]);
      lua_pushcclosure(L, co_make, 1);
      lua_setfield(L, -3, names[i]);
    }
    lua_rawsetp(L, LUA_REGISTRYINDEX, &co_key);
  } else {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &co_key) == LUA_TTABLE)
      for (i = 0; i < 2; i++) {
        int ours;
        lua_getfield(L, -2, names[i]);
        /* the kernel's script may have put its own there since */
        ours = lua_tocfunction(L, -1) == co_make;
        lua_pop(L, 1);
        if (ours && lua_getfield(L, -1, names[i]) != LUA_TNIL)
          lua_setfield(L, -3, names[i]);
        else if (ours)
          lua_pop(L, 1);
      }
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &co_key);
  }
  lua_pop(L, 2);
  ks->co_wrapped = on;
}

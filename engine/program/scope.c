/* scope.c -- scope instances: which threads a scope of an event
 * includes, from the threads' placement (CTA, GPU).  Program semantics,
 * shared by the explorer and the cat engine's candidates; the judgement
 * itself is strength.h's wl__scope_covers (one definition). */
#include "ir.h"

int wl__scopes_meet(int sa, const wl_thread *a, int sb, const wl_thread *b) {
  return wl__scope_includes(sa, a, b) && wl__scope_includes(sb, b, a);
}

int wl__scope_includes(int scope, const wl_thread *a, const wl_thread *b) {
  return wl__scope_covers(scope, a->cta, a->gpu, b->cta, b->gpu);
}

/* cycle.c -- litmus tests from cycles of relations (diy7's method).
 *
 * A cycle e[0..n-1] is read as n accesses: access i is the source of
 * edge i and the target of edge i-1.  Rotated so that the last edge is
 * external, the accesses fall into threads in order: every external
 * edge starts the next thread.  Same-location edges join locations
 * (union-find), different-location edges must not.  Coherence
 * constraints between the writes to one location come from Co edges,
 * and from a read's Rf source to the target of its Fr edge (not from
 * atomicity: "Rfe Rmw Coe" is the test of the Atomicity axiom, whose
 * condition asks for what the axiom forbids); writes get the values 1, 2, ...
 * in an order that respects them (a cyclic order makes no test).  The
 * condition says what each read reads, and the final value of each
 * location whose coherence-last write the constraints fix. */
#include <stdio.h>
#include <string.h>

#include "gen.h"

const char *const wl__gen_family_names[] = {
    "MP",   "SB",   "LB",   "S",    "R",    "2+2W", "WRC",  "RWC", "WWC",
    "IRIW", "ISA2", "W+RWC", "3.SB", "3.LB", "3.2W", "CoRR", "CoRW", "CoWR",
    NULL};
const char *const wl__gen_family_cycles[] = {
    "PodWW Rfe PodRR Fre",
    "PodWR Fre PodWR Fre",
    "PodRW Rfe PodRW Rfe",
    "PodWW Rfe PodRW Coe",
    "PodWW Coe PodWR Fre",
    "PodWW Coe PodWW Coe",
    "Rfe PodRW Rfe PodRR Fre",
    "Rfe PodRR Fre PodWR Fre",
    "Rfe PodRW Rfe PodRW Coe",
    "Rfe PodRR Fre Rfe PodRR Fre",
    "PodWW Rfe PodRW Rfe PodRR Fre",
    "PodWW Rfe PodRR Fre PodWR Fre",
    "PodWR Fre PodWR Fre PodWR Fre",
    "PodRW Rfe PodRW Rfe PodRW Rfe",
    "PodWW Coe PodWW Coe PodWW Coe",
    "Rfe PosRR Fre",
    "Rfe PosRW Coe",
    "PosWR Fre Coe",
    NULL};

static const char *const scope_cap[] = {"", "Cta", "Gpu", "Sys"};
static const char *const scope_low[] = {"", "cta", "gpu", "sys"};

void wl__gen_edge_name(const gedge *e, char *buf, size_t n) {
  const char *ie = e->ext ? "e" : "i";
  const char *ds = e->same ? "s" : "d";
  switch (e->kind) {
  case EK_PO:
    snprintf(buf, n, "Po%s%c%c", ds, e->src, e->dst);
    break;
  case EK_FENCE:
    snprintf(buf, n, "Fence%s%s%s%c%c",
             e->fsem == WL_SEM_SC ? "Sc" : "AcqRel", scope_cap[e->fscope], ds,
             e->src, e->dst);
    break;
  case EK_DATA:
    snprintf(buf, n, "DpData%sW", ds);
    break;
  case EK_CTRL:
    snprintf(buf, n, "DpCtrl%s%c", ds, e->dst);
    break;
  case EK_RF:
    snprintf(buf, n, "Rf%s", ie);
    break;
  case EK_FR:
    snprintf(buf, n, "Fr%s", ie);
    break;
  case EK_CO:
    snprintf(buf, n, "Co%s", ie);
    break;
  default:
    snprintf(buf, n, "Rmw");
    break;
  }
}

static int is_rw(char c) { return c == 'R' || c == 'W'; }

/* Parses one word (no '*'); 0, 1 for an address dependency, -1 when it
 * is no edge. */
static int parse_word(const char *w, gedge *e) {
  size_t n = strlen(w);
  static const char *const com[] = {"Rfe", "Rfi", "Fre", "Fri", "Coe",
                                    "Coi", "Wse", "Wsi", NULL};
  static const uint8_t comk[] = {EK_RF, EK_RF, EK_FR, EK_FR,
                                 EK_CO, EK_CO, EK_CO, EK_CO};
  int i;
  memset(e, 0, sizeof *e);
  for (i = 0; com[i] != NULL; i++) {
    if (strcmp(w, com[i]) == 0) {
      e->kind = comk[i];
      e->ext = w[2] == 'e';
      e->same = 1;
      e->src = e->kind == EK_FR ? 'R' : 'W';
      e->dst = e->kind == EK_RF ? 'R' : 'W';
      return 0;
    }
  }
  if (strcmp(w, "Rmw") == 0) {
    e->kind = EK_RMW;
    e->same = 1;
    e->src = 'R';
    e->dst = 'W';
    return 0;
  }
  if (n == 5 && strncmp(w, "Po", 2) == 0 && (w[2] == 'd' || w[2] == 's') &&
      is_rw(w[3]) && is_rw(w[4])) {
    e->kind = EK_PO;
    e->same = w[2] == 's';
    e->src = w[3];
    e->dst = w[4];
    return 0;
  }
  if (strncmp(w, "DpAddr", 6) == 0)
    return 1;
  if (n == 8 && (strncmp(w, "DpData", 6) == 0 || strncmp(w, "DpCtrl", 6) == 0) &&
      (w[6] == 'd' || w[6] == 's') && is_rw(w[7])) {
    e->kind = w[2] == 'D' ? EK_DATA : EK_CTRL;
    if (e->kind == EK_DATA && w[7] != 'W')
      return -1;
    e->same = w[6] == 's';
    e->src = 'R';
    e->dst = w[7];
    return 0;
  }
  if (strncmp(w, "Fence", 5) == 0) {
    const char *p = w + 5;
    int s;
    if (strncmp(p, "Sc", 2) == 0) {
      e->fsem = WL_SEM_SC;
      p += 2;
    } else if (strncmp(p, "AcqRel", 6) == 0) {
      e->fsem = WL_SEM_ACQ_REL;
      p += 6;
    } else {
      return -1;
    }
    for (s = 1; s <= 3; s++)
      if (strncmp(p, scope_cap[s], 3) == 0)
        break;
    if (s > 3)
      return -1;
    p += 3;
    if (strlen(p) != 3 || (p[0] != 'd' && p[0] != 's') || !is_rw(p[1]) ||
        !is_rw(p[2]))
      return -1;
    e->kind = EK_FENCE;
    e->fscope = (uint8_t)s;
    e->same = p[0] == 's';
    e->src = p[1];
    e->dst = p[2];
    return 0;
  }
  return -1;
}

static int same_edge(const gedge *a, const gedge *b) {
  return a->kind == b->kind && a->src == b->src && a->dst == b->dst &&
         a->ext == b->ext && a->same == b->same && a->fsem == b->fsem &&
         a->fscope == b->fscope;
}

/* Adds the edges of word w (with its '*' expanded) to out. */
static int add_word(wl_ctx *ctx, const char *field, int pos, char *w,
                    int star, gedge *out, int max, int *n) {
  char *st = strchr(w, '*');
  gedge e;
  int r, k;
  if (st != NULL && star) {
    *st = 'R';
    if ((r = add_word(ctx, field, pos, w, star, out, max, n)) != 0)
      return r;
    *st = 'W';
    r = add_word(ctx, field, pos, w, star, out, max, n);
    *st = '*';
    return r;
  }
  r = parse_word(w, &e);
  if (r == 1)
    return wl__err(ctx, WL_EUNSUPPORTED,
                   "wl_gen_opts.%s: edge %d '%s': address dependencies need "
                   "registers holding addresses, which the dialect does not "
                   "have (use DpData or DpCtrl)",
                   field, pos, w);
  if (r != 0)
    return wl__err(ctx, WL_EINVAL,
                   "wl_gen_opts.%s: edge %d '%s' is not an edge (expected "
                   "PodXY, PosXY, Rfe, Rfi, Fre, Fri, Coe, Coi, Rmw, "
                   "DpData[ds]W, DpCtrl[ds][RW], FenceSc|FenceAcqRel + "
                   "Cta|Gpu|Sys + [ds]XY; X, Y: R or W)",
                   field, pos, w);
  if (star)
    for (k = 0; k < *n; k++)
      if (same_edge(&out[k], &e))
        return 0;
  if (*n >= max)
    return wl__err(ctx, WL_EINVAL, "wl_gen_opts.%s: more than %d edges",
                   field, max);
  out[(*n)++] = e;
  return 0;
}

int wl__gen_parse_edges(wl_ctx *ctx, const char *field, const char *text,
                        int star, gedge *out, int max, int *n) {
  const char *p = text;
  int pos = 0, r;
  *n = 0;
  for (;;) {
    char w[32];
    size_t k = 0;
    while (*p == ' ' || *p == ',' || *p == '+' || *p == '\t' || *p == '\n')
      p++;
    if (*p == '\0')
      break;
    while (*p != '\0' && *p != ' ' && *p != ',' && *p != '+' && *p != '\t' &&
           *p != '\n') {
      if (k + 1 < sizeof w)
        w[k++] = *p;
      p++;
    }
    w[k] = '\0';
    pos++;
    if ((r = add_word(ctx, field, pos, w, star, out, max, n)) != 0)
      return r;
  }
  if (*n == 0)
    return wl__err(ctx, WL_EINVAL, "wl_gen_opts.%s: no edges", field);
  return 0;
}

/* ---------------------------------------------------------------- */
/* Building the test                                                 */

static int uf_find(int *uf, int i) {
  while (uf[i] != i)
    i = uf[i] = uf[uf[i]];
  return i;
}

/* The decoration of a program-order edge in a test's name. */
static void deco(const gedge *e, char *buf, size_t n) {
  switch (e->kind) {
  case EK_FENCE:
    snprintf(buf, n, "fence.%s.%s%s", e->fsem == WL_SEM_SC ? "sc" : "acq_rel",
             scope_low[e->fscope], e->same ? "s" : "");
    break;
  case EK_DATA:
    snprintf(buf, n, "data%s", e->same ? "s" : "");
    break;
  case EK_CTRL:
    snprintf(buf, n, "ctrl%s", e->same ? "s" : "");
    break;
  default:
    snprintf(buf, n, "po%s", e->same ? "s" : "");
    break;
  }
}

/* The shape's name: a classic one, possibly decorated, else the edges. */
static void shape_name(const gedge *e, int n, char *buf, size_t len) {
  gedge sk[GMAX_CYCLE], fam[GMAX_CYCLE];
  int i, f, decorated = 0;
  size_t at;
  for (i = 0; i < n; i++) {
    sk[i] = e[i];
    if (e[i].kind == EK_FENCE || e[i].kind == EK_DATA ||
        e[i].kind == EK_CTRL) {
      sk[i].kind = EK_PO;
      sk[i].fsem = sk[i].fscope = 0;
      decorated = 1;
    }
  }
  for (f = 0; wl__gen_family_names[f] != NULL; f++) {
    const char *c = wl__gen_family_cycles[f];
    int m = 0, rot, ok = 0;
    char w[16];
    while (*c != '\0') {
      size_t k = 0;
      while (*c == ' ')
        c++;
      while (*c != ' ' && *c != '\0' && k + 1 < sizeof w)
        w[k++] = *c++;
      w[k] = '\0';
      if (k > 0 && m < GMAX_CYCLE)
        parse_word(w, &fam[m++]);
    }
    if (m != n)
      continue;
    for (rot = 0; rot < n && !ok; rot++) {
      ok = 1;
      for (i = 0; i < n && ok; i++)
        ok = same_edge(&sk[i], &fam[(i + rot) % n]);
    }
    if (!ok)
      continue;
    snprintf(buf, len, "%s", wl__gen_family_names[f]);
    if (decorated) {
      for (i = 0; i < n; i++) {
        if (e[i].kind == EK_PO || e[i].kind == EK_FENCE ||
            e[i].kind == EK_DATA || e[i].kind == EK_CTRL) {
          char d[32];
          deco(&e[i], d, sizeof d);
          at = strlen(buf);
          snprintf(buf + at, len - at, "+%s", d);
        }
      }
    }
    return;
  }
  buf[0] = '\0';
  for (i = 0; i < n; i++) {
    char w[32];
    wl__gen_edge_name(&e[i], w, sizeof w);
    at = strlen(buf);
    snprintf(buf + at, len - at, "%s%s", i ? "+" : "", w);
  }
}

void wl__gen_place(gtest *t, int place, uint64_t *rng) {
  int i;
  for (i = 0; i < t->nthreads; i++) {
    gthread *th = &t->th[i];
    switch (place) {
    case PL_CTA:
      th->cta = th->gpu = 0;
      break;
    case PL_GPU:
      th->cta = i;
      th->gpu = 0;
      break;
    case PL_SYS:
      th->cta = 0;
      th->gpu = i;
      break;
    default:
      th->cta = wl__gen_below(rng, 2);
      th->gpu = wl__gen_below(rng, 2);
      break;
    }
  }
}

/* One scope from the bits of scopes (all three when 0). */
static int draw_scope(uint64_t *rng, unsigned scopes) {
  int s[3], n = 0, k;
  for (k = 0; k < 3; k++)
    if (scopes == 0 || (scopes & (1u << k)))
      s[n++] = WL_SCOPE_CTA + k;
  return s[wl__gen_below(rng, n)];
}

/* The annotation of one access: sem, scope, and 1 in *atom for a store
 * made an atom.exch. */
static void annotate(const gann *ann, char kind, unsigned scopes,
                     uint64_t *rng, int *sem, int *scope, int *atom) {
  int k = ann->kind;
  *atom = 0;
  *scope = ann->scope;
  if (k == ANN_MIX) {
    k = wl__gen_below(rng, 3);
    *scope = draw_scope(rng, scopes);
    if (kind == 'W' && wl__gen_below(rng, 4) == 0)
      *atom = 1;
  }
  if (k == ANN_WEAK && !*atom) {
    *sem = WL_SEM_WEAK;
    *scope = WL_SCOPE_NONE;
  } else if (k == ANN_RA) {
    *sem = kind == 'R' ? WL_SEM_ACQUIRE : WL_SEM_RELEASE;
  } else {
    *sem = WL_SEM_RELAXED;
  }
}

static gop *push(gthread *th) {
  gop *o = &th->op[th->nops++];
  memset(o, 0, sizeof *o);
  o->loc = o->dst = o->src = -1;
  return o;
}

int wl__gen_cycle_build(const gedge *c, int n, const gann *ann, int place,
                        unsigned scopes, uint64_t *rng, gtest *t, char *why,
                        size_t whylen) {
  gedge e[GMAX_CYCLE];
  int th[GMAX_CYCLE], loc[GMAX_CYCLE], reg[GMAX_CYCLE], rfsrc[GMAX_CYCLE];
  int64_t val[GMAX_CYCLE];
  int uf[GMAX_CYCLE], cls[GMAX_CYCLE];
  uint16_t co[GMAX_CYCLE];
  int sem[GMAX_CYCLE], scope[GMAX_CYCLE], atom[GMAX_CYCLE];
  int i, j, k, next, next_ext = 0, start = -1, nlabels = 0;
  char a[32], b[32];
  if (n < 2 || n > GMAX_CYCLE) {
    snprintf(why, whylen, "a cycle has 2 to %d edges, not %d", GMAX_CYCLE, n);
    return -1;
  }
  for (i = 0; i < n; i++) {
    next = (i + 1) % n;
    if (c[i].dst != c[next].src) {
      wl__gen_edge_name(&c[i], a, sizeof a);
      wl__gen_edge_name(&c[next], b, sizeof b);
      snprintf(why, whylen,
               "edge %d '%s' ends at a %s but edge %d '%s' starts at a %s",
               i + 1, a, c[i].dst == 'R' ? "read" : "write", next + 1, b,
               c[next].src == 'R' ? "read" : "write");
      return -1;
    }
    if (c[i].ext) {
      next_ext++;
      start = (i + 1) % n; /* after the last: the first edge leads */
    }
  }
  if (next_ext < 2) {
    snprintf(why, whylen,
             "a cycle needs at least two external edges (Rfe, Fre, Coe)");
    return -1;
  }
  for (i = 0; i < n; i++)
    e[i] = c[(start + i) % n];
  memset(t, 0, sizeof *t);
  /* threads */
  th[0] = 0;
  for (i = 1; i < n; i++)
    th[i] = th[i - 1] + e[i - 1].ext;
  t->nthreads = th[n - 1] + 1;
  if (t->nthreads > GMAX_T) {
    snprintf(why, whylen, "the cycle has %d threads (at most %d)",
             t->nthreads, GMAX_T);
    return -1;
  }
  /* locations */
  for (i = 0; i < n; i++)
    uf[i] = i;
  for (i = 0; i < n; i++)
    if (e[i].same)
      uf[uf_find(uf, i)] = uf_find(uf, (i + 1) % n);
  for (i = 0; i < n; i++) {
    if (!e[i].same && uf_find(uf, i) == uf_find(uf, (i + 1) % n)) {
      wl__gen_edge_name(&e[i], a, sizeof a);
      snprintf(why, whylen,
               "edge '%s' joins two accesses that the rest of the cycle "
               "puts at one location",
               a);
      return -1;
    }
  }
  for (i = 0; i < n; i++)
    cls[i] = -1;
  for (i = 0; i < n; i++) {
    int r = uf_find(uf, i);
    if (cls[r] < 0) {
      if (t->nlocs >= GMAX_L) {
        snprintf(why, whylen, "the cycle has more than %d locations", GMAX_L);
        return -1;
      }
      cls[r] = t->nlocs++;
    }
    loc[i] = cls[r];
  }
  /* reads-from sources and coherence constraints between writes */
  memset(co, 0, sizeof co);
  for (i = 0; i < n; i++) {
    int prev = (i + n - 1) % n;
    next = (i + 1) % n;
    rfsrc[i] = e[i].src == 'R' && e[prev].kind == EK_RF ? prev : -1;
  }
  for (i = 0; i < n; i++) {
    next = (i + 1) % n;
    if (e[i].kind == EK_CO)
      co[i] |= (uint16_t)(1u << next);
    if (e[i].kind == EK_FR && rfsrc[i] >= 0)
      co[rfsrc[i]] |= (uint16_t)(1u << next);
  }
  for (k = 0; k < n; k++) /* transitive closure (Warshall) */
    for (i = 0; i < n; i++)
      if (co[i] & (1u << k))
        co[i] |= co[k];
  for (i = 0; i < n; i++) {
    if (co[i] & (1u << i)) {
      snprintf(why, whylen,
               "the cycle asks for a cyclic coherence order of the writes to "
               "one location");
      return -1;
    }
  }
  /* values: 1, 2, ... per location in an order that respects co; ties
   * go by position in the cycle */
  for (i = 0; i < n; i++)
    val[i] = 0;
  for (k = 0; k < t->nlocs; k++) {
    int64_t rank = 0;
    uint16_t placed = 0, ws = 0;
    for (i = 0; i < n; i++)
      if (e[i].src == 'W' && loc[i] == k)
        ws |= (uint16_t)(1u << i);
    while (placed != ws) {
      for (i = 0; i < n; i++) {
        int ready = 1;
        if (!(ws & (1u << i)) || (placed & (1u << i)))
          continue;
        for (j = 0; j < n; j++)
          if ((ws & (1u << j)) && !(placed & (1u << j)) && (co[j] & (1u << i)))
            ready = 0;
        if (ready)
          break;
      }
      placed |= (uint16_t)(1u << i);
      val[i] = ++rank;
    }
  }
  /* annotations, registers, operations */
  for (i = 0; i < n; i++)
    annotate(ann, e[i].src, scopes, rng, &sem[i], &scope[i], &atom[i]);
  for (i = 0; i < n; i++) {
    gthread *T = &t->th[th[i]];
    int prev = (i + n - 1) % n, inner = i > 0 && !e[prev].ext;
    gop *o;
    reg[i] = -1;
    if (inner && e[prev].kind == EK_RMW)
      continue; /* the write of the atom made at the read */
    if (inner && e[prev].kind == EK_FENCE) {
      o = push(T);
      o->kind = G_FENCE;
      o->sem = e[prev].fsem;
      o->scope = e[prev].fscope;
    } else if (inner && e[prev].kind == EK_CTRL) {
      o = push(T);
      o->kind = G_BR;
      o->ne = 1;
      o->src = (int8_t)reg[prev];
      o->a = -1;
      o->label = nlabels;
      o = push(T);
      o->kind = G_LABEL;
      o->label = nlabels++;
    }
    if (e[i].src == 'R') {
      o = push(T);
      reg[i] = T->nregs++;
      o->dst = (int8_t)reg[i];
      o->loc = (int8_t)loc[i];
      if (e[i].kind == EK_RMW) {
        int ws = sem[(i + 1) % n];
        o->kind = G_ATOM;
        o->aop = WL_OP_EXCH;
        o->a = val[(i + 1) % n];
        o->scope = (uint8_t)(scope[i] > scope[(i + 1) % n]
                                 ? scope[i]
                                 : scope[(i + 1) % n]);
        if (sem[i] == WL_SEM_ACQUIRE && ws == WL_SEM_RELEASE)
          o->sem = WL_SEM_ACQ_REL;
        else if (sem[i] == WL_SEM_ACQUIRE)
          o->sem = WL_SEM_ACQUIRE;
        else if (ws == WL_SEM_RELEASE)
          o->sem = WL_SEM_RELEASE;
        else if (sem[i] == WL_SEM_WEAK && ws == WL_SEM_WEAK)
          o->sem = WL_SEM_WEAK; /* bare atom: .relaxed.gpu */
        else
          o->sem = WL_SEM_RELAXED;
        if (o->sem == WL_SEM_WEAK)
          o->scope = WL_SCOPE_NONE;
      } else {
        o->kind = G_LD;
        o->sem = (uint8_t)sem[i];
        o->scope = (uint8_t)scope[i];
      }
    } else {
      int src = -1;
      if (inner && e[prev].kind == EK_DATA) {
        /* a data dependency that writes a constant: t = r ^ r; t += v */
        src = T->nregs++;
        o = push(T);
        o->kind = G_ALU;
        o->aop = WL_OP_XOR;
        o->dst = (int8_t)src;
        o->src = (int8_t)reg[prev];
        o = push(T);
        o->kind = G_ALU;
        o->aop = WL_OP_ADD;
        o->dst = o->src = (int8_t)src;
        o->a = val[i];
      }
      o = push(T);
      o->loc = (int8_t)loc[i];
      o->sem = (uint8_t)sem[i];
      o->scope = (uint8_t)scope[i];
      if (atom[i]) {
        o->kind = G_ATOM;
        o->aop = WL_OP_EXCH;
        o->dst = (int8_t)T->nregs++;
        o->src = (int8_t)src;
        o->a = val[i];
      } else {
        o->kind = G_ST;
        o->src = (int8_t)src;
        o->a = val[i];
      }
    }
  }
  /* the condition */
  t->kind = WL_COND_EXISTS;
  t->nclauses = 1;
  for (i = 0; i < n; i++) {
    gatom *g;
    if (e[i].src != 'R')
      continue;
    if (rfsrc[i] < 0 && e[i].kind != EK_FR)
      continue;
    g = &t->at[0][t->nat[0]++];
    g->thread = th[i];
    g->idx = reg[i];
    g->ne = 0;
    g->v = rfsrc[i] >= 0 ? val[rfsrc[i]] : 0;
  }
  for (k = 0; k < t->nlocs; k++) {
    int last = -1, nw = 0, fixed = 1;
    for (i = 0; i < n; i++)
      if (e[i].src == 'W' && loc[i] == k) {
        nw++;
        if (last < 0 || val[i] > val[last])
          last = i;
      }
    if (nw < 2)
      continue;
    for (i = 0; i < n; i++)
      if (e[i].src == 'W' && loc[i] == k && i != last &&
          !(co[i] & (1u << last)))
        fixed = 0;
    if (fixed) {
      gatom *g = &t->at[0][t->nat[0]++];
      g->thread = -1;
      g->idx = k;
      g->ne = 0;
      g->v = val[last];
    }
  }
  wl__gen_place(t, place, rng);
  shape_name(e, n, t->name, sizeof t->name);
  {
    size_t at = 0;
    at += (size_t)snprintf(t->comment, sizeof t->comment, "cycle:");
    for (i = 0; i < n && at < sizeof t->comment; i++) {
      wl__gen_edge_name(&e[i], a, sizeof a);
      at += (size_t)snprintf(t->comment + at, sizeof t->comment - at, " %s",
                             a);
    }
  }
  return 0;
}

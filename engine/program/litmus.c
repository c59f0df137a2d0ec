/* litmus.c -- the reader of Dat3M's PTX litmus dialect.
 *
 *   PTX NAME  <free text, "quoted" comments>
 *   { x=0; P1:r1=0; }
 *    P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 *    st.weak x, 1   | ld.acquire.gpu r1, y ;
 *    ...
 *   [locations [x; P1:r2;]]
 *   exists|~exists|forall (P1:r1 == 1 /\ x != 2)
 *
 * A hand-written lexer and recursive-descent parser; every error names
 * file:line:col and what was expected.  Nothing here allocates without
 * checking, and no input makes it read out of bounds (fuzzed).
 *
 * PTX 7.5 proxies, read as Dat3M reads them (its grammar LitmusPTX.g4,
 * its visitor VisitorLitmusPTX.java, the PTX tags of Tag.java, the
 * compilation of atomics in VisitorPTX.java, VirtualMemoryObject.java
 * and the vloc relation of NativeRelationAnalysis.java), so that our
 * events mean what Dat3M's do under ptx-v7.5.cat:
 *
 *   instruction              events (cat sets)
 *   ld/st/atom/red ...       as in PTX 6.0, and GEN
 *   tld.sem[.scope] r, a     R, TEX (a texture load)
 *   suld.sem[.scope] r, a    R, SUR (a surface load)
 *   cold.sem[.scope] r, a    R, CON (a constant load)
 *   sust.sem[.scope] a, v    W, SUR (a surface store)
 *   suatom.sem.scope.op ..   R and W (RMW), SUR (Dat3M's grammar; no test
 *   sured.sem.scope.op ..    of the corpus uses them)
 *   fence.sc/acq_rel.scope   F, SC or ACQ_REL, scope, GEN
 *   fence.proxy.generic      F, GEN    no semantics and no scope: never
 *   fence.proxy.surface      F, SUR    in sr, so never morally strong
 *   fence.proxy.texture      F, TEX    with another thread, and not a
 *   fence.proxy.constant     F, CON    release or acquire pattern
 *   fence.proxy.alias        F, ALIAS
 *   bar.cta.sync/arrive      F (barrier), as in PTX 6.0
 *
 * Semantics and scopes are the ld/st ones (Dat3M: .weak takes no scope,
 * the others need one).  An RMW's read and write both carry the
 * instruction's proxy and scope (Dat3M's propagateTags).
 *
 * Dat3M tags barriers, fence.proxy.alias and initial writes with no
 * proxy at all; our events are generic (wl_ev.proxy 0).  ptx-v7.5.cat
 * cannot tell: it uses the proxy of an event only in same-proxy, and a
 * generic non-proxy fence f adds pairs to proxy-preserved-cause-base
 * only as m1 ->cause-base f ->cause-base m2 with m1 or m2 generic, which
 * the [GEN]-ended alternatives already give (cause-base is transitive);
 * initial writes are in no cause-base, and never morally strong (no
 * scope).
 *
 * Declarations (in the initial state):
 *   x = 0 @ gpu 1            x's home: the GPU whose memory holds it
 *                            (warplab's own; default: P0's GPU); threads
 *                            on other GPUs reach it as peer memory
 *   y @ generic aliases x    y is another name of x's physical location,
 *                            with a virtual address of its own
 *   s @ surface aliases x    (also texture, constant): the same physical
 *                            location, and the virtual address of x
 * Dat3M's VirtualMemoryObject: an alias's physical address is its
 * target's physical address; its "generic address" is itself when the
 * alias is generic, else the target (the target itself, not the
 * target's generic address).  vloc relates accesses whose generic
 * addresses are equal, loc accesses whose physical addresses are.  So
 * with x = 0; y @ generic aliases x; s @ surface aliases y: accesses
 * to x, y, s all have loc x; vloc(x) = x, vloc(y) = vloc(s) = y.  The
 * proxy of an event is its instruction's (tld on a surface alias is a
 * texture access); the word in the declaration only says generic or
 * not.  Dat3M gives every alias an initial write of its own (the target's
 * initial value, copied at the declaration); two initial writes of one
 * location are unordered in its co and write the same value, and initial
 * writes take part in no cause-base, so one initial write per physical
 * location (ours) gives the same outcomes.
 *
 * Aliases are not locations: wl_litmus.nlocs counts physical locations,
 * so final states show each physical location once, under its own name;
 * a condition or "locations [...]" naming an alias reads its physical
 * location.  Instructions keep the alias they name (wl_insn.alias), and
 * wl__insn_vloc gives their virtual address.  The built-in explorer and
 * the simulator implement PTX 6.0 only: wl__litmus_check_v60 makes them
 * refuse a test with aliases or proxy instructions.
 *
 * This file reads whole tests (the header, the initial state, the
 * thread rows); its parts have files of their own (reader.h lists
 * them): the lexer (lex.c), names (names.c), instruction text
 * (insn.c), the condition (cond.c).  The builder API that both the
 * reader and Lua use is build.c; typed values value.c; the layout of
 * final states layout.c. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "reader.h"

/* ---------------------------------------------------------------- */
/* Sections                                                          */

/* Register initialisations are kept until the threads are known. */
typedef struct reginit {
  int thread, line, col;
  char name[32];
  int64_t val;
} reginit;

/* "NAME @ generic|surface|texture|constant aliases TARGET" after the
 * '@' (PTX 7.5; the top of this file says what it means). */
static int parse_alias(parser *p, const tok *name) {
  static const char *const kinds[] = {"generic", "surface", "texture",
                                      "constant", NULL};
  static const int kindv[] = {WL_PROXY_GEN, WL_PROXY_SUR, WL_PROXY_TEX,
                              WL_PROXY_CON};
  int k, a;
  tok tg;
  if (!wl__name_is_loc(name->s, name->n) || wl__name_is_reg(name->s, name->n))
    return wl__lex_err(p, WL_ESYNTAX, name->line, name->col,
                       "'%.*s' is not a location name", (int)name->n, name->s);
  for (k = 0; kinds[k] != NULL; k++)
    if (wl__lex_is_w(p, kinds[k]))
      break;
  if (kinds[k] == NULL)
    return wl__lex_expected(p,
                            "a proxy ('generic', 'surface', 'texture' or "
                            "'constant') in 'name @ proxy aliases location'");
  wl__lex_next(p);
  if (!wl__lex_is_w(p, "aliases"))
    return wl__lex_expected(p, "'aliases'");
  wl__lex_next(p);
  if (p->t.kind != T_WORD || !wl__name_is_loc(p->t.s, p->t.n) ||
      wl__name_is_reg(p->t.s, p->t.n))
    return wl__lex_expected(p, "the location it aliases");
  tg = p->t;
  a = wl__name_add_alias(p->lt, name->s, name->n, kindv[k], tg.s, tg.n,
                         name->line);
  switch (a) {
  case AL_TWICE:
    return wl__lex_err(p, WL_ESYNTAX, name->line, name->col,
                       "alias '%.*s' declared twice", (int)name->n, name->s);
  case AL_USED:
    return wl__lex_err(p, WL_ESYNTAX, name->line, name->col,
                       "'%.*s' is already a location; an alias needs a name of "
                       "its own",
                       (int)name->n, name->s);
  case AL_NOTARGET:
    return wl__lex_err(p, WL_ESYNTAX, tg.line, tg.col,
                       "'%.*s' aliases '%.*s', which is not declared before it",
                       (int)name->n, name->s, (int)tg.n, tg.s);
  case AL_FULL:
    return wl__lex_err(p, WL_ELIMIT, name->line, name->col,
                       "too many aliases (at most %d)", WL_MAX_ALIASES);
  case AL_NOMEM:
    return wl__lex_err(p, WL_ENOMEM, name->line, name->col, "out of memory");
  default:
    break;
  }
  wl__name_mark_v75(p, name->line, name->col, 1);
  wl__lex_next(p);
  return 0;
}

static int parse_init(parser *p, reginit *ri, int *nri, int maxri) {
  if (wl__lex_expect_p(p, "{"))
    return p->err;
  while (!wl__lex_is_p(p, "}")) {
    if (p->t.kind == T_EOF)
      return wl__lex_expected(p, "'}' closing the initial state");
    if (wl__lex_accept_p(p, ";"))
      continue;
    /* optional type name, herd style: "int x = 0" / "uint32_t x" */
    if (p->t.kind == T_WORD &&
        (wl__lex_is_w(p, "int") || wl__lex_is_w(p, "uint32_t") ||
         wl__lex_is_w(p, "int32_t") || wl__lex_is_w(p, "uint64_t") ||
         wl__lex_is_w(p, "int64_t")))
      wl__lex_next(p);
    if ((p->t.kind == T_WORD && p->t.s[0] == 'P' && p->t.n >= 2 &&
         isdigit((unsigned char)p->t.s[1])) ||
        p->t.kind == T_NUM) {
      /* P0:r1 = v */
      tok tt = p->t;
      int th, r;
      if ((r = wl__name_thread(p, &tt, &th)) != 0)
        return r;
      wl__lex_next(p);
      if (wl__lex_expect_p(p, ":"))
        return p->err;
      if (p->t.kind != T_WORD || !wl__name_is_reg(p->t.s, p->t.n) ||
          p->t.n >= 32)
        return wl__lex_expected(p, "a register (r0, r1, ...)");
      if (*nri == maxri)
        return wl__lex_err(p, WL_ELIMIT, p->t.line, p->t.col,
                           "too many register initialisations");
      ri[*nri].thread = th;
      ri[*nri].line = p->t.line;
      ri[*nri].col = p->t.col;
      memcpy(ri[*nri].name, p->t.s, p->t.n);
      ri[*nri].name[p->t.n] = '\0';
      wl__lex_next(p);
      if (wl__lex_expect_p(p, "="))
        return p->err;
      if (p->t.kind == T_WORD || wl__lex_is_p(p, "&"))
        return wl__lex_err(p, WL_EUNSUPPORTED, p->t.line, p->t.col,
                           "registers holding addresses are not supported; "
                           "initialise registers with constants");
      if (p->t.kind != T_NUM)
        return wl__lex_expected(p, "a constant");
      ri[*nri].val = p->t.num;
      (*nri)++;
      wl__lex_next(p);
    } else if (p->t.kind == T_WORD) {
      tok lt = p->t;
      int l;
      wl__lex_next(p);
      if (wl__lex_accept_p(p, "@")) {
        if ((l = parse_alias(p, &lt)) != 0)
          return l;
        if (!wl__lex_is_p(p, "}") && wl__lex_expect_p(p, ";"))
          return p->err;
        continue;
      }
      if (wl__name_alias(p->lt, lt.s, lt.n) >= 0)
        return wl__lex_err(
            p, WL_ESYNTAX, lt.line, lt.col,
            "'%.*s' is an alias: it has no initial value of its own", (int)lt.n,
            lt.s);
      if ((l = wl__name_loc(p, &lt)) < 0)
        return l;
      if (wl__lex_expect_p(p, "="))
        return p->err;
      if (p->t.kind == T_WORD || wl__lex_is_p(p, "&"))
        return wl__lex_err(p, WL_EUNSUPPORTED, p->t.line, p->t.col,
                           "locations holding addresses are not supported");
      if (p->t.kind != T_NUM)
        return wl__lex_expected(p, "a constant");
      p->lt->locinit[l] = p->t.num;
      p->lt->initline[l] = p->t.line;
      p->lt->initcol[l] = p->t.col;
      wl__lex_next(p);
      /* "x = 0 @ gpu 1": the GPU whose memory holds x (warplab's own;
       * Dat3M's dialect has no home, and "name @ proxy aliases" has no
       * '=') */
      if (wl__lex_accept_p(p, "@")) {
        if (!wl__lex_is_w(p, "gpu"))
          return wl__lex_expected(p, "'gpu N' after '@' (the GPU whose memory "
                                     "holds the location: 'x = 0 @ gpu 1')");
        wl__lex_next(p);
        if (p->t.kind != T_NUM || p->t.num < 0 || p->t.num > 7)
          return wl__lex_expected(p, "a GPU number 0..7 in 'x = 0 @ gpu N'");
        p->lt->lochome[l] = (int8_t)p->t.num;
        wl__lex_next(p);
      }
    } else {
      return wl__lex_expected(p, "'x = value' or 'P0:r1 = value'");
    }
    if (!wl__lex_is_p(p, "}") && wl__lex_expect_p(p, ";"))
      return p->err;
  }
  wl__lex_next(p);
  wl__lex_accept_p(p, ";");
  return 0;
}

static int parse_threads_decl(parser *p) {
  for (;;) {
    tok tt = p->t;
    int th, r, cta = 0, gpu = 0, sm1 = 0;
    wl_thread *t;
    if ((r = wl__name_thread(p, &tt, &th)) != 0)
      return r;
    if (th != p->lt->nthreads)
      return wl__lex_err(p, WL_ESYNTAX, tt.line, tt.col,
                         "threads must be declared in order: expected P%d",
                         p->lt->nthreads);
    wl__lex_next(p);
    if (!wl__lex_accept_p(p, "@"))
      return wl__lex_err(p, WL_ESYNTAX, tt.line, tt.col,
                         "thread P%d needs a placement: 'P%d@cta N,gpu M'", th,
                         th);
    if (!wl__lex_is_w(p, "cta"))
      return wl__lex_expected(p, "'cta'");
    wl__lex_next(p);
    if (p->t.kind != T_NUM || p->t.num < 0 || p->t.num > INT_MAX)
      return wl__lex_expected(p, "a CTA number");
    cta = (int)p->t.num;
    wl__lex_next(p);
    if (wl__lex_accept_p(p, ",")) {
      if (!wl__lex_is_w(p, "gpu"))
        return wl__lex_expected(p, "'gpu'");
      wl__lex_next(p);
      if (p->t.kind != T_NUM || p->t.num < 0 || p->t.num > INT_MAX)
        return wl__lex_expected(p, "a GPU number");
      gpu = (int)p->t.num;
      wl__lex_next(p);
      /* ",sm N": the SM the CTA runs on (warplab's own): CTAs given one
       * SM share its store path and L1 in the simulator */
      if (wl__lex_accept_p(p, ",")) {
        if (!wl__lex_is_w(p, "sm"))
          return wl__lex_expected(p, "'sm' (the SM of the thread's CTA: "
                                     "'P1@cta 1,gpu 0,sm 0')");
        wl__lex_next(p);
        if (p->t.kind != T_NUM || p->t.num < 0 || p->t.num > 1023)
          return wl__lex_expected(p, "an SM number 0..1023");
        sm1 = (int)p->t.num + 1;
        wl__lex_next(p);
      }
    }
    t = &p->lt->threads[th];
    snprintf(t->name, sizeof t->name, "P%d", th);
    t->cta = cta;
    t->gpu = gpu;
    t->sm1 = sm1;
    {
      /* the threads of one CTA run on one SM */
      int o;
      for (o = 0; o < th; o++) {
        const wl_thread *u = &p->lt->threads[o];
        if (u->cta == cta && u->gpu == gpu && u->sm1 != sm1)
          return wl__lex_err(
              p, WL_ESYNTAX, tt.line, tt.col,
              "P%d is in P%d's CTA but not on its SM: the threads "
              "of one CTA run on one SM",
              th, o);
      }
    }
    t->line = tt.line;
    p->lt->nthreads++;
    if (wl__lex_accept_p(p, ";"))
      return 0;
    if (wl__lex_expect_p(p, "|"))
      return p->err;
  }
}

typedef struct pending {
  int insn;
  tok target;
} pending;

typedef struct labels {
  tok name[256];
  int at[256];
  int n;
  pending pend[256];
  int npend;
} labels;

static int is_cond_start(const parser *p) {
  return wl__lex_is_w(p, "exists") || wl__lex_is_w(p, "forall") ||
         wl__lex_is_p(p, "~") || wl__lex_is_w(p, "locations") ||
         wl__lex_is_w(p, "filter") || p->t.kind == T_EOF;
}

static int parse_rows(parser *p, labels *lab) {
  int nth = p->lt->nthreads;
  while (!is_cond_start(p)) {
    int col = 0;
    for (;;) {
      cell c;
      c.n = 0;
      if (col >= nth)
        return wl__lex_err(p, WL_ESYNTAX, p->t.line, p->t.col,
                           "more columns than the %d declared threads", nth);
      while (!wl__lex_is_p(p, "|") && !wl__lex_is_p(p, ";")) {
        if (p->t.kind == T_EOF || wl__lex_is_w(p, "exists") ||
            wl__lex_is_w(p, "forall"))
          return wl__lex_expected(p, "';' ending the instruction row");
        if (c.n == 16)
          return wl__lex_err(p, WL_ESYNTAX, p->t.line, p->t.col,
                             "instruction too long");
        c.toks[c.n++] = p->t;
        wl__lex_next(p);
        if (p->err)
          return p->err;
      }
      if (c.n > 0) {
        wl_insn in;
        const tok *label, *target;
        wl_thread *t = &p->lt->threads[col];
        int r = wl__insn_parse(p, t, &c, &in, &label, &target);
        if (r)
          return r;
        if (label != NULL) {
          int k;
          if (lab[col].n == 256)
            return wl__lex_err(p, WL_ELIMIT, label->line, label->col,
                               "too many labels");
          for (k = 0; k < lab[col].n; k++)
            if (lab[col].name[k].n == label->n &&
                memcmp(lab[col].name[k].s, label->s, label->n) == 0)
              return wl__lex_err(p, WL_ESYNTAX, label->line, label->col,
                                 "label '%.*s' defined twice in %s",
                                 (int)label->n, label->s, t->name);
          lab[col].name[lab[col].n] = *label;
          lab[col].at[lab[col].n++] = t->ninsns;
        }
        if (target != NULL) {
          if (lab[col].npend == 256)
            return wl__lex_err(p, WL_ELIMIT, target->line, target->col,
                               "too many branches");
          lab[col].pend[lab[col].npend].insn = t->ninsns;
          lab[col].pend[lab[col].npend++].target = *target;
        }
        if ((r = wl__litmus_push_insn(p, t, &in)) != 0)
          return r;
      }
      col++;
      if (wl__lex_accept_p(p, ";"))
        break;
      wl__lex_next(p); /* '|' */
    }
  }
  /* resolve branch targets */
  {
    int th, k, j;
    for (th = 0; th < nth; th++) {
      for (k = 0; k < lab[th].npend; k++) {
        const tok *tg = &lab[th].pend[k].target;
        int found = -1;
        for (j = 0; j < lab[th].n; j++)
          if (lab[th].name[j].n == tg->n &&
              memcmp(lab[th].name[j].s, tg->s, tg->n) == 0)
            found = lab[th].at[j];
        if (found < 0)
          return wl__lex_err(p, WL_ESYNTAX, tg->line, tg->col,
                             "label '%.*s' is not defined in %s", (int)tg->n,
                             tg->s, p->lt->threads[th].name);
        p->lt->threads[th].insns[lab[th].pend[k].insn].target = found;
      }
    }
  }
  return 0;
}

int wl_litmus_parse(wl_ctx *ctx, const char *filename, const char *src,
                    size_t len, wl_litmus **out) {
  parser p;
  labels *lab = NULL;
  reginit *ri = NULL;
  int nri = 0, r = 0, i;
  size_t body = 0; /* where the initial state's '{' is: the hashed text */
  enum { MAXRI = 1024 };
  if (ctx == NULL || out == NULL || (src == NULL && len > 0))
    return WL_EINVAL;
  *out = NULL;
  if (filename == NULL)
    filename = "<litmus>";
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.file = filename;
  p.src = src ? src : "";
  p.len = len;
  p.line = 1;
  p.col = 1;
  ctx->errmsg[0] = '\0';
  p.lt = wl__calloc(ctx, sizeof *p.lt);
  /* scratch read only below its counts (labels' n and npend, nri): not
   * zeroed whole, which cost a third of the time of a small test */
  lab = wl__alloc(ctx, WL_MAX_THREADS * sizeof *lab);
  ri = wl__alloc(ctx, MAXRI * sizeof *ri);
  for (i = 0; lab != NULL && i < WL_MAX_THREADS; i++)
    lab[i].n = lab[i].npend = 0;
  if (p.lt != NULL)
    p.lt->ctx = ctx; /* wl_litmus_free needs it on every path */
  if (p.lt == NULL || lab == NULL || ri == NULL) {
    r = wl__err(ctx, WL_ENOMEM, "%s: out of memory", filename);
    goto done;
  }
  p.lt->filename = wl__strndup(ctx, filename, strlen(filename));
  if (p.lt->filename == NULL) {
    r = wl__err(ctx, WL_ENOMEM, "%s: out of memory", filename);
    goto done;
  }
  /* Header: "PTX name", then free text up to '{' (quoted text may hold
   * anything). */
  wl__lex_next(&p);
  if (!(wl__lex_is_w(&p, "PTX") || wl__lex_is_w(&p, "ptx"))) {
    r = wl__lex_expected(&p, "'PTX' (the first word of a PTX litmus test)");
    goto done;
  }
  {
    size_t s = p.pos, e;
    int inq = 0, ql = 0, qc = 0;
    while (p.pos < p.len && p.src[p.pos] != '\n' && p.src[p.pos] != '"' &&
           p.src[p.pos] != '{' && p.src[p.pos] != '\0')
      wl__lex_advc(&p);
    e = p.pos;
    while (s < e && isspace((unsigned char)p.src[s]))
      s++;
    while (e > s && isspace((unsigned char)p.src[e - 1]))
      e--;
    if (e == s) {
      r = wl__lex_err(&p, WL_ESYNTAX, p.line, p.col,
                      "expected the test's name after 'PTX'");
      goto done;
    }
    for (size_t k = s; k < e; k++) { /* it starts lines of the output */
      unsigned char ch = (unsigned char)p.src[k];
      if (ch < ' ' || ch == 0x7f) {
        size_t k0, col = 1;
        for (k0 = k; k0 > 0 && p.src[k0 - 1] != '\n'; k0--)
          col++;
        r = wl__lex_err(&p, WL_ESYNTAX, p.line, (int)col,
                        "a control character (0x%02x) in the test's "
                        "name", ch);
        goto done;
      }
    }
    p.lt->name = wl__strndup(ctx, p.src + s, e - s);
    if (p.lt->name == NULL) {
      r = wl__lex_err(&p, WL_ENOMEM, p.line, p.col, "out of memory");
      goto done;
    }
    while (p.pos < p.len && (inq || p.src[p.pos] != '{')) {
      if (p.src[p.pos] == '"') {
        inq = !inq;
        ql = p.line; /* an unterminated quote is reported where it opens */
        qc = p.col;
      }
      if (p.src[p.pos] == '\0') {
        r = wl__lex_err(&p, WL_ESYNTAX, p.line, p.col, "NUL byte in the text");
        goto done;
      }
      wl__lex_advc(&p);
    }
    if (inq) {
      r = wl__lex_err(&p, WL_ESYNTAX, ql, qc,
                      "unterminated quoted comment '\"'");
      goto done;
    }
    body = p.pos;
    wl__lex_next(&p);
  }
  if ((r = parse_init(&p, ri, &nri, MAXRI)) != 0)
    goto done;
  if ((r = parse_threads_decl(&p)) != 0)
    goto done;
  if ((r = parse_rows(&p, lab)) != 0)
    goto done;
  if ((r = wl__cond_parse(&p)) != 0)
    goto done;
  for (i = 0; i < nri; i++) {
    wl_thread *t;
    int reg;
    if (ri[i].thread >= p.lt->nthreads) {
      r = wl__lex_err(
          &p, WL_ESYNTAX, ri[i].line, ri[i].col,
          "initial value for a register of P%d, which the test does "
          "not declare",
          ri[i].thread);
      goto done;
    }
    t = &p.lt->threads[ri[i].thread];
    reg = wl__thread_reg(ctx, t, ri[i].name, strlen(ri[i].name));
    if (reg < 0) {
      r = wl__lex_err(&p, reg == -2 ? WL_ENOMEM : WL_ELIMIT, ri[i].line,
                      ri[i].col, "too many registers");
      goto done;
    }
    t->reginit[reg] = ri[i].val;
    t->reginitline[reg] = ri[i].line;
    t->reginitcol[reg] = ri[i].col;
  }
  if (p.err)
    r = p.err;
done:
  wl__free(ctx, lab, WL_MAX_THREADS * sizeof *lab);
  wl__free(ctx, ri, MAXRI * sizeof *ri);
  if (r != 0 || p.err != 0) {
    if (r == 0)
      r = p.err;
    if (r == WL_ENOMEM && ctx->errmsg[0] == '\0')
      wl__err(ctx, r, "%s: out of memory", filename);
    wl_litmus_free(p.lt);
    return r;
  }
  wl__litmus_hash(p.lt, p.src + body, p.len - body);
  *out = p.lt;
  return 0;
}

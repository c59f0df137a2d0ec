/* lex.c -- the lexer of the .litmus reader (litmus.c): tokens of the
 * source text, the reader's error messages (file:line:col and what was
 * expected), and matching the current token. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "reader.h"

/* ---------------------------------------------------------------- */
/* Lexer                                                             */

int wl__lex_err(parser *p, int code, int line, int col, const char *fmt, ...) {
  char msg[WL_ERRMSG_MAX - 64];
  va_list ap;
  if (p->err)
    return p->err;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  p->err = code;
  wl__err(p->ctx, code, "%s:%d:%d: %s", p->file, line, col, msg);
  return code;
}

void wl__lex_describe(const tok *t, char *out, size_t n) {
  if (t->kind == T_EOF)
    snprintf(out, n, "end of file");
  else if (t->n > 24)
    snprintf(out, n, "'%.24s...'", t->s);
  else
    snprintf(out, n, "'%.*s'", (int)t->n, t->s);
}

int wl__lex_expected(parser *p, const char *what) {
  char d[40];
  wl__lex_describe(&p->t, d, sizeof d);
  return wl__lex_err(p, WL_ESYNTAX, p->t.line, p->t.col,
                     "expected %s, found %s", what, d);
}

static int peekc(const parser *p, size_t k) {
  return p->pos + k < p->len ? (unsigned char)p->src[p->pos + k] : -1;
}

void wl__lex_advc(parser *p) {
  if (p->pos >= p->len)
    return;
  if (p->src[p->pos] == '\n') {
    p->line++;
    p->col = 1;
  } else {
    p->col++;
  }
  p->pos++;
}

static int is_word_start(int c) { return c == '_' || isalpha(c) || c == '%'; }
static int is_word(int c) {
  return c == '_' || c == '.' || c == '%' || c == '$' || isalnum(c);
}

static void skip_space(parser *p) {
  for (;;) {
    int c = peekc(p, 0);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
        c == '\v') {
      wl__lex_advc(p);
    } else if (c == '(' && peekc(p, 1) == '*') {
      /* herd-style comment (* ... *) */
      int l = p->line, co = p->col;
      wl__lex_advc(p);
      wl__lex_advc(p);
      while (!(peekc(p, 0) == '*' && peekc(p, 1) == ')')) {
        if (peekc(p, 0) < 0) {
          wl__lex_err(p, WL_ESYNTAX, l, co, "unterminated comment '(*'");
          return;
        }
        if (peekc(p, 0) == 0) {
          wl__lex_err(p, WL_ESYNTAX, p->line, p->col, "NUL byte in the text");
          return;
        }
        wl__lex_advc(p);
      }
      wl__lex_advc(p);
      wl__lex_advc(p);
    } else if (c == '/' && peekc(p, 1) == '/') {
      /* a NUL here would end up inside a kept condition text */
      while (peekc(p, 0) > 0 && peekc(p, 0) != '\n')
        wl__lex_advc(p);
    } else {
      return;
    }
  }
}

void wl__lex_next(parser *p) {
  tok *t = &p->t;
  int c;
  skip_space(p);
  t->s = p->src + p->pos;
  t->line = p->line;
  t->col = p->col;
  t->n = 0;
  c = peekc(p, 0);
  if (c < 0 || p->err) {
    t->kind = T_EOF;
    return;
  }
  if (c == 0) {
    wl__lex_err(p, WL_ESYNTAX, p->line, p->col, "NUL byte in the text");
    t->kind = T_EOF;
    return;
  }
  if (isdigit(c) || (c == '-' && isdigit(peekc(p, 1)))) {
    int neg = 0, base = 10, any = 0;
    uint64_t v = 0;
    if (c == '-') {
      neg = 1;
      wl__lex_advc(p);
    }
    if (peekc(p, 0) == '0' && (peekc(p, 1) == 'x' || peekc(p, 1) == 'X')) {
      base = 16;
      wl__lex_advc(p);
      wl__lex_advc(p);
    }
    for (;;) {
      int d = peekc(p, 0), dv;
      if (d >= '0' && d <= '9')
        dv = d - '0';
      else if (base == 16 && isxdigit(d))
        dv = tolower(d) - 'a' + 10;
      else
        break;
      if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base) {
        wl__lex_err(p, WL_ESYNTAX, t->line, t->col, "number too large");
        t->kind = T_EOF;
        return;
      }
      v = v * (uint64_t)base + (uint64_t)dv;
      any = 1;
      wl__lex_advc(p);
    }
    if (!any || is_word_start(peekc(p, 0))) {
      wl__lex_err(p, WL_ESYNTAX, t->line, t->col, "malformed number");
      t->kind = T_EOF;
      return;
    }
    if ((!neg && v > (uint64_t)INT64_MAX) ||
        (neg && v > (uint64_t)INT64_MAX + 1)) {
      wl__lex_err(p, WL_ESYNTAX, t->line, t->col, "number out of 64-bit range");
      t->kind = T_EOF;
      return;
    }
    t->kind = T_NUM;
    t->num = neg ? (int64_t)(0 - v) : (int64_t)v;
    t->n = (size_t)(p->src + p->pos - t->s);
    return;
  }
  if (is_word_start(c)) {
    while (is_word(peekc(p, 0)))
      wl__lex_advc(p);
    t->kind = T_WORD;
    t->n = (size_t)(p->src + p->pos - t->s);
    return;
  }
  /* two-character punctuation first */
  {
    static const char *two[] = {"==", "!=", "/\\", "\\/", "&&",
                                "||", "<=", ">=",  NULL};
    int i;
    for (i = 0; two[i] != NULL; i++) {
      if (c == two[i][0] && peekc(p, 1) == two[i][1]) {
        wl__lex_advc(p);
        wl__lex_advc(p);
        t->kind = T_PUNCT;
        t->n = 2;
        return;
      }
    }
  }
  if (strchr("{};|,:()[]=~@&<>!*+", c) != NULL) {
    wl__lex_advc(p);
    t->kind = T_PUNCT;
    t->n = 1;
    return;
  }
  wl__lex_err(p, WL_ESYNTAX, p->line, p->col, "unexpected character '%c'",
              isprint(c) ? c : '?');
  t->kind = T_EOF;
}

int wl__lex_is_p(const parser *p, const char *s) {
  return p->t.kind == T_PUNCT && p->t.n == strlen(s) &&
         memcmp(p->t.s, s, p->t.n) == 0;
}

int wl__lex_is_w(const parser *p, const char *s) {
  return p->t.kind == T_WORD && p->t.n == strlen(s) &&
         memcmp(p->t.s, s, p->t.n) == 0;
}

int wl__lex_accept_p(parser *p, const char *s) {
  if (wl__lex_is_p(p, s)) {
    wl__lex_next(p);
    return 1;
  }
  return 0;
}

int wl__lex_expect_p(parser *p, const char *s) {
  char what[16];
  if (wl__lex_accept_p(p, s))
    return 0;
  snprintf(what, sizeof what, "'%s'", s);
  return wl__lex_expected(p, what);
}

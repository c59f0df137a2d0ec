/* lex.c -- the tokens of the cat language.
 *
 * Names follow herd's lexer: a letter or '_' then letters, digits, '_',
 * '.' and '-' (po-loc, sync_fence, axiom-Coherence); '_' alone is the
 * universe.  Comments are (* ... *), which nest, and // to the end of
 * the line (Dat3M's files use both).  The only number is 0, the empty
 * relation.  Characters that start herd constructs this reader does not
 * support (tags 'x, explicit sets {...}, ++, ->) are refused here, at
 * their place, rather than misread. */
#include <string.h>

#include "catint.h"

void wl__cat_lex_init(cat_lex *lx, wl_ctx *ctx, const char *file,
                      const char *text, size_t len) {
  lx->ctx = ctx;
  lx->file = file;
  lx->p = text;
  lx->end = text + len;
  lx->bol = text;
  lx->line = 1;
}

static int col_of(const cat_lex *lx, const char *at) {
  return (int)(at - lx->bol) + 1;
}

static int lex_err(const cat_lex *lx, const char *at, const char *msg) {
  return wl__err(lx->ctx, WL_ESYNTAX, "%s:%d:%d: %s", lx->file, lx->line,
                 col_of(lx, at), msg);
}

static void newline(cat_lex *lx, const char *nl) {
  lx->line++;
  lx->bol = nl + 1;
}

/* Skips blanks and comments; WL_ESYNTAX for an unterminated comment
 * (reported where it opened). */
static int skip_space(cat_lex *lx) {
  for (;;) {
    const char *p = lx->p;
    if (p == lx->end)
      return 0;
    if (*p == '\n') {
      newline(lx, p);
      lx->p++;
    } else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' ||
               *p == '\v') {
      lx->p++;
    } else if (*p == '/' && p + 1 < lx->end && p[1] == '/') {
      while (lx->p < lx->end && *lx->p != '\n')
        lx->p++;
    } else if (*p == '(' && p + 1 < lx->end && p[1] == '*') {
      int depth = 1, line = lx->line, col = col_of(lx, p);
      lx->p += 2;
      while (depth > 0) {
        if (lx->p >= lx->end)
          return wl__err(lx->ctx, WL_ESYNTAX,
                         "%s:%d:%d: unterminated comment", lx->file, line,
                         col);
        if (*lx->p == '(' && lx->p + 1 < lx->end && lx->p[1] == '*') {
          depth++;
          lx->p += 2;
        } else if (*lx->p == '*' && lx->p + 1 < lx->end &&
                   lx->p[1] == ')') {
          depth--;
          lx->p += 2;
        } else {
          if (*lx->p == '\n')
            newline(lx, lx->p);
          lx->p++;
        }
      }
    } else {
      return 0;
    }
  }
}

static int is_name_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(int c) {
  return is_name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

/* The keywords.  The second group is herd's extended language (bell
 * files, procedures, pattern matching), which is refused. */
static const struct {
  const char *word;
  int kind;
} keywords[] = {
    {"let", CT_LET},
    {"rec", CT_REC},
    {"and", CT_AND},
    {"as", CT_AS},
    {"acyclic", CT_ACYCLIC},
    {"irreflexive", CT_IRREFLEXIVE},
    {"empty", CT_EMPTY},
    {"flag", CT_FLAG},
    {"show", CT_SHOW},
    {"unshow", CT_UNSHOW},
    {"include", CT_INCLUDE},
    {"in", CT_UNSUPPORTED},
    {"with", CT_UNSUPPORTED},
    {"from", CT_UNSUPPORTED},
    {"match", CT_UNSUPPORTED},
    {"enum", CT_UNSUPPORTED},
    {"instructions", CT_UNSUPPORTED},
    {"default", CT_UNSUPPORTED},
    {"events", CT_UNSUPPORTED},
    {"procedure", CT_UNSUPPORTED},
    {"call", CT_UNSUPPORTED},
    {"forall", CT_UNSUPPORTED},
    {"do", CT_UNSUPPORTED},
    {"end", CT_UNSUPPORTED},
    {"begin", CT_UNSUPPORTED},
    {"fun", CT_UNSUPPORTED},
    {"try", CT_UNSUPPORTED},
    {"if", CT_UNSUPPORTED},
    {"then", CT_UNSUPPORTED},
    {"else", CT_UNSUPPORTED},
    {"requires", CT_UNSUPPORTED},
    {"debug", CT_UNSUPPORTED},
};

static int keyword(const char *s, size_t n) {
  size_t i;
  for (i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
    if (strlen(keywords[i].word) == n &&
        memcmp(keywords[i].word, s, n) == 0)
      return keywords[i].kind;
  return CT_IDENT;
}

static int single(int c) {
  switch (c) {
  case '(':
    return CT_LPAR;
  case ')':
    return CT_RPAR;
  case '[':
    return CT_LBRAC;
  case ']':
    return CT_RBRAC;
  case '|':
    return CT_BAR;
  case '&':
    return CT_AMP;
  case ';':
    return CT_SEMI;
  case '\\':
    return CT_BSLASH;
  case '*':
    return CT_STAR;
  case '+':
    return CT_PLUS;
  case '?':
    return CT_QUEST;
  case '~':
    return CT_TILDE;
  case '=':
    return CT_EQ;
  case ',':
    return CT_COMMA;
  default:
    return -1;
  }
}

int wl__cat_lex_next(cat_lex *lx, cat_tok *t) {
  const char *p;
  int r = skip_space(lx), k;
  if (r != 0)
    return r;
  /* wl_ctx_set_stop: a read is stopped between tokens (every 4096) */
  if ((++lx->ntok & 4095) == 0 && wl__ctx_stop(lx->ctx))
    return wl__err(lx->ctx, WL_ESTOPPED,
                   "%s:%d:%d: reading the model stopped", lx->file,
                   lx->line, col_of(lx, lx->p));
  p = lx->p;
  t->s = p;
  t->len = 0;
  t->line = lx->line;
  t->col = col_of(lx, p);
  if (p == lx->end) {
    t->kind = CT_EOF;
    return 0;
  }
  if (is_name_start((unsigned char)*p)) {
    const char *q = p + 1;
    while (q < lx->end && is_name_char((unsigned char)*q))
      q++;
    t->len = (size_t)(q - p);
    lx->p = q;
    t->kind = t->len == 1 && *p == '_' ? CT_UNDER : keyword(p, t->len);
    return 0;
  }
  if (*p == '"') {
    const char *q = p + 1;
    while (q < lx->end && *q != '"' && *q != '\n')
      q++;
    if (q == lx->end || *q != '"')
      return lex_err(lx, p, "unterminated string");
    t->kind = CT_STRING;
    t->s = p + 1;
    t->len = (size_t)(q - p - 1);
    lx->p = q + 1;
    return 0;
  }
  if (*p >= '0' && *p <= '9') {
    const char *q = p;
    while (q < lx->end && *q >= '0' && *q <= '9')
      q++;
    if (q - p != 1 || *p != '0')
      return lex_err(lx, p, "numbers other than 0 are not supported");
    t->kind = CT_ZERO;
    t->len = 1;
    lx->p = q;
    return 0;
  }
  if (*p == '^') {
    if (lx->end - p >= 3 && p[1] == '-' && p[2] == '1') {
      t->kind = CT_INV;
      t->len = 3;
      lx->p = p + 3;
      return 0;
    }
    return lex_err(lx, p, "expected ^-1");
  }
  if (*p == '\'')
    return lex_err(lx, p, "tags ('name) are not supported");
  if (*p == '{')
    return lex_err(lx, p, "explicit sets ({...}) are not supported");
  if (*p == '+' && p + 1 < lx->end && p[1] == '+')
    return lex_err(lx, p, "'++' is not supported");
  if (*p == '-' && p + 1 < lx->end && p[1] == '>')
    return lex_err(lx, p, "'->' (functions, match) is not supported");
  k = single((unsigned char)*p);
  if (k < 0) {
    if ((unsigned char)*p >= 0x21 && (unsigned char)*p < 0x7f)
      return wl__err(lx->ctx, WL_ESYNTAX, "%s:%d:%d: unexpected '%c'",
                     lx->file, lx->line, col_of(lx, p), *p);
    return wl__err(lx->ctx, WL_ESYNTAX,
                   "%s:%d:%d: unexpected byte 0x%02x", lx->file, lx->line,
                   col_of(lx, p), (unsigned)(unsigned char)*p);
  }
  t->kind = k;
  t->len = 1;
  lx->p = p + 1;
  return 0;
}

/* reader.h -- what the parts of the .litmus reader and the builder share:
 * the lexer (lex.c), names (names.c), instruction text (insn.c), the
 * condition (cond.c), the reader of whole tests (litmus.c) and the
 * builder (build.c).  Not installed. */
#ifndef WL_READER_H
#define WL_READER_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"

enum { T_EOF, T_WORD, T_NUM, T_PUNCT };

typedef struct tok {
  int kind;
  const char *s; /* start in source */
  size_t n;
  int64_t num;
  int line, col;
} tok;

typedef struct parser {
  wl_ctx *ctx;
  const char *file;
  const char *src;
  size_t len, pos;
  int line, col;
  tok t;   /* current token */
  int err; /* first error */
  int depth; /* nesting of the condition being parsed */
  wl_litmus *lt;
} parser;

/* An instruction's tokens: a cell of a thread row, or the string given
 * to wl_litmus_add_insn. */
typedef struct cell {
  tok toks[16];
  int n;
} cell;

/* lex.c */
/* Records the first error (later ones are dropped): WL_E* code and the
 * message "file:line:col: ..." in the context; returns p->err. */
int wl__lex_err(parser *p, int code, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* A token as an error message names it ("end of file", "'x'"). */
void wl__lex_describe(const tok *t, char *out, size_t n);
/* "expected WHAT, found TOKEN" at the current token. */
int wl__lex_expected(parser *p, const char *what);
/* Moves past one character of the source (counting lines). */
void wl__lex_advc(parser *p);
/* Reads the next token into p->t. */
void wl__lex_next(parser *p);
/* Whether the current token is the punctuation (the word) s. */
int wl__lex_is_p(const parser *p, const char *s);
int wl__lex_is_w(const parser *p, const char *s);
/* Skips the punctuation s if it is the current token (1), else 0. */
int wl__lex_accept_p(parser *p, const char *s);
/* Skips the punctuation s, or fails with "expected 's'". */
int wl__lex_expect_p(parser *p, const char *s);

/* names.c */
/* Declares name[0..n) an alias of target[0..tn) through proxy (see the
 * top of litmus.c).  Returns its number, or AL_* below. */
enum {
  AL_USED = -1,
  AL_TWICE = -2,
  AL_NOTARGET = -3,
  AL_FULL = -4,
  AL_NOMEM = -5
};
int wl__name_add_alias(wl_litmus *t, const char *name, size_t n, int proxy,
                       const char *target, size_t tn, int line);
/* A register name: r<digits> (Dat3M), or %r<digits> as PTX spells it. */
int wl__name_is_reg(const char *s, size_t n);
/* A location name: an identifier. */
int wl__name_is_loc(const char *s, size_t n);
/* The register (declared on first use) that token t names in th. */
int wl__name_reg(parser *p, wl_thread *th, const tok *t);
/* The alias named s[0..n), or -1. */
int wl__name_alias(const wl_litmus *t, const char *s, size_t n);
/* The physical location a name denotes (declaring a location on first
 * use); an alias's name gives the location it aliases, and its number
 * + 1 in *alias (when alias is not NULL; 0 for a location). */
int wl__name_loc_via(parser *p, const tok *t, int *alias);
int wl__name_loc(parser *p, const tok *t);
/* Notes the first PTX 7.5 construct, for wl__litmus_check_v60. */
void wl__name_mark_v75(parser *p, int line, int col, int alias);
/* The thread "P3" or "3" that t names, in *out. */
int wl__name_thread(parser *p, const tok *t, int *out);
/* "P1:r0" / "1:r0"; the current token is the thread. */
int wl__name_thread_reg(parser *p, int *thread, int *reg, int must_exist);

/* insn.c */
/* Parses one instruction (a cell's tokens) into *in for thread th.
 * Labels are returned with op OP_NOP and *label set. */
int wl__insn_parse(parser *p, wl_thread *th, const cell *c, wl_insn *in,
                   const tok **label, const tok **target);

/* cond.c */
/* Parses "locations [...]" and the condition from the current token to
 * the end of the text into the test (no condition at end of file). */
int wl__cond_parse(parser *p);

/* hash.c: sets t->hash from the test's text src[0..len), which starts
 * at the '{' of the initial state (the Hash= line of herd7's output). */
void wl__litmus_hash(wl_litmus *t, const char *src, size_t len);

/* build.c */
/* Appends *in to thread t's instructions. */
int wl__litmus_push_insn(parser *p, wl_thread *t, const wl_insn *in);

#endif

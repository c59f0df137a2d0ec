/* catint.h -- what the cat reader (lex.c, parse.c), its compiler
 * (compile.c) and the evaluator (eval.c) share.  Not installed.
 *
 * A model goes through three forms:
 *   text    -> tokens (lex.c), pulled one at a time by the parser;
 *   tokens  -> a cat_prog (parse.c): an index-linked syntax tree whose
 *              names are already resolved and whose types are checked,
 *              and the model's statements in order;
 *   cat_prog -> a wl_cat (compile.c): a flat list of operations over
 *              numbered set and relation registers, which eval.c runs
 *              once per candidate execution.
 * Only the wl_cat outlives wl__cat_parse. */
#ifndef WL_CATINT_H
#define WL_CATINT_H

#include <stddef.h>
#include <stdint.h>

#include "cat.h"

/* ---------------------------------------------------------------- */
/* Tokens (lex.c)                                                    */

enum {
  CT_EOF,
  CT_IDENT,
  CT_STRING, /* s/len: the text between the quotes */
  CT_ZERO,   /* 0, the empty relation */
  CT_UNDER,  /* _, the universe set */
  CT_LPAR,
  CT_RPAR,
  CT_LBRAC,
  CT_RBRAC,
  CT_BAR,
  CT_AMP,
  CT_SEMI,
  CT_BSLASH,
  CT_STAR,
  CT_PLUS,
  CT_QUEST,
  CT_INV, /* ^-1 */
  CT_TILDE,
  CT_EQ,
  CT_COMMA,
  /* Keywords. */
  CT_LET,
  CT_REC,
  CT_AND,
  CT_AS,
  CT_ACYCLIC,
  CT_IRREFLEXIVE,
  CT_EMPTY,
  CT_FLAG,
  CT_SHOW,
  CT_UNSHOW,
  CT_INCLUDE,
  /* Words of herd's extended language that this reader refuses. */
  CT_UNSUPPORTED
};

typedef struct cat_tok {
  int kind;
  const char *s; /* the token's text in the source */
  size_t len;
  int line, col; /* 1-based; col counts bytes */
} cat_tok;

typedef struct cat_lex {
  wl_ctx *ctx;
  const char *file; /* for messages */
  const char *p, *end;
  const char *bol; /* start of the current line */
  int line;
  unsigned ntok; /* tokens read: the context's stop is polled */
} cat_lex;

void wl__cat_lex_init(cat_lex *lx, wl_ctx *ctx, const char *file,
                      const char *text, size_t len);
/* Reads the next token into *t.  0, or WL_ESYNTAX with the message
 * "file:line:col: ..." (an unterminated comment or string, a character
 * that starts no token, a construct of herd's extended language that is
 * not supported, such as a tag 'x or an explicit set {...}). */
int wl__cat_lex_next(cat_lex *lx, cat_tok *t);

/* ---------------------------------------------------------------- */
/* Syntax tree (parse.c -> compile.c)                                */

/* Types: every expression is a set or a relation.  CAT_UNK only lives
 * while the types of a let rec group are being inferred. */
enum { CAT_UNK = 0, CAT_SET = 1, CAT_REL = 2 };

enum {
  N_VAR,    /* a: the variable */
  N_BSET,   /* a: the base set (WL_CAT_S_*) */
  N_BREL,   /* a: the base relation (WL_CAT_R_*) */
  N_ZERO,   /* 0: the empty set or relation (its type from context) */
  N_UNION,  /* a | b */
  N_INTER,  /* a & b */
  N_DIFF,   /* a \ b */
  N_SEQ,    /* a ; b */
  N_CART,   /* a * b, two sets */
  N_TOID,   /* [a] */
  N_INV,    /* a^-1 */
  N_PLUS,   /* a+ */
  N_STAR,   /* a* */
  N_OPT,    /* a? */
  N_COMPL,  /* ~a */
  N_DOMAIN, /* domain(a) */
  N_RANGE   /* range(a) */
};

typedef struct cat_node {
  uint8_t kind, ty;
  uint16_t depth; /* of the tree under it (bounded: parse.c) */
  int a, b;      /* children (node indices), or a variable / base id */
  int line, col; /* the operator's (or name's) place, for messages */
} cat_node;

typedef struct cat_var {
  size_t name, namelen; /* in cat_prog.names */
  int body;             /* node */
  int ty;
  int group; /* the let rec group (a statement index), or -1 */
  int visible; /* parse.c: names of a plain let group see the outer
                * scope until the whole group is read */
  int line, col; /* where it is bound */
  /* compile.c: */
  int live;   /* some check needs it */
  int marked; /* its body's names are marked live too */
  int vn;     /* its value number */
  int bodyvn; /* let rec: its body's value number */
} cat_var;

enum { CHK_ACYCLIC, CHK_IRREFLEXIVE, CHK_EMPTY };

enum { ST_LET, ST_REC, ST_CHECK };

typedef struct cat_stmt {
  int kind;
  int var0, nvar; /* ST_LET, ST_REC: the variables bound */
  int node;       /* ST_CHECK: the expression tested */
  int test;       /* CHK_* */
  int neg, flag;
  size_t name;  /* ST_CHECK: its name in cat_prog.cnames, NUL-ended */
} cat_stmt;

typedef struct cat_prog {
  wl_ctx *ctx;
  wl_vec nodes; /* cat_node */
  wl_vec vars;  /* cat_var */
  wl_vec stmts; /* cat_stmt */
  wl_buf names; /* variable names, not NUL-separated */
  wl_buf cnames; /* check names, each NUL-ended */
  char *title;   /* the top file's title */
  int nchecks, nflags;
  /* names.c: each name's latest and latest visible binding */
  struct cat_name *ntab;
  size_t ntab_cap, ntab_used;
  /* files.c: the texts of included files, and what the read has used of
   * its budget (WL_CAT_MAX_TEXT bytes, WL_CAT_MAX_INCLUDES includes) */
  wl_vec files;
  size_t text_total;
  int nincludes;
} cat_prog;

/* names.c.  wl__cat_name_bound enters variable v (just bound, its name
 * in names) as its name's latest binding, and as the visible one if v
 * is visible: 0 or WL_ENOMEM.  wl__cat_name_show makes v (entered
 * already) its name's visible binding.  The queries give a variable
 * index, or -1 when the name has none. */
int wl__cat_name_bound(cat_prog *p, int v);
void wl__cat_name_show(cat_prog *p, int v);
int wl__cat_name_visible(const cat_prog *p, const char *s, size_t n);
int wl__cat_name_latest(const cat_prog *p, const char *s, size_t n);
void wl__cat_names_free(cat_prog *p);

/* recgroup.c, for a let rec group whose names are vars first.. (the
 * statement index group).  wl__cat_rec_negative: 1 when a name of the
 * group is used in body in a negative place (under '~' or right of
 * '\'), with that N_VAR node in *use and the operator's node in *flip,
 * else 0.  wl__cat_rec_readers: the names whose bodies read each name:
 * those of name first+i are (*list)[(*start)[i] .. (*start)[i + 1]),
 * freed by wl__cat_rec_readers_free (n: the group's size); 0 or
 * WL_ENOMEM. */
int wl__cat_rec_negative(const cat_prog *p, int body, int group, int *use,
                         int *flip);
int wl__cat_rec_readers(cat_prog *p, int first, int group, int **start,
                        int **list, int *total);
void wl__cat_rec_readers_free(cat_prog *p, int n, int *start, int *list,
                              int total);

/* The budget of one model read: each file's text, and all the text
 * parsed (a file included twice counts twice), at most WL_CAT_MAX_TEXT
 * bytes; at most WL_CAT_MAX_INCLUDES include statements read in all. */
#define WL_CAT_MAX_TEXT (16 << 20)
#define WL_CAT_MAX_INCLUDES 1000

/* ---------------------------------------------------------------- */
/* The compiled model (compile.c -> eval.c)                          */

/* Registers: relations 0 .. WL_CAT_NRELS-1 and sets 0 .. WL_CAT_NSETS-1
 * are the candidate's base relations and sets (read only); the rest are
 * scratch, numbered on from there. */
enum {
  OP_R_ZERO,  /* d = 0 */
  OP_R_UNION, /* d = a | b */
  OP_R_INTER,
  OP_R_DIFF,
  OP_R_SEQ,   /* d = a ; b */
  OP_R_DOMF,  /* d = [sa] ; b (a is a set register) */
  OP_R_RNGF,  /* d = a ; [sb] (b is a set register) */
  OP_R_FILT,  /* d = [sa] ; b ; [sc] */
  OP_R_CART,  /* d = sa * sb */
  OP_R_TOID,  /* d = [sa] */
  OP_R_INV,
  OP_R_PLUS,
  OP_R_STAR,
  OP_R_OPT,
  OP_R_COMPL,
  OP_R_UPD,   /* d = a; note whether d changed (let rec) */
  OP_S_ZERO,
  OP_S_UNION,
  OP_S_INTER,
  OP_S_DIFF,
  OP_S_COMPL,
  OP_S_DOMAIN, /* d = domain(relation a) */
  OP_S_RANGE,
  OP_S_UPD,
  OP_LOOP,     /* if something changed since the last OP_LOOP: go to d */
  OP_CHK_ACYCLIC, /* a: relation; b: negated; c: flag; d: index */
  OP_CHK_IRREFL,
  OP_CHK_EMPTY_R,
  OP_CHK_EMPTY_S
};

typedef struct cat_op {
  int op;
  int d, a, b, c;
} cat_op;

/* What incremental evaluation (wl__cat_eval) needs to know of one
 * operation, found once per model (compile.c).  A let rec group is one
 * unit: the zeroing of its names and every operation from its loop's
 * start to its OP_LOOP share one dependency and one user mask, since
 * the loop is re-run from its start or not at all. */
typedef struct cat_opinfo {
  uint64_t rels; /* base relations (bit WL_CAT_R_*) its value depends on */
  uint64_t sets; /* base sets (bit WL_CAT_S_*) */
  uint64_t users; /* the non-flag checks k < 64 (bit k) that read it */
} cat_opinfo;

/* A model: a wl_cat is a wl_model (cat.h). */
struct wl_model {
  wl_ctx *ctx;
  char *title;
  cat_op *ops;
  size_t nops, ops_cap;
  cat_opinfo *info; /* nops entries (NULL when nops is 0) */
  /* Some register has two writers outside one let rec unit, so a value
   * kept from an earlier candidate could be overwritten: wl__cat_eval
   * then recomputes everything (compile.c never emits such code). */
  int no_incr;
  int nrel, nset; /* registers in all, base ones included */
  int nchecks, nflags;
  /* Check names then flag names, each NUL-ended, and where each starts
   * (nchecks + nflags offsets). */
  char *names;
  size_t names_size;
  size_t *name_off;
  uint64_t uses_rel, uses_set;
  /* Explanations (explain.c): non-flag checks (bit k) whose failure
   * does not make a candidate inconsistent, and the observer of the
   * consistent candidates.  0 and NULL in every model read from text;
   * only a copy made by wl__cat_copy is given others. */
  uint64_t waived;
  wl__cat_observe_fn observe;
  void *observe_ud;
};

/* eval.c, for explain.c: register reg's value after the last
 * evaluation with s (relations: s's candidate size rows). */
const uint64_t *wl__cat_scratch_rel(const wl__cat_scratch *s, int reg);
uint64_t wl__cat_scratch_set(const wl__cat_scratch *s, int reg);

/* The base names, in the order of WL_CAT_SETS / WL_CAT_RELS (eval.c). */
extern const char *const wl__cat_set_names[WL_CAT_NSETS];
extern const char *const wl__cat_rel_names[WL_CAT_NRELS];

/* parse.c: reads text (file names it; NULL: "<model>") into p, which
 * the caller has zeroed and frees with wl__cat_prog_free, also after a
 * failure.  0, WL_ESYNTAX or WL_ENOMEM. */
int wl__cat_read(cat_prog *p, wl_ctx *ctx, const char *file,
                 const char *text, size_t len);
void wl__cat_prog_free(cat_prog *p);
/* files.c: reads the whole file at path into out (initialised by the
 * caller, freed by the caller also after a failure): a regular file of
 * at most WL_CAT_MAX_TEXT bytes.  0, or WL_EIO with the reason in why
 * ("No such file or directory", "is a directory, ...", "not a regular
 * file (a FIFO)", "too large ...") or WL_ENOMEM; no message is set. */
int wl__cat_slurp(const char *path, wl_buf *out, char *why, size_t n);
/* The text of the included file at path: read once per model read and
 * kept in p until wl__cat_files_free (*text stays valid until then).
 * Errors as wl__cat_slurp. */
int wl__cat_include_text(cat_prog *p, const char *path, const char **text,
                         size_t *len, char *why, size_t n);
void wl__cat_files_free(cat_prog *p);

/* compile.c: turns p into *out (a new model).  0 or WL_ENOMEM. */
int wl__cat_compile(cat_prog *p, wl_cat **out);

#endif

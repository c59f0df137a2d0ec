/* fuzz_cuda.c -- libFuzzer harness for the .litmus reader and, on what
 * parses, the CUDA emitter (wl_cuda_emit), with checks on the text it
 * writes.
 *
 * Input: a .litmus test; a first line "#file:NAME" gives the file name
 * the test is read under (any bytes but NUL and newline).  Each test
 * that parses is emitted three times: A as read; B with its name and
 * file name replaced by plain words; C with them replaced by bytes of
 * the input (quotes, newlines, bytes that are not UTF-8: what a Lua
 * test's name may hold).  Checked (abort() on failure):
 *   - the text lexes as C++: every comment and string literal closes on
 *     the line or in the text where it should, a literal holds printable
 *     ASCII and valid escapes only (no raw control byte, no "??" that
 *     could form a trigraph), a comment holds printable ASCII;
 *   - names stay in their place: with comments dropped and the test_name
 *     and test_file literals emptied, A, B and C are the same text, so
 *     no name leaks into code;
 *   - every value the program holds fits its 32-bit words: the numbers
 *     of mov.b32 immediates, loc_init/sh_init and the condition (read
 *     in B, whose names hold no such text);
 *   - the emitter fails or succeeds the same way for A, B and C, and a
 *     failure hands out no text.
 * Built and run by tests/fuzz/run.sh (FUZZ_TARGET=cuda); replayed on
 * the .cuda files of tests/fuzz/regress by tests/cli/fuzz_regress.sh. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/program/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct text {
  char *p;
  size_t n, cap;
} text;

static int collect(void *ud, const char *s, size_t n) {
  text *t = ud;
  if (n > t->cap - t->n) {
    size_t cap = t->cap ? t->cap * 2 : 65536;
    char *q;
    while (cap - t->n < n)
      cap *= 2;
    if ((q = realloc(t->p, cap)) == NULL)
      abort();
    t->p = q;
    t->cap = cap;
  }
  memcpy(t->p + t->n, s, n);
  t->n += n;
  return 0;
}

static void put(text *t, const char *s, size_t n) { collect(t, s, n); }

static int is_print(unsigned char c) { return c >= 32 && c <= 126; }

/* Lexes s as C++ (comments, string and character literals, code) and
 * writes the code to *skel: comments dropped (a space instead), the
 * contents of the test_name and test_file literals dropped.  abort()
 * on a malformed or unsafe comment or literal. */
static void lex(const char *s, size_t n, text *skel) {
  size_t i = 0;
  skel->n = 0;
  while (i < n) {
    char c = s[i];
    if (c == '\0')
      abort(); /* no NUL in the program */
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      size_t e = i + 2;
      while (e + 1 < n && !(s[e] == '*' && s[e + 1] == '/')) {
        if (s[e] != '\n' && !is_print((unsigned char)s[e]))
          abort(); /* a raw byte in a comment */
        e++;
      }
      if (e + 1 >= n)
        abort(); /* a comment that never closes */
      put(skel, " ", 1);
      i = e + 2;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n')
        i++;
    } else if (c == '"' || c == '\'') {
      size_t e = i + 1, k;
      int named = 0;
      static const char *const names[] = {"test_name = ", "test_file = "};
      for (k = 0; k < 2; k++) {
        size_t l = strlen(names[k]);
        if (i >= l && memcmp(s + i - l, names[k], l) == 0)
          named = 1;
      }
      while (e < n && s[e] != c) {
        unsigned char d = (unsigned char)s[e];
        if (d == '\n' || !is_print(d))
          abort(); /* a raw newline or byte in a literal */
        if (d == '?' && e + 1 < n && s[e + 1] == '?')
          abort(); /* a trigraph could form */
        if (d == '\\') {
          unsigned char x;
          if (e + 1 >= n)
            abort();
          x = (unsigned char)s[e + 1];
          if (x >= '0' && x <= '7') {
            e += 2;
            for (k = 0; k < 2 && e < n && s[e] >= '0' && s[e] <= '7'; k++)
              e++;
            continue;
          }
          if (!strchr("\"\\?'ntrabfv", x) || x == '\0')
            abort(); /* an escape C++ does not have */
          e += 2;
          continue;
        }
        e++;
      }
      if (e >= n)
        abort(); /* a literal that never closes */
      if (named)
        put(skel, "\"\"", 2);
      else
        put(skel, s + i, e + 1 - i);
      i = e + 1;
    } else {
      put(skel, s + i, 1);
      i++;
    }
  }
}

static int fits32(long long v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* The number at s (after spaces and one '-'), or abort() when there is
 * none or it does not fit 32 bits. */
static const char *check_num(const char *s) {
  char *end;
  long long v;
  while (*s == ' ')
    s++;
  v = strtoll(s, &end, 10);
  if (end == s || !fits32(v))
    abort();
  return end;
}

/* The values the program holds: mov.b32 immediates, the initial values
 * of loc_init and sh_init, the condition's constants. */
static void check_values(const char *s) {
  static const char *const inits[] = {
      "__constant__ int loc_init[NLOCS + 1] = {",
      "__constant__ int sh_init[NSHARED + 1] = {"};
  const char *p, *e;
  size_t k;
  for (p = s; (p = strstr(p, "mov.b32 ")) != NULL; p++) {
    const char *c = strchr(p, ',');
    const char *nl = strchr(p, '\n');
    if (c == NULL || (nl != NULL && c > nl))
      abort();
    if (c[2] != 'w' && c[2] != '%') /* a register, else a number */
      check_num(c + 1);
  }
  for (k = 0; k < 2; k++) {
    const char *q = strstr(s, inits[k]);
    if (q == NULL)
      abort();
    for (q += strlen(inits[k]); *q != '}';) {
      q = check_num(q);
      if (*q == ',')
        q++;
      else if (*q != '}')
        abort();
    }
  }
  /* the condition's constants are the numbers written with LL */
  p = strstr(s, "static int cond_holds(const int *v) {");
  if (p == NULL)
    abort();
  for (e = strstr(p, ";\n}"); p < e; p++)
    if ((*p == ' ' || *p == '(') &&
        (p[1] == '-' || (p[1] >= '0' && p[1] <= '9'))) {
      char *end;
      (void)strtoll(p + 1, &end, 10);
      if (end[0] == 'L' && end[1] == 'L')
        check_num(p + 1);
      p = end - 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static wl_ctx *ctx; /* harness only: one context for the run */
  static text out[3], skel[3];
  wl_litmus *t = NULL;
  char file[64] = "fuzz.litmus", cname[48], cfile[48];
  const char *src = (const char *)data;
  char *name0, *file0;
  size_t len = size, k, j;
  int rc[3], v;
  if (ctx == NULL && wl_ctx_new(NULL, &ctx) != 0)
    abort();
  if (len >= 6 && memcmp(src, "#file:", 6) == 0) {
    for (k = 6, j = 0; k < len && src[k] != '\n'; k++)
      if (src[k] != '\0' && j + 1 < sizeof file)
        file[j++] = src[k];
    file[j] = '\0';
    if (k < len)
      k++;
    src += k;
    len -= k;
  }
  if (wl_litmus_parse(ctx, file, src, len, &t) != 0) {
    if (t != NULL)
      abort(); /* a failed parse must not hand out an object */
    return 0;
  }
  /* C's names: bytes of the input, any but NUL */
  for (k = 0, j = 0; k < size && j + 1 < sizeof cname; k++)
    if (data[k] != '\0')
      cname[j++] = (char)data[k];
  cname[j] = '\0';
  for (j = 0; k < size && j + 1 < sizeof cfile; k++)
    if (data[k] != '\0')
      cfile[j++] = (char)data[k];
  cfile[j] = '\0';
  name0 = t->name;
  file0 = t->filename;
  for (v = 0; v < 3; v++) {
    out[v].n = 0;
    if (v == 1) {
      t->name = (char *)"plain";
      t->filename = (char *)"plain.litmus";
    } else if (v == 2) {
      t->name = cname[0] ? cname : (char *)"x";
      t->filename = cfile;
    }
    rc[v] = wl_cuda_emit(ctx, t, NULL, collect, &out[v]);
    if (rc[v] != 0 && out[v].n != 0)
      abort(); /* a refusal writes nothing */
    if (rc[v] == 0) {
      collect(&out[v], "", 1); /* NUL-terminated for strstr */
      out[v].n--;
      lex(out[v].p, out[v].n, &skel[v]);
      if (v == 1) /* plain names: no "mov.b32 " of a name is searched */
        check_values(out[v].p);
    }
  }
  t->name = name0;
  t->filename = file0;
  /* the names change nothing but comments and their own literals */
  for (v = 1; v < 3; v++) {
    if ((rc[v] == 0) != (rc[0] == 0))
      abort();
    if (rc[0] == 0 && (skel[v].n != skel[0].n ||
                       memcmp(skel[v].p, skel[0].p, skel[0].n) != 0))
      abort();
  }
  wl_litmus_free(t);
  return 0;
}

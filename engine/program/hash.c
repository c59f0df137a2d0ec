/* hash.c -- a test's hash, for the Hash= line of herd7's output (which
 * msort7 and mcompare7 use to tell whether two logs ran the same test).
 *
 * herd hashes its own normalised rendering of the test (initial state,
 * code, condition) with MD5.  Ours is the MD5 of the test's text from
 * the '{' that opens the initial state to the end, normalised: comments
 * ('(* ... *)' and '// ...') dropped, every run of white space removed
 * except a single space between two characters of a word (letters,
 * digits, '_', '.', '%', '$').  So the name line and the quoted text
 * before '{' do not count, and two files that differ only in layout or
 * comments get the same hash; any other change (an instruction, a value,
 * a thread's placement, the condition) gives another.  The hash is of
 * the text alone: stable across runs, machines and warplab versions. */
#include <ctype.h>

#include "reader.h"

static int is_word(int c) {
  return c == '_' || c == '.' || c == '%' || c == '$' || isalnum(c);
}

void wl__litmus_hash(wl_litmus *t, const char *src, size_t len) {
  wl_md5 m;
  size_t i = 0;
  int space = 0, prev = 0;
  wl__md5_init(&m);
  while (i < len) {
    unsigned char c = (unsigned char)src[i];
    if (c == '(' && i + 1 < len && src[i + 1] == '*') {
      for (i += 2; i + 1 < len && !(src[i] == '*' && src[i + 1] == ')'); i++)
        ;
      i += 2;
      space = 1;
    } else if (c == '/' && i + 1 < len && src[i + 1] == '/') {
      while (i < len && src[i] != '\n')
        i++;
      space = 1;
    } else if (isspace(c)) {
      i++;
      space = 1;
    } else {
      if (space && is_word(prev) && is_word(c))
        wl__md5_update(&m, " ", 1);
      wl__md5_update(&m, &c, 1);
      prev = c;
      space = 0;
      i++;
    }
  }
  wl__md5_hex(&m, t->hash);
}

const char *wl_litmus_hash(const wl_litmus *t) {
  return t != NULL && t->hash[0] != '\0' ? t->hash : NULL;
}

/* replay.c -- runs a libFuzzer harness (tests/fuzz/fuzz_*.c) on the
 * files named on the command line, without libFuzzer: so that the
 * reproducers kept in tests/fuzz/regress/ run in `make test` (and under
 * ASan/UBSan in `make check`) with the ordinary compiler.
 *
 *   replay_TARGET FILE...   exit 0 when every input ran */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  int i;
  for (i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, got;
    if (f == NULL) {
      perror(argv[i]);
      return 1;
    }
    do {
      if (n == cap) {
        uint8_t *p = realloc(buf, cap = cap ? cap * 2 : 4096);
        if (p == NULL) {
          free(buf);
          fclose(f);
          return 1;
        }
        buf = p;
      }
      got = fread(buf + n, 1, cap - n, f);
      n += got;
    } while (got > 0);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    printf("replayed %s (%zu bytes)\n", argv[i], n);
  }
  return 0;
}

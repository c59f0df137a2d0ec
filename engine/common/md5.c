/* md5.c -- MD5 (RFC 1321), for the Hash= line of herd7's output: herd
 * names a test's text by its MD5, and msort7/mcompare7 compare these
 * names.  Not for security.  A streaming form: init, update, final. */
#include <string.h>

#include "internal.h"

/* T[i] = floor(|sin(i + 1)| * 2^32) (RFC 1321, 3.4) */
static const uint32_t T[64] = {
    0xd76aa478u, 0xe8c7b756u, 0x242070dbu, 0xc1bdceeeu,
    0xf57c0fafu, 0x4787c62au, 0xa8304613u, 0xfd469501u,
    0x698098d8u, 0x8b44f7afu, 0xffff5bb1u, 0x895cd7beu,
    0x6b901122u, 0xfd987193u, 0xa679438eu, 0x49b40821u,
    0xf61e2562u, 0xc040b340u, 0x265e5a51u, 0xe9b6c7aau,
    0xd62f105du, 0x02441453u, 0xd8a1e681u, 0xe7d3fbc8u,
    0x21e1cde6u, 0xc33707d6u, 0xf4d50d87u, 0x455a14edu,
    0xa9e3e905u, 0xfcefa3f8u, 0x676f02d9u, 0x8d2a4c8au,
    0xfffa3942u, 0x8771f681u, 0x6d9d6122u, 0xfde5380cu,
    0xa4beea44u, 0x4bdecfa9u, 0xf6bb4b60u, 0xbebfbc70u,
    0x289b7ec6u, 0xeaa127fau, 0xd4ef3085u, 0x04881d05u,
    0xd9d4d039u, 0xe6db99e5u, 0x1fa27cf8u, 0xc4ac5665u,
    0xf4292244u, 0x432aff97u, 0xab9423a7u, 0xfc93a039u,
    0x655b59c3u, 0x8f0ccc92u, 0xffeff47du, 0x85845dd1u,
    0x6fa87e4fu, 0xfe2ce6e0u, 0xa3014314u, 0x4e0811a1u,
    0xf7537e82u, 0xbd3af235u, 0x2ad7d2bbu, 0xeb86d391u,
};

/* the per-round shifts */
static const unsigned char S[4][4] = {
    {7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

static uint32_t rotl(uint32_t x, unsigned n) {
  return (x << n) | (x >> (32 - n));
}

static void block(wl_md5 *m) {
  uint32_t X[16], a = m->h[0], b = m->h[1], c = m->h[2], d = m->h[3];
  int i;
  for (i = 0; i < 16; i++)
    X[i] = (uint32_t)m->buf[4 * i] | (uint32_t)m->buf[4 * i + 1] << 8 |
           (uint32_t)m->buf[4 * i + 2] << 16 |
           (uint32_t)m->buf[4 * i + 3] << 24;
  for (i = 0; i < 64; i++) {
    uint32_t f, tmp;
    int g, r = i / 16;
    if (r == 0) {
      f = (b & c) | (~b & d);
      g = i;
    } else if (r == 1) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) % 16;
    } else if (r == 2) {
      f = b ^ c ^ d;
      g = (3 * i + 5) % 16;
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) % 16;
    }
    tmp = d;
    d = c;
    c = b;
    b = b + rotl(a + f + T[i] + X[g], S[r][i % 4]);
    a = tmp;
  }
  m->h[0] += a;
  m->h[1] += b;
  m->h[2] += c;
  m->h[3] += d;
}

void wl__md5_init(wl_md5 *m) {
  m->h[0] = 0x67452301u;
  m->h[1] = 0xefcdab89u;
  m->h[2] = 0x98badcfeu;
  m->h[3] = 0x10325476u;
  m->n = 0;
}

void wl__md5_update(wl_md5 *m, const void *p, size_t n) {
  const unsigned char *s = p;
  size_t i;
  for (i = 0; i < n; i++) {
    m->buf[m->n++ % 64] = s[i];
    if (m->n % 64 == 0)
      block(m);
  }
}

void wl__md5_hex(wl_md5 *m, char out[33]) {
  static const char hex[] = "0123456789abcdef";
  uint64_t bits = m->n * 8;
  unsigned char pad = 0x80, len[8];
  int i;
  wl__md5_update(m, &pad, 1);
  pad = 0;
  while (m->n % 64 != 56)
    wl__md5_update(m, &pad, 1);
  for (i = 0; i < 8; i++)
    len[i] = (unsigned char)(bits >> (8 * i));
  wl__md5_update(m, len, 8);
  for (i = 0; i < 16; i++) {
    unsigned char byte = (unsigned char)(m->h[i / 4] >> (8 * (i % 4)));
    out[2 * i] = hex[byte >> 4];
    out[2 * i + 1] = hex[byte & 15];
  }
  out[32] = '\0';
}

/* touchbits.h -- the bytes of one allocation a split launch's part
 * touched: one bit a byte, kept in chunks made at the first touch
 * (touchbits.c says why).  Engine-internal. */
#ifndef WL_TOUCHBITS_H
#define WL_TOUCHBITS_H

#include <stdint.h>

#include "../common/internal.h"

/* A chunk holds the bits of WL_TB_SPAN bytes in WL_TB_BYTES bytes. */
#define WL_TB_BYTES 4096u
#define WL_TB_SPAN ((uint64_t)WL_TB_BYTES * 8u)

/* The bits of an allocation of size bytes: an array of its chunks'
 * pointers, NULL where none of a chunk's bytes was ever marked. */
uint8_t **wl__tb_new(wl_ctx *ctx, uint64_t size);
void wl__tb_free(wl_ctx *ctx, uint8_t **tb, uint64_t size);

/* Byte b's bit. */
int wl__tb_get(uint8_t *const *tb, uint64_t b);

/* Bytes off..off+width-1 on: 0, or WL_ENOMEM (a chunk not made). */
int wl__tb_mark(wl_ctx *ctx, uint8_t **tb, uint64_t off, int width);

/* How many of bytes lo..hi are on. */
uint64_t wl__tb_count(uint8_t *const *tb, uint64_t lo, uint64_t hi);

/* The first byte from b to hi that is on, or UINT64_MAX. */
uint64_t wl__tb_next(uint8_t *const *tb, uint64_t b, uint64_t hi);

/* The first byte from lo to hi on in both x and y, or -1 (also when
 * either is NULL). */
int64_t wl__tb_overlap(uint8_t *const *x, uint8_t *const *y, uint64_t lo,
                       uint64_t hi);

/* dst gets src's bits of the chunks that hold bytes lo..hi (src has
 * none outside them): 0, or WL_ENOMEM. */
int wl__tb_or(wl_ctx *ctx, uint8_t **dst, uint8_t *const *src,
              uint64_t lo, uint64_t hi);

#endif

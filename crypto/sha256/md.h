/* Merkle-Damgard buffering and padding over an assembly compression function: the
 * incremental update and the final block of SHA-224/256, SHA-384/512 (FIPS 180-4 §5.1,
 * §6) and SM3 (GB/T 32905-2016 §5.2).  Header-only (static), included by each hash's
 * C glue (crypto/sha256/hash.c, crypto/sha512/hash.c, crypto/sm3/hash.c), so every
 * implementation is built on its own kernel.
 *
 * blocks(state, in, n) compresses n whole blocks of in (any alignment).  The partial block
 * is kept in buf; bytes counts the whole message.  Whole blocks of the caller's input go
 * to the kernel straight from the caller's buffer, so a long message costs one call.
 * Constant time: every branch depends on lengths only. */
#ifndef RVLAB_MD_H
#define RVLAB_MD_H
#include <stddef.h>
#include <stdint.h>

typedef void md_blocks_fn(void *state, const uint8_t *in, size_t nblocks);

/* Copying and clearing without the C library: picolibc's memcpy/memset are byte loops
 * (about 6 cycles a byte), which would cost a short message more than its compression.
 * Words where the pointers allow; the attribute keeps gcc from turning the loops back
 * into library calls. */
typedef uint32_t __attribute__((may_alias, aligned(4))) md_word;
#define MD_NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

static MD_NO_LIBCALL void md_copy(uint8_t *d, const uint8_t *s, size_t n)
{
    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0)
        for (; n >= 4; n -= 4, d += 4, s += 4)
            *(md_word *)d = *(const md_word *)s;
    for (; n; n--)
        *d++ = *s++;
}

static MD_NO_LIBCALL void md_zero(uint8_t *p, size_t n)
{
    for (; n && ((uintptr_t)p & 3); n--)
        *p++ = 0;
    for (; n >= 4; n -= 4, p += 4)
        *(md_word *)p = 0;
    for (; n; n--)
        *p++ = 0;
}

/* clear secrets (a context, a key block) so that no store is optimised away */
static void md_wipe(void *p, size_t n)
{
    md_zero(p, n);
    __asm__ volatile("" : : "r"(p) : "memory");
}

/* bs: block bytes (64 or 128, a power of two); buf is 4-byte aligned */
static void md_update(void *state, uint8_t *buf, uint64_t *bytes, size_t bs, md_blocks_fn *blocks,
                      const uint8_t *in, size_t len)
{
    size_t have = (size_t)(*bytes & (bs - 1));
    *bytes += len;
    if (have) {
        size_t take = bs - have;
        if (len < take) {
            md_copy(buf + have, in, len);
            return;
        }
        md_copy(buf + have, in, take);
        blocks(state, buf, 1);
        in += take;
        len -= take;
    }
    if (len >= bs) {
        blocks(state, in, len / bs);
        in += len & ~(bs - 1);
        len &= bs - 1;
    }
    md_copy(buf, in, len);
}

/* 0x80, zeros, and the message length in bits as a big-endian lenbytes-byte integer
 * (8 for SHA-256/SM3, 16 for SHA-512) at the end of the last block */
static void md_pad(void *state, uint8_t *buf, uint64_t bytes, size_t bs, size_t lenbytes,
                   md_blocks_fn *blocks)
{
    size_t have = (size_t)(bytes & (bs - 1));
    buf[have++] = 0x80;
    if (have > bs - lenbytes) {             /* no room for the length: one more block */
        md_zero(buf + have, bs - have);
        blocks(state, buf, 1);
        have = 0;
    }
    md_zero(buf + have, bs - 8 - have);
    if (lenbytes > 8)
        buf[bs - 9] = (uint8_t)(bytes >> 61);   /* bits 64..66 of a 16-byte length */
    uint64_t bits = bytes << 3;
    for (size_t i = 0; i < 8; i++)
        buf[bs - 1 - i] = (uint8_t)(bits >> (8 * i));
    blocks(state, buf, 1);
}

/* the first outlen bytes (a multiple of 4, resp. 8) of the state words, each big-endian */
static void md_out_be32(uint8_t *out, const uint32_t *w, size_t outlen)
{
    for (; outlen; outlen -= 4, out += 4) {
        uint32_t v = *w++;
        out[0] = (uint8_t)(v >> 24);
        out[1] = (uint8_t)(v >> 16);
        out[2] = (uint8_t)(v >> 8);
        out[3] = (uint8_t)v;
    }
}

static void md_out_be64(uint8_t *out, const uint64_t *w, size_t outlen)
{
    for (; outlen; outlen -= 8, out += 8, w++) {
        uint32_t half[2] = {(uint32_t)(*w >> 32), (uint32_t)*w};
        md_out_be32(out, half, 8);
    }
}
#endif

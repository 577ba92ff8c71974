/*
 * Keccak-f[1600] state conversion and sponge helpers for the bit-interleaved kernels.
 * Compiled as is for rv32i (bit-interleaving by shift/mask, lane complementing);
 * ../zbkb/keccak_io.c includes it with KECCAK_ZBKB defined (zip/unzip, no complementing).
 *
 * Internal form: lane i = x + 5*y in words 2i (even bits) and 2i+1 (odd bits); for rv32i
 * the lanes of KECCAK_COMPLEMENTED are stored complemented.
 */
#include <stddef.h>
#include <stdint.h>
#include "../api.h"

#ifdef KECCAK_ZBKB
#define KECCAK_COMPLEMENTED 0u
static inline uint32_t unzip32(uint32_t x)
{
    uint32_t r;
    __asm__("unzip %0, %1" : "=r"(r) : "r"(x));
    return r;
}
static inline uint32_t zip32(uint32_t x)
{
    uint32_t r;
    __asm__("zip %0, %1" : "=r"(r) : "r"(x));
    return r;
}
#else
/* lanes (0,0) (4,0) (3,1) (4,1) (3,2) (4,2) (3,3) (0,4): indices 0, 4, 8, 9, 13, 14, 18, 20
   (must match P_COMPLEMENT in ../gen.py) */
#define KECCAK_COMPLEMENTED ((1u << 0) | (1u << 4) | (1u << 8) | (1u << 9) | (1u << 13) | \
                             (1u << 14) | (1u << 18) | (1u << 20))
/* even bits to the low half, odd bits to the high half */
static inline uint32_t unzip32(uint32_t x)
{
    uint32_t t;
    t = (x ^ (x >> 1)) & 0x22222222u; x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0c0c0c0cu; x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00f000f0u; x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000ff00u; x ^= t ^ (t << 8);
    return x;
}
static inline uint32_t zip32(uint32_t x)
{
    uint32_t t;
    t = (x ^ (x >> 8)) & 0x0000ff00u; x ^= t ^ (t << 8);
    t = (x ^ (x >> 4)) & 0x00f000f0u; x ^= t ^ (t << 4);
    t = (x ^ (x >> 2)) & 0x0c0c0c0cu; x ^= t ^ (t << 2);
    t = (x ^ (x >> 1)) & 0x22222222u; x ^= t ^ (t << 1);
    return x;
}
#endif

/* 64-bit lane (lo, hi) -> (even, odd) */
static inline void to_il(uint32_t lo, uint32_t hi, uint32_t *e, uint32_t *o)
{
    lo = unzip32(lo);
    hi = unzip32(hi);
    *e = (lo & 0xffffu) | (hi << 16);
    *o = (lo >> 16) | (hi & 0xffff0000u);
}

static inline void from_il(uint32_t e, uint32_t o, uint32_t *lo, uint32_t *hi)
{
    *lo = zip32((e & 0xffffu) | (o << 16));
    *hi = zip32((e >> 16) | (o & 0xffff0000u));
}

static inline uint32_t mask_of(unsigned lane)
{
    return ((KECCAK_COMPLEMENTED >> lane) & 1u) ? 0xffffffffu : 0u;
}

static inline uint32_t load32le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void store32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

void keccakf1600_to_internal(uint32_t state[50])
{
    for (unsigned i = 0; i < 25; i++) {
        uint32_t e, o, m = mask_of(i);
        to_il(state[2 * i], state[2 * i + 1], &e, &o);
        state[2 * i] = e ^ m;
        state[2 * i + 1] = o ^ m;
    }
}

void keccakf1600_from_internal(uint32_t state[50])
{
    for (unsigned i = 0; i < 25; i++) {
        uint32_t lo, hi, m = mask_of(i);
        from_il(state[2 * i] ^ m, state[2 * i + 1] ^ m, &lo, &hi);
        state[2 * i] = lo;
        state[2 * i + 1] = hi;
    }
}

void keccakf1600_init_internal(uint32_t state[50])
{
    for (unsigned i = 0; i < 25; i++)
        state[2 * i] = state[2 * i + 1] = mask_of(i);
}

void keccakf1600_xor_lanes(uint32_t state[50], const uint8_t *in, unsigned nlanes)
{
    if (((uintptr_t)in & 3u) == 0) {            /* aligned: word loads */
        const uint32_t *w = (const uint32_t *)__builtin_assume_aligned(in, 4);
        for (unsigned i = 0; i < nlanes; i++) {
            uint32_t e, o;
            to_il(w[2 * i], w[2 * i + 1], &e, &o);
            state[2 * i] ^= e;
            state[2 * i + 1] ^= o;
        }
        return;
    }
    for (unsigned i = 0; i < nlanes; i++, in += 8) {
        uint32_t e, o;
        to_il(load32le(in), load32le(in + 4), &e, &o);
        state[2 * i] ^= e;
        state[2 * i + 1] ^= o;
    }
}

void keccakf1600_extract_lanes(const uint32_t state[50], uint8_t *out, unsigned nlanes)
{
    if (((uintptr_t)out & 3u) == 0) {           /* aligned: word stores */
        uint32_t *w = (uint32_t *)__builtin_assume_aligned(out, 4);
        for (unsigned i = 0; i < nlanes; i++) {
            uint32_t m = mask_of(i);
            from_il(state[2 * i] ^ m, state[2 * i + 1] ^ m, &w[2 * i], &w[2 * i + 1]);
        }
        return;
    }
    for (unsigned i = 0; i < nlanes; i++, out += 8) {
        uint32_t lo, hi, m = mask_of(i);
        from_il(state[2 * i] ^ m, state[2 * i + 1] ^ m, &lo, &hi);
        store32le(out, lo);
        store32le(out + 4, hi);
    }
}

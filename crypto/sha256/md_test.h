/* The test body shared by the sha256, sha512 and sm3 test programs (their test.c include it
 * and describe each hash variant with an md_alg).  Per case, selected by its fields:
 *   seed, iterations, md: CAVP SHA-2 Monte Carlo, MD[i] = H(MD[i-3] || MD[i-2] || MD[i-1]),
 *                         iterations times from MD[0..2] = seed (one checkpoint per case);
 *   msg, repeat, md:      H(msg repeated `repeat` times), through init/update/final;
 *   msg, md:              one-shot from the case's aligned buffer; from copies at byte offsets
 *                         1, 2, 3 into an output at offsets 3, 2, 1; with the output over the
 *                         input; incremental in uneven pieces (so most compress calls see an
 *                         unaligned pointer); guard bytes past every output checked untouched;
 *                         and compress(state, in, 0) must leave the state alone. */
#ifndef RVLAB_MD_TEST_H
#define RVLAB_MD_TEST_H
#include <string.h>
#include "rvlab.h"

typedef struct {
    size_t ds;                                                  /* digest bytes */
    void (*init)(void *ctx);
    void (*update)(void *ctx, const uint8_t *in, size_t len);
    void (*final)(void *ctx, uint8_t *out);
    void (*oneshot)(uint8_t *out, const uint8_t *in, size_t len);
    void (*compress)(void *state, const uint8_t *in, size_t nblocks);
} md_alg;

/* an md_alg from the API's own functions (their pointer arguments typed for the hash) */
#define MD_ALG(ds, init, update, final, oneshot, compress)                                     \
    {(ds), (void (*)(void *))(init), (void (*)(void *, const uint8_t *, size_t))(update),     \
     (void (*)(void *, uint8_t *))(final), (oneshot),                                          \
     (void (*)(void *, const uint8_t *, size_t))(compress)}

#define MD_MAX_DS 64
#define MD_MAX_COPY 4096            /* vectors.py's LONG lengths also run from misaligned copies */
#define MD_GUARD 0xa5

static uint8_t md_copy[MD_MAX_COPY + 4] __attribute__((aligned(4)));
static uint8_t md_out[MD_MAX_DS + 8] __attribute__((aligned(4)));
static uint8_t md_chain[3 * MD_MAX_DS] __attribute__((aligned(4)));
static uint64_t md_ctx[64] __attribute__((aligned(8)));     /* room for any of the contexts */

/* md_out[off .. off+ds) is the digest, the guard after it must be untouched */
static void md_check_out(const rvlab_case *c, const md_alg *a, size_t off, const char *how)
{
    rvlab_check(c, "md", md_out + off, a->ds);
    for (size_t i = off + a->ds; i < sizeof md_out; i++)
        if (md_out[i] != MD_GUARD) { rvlab_fail(c, "%s wrote past the %u-byte digest", how, (unsigned)a->ds); return; }
}

static void md_monte(const rvlab_case *c, const md_alg *a)
{
    rvlab_buf seed = RVLAB_FIELD(c, "seed");
    uint32_t it = rvlab_field_u32(c, "iterations");
    size_t ds = a->ds;
    if (seed.len != ds) { rvlab_fail(c, "bad seed length %lu", (unsigned long)seed.len); return; }
    for (int i = 0; i < 3; i++)
        memcpy(md_chain + i * ds, seed.p, ds);
    for (uint32_t i = 0; i < it; i++) {
        RVLAB_CALL(*a->oneshot, md_out, md_chain, 3 * ds);
        memmove(md_chain, md_chain + ds, 2 * ds);
        memcpy(md_chain + 2 * ds, md_out, ds);
    }
    rvlab_check(c, "md", md_chain + 2 * ds, ds);
}

static void md_repeat(const rvlab_case *c, const md_alg *a, rvlab_buf msg)
{
    uint32_t n = rvlab_field_u32(c, "repeat");
    memset(md_out, MD_GUARD, sizeof md_out);
    RVLAB_CALL(*a->init, md_ctx);
    for (uint32_t i = 0; i < n; i++)
        RVLAB_CALL(*a->update, md_ctx, msg.p, msg.len);
    RVLAB_CALL(*a->final, md_ctx, md_out);
    md_check_out(c, a, 0, "final");
}

/* piece sizes of the incremental run: around the block sizes, and odd */
static const uint16_t md_pieces[] = {0, 1, 63, 64, 65, 2, 127, 128, 129, 3, 200, 5, 300};

static void md_incremental(const rvlab_case *c, const md_alg *a, rvlab_buf msg, size_t first)
{
    memset(md_out, MD_GUARD, sizeof md_out);
    RVLAB_CALL(*a->init, md_ctx);
    size_t done = 0, k = first;
    while (done < msg.len) {
        size_t n = md_pieces[k++ % (sizeof md_pieces / sizeof md_pieces[0])];
        if (n > msg.len - done)
            n = msg.len - done;
        RVLAB_CALL(*a->update, md_ctx, msg.p + done, n);
        done += n;
    }
    RVLAB_CALL(*a->update, md_ctx, msg.p, 0);
    RVLAB_CALL(*a->final, md_ctx, md_out);
    md_check_out(c, a, 0, "incremental final");
}

static void md_test_case(const rvlab_case *c, const md_alg *a)
{
    if (rvlab_has_field(c, "seed")) { md_monte(c, a); return; }
    rvlab_buf msg = RVLAB_FIELD(c, "msg");
    if (rvlab_has_field(c, "repeat")) { md_repeat(c, a, msg); return; }

    memset(md_out, MD_GUARD, sizeof md_out);
    RVLAB_CALL(*a->oneshot, md_out, msg.p, msg.len);
    md_check_out(c, a, 0, "one-shot");
    if (msg.len <= MD_MAX_COPY) {
        for (size_t off = 1; off < 4; off++) {
            memcpy(md_copy + off, msg.p, msg.len);
            memset(md_out, MD_GUARD, sizeof md_out);
            RVLAB_CALL(*a->oneshot, md_out + 4 - off, md_copy + off, msg.len);
            md_check_out(c, a, 4 - off, "one-shot, misaligned");
        }
        if (msg.len >= a->ds) {                 /* the digest written over the message */
            memcpy(md_copy, msg.p, msg.len);
            RVLAB_CALL(*a->oneshot, md_copy, md_copy, msg.len);
            rvlab_check(c, "md", md_copy, a->ds);
        }
    }
    md_incremental(c, a, msg, msg.len);         /* the first piece size varies with the case */

    uint32_t st[16], before[16];                /* compress of no blocks: state unchanged */
    rvlab_fill(st, sizeof st, (uint32_t)msg.len + 1);
    memcpy(before, st, sizeof st);
    RVLAB_CALL(*a->compress, st, msg.p, 0);
    if (memcmp(st, before, sizeof st)) rvlab_fail(c, "compress with nblocks = 0 changed the state");
}
#endif

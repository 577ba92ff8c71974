/* aes128-ctr test program, and aes256-ctr's (../aes256-ctr/test.c includes this file with its
 * key size and names): key expansion from the key at byte offsets 0..3 (the round keys must
 * not depend on it; nothing written past them), then every case through the xor function with
 * out, in and iv at every byte offset 0..3 (harness/rvlab_offsets.h: output compared, bytes
 * around it and the input untouched), and again split into two calls at a 16-byte boundary
 * (with the counter advanced by the caller) to check the counter handling. */
#include <string.h>
#include "rvlab.h"
#ifndef AESCTR_KEY_BYTES        /* aes128-ctr's own */
#include "api.h"
#define AESCTR_KEY_BYTES 16
#define AESCTR_RK_WORDS AES128CTR_RK_WORDS
#define AESCTR_KEYEXP aes128ctr_keyexp
#define AESCTR_XOR aes128ctr_xor
#endif
/* RVLAB_CALL with the function's name expanded first (its messages name the function) */
#define AESCTR_CALL(fn, ...) RVLAB_CALL(fn, __VA_ARGS__)

#define MAX_LEN 4096    /* vectors.py: MAX_LEN */
#define RVLAB_OFFSETS_MAX MAX_LEN
#include "rvlab_offsets.h"

static uint32_t rk[AESCTR_RK_WORDS + 4] __attribute__((aligned(4)));
static uint8_t iv[3 + 16] __attribute__((aligned(4)));

struct xor_args { const uint8_t *iv; uint32_t len; };

/* the iv at the input's byte offset too */
static void call_xor(void *ctx, uint8_t *out, const uint8_t *in)
{
    const struct xor_args *a = ctx;
    uint32_t o = (uintptr_t)in & 3;
    memcpy(iv + o, a->iv, 16);
    AESCTR_CALL(AESCTR_XOR, out, in, a->len, iv + o, rk);
}

/* FNV-1a of the round keys (the DTIM has no room for a second copy of them) */
static uint32_t rk_digest(void)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < AESCTR_RK_WORDS; i++) h = (h ^ rk[i]) * 16777619u;
    return h;
}

static int keyexp(const rvlab_case *c, const uint8_t *key)
{
    static uint8_t k[3 + AESCTR_KEY_BYTES] __attribute__((aligned(4)));
    uint32_t h0 = 0;
    for (uint32_t o = 0; o < 4; o++) {
        memcpy(k + o, key, AESCTR_KEY_BYTES);
        memset(rk, 0xa5, sizeof rk);
        AESCTR_CALL(AESCTR_KEYEXP, rk, k + o);
        for (int i = AESCTR_RK_WORDS; i < AESCTR_RK_WORDS + 4; i++)
            if (rk[i] != 0xa5a5a5a5u) { rvlab_fail(c, "keyexp wrote past rk[%d]", AESCTR_RK_WORDS); return 0; }
        if (o == 0) h0 = rk_digest();
        else if (rk_digest() != h0) {
            rvlab_fail(c, "keyexp: round keys from the key at byte offset %lu differ from those at offset 0",
                       (unsigned long)o);
            return 0;
        }
    }
    return 1;
}

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), ivf = RVLAB_FIELD(c, "iv");
    rvlab_buf pt = RVLAB_FIELD(c, "pt");
    if (key.len != AESCTR_KEY_BYTES || ivf.len != 16 || pt.len > MAX_LEN) {
        rvlab_fail(c, "bad case shape (key %lu, iv %lu, pt %lu bytes)",
                   (unsigned long)key.len, (unsigned long)ivf.len, (unsigned long)pt.len);
        return;
    }
    if (!keyexp(c, key.p))
        return;
    struct xor_args a = { ivf.p, pt.len };
    if (!rvlab_offsets(c, "ct", pt.p, pt.len, pt.len, call_xor, &a))
        return;
    /* split call: first part a multiple of 16 bytes, then the rest with counter + blocks */
    uint8_t *in = rvlab_offsets_in, *out = rvlab_offsets_out;
    uint32_t first = (pt.len / 2) & ~15u;
    memcpy(in, pt.p, pt.len);
    memcpy(iv, ivf.p, 16);
    AESCTR_CALL(AESCTR_XOR, out, in, first, iv, rk);
    uint32_t ctr = ((uint32_t)iv[12] << 24 | (uint32_t)iv[13] << 16 | (uint32_t)iv[14] << 8 | iv[15])
                   + first / 16;
    iv[12] = ctr >> 24; iv[13] = ctr >> 16; iv[14] = ctr >> 8; iv[15] = ctr;
    AESCTR_CALL(AESCTR_XOR, out + first, in + first, pt.len - first, iv, rk);
    rvlab_check(c, "ct", out, pt.len);
}

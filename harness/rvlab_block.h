/* rvlab_block.h -- the test protocol of a one-block cipher (crypto/<cipher>/test.c).
 *
 * A case has fields key, pt, ct. rvlab_block_test() runs, for the entry points the
 * implementation has:
 *   - key expansion from the key at byte offsets 0, 1, 2 and 3 (the round keys must not
 *     depend on the key's alignment) with guard words past RVLAB_BLOCK_RK_WORDS;
 *   - encrypt and decrypt with in/out at byte offsets (0,0), (0,3), (1,2), (2,1), (3,0)
 *     of two separate buffers (guard bytes around the output, input left untouched);
 *   - in place (out == in) at offsets 0..3: encrypt pt -> ct, then decrypt that -> pt,
 *     i.e. decrypt(encrypt(x)) = x on the buffer the kernel itself wrote.
 * The first mismatch of a case is reported (with the offsets) and ends the case.
 *
 * Define RVLAB_BLOCK_RK_WORDS (the primitive's <PRIM>_RK_WORDS) before including this. */
#ifndef RVLAB_BLOCK_H
#define RVLAB_BLOCK_H
#include <stdio.h>
#include <string.h>
#include "rvlab.h"

#ifndef RVLAB_BLOCK_RK_WORDS
#error "define RVLAB_BLOCK_RK_WORDS before including rvlab_block.h"
#endif
#define RVLAB_BLOCK_MAX 32            /* largest block and key, bytes (TDEA keys are 24) */
#define RVLAB_BLOCK_GUARD 0xa5u

typedef void rvlab_block_keyexp_fn(uint32_t *rk, const uint8_t *key);
typedef void rvlab_block_fn(uint8_t *out, const uint8_t *in, const uint32_t *rk);

typedef struct {
    uint32_t block_bytes, key_bytes;
    rvlab_block_keyexp_fn *keyexp_enc;   /* NULL: the implementation has none */
    rvlab_block_keyexp_fn *keyexp_dec;   /* NULL: decrypt uses keyexp_enc's round keys */
    rvlab_block_fn *encrypt, *decrypt;   /* NULL: not provided */
    const char *keyexp_enc_name, *keyexp_dec_name, *encrypt_name, *decrypt_name;
} rvlab_block_cipher;

/* RVLAB_CALL for a function pointer (the trampoline checks s0-s11, sp, gp, tp) */
#define RVLAB_BLOCK_CALL(name, fn, ...) do {                                   \
        rvlab_call_target = (void (*)(void))(fn);                             \
        ((__typeof__(fn))(void *)rvlab_trampoline)(__VA_ARGS__);             \
        rvlab_call_check(name);                                               \
    } while (0)

static uint32_t rvlab_block_rk[RVLAB_BLOCK_RK_WORDS + 4] __attribute__((aligned(4)));
static uint8_t rvlab_block_in[RVLAB_BLOCK_MAX + 8] __attribute__((aligned(4)));
static uint8_t rvlab_block_out[RVLAB_BLOCK_MAX + 8] __attribute__((aligned(4)));

/* FNV-1a of the round keys: compared across key offsets instead of a second copy of them,
 * which would not fit in the DTIM beside aes128/table's 11.5 KiB of tables */
static uint32_t rvlab_block_rk_digest(void)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < RVLAB_BLOCK_RK_WORDS; i++) h = (h ^ rvlab_block_rk[i]) * 16777619u;
    return h;
}

/* Round keys from the key at offsets 0..3 into rvlab_block_rk; 0 on a failure. */
static int rvlab_block_keyexp(const rvlab_case *c, rvlab_block_keyexp_fn *fn, const char *name,
                              const uint8_t *key, uint32_t key_bytes)
{
    uint32_t h0 = 0;
    for (uint32_t ko = 0; ko < 4; ko++) {
        memset(rvlab_block_rk, RVLAB_BLOCK_GUARD, sizeof rvlab_block_rk);
        memset(rvlab_block_in, 0, sizeof rvlab_block_in);
        memcpy(rvlab_block_in + ko, key, key_bytes);
        RVLAB_BLOCK_CALL(name, fn, rvlab_block_rk, rvlab_block_in + ko);
        for (uint32_t i = RVLAB_BLOCK_RK_WORDS; i < RVLAB_BLOCK_RK_WORDS + 4; i++)
            if (rvlab_block_rk[i] != 0xa5a5a5a5u) {
                rvlab_fail(c, "%s wrote past rk[%d]", name, RVLAB_BLOCK_RK_WORDS);
                return 0;
            }
        if (ko == 0)
            h0 = rvlab_block_rk_digest();
        else if (rvlab_block_rk_digest() != h0) {
            rvlab_fail(c, "%s: round keys from the key at offset %lu differ from those at offset 0",
                       name, (unsigned long)ko);
            return 0;
        }
    }
    return 1;
}

/* 1 if the bytes of buf outside [off, off + n) still hold the guard value */
static int rvlab_block_guard_ok(const uint8_t *buf, uint32_t off, uint32_t n)
{
    for (uint32_t i = 0; i < RVLAB_BLOCK_MAX + 8; i++)
        if ((i < off || i >= off + n) && buf[i] != RVLAB_BLOCK_GUARD) return 0;
    return 1;
}

/* One direction: from -> field `to` (expected) through fn, at every offset pair and in place.
 * In place, the output is then sent back through `back` (if any), which must give `from`. */
static int rvlab_block_direction(const rvlab_case *c, const rvlab_block_cipher *bc,
                                 rvlab_block_fn *fn, const char *name, rvlab_block_fn *back,
                                 const char *back_name, const uint8_t *from, const char *from_field,
                                 const char *to_field)
{
    static const uint8_t pairs[5][2] = { {0, 0}, {0, 3}, {1, 2}, {2, 1}, {3, 0} };
    const uint32_t n = bc->block_bytes;
    for (int p = 0; p < 5; p++) {
        uint32_t io = pairs[p][0], oo = pairs[p][1];
        memset(rvlab_block_in, RVLAB_BLOCK_GUARD, sizeof rvlab_block_in);
        memset(rvlab_block_out, RVLAB_BLOCK_GUARD, sizeof rvlab_block_out);
        memcpy(rvlab_block_in + io, from, n);
        RVLAB_BLOCK_CALL(name, fn, rvlab_block_out + oo, rvlab_block_in + io, rvlab_block_rk);
        if (!rvlab_check(c, to_field, rvlab_block_out + oo, n)) {
            printf("  (%s with in at byte offset %lu, out at byte offset %lu)\n", name,
                   (unsigned long)io, (unsigned long)oo);
            return 0;
        }
        if (!rvlab_block_guard_ok(rvlab_block_out, oo, n)) {
            rvlab_fail(c, "%s wrote outside its %lu-byte output (out at byte offset %lu)", name,
                       (unsigned long)n, (unsigned long)oo);
            return 0;
        }
        if (memcmp(rvlab_block_in + io, from, n) != 0 || !rvlab_block_guard_ok(rvlab_block_in, io, n)) {
            rvlab_fail(c, "%s changed its input buffer (in at byte offset %lu)", name, (unsigned long)io);
            return 0;
        }
    }
    for (uint32_t o = 0; o < 4; o++) {                     /* in place: out == in */
        memset(rvlab_block_out, RVLAB_BLOCK_GUARD, sizeof rvlab_block_out);
        memcpy(rvlab_block_out + o, from, n);
        RVLAB_BLOCK_CALL(name, fn, rvlab_block_out + o, rvlab_block_out + o, rvlab_block_rk);
        if (!rvlab_check(c, to_field, rvlab_block_out + o, n)) {
            printf("  (%s in place at byte offset %lu)\n", name, (unsigned long)o);
            return 0;
        }
        if (back) {
            RVLAB_BLOCK_CALL(back_name, back, rvlab_block_out + o, rvlab_block_out + o, rvlab_block_rk);
            if (!rvlab_check(c, from_field, rvlab_block_out + o, n)) {
                printf("  (%s(%s(x)) != x, in place at byte offset %lu)\n", back_name, name,
                       (unsigned long)o);
                return 0;
            }
        }
        if (!rvlab_block_guard_ok(rvlab_block_out, o, n)) {
            rvlab_fail(c, "%s wrote outside its %lu-byte output (in place at byte offset %lu)", name,
                       (unsigned long)n, (unsigned long)o);
            return 0;
        }
    }
    return 1;
}

static void rvlab_block_test(const rvlab_case *c, const rvlab_block_cipher *bc)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), pt = RVLAB_FIELD(c, "pt"), ct = RVLAB_FIELD(c, "ct");
    if (key.len != bc->key_bytes || pt.len != bc->block_bytes || ct.len != bc->block_bytes
        || bc->block_bytes > RVLAB_BLOCK_MAX || bc->key_bytes > RVLAB_BLOCK_MAX) {
        rvlab_fail(c, "bad case shape (key must be %lu bytes, pt and ct %lu)",
                   (unsigned long)bc->key_bytes, (unsigned long)bc->block_bytes);
        return;
    }
    if (!bc->keyexp_enc) {
        rvlab_fail(c, "the implementation has no key expansion: nothing to test");
        return;
    }
    if (!rvlab_block_keyexp(c, bc->keyexp_enc, bc->keyexp_enc_name, key.p, key.len))
        return;
    /* the in-place round trip needs decrypt to take these round keys */
    rvlab_block_fn *back = bc->keyexp_dec ? 0 : bc->decrypt;
    if (bc->encrypt && !rvlab_block_direction(c, bc, bc->encrypt, bc->encrypt_name, back,
                                              bc->decrypt_name, pt.p, "pt", "ct"))
        return;
    if (bc->keyexp_dec && !rvlab_block_keyexp(c, bc->keyexp_dec, bc->keyexp_dec_name, key.p, key.len))
        return;
    if (bc->decrypt)
        rvlab_block_direction(c, bc, bc->decrypt, bc->decrypt_name, bc->keyexp_dec ? 0 : bc->encrypt,
                              bc->encrypt_name, ct.p, "ct", "pt");
}

#endif

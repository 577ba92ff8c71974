/* rvlab harness: the test body of a one-block cipher API (keyexp, encrypt, decrypt), for a
 * primitive's test.c. Define, then #include "block_test.h":
 *   BT_BLOCK, BT_KEY          block and key bytes
 *   BT_RK_WORDS               round-key words the API reserves
 *   BT_KEYEXP                 void f(uint32_t rk[], const uint8_t key[])          (required)
 *   BT_ENCRYPT, BT_DECRYPT    void f(uint8_t *out, const uint8_t *in, const uint32_t rk[])
 *                             (define those the implementation has; decryption uses BT_KEYEXP's
 *                             round keys, or BT_KEYEXP_DEC's if defined)
 * Per case (fields key, pt, ct): key expansion with the key at byte offsets 0..3 (all giving the
 * same round keys, nothing written past BT_RK_WORDS); encrypt and decrypt with (in, out) at byte
 * offsets (0,0) (1,2) (2,3) (3,1) and in place at offsets 0..3, bytes around each output checked
 * untouched; decrypt(encrypt(pt)) = pt in place. */
#ifndef RVLAB_BLOCK_TEST_H
#define RVLAB_BLOCK_TEST_H
#include <string.h>
#include "rvlab.h"

#define BT_GUARD 8
#define BT_CALL(fn, ...) RVLAB_CALL(fn, __VA_ARGS__)    /* expands fn first: names the real function */
#define BT_STR_(x) #x
#define BT_STR(x) BT_STR_(x)

static uint32_t bt_rk[BT_RK_WORDS + 4] __attribute__((aligned(4)));
static uint32_t bt_rk0[BT_RK_WORDS] __attribute__((aligned(4)));
static uint8_t bt_key[BT_KEY + 3] __attribute__((aligned(4)));
static uint8_t bt_in[BT_BLOCK + 3] __attribute__((aligned(4)));
static uint8_t bt_out[BT_GUARD + BT_BLOCK + 3 + BT_GUARD] __attribute__((aligned(4)));
static const uint8_t BT_OFFSETS[4][2] = {{0, 0}, {1, 2}, {2, 3}, {3, 1}};   /* (in, out) */

/* bt_out untouched outside [BT_GUARD + off, BT_GUARD + off + BT_BLOCK) */
static int bt_guards_ok(const rvlab_case *c, uint32_t off, const char *what)
{
    for (uint32_t i = 0; i < sizeof bt_out; i++)
        if ((i < BT_GUARD + off || i >= BT_GUARD + off + BT_BLOCK) && bt_out[i] != 0xa5) {
            rvlab_fail(c, "%s (out offset %lu) wrote outside its %d bytes (byte %ld)", what,
                       (unsigned long)off, BT_BLOCK, (long)i - (long)(BT_GUARD + off));
            return 0;
        }
    return 1;
}

/* round keys for direction dec into bt_rk, from the key at every byte offset */
static int bt_keyexp(const rvlab_case *c, const uint8_t *key, int dec)
{
    for (uint32_t off = 0; off < 4; off++) {
        memset(bt_rk, 0xa5, sizeof bt_rk);
        memcpy(bt_key + off, key, BT_KEY);
#ifdef BT_KEYEXP_DEC
        if (dec) BT_CALL(BT_KEYEXP_DEC, bt_rk, bt_key + off);
        else
#endif
        BT_CALL(BT_KEYEXP, bt_rk, bt_key + off);
        (void)dec;
        for (int i = BT_RK_WORDS; i < BT_RK_WORDS + 4; i++)
            if (bt_rk[i] != 0xa5a5a5a5u) { rvlab_fail(c, "key expansion wrote past rk[%d]", BT_RK_WORDS); return 0; }
        if (off == 0)
            memcpy(bt_rk0, bt_rk, sizeof bt_rk0);
        else if (memcmp(bt_rk0, bt_rk, sizeof bt_rk0)) {
            rvlab_fail(c, "key expansion with the key at byte offset %lu gave other round keys", (unsigned long)off);
            return 0;
        }
    }
    return 1;
}

static void bt_call(int dec, uint8_t *out, const uint8_t *in)
{
#ifdef BT_DECRYPT
    if (dec) { BT_CALL(BT_DECRYPT, out, in, bt_rk); return; }
#endif
#ifdef BT_ENCRYPT
    if (!dec) BT_CALL(BT_ENCRYPT, out, in, bt_rk);
#endif
}

/* encrypt (dec = 0) or decrypt src, expecting field `want`, at every offset pair and in place;
 * the last result stays in place at offset 3 of bt_out */
static int bt_run(const rvlab_case *c, int dec, rvlab_buf src, const char *want)
{
    const char *name = dec ? BT_STR(BT_DECRYPT) : BT_STR(BT_ENCRYPT);
    for (int k = 0; k < 4; k++) {
        uint32_t io = BT_OFFSETS[k][0], oo = BT_OFFSETS[k][1];
        memcpy(bt_in + io, src.p, BT_BLOCK);
        memset(bt_out, 0xa5, sizeof bt_out);
        bt_call(dec, bt_out + BT_GUARD + oo, bt_in + io);
        if (!rvlab_check(c, want, bt_out + BT_GUARD + oo, BT_BLOCK) || !bt_guards_ok(c, oo, name))
            return 0;
    }
    for (uint32_t off = 0; off < 4; off++) {       /* in place */
        memset(bt_out, 0xa5, sizeof bt_out);
        memcpy(bt_out + BT_GUARD + off, src.p, BT_BLOCK);
        bt_call(dec, bt_out + BT_GUARD + off, bt_out + BT_GUARD + off);
        if (!rvlab_check(c, want, bt_out + BT_GUARD + off, BT_BLOCK) || !bt_guards_ok(c, off, name))
            return 0;
    }
    return 1;
}

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), pt = RVLAB_FIELD(c, "pt"), ct = RVLAB_FIELD(c, "ct");
    if (key.len != BT_KEY || pt.len != BT_BLOCK || ct.len != BT_BLOCK) {
        rvlab_fail(c, "bad case shape (key must be %d bytes, pt/ct %d)", BT_KEY, BT_BLOCK);
        return;
    }
#ifdef BT_ENCRYPT
    if (!bt_keyexp(c, key.p, 0) || !bt_run(c, 0, pt, "ct"))
        return;
#ifdef BT_DECRYPT
#ifdef BT_KEYEXP_DEC
    if (!bt_keyexp(c, key.p, 1))
        return;
#endif
    /* decrypt(encrypt(pt)) = pt, in place on the ciphertext just made (offset 3) */
    bt_call(1, bt_out + BT_GUARD + 3, bt_out + BT_GUARD + 3);
    if (!rvlab_check(c, "pt", bt_out + BT_GUARD + 3, BT_BLOCK) || !bt_guards_ok(c, 3, BT_STR(BT_DECRYPT)))
        return;
#endif
#endif
#ifdef BT_DECRYPT
    if (!bt_keyexp(c, key.p, 1))
        return;
    bt_run(c, 1, ct, "pt");
#endif
}
#endif

/* rvlab harness: the standard test of a one-block cipher API (key expansion, encrypt, decrypt),
 * shared by the primitives' test.c. A test.c defines, then includes this header:
 *   BT_KEY_BYTES, BT_BLOCK_BYTES, BT_RK_WORDS   sizes
 *   BT_KEYEXP_ENC, BT_ENCRYPT, BT_DECRYPT       the API's functions
 *   BT_KEYEXP_DEC                               (optional) decryption's key expansion
 * For every case (fields key, pt, ct) and every byte offset 0..3 of key, input and output (in and
 * out at different offsets, and in place): encrypt (checks ct), decrypt (checks pt) and
 * decrypt(encrypt(pt)) in place (checks pt again); bytes around each output and past the round
 * keys must stay untouched. */
#ifndef RVLAB_BLOCK_TEST_H
#define RVLAB_BLOCK_TEST_H
#include <string.h>
#include "rvlab.h"

#define BT_GUARD 0xa5
#define BT_CALL(fn, ...) RVLAB_CALL(fn, __VA_ARGS__)      /* expands fn before RVLAB_CALL names it */
static uint32_t bt_rk[BT_RK_WORDS + 4] __attribute__((aligned(4)));
static uint8_t bt_key[BT_KEY_BYTES + 3] __attribute__((aligned(4)));
static uint8_t bt_in[BT_BLOCK_BYTES + 3] __attribute__((aligned(4)));
static uint8_t bt_out[4 + BT_BLOCK_BYTES + 3 + 4] __attribute__((aligned(4)));   /* 4 guard bytes either side */

static void bt_guards(const rvlab_case *c, const char *what, int off)
{
    for (int i = 0; i < (int)sizeof bt_out; i++)
        if ((i < 4 + off || i >= 4 + off + BT_BLOCK_BYTES) && bt_out[i] != BT_GUARD) {
            rvlab_fail(c, "%s (offset %d) wrote outside its %d-byte output", what, off, BT_BLOCK_BYTES);
            return;
        }
    for (int i = BT_RK_WORDS; i < BT_RK_WORDS + 4; i++)
        if (bt_rk[i] != 0xa5a5a5a5u) {
            rvlab_fail(c, "key expansion wrote past rk[%d]", BT_RK_WORDS);
            return;
        }
}

static void bt_expand(const uint8_t *key, int dec)
{
    memset(bt_rk, BT_GUARD, sizeof bt_rk);
#ifdef BT_KEYEXP_DEC
    if (dec) { BT_CALL(BT_KEYEXP_DEC, bt_rk, key); return; }
#endif
    (void)dec;
    BT_CALL(BT_KEYEXP_ENC, bt_rk, key);
}

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), pt = RVLAB_FIELD(c, "pt"), ct = RVLAB_FIELD(c, "ct");
    if (key.len != BT_KEY_BYTES || pt.len != BT_BLOCK_BYTES || ct.len != BT_BLOCK_BYTES) {
        rvlab_fail(c, "bad case shape (key %d, pt/ct %d bytes)", BT_KEY_BYTES, BT_BLOCK_BYTES);
        return;
    }
    for (int off = 0; off < 4; off++) {
        int out_off = 3 - off;                       /* in and out misaligned differently */
        uint8_t *k = bt_key + off, *in = bt_in + off, *out = bt_out + 4 + out_off;
        uint8_t *same = bt_out + 4 + off;
        memcpy(k, key.p, BT_KEY_BYTES);
        /* encrypt: separate buffers, then in place */
        bt_expand(k, 0);
        memset(bt_out, BT_GUARD, sizeof bt_out);
        memcpy(in, pt.p, BT_BLOCK_BYTES);
        BT_CALL(BT_ENCRYPT, out, in, bt_rk);
        rvlab_check(c, "ct", out, BT_BLOCK_BYTES);
        bt_guards(c, "encrypt", out_off);
        memset(bt_out, BT_GUARD, sizeof bt_out);
        memcpy(same, pt.p, BT_BLOCK_BYTES);
        BT_CALL(BT_ENCRYPT, same, same, bt_rk);
        rvlab_check(c, "ct", same, BT_BLOCK_BYTES);
        bt_guards(c, "encrypt in place", off);
        /* decrypt: separate buffers, then decrypt(encrypt(pt)) in place */
        bt_expand(k, 1);
        memset(bt_out, BT_GUARD, sizeof bt_out);
        memcpy(in, ct.p, BT_BLOCK_BYTES);
        BT_CALL(BT_DECRYPT, out, in, bt_rk);
        rvlab_check(c, "pt", out, BT_BLOCK_BYTES);
        bt_guards(c, "decrypt", out_off);
        memset(bt_out, BT_GUARD, sizeof bt_out);
        memcpy(same, pt.p, BT_BLOCK_BYTES);
        bt_expand(k, 0);
        BT_CALL(BT_ENCRYPT, same, same, bt_rk);
        bt_expand(k, 1);
        BT_CALL(BT_DECRYPT, same, same, bt_rk);
        rvlab_check(c, "pt", same, BT_BLOCK_BYTES);
        bt_guards(c, "decrypt(encrypt) in place", off);
    }
}

#endif

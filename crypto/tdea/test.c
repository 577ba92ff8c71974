/* tdea test program (key = K1 || K2 || K3). For every case and every byte offset 0..3 of the key, the input and the
 * output (in and out at different offsets, and in place): key expansion, encrypt (checks ct),
 * decrypt (checks pt), and decrypt(encrypt(pt)) in place (checks pt again). Bytes around each
 * output and past the round keys are checked untouched. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define GUARD 0xa5
static uint32_t rk[TDEA_RK_WORDS + 4] __attribute__((aligned(4)));
static uint8_t keybuf[24 + 3] __attribute__((aligned(4)));
static uint8_t inbuf[8 + 3] __attribute__((aligned(4)));
static uint8_t outbuf[4 + 8 + 3 + 4] __attribute__((aligned(4)));   /* 4 guard bytes either side */

static int guards_ok(const rvlab_case *c, const char *what, int off)
{
    for (int i = 0; i < (int)sizeof outbuf; i++)
        if ((i < 4 + off || i >= 4 + off + 8) && outbuf[i] != GUARD) {
            rvlab_fail(c, "%s (offset %d) wrote outside its 8-byte output", what, off);
            return 0;
        }
    for (int i = TDEA_RK_WORDS; i < TDEA_RK_WORDS + 4; i++)
        if (rk[i] != 0xa5a5a5a5u) {
            rvlab_fail(c, "key expansion wrote past rk[%d]", TDEA_RK_WORDS);
            return 0;
        }
    return 1;
}

static void expand(const uint8_t *key, int dec)
{
    memset(rk, GUARD, sizeof rk);
#ifdef RVLAB_HAS_TDEA_KEYEXP_DEC
    if (dec) { RVLAB_CALL(tdea_keyexp_dec, rk, key); return; }
#endif
    (void)dec;
    RVLAB_CALL(tdea_keyexp_enc, rk, key);
}

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), pt = RVLAB_FIELD(c, "pt"), ct = RVLAB_FIELD(c, "ct");
    if (key.len != 24 || pt.len != 8 || ct.len != 8) {
        rvlab_fail(c, "bad case shape (key 24, pt/ct 8 bytes)");
        return;
    }
    for (int off = 0; off < 4; off++) {
        int out_off = 3 - off;                       /* in and out misaligned differently */
        uint8_t *k = keybuf + off, *in = inbuf + off, *out = outbuf + 4 + out_off;
        uint8_t *same = outbuf + 4 + off;
        memcpy(k, key.p, 24);
        /* encrypt: separate buffers, then in place */
        expand(k, 0);
        memset(outbuf, GUARD, sizeof outbuf);
        memcpy(in, pt.p, 8);
        RVLAB_CALL(tdea_encrypt, out, in, rk);
        rvlab_check(c, "ct", out, 8);
        guards_ok(c, "tdea_encrypt", out_off);
        memset(outbuf, GUARD, sizeof outbuf);
        memcpy(same, pt.p, 8);
        RVLAB_CALL(tdea_encrypt, same, same, rk);
        rvlab_check(c, "ct", same, 8);
        guards_ok(c, "tdea_encrypt in place", off);
        /* decrypt: separate buffers, then in place on the ciphertext just made */
        expand(k, 1);
        memset(outbuf, GUARD, sizeof outbuf);
        memcpy(in, ct.p, 8);
        RVLAB_CALL(tdea_decrypt, out, in, rk);
        rvlab_check(c, "pt", out, 8);
        guards_ok(c, "tdea_decrypt", out_off);
        memset(outbuf, GUARD, sizeof outbuf);
        memcpy(same, pt.p, 8);
        expand(k, 0);
        RVLAB_CALL(tdea_encrypt, same, same, rk);
        expand(k, 1);
        RVLAB_CALL(tdea_decrypt, same, same, rk);
        rvlab_check(c, "pt", same, 8);
        guards_ok(c, "tdea_decrypt(tdea_encrypt) in place", off);
    }
}

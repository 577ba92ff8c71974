/* seed128 test program. Per case: key expansion (key at byte offsets 0..3, all giving the same
 * round keys), encrypt and decrypt with in/out at byte offsets (0,0) (1,2) (2,3) (3,1) and in
 * place at offsets 0..3, decrypt(encrypt(pt)) = pt in place; bytes around every output and past
 * the round keys are checked untouched. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define RKW SEED128_RK_WORDS
#define GUARD 8
static uint32_t rk[RKW + 4] __attribute__((aligned(4)));
static uint32_t rk0[RKW] __attribute__((aligned(4)));
static uint8_t kbuf[16 + 3] __attribute__((aligned(4)));
static uint8_t ibuf[16 + 3] __attribute__((aligned(4)));
static uint8_t obuf[GUARD + 16 + 3 + GUARD] __attribute__((aligned(4)));

static const uint8_t OFFSETS[4][2] = {{0, 0}, {1, 2}, {2, 3}, {3, 1}};   /* (in, out) */

/* out untouched outside [GUARD + off, GUARD + off + 16) */
static int guards_ok(const rvlab_case *c, uint32_t off, const char *what)
{
    for (uint32_t i = 0; i < sizeof obuf; i++)
        if ((i < GUARD + off || i >= GUARD + off + 16) && obuf[i] != 0xa5) {
            rvlab_fail(c, "%s (out offset %lu) wrote outside its 16 bytes (byte %ld)", what,
                       (unsigned long)off, (long)i - (long)(GUARD + off));
            return 0;
        }
    return 1;
}

static int keyexp_ok(const rvlab_case *c, const uint8_t *key)
{
    for (uint32_t off = 0; off < 4; off++) {
        memset(rk, 0xa5, sizeof rk);
        memcpy(kbuf + off, key, 16);
        RVLAB_CALL(seed128_keyexp_enc, rk, kbuf + off);
        for (int i = RKW; i < RKW + 4; i++)
            if (rk[i] != 0xa5a5a5a5u) { rvlab_fail(c, "keyexp wrote past rk[%d]", RKW); return 0; }
        if (off == 0)
            memcpy(rk0, rk, sizeof rk0);
        else if (memcmp(rk0, rk, sizeof rk0)) {
            rvlab_fail(c, "keyexp with the key at byte offset %lu gave other round keys", (unsigned long)off);
            return 0;
        }
    }
    return 1;
}

static void call(int dec, uint8_t *out, const uint8_t *in)
{
#ifdef RVLAB_HAS_SEED128_DECRYPT
    if (dec) { RVLAB_CALL(seed128_decrypt, out, in, rk); return; }
#endif
#ifdef RVLAB_HAS_SEED128_ENCRYPT
    if (!dec) RVLAB_CALL(seed128_encrypt, out, in, rk);
#endif
}

/* encrypt (dec = 0) or decrypt src, expecting field `want`, at every offset pair and in place;
 * the last result stays in place at offset 3 of obuf for the caller */
static int run(const rvlab_case *c, int dec, rvlab_buf src, const char *want)
{
    const char *name = dec ? "seed128_decrypt" : "seed128_encrypt";
    for (int k = 0; k < 4; k++) {
        uint32_t io = OFFSETS[k][0], oo = OFFSETS[k][1];
        memcpy(ibuf + io, src.p, 16);
        memset(obuf, 0xa5, sizeof obuf);
        call(dec, obuf + GUARD + oo, ibuf + io);
        if (!rvlab_check(c, want, obuf + GUARD + oo, 16) || !guards_ok(c, oo, name))
            return 0;
    }
    for (uint32_t off = 0; off < 4; off++) {       /* in place */
        memset(obuf, 0xa5, sizeof obuf);
        memcpy(obuf + GUARD + off, src.p, 16);
        call(dec, obuf + GUARD + off, obuf + GUARD + off);
        if (!rvlab_check(c, want, obuf + GUARD + off, 16) || !guards_ok(c, off, name))
            return 0;
    }
    return 1;
}

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), pt = RVLAB_FIELD(c, "pt"), ct = RVLAB_FIELD(c, "ct");
    if (key.len != 16 || pt.len != 16 || ct.len != 16) {
        rvlab_fail(c, "bad case shape (key/pt/ct must be 16 bytes)");
        return;
    }
    if (!keyexp_ok(c, key.p))
        return;
#ifdef RVLAB_HAS_SEED128_ENCRYPT
    if (!run(c, 0, pt, "ct"))
        return;
#ifdef RVLAB_HAS_SEED128_DECRYPT
    /* decrypt(encrypt(pt)) = pt, in place on the ciphertext just made (offset 3) */
    RVLAB_CALL(seed128_decrypt, obuf + GUARD + 3, obuf + GUARD + 3, rk);
    if (!rvlab_check(c, "pt", obuf + GUARD + 3, 16) || !guards_ok(c, 3, "seed128_decrypt"))
        return;
#endif
#endif
#ifdef RVLAB_HAS_SEED128_DECRYPT
    run(c, 1, ct, "pt");
#endif
}

/* present80 test program: each case through the key schedule of its key size (10 bytes:
 * present80_keyexp_enc, 16: present128_keyexp_enc), then encrypt (checks ct) and decrypt
 * (checks pt) with in and out at every byte offset 0..3 (apart and in place), checking the
 * bytes around every output and past the round keys untouched, and each output taken back by
 * the inverse call in place. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define GUARD 8
static uint32_t rk[PRESENT80_RK_WORDS + 4] __attribute__((aligned(4)));
static uint8_t obuf[GUARD + 4 + 8 + GUARD] __attribute__((aligned(4)));
static uint8_t ibuf[4 + 8 + 4] __attribute__((aligned(4)));
static uint8_t kbuf[4 + 16] __attribute__((aligned(4)));

static int guards_ok(const rvlab_case *c, const char *what, int off)
{
    for (int i = 0; i < (int)sizeof obuf; i++) {
        if (i >= GUARD + off && i < GUARD + off + 8)
            continue;
        if (obuf[i] != 0xa5) {
            rvlab_fail(c, "%s (offset %d) wrote outside its 8-byte output (byte %d)", what, off, i - GUARD - off);
            return 0;
        }
    }
    return 1;
}

/* one call of fn at byte offset off: out apart from in (in at offset (off + 1) & 3) or in place */
static void call(int decrypt, uint8_t *out, const uint8_t *in)
{
#ifdef RVLAB_HAS_PRESENT80_DECRYPT
    if (decrypt) { RVLAB_CALL(present80_decrypt, out, in, rk); return; }
#endif
#ifdef RVLAB_HAS_PRESENT80_ENCRYPT
    if (!decrypt) RVLAB_CALL(present80_encrypt, out, in, rk);
#endif
}

static void run(const rvlab_case *c, const char *field, const char *what, int decrypt,
                const uint8_t *src, int off, int in_place)
{
    uint8_t *out = obuf + GUARD + off;
    memset(obuf, 0xa5, sizeof obuf);
    if (in_place) {
        memcpy(out, src, 8);
        call(decrypt, out, out);
    } else {
        uint8_t *in = ibuf + ((off + 1) & 3);
        memcpy(in, src, 8);
        call(decrypt, out, in);
        if (memcmp(in, src, 8) != 0) { rvlab_fail(c, "%s (offset %d) changed its input", what, off); return; }
    }
    if (!rvlab_check(c, field, out, 8) || !guards_ok(c, what, off))
        return;
#if defined(RVLAB_HAS_PRESENT80_ENCRYPT) && defined(RVLAB_HAS_PRESENT80_DECRYPT)
    /* and back, in place: decrypt(encrypt(x)) = x (and encrypt(decrypt(y)) = y) */
    call(!decrypt, out, out);
    if (memcmp(out, src, 8) != 0)
        rvlab_fail(c, "%s (offset %d): the inverse call does not give the input back", what, off);
#endif
}

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), pt = RVLAB_FIELD(c, "pt"), ct = RVLAB_FIELD(c, "ct");
    if ((key.len != 10 && key.len != 16) || pt.len != 8 || ct.len != 8) {
        rvlab_fail(c, "bad case shape (key 10 or 16 bytes, pt/ct 8 bytes)");
        return;
    }
    /* the key at an odd address: the key schedules accept any alignment */
    memset(rk, 0xa5, sizeof rk);
    memcpy(kbuf + 1 + (key.len == 16), key.p, key.len);
    if (key.len == 10) {
#ifdef RVLAB_HAS_PRESENT80_KEYEXP_ENC
        RVLAB_CALL(present80_keyexp_enc, rk, kbuf + 1);
#else
        return;
#endif
    } else {
#ifdef RVLAB_HAS_PRESENT128_KEYEXP_ENC
        RVLAB_CALL(present128_keyexp_enc, rk, kbuf + 2);
#else
        return;
#endif
    }
    for (int i = PRESENT80_RK_WORDS; i < PRESENT80_RK_WORDS + 4; i++)
        if (rk[i] != 0xa5a5a5a5u) { rvlab_fail(c, "key expansion wrote past rk[%d]", PRESENT80_RK_WORDS); return; }
    for (int off = 0; off < 4; off++) {
        for (int in_place = 0; in_place < 2; in_place++) {
#ifdef RVLAB_HAS_PRESENT80_ENCRYPT
            run(c, "ct", "present80_encrypt", 0, pt.p, off, in_place);
#endif
#ifdef RVLAB_HAS_PRESENT80_DECRYPT
            run(c, "pt", "present80_decrypt", 1, ct.p, off, in_place);
#endif
        }
    }
}

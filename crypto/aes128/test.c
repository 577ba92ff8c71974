/* aes128 test program: each case through key expansion + encrypt (checks ct) and
 * key expansion + decrypt (checks pt), for the entry points the implementation has;
 * bytes past the 16-byte output and past the round keys' space are checked untouched. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

static uint32_t rk[AES128_RK_WORDS + 4] __attribute__((aligned(4)));
static uint8_t out[16 + 16] __attribute__((aligned(4)));
static uint8_t in[16] __attribute__((aligned(4)));

static void guard_check(const rvlab_case *c, const char *what)
{
    for (int i = 16; i < 32; i++)
        if (out[i] != 0xa5) { rvlab_fail(c, "%s wrote past the 16-byte output", what); return; }
    for (int i = AES128_RK_WORDS; i < AES128_RK_WORDS + 4; i++)
        if (rk[i] != 0xa5a5a5a5u) { rvlab_fail(c, "key expansion wrote past rk[%d]", AES128_RK_WORDS); return; }
}

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), pt = RVLAB_FIELD(c, "pt"), ct = RVLAB_FIELD(c, "ct");
    if (key.len != 16 || pt.len != 16 || ct.len != 16) {
        rvlab_fail(c, "bad case shape (key/pt/ct must be 16 bytes)");
        return;
    }
    (void)in;
#if defined(RVLAB_HAS_AES128_KEYEXP_ENC) && defined(RVLAB_HAS_AES128_ENCRYPT)
    memset(rk, 0xa5, sizeof rk);
    memset(out, 0xa5, sizeof out);
    memcpy(in, pt.p, 16);
    RVLAB_CALL(aes128_keyexp_enc, rk, key.p);
    RVLAB_CALL(aes128_encrypt, out, in, rk);
    rvlab_check(c, "ct", out, 16);
    guard_check(c, "aes128_encrypt");
#endif
#if defined(RVLAB_HAS_AES128_KEYEXP_DEC) && defined(RVLAB_HAS_AES128_DECRYPT)
    memset(rk, 0xa5, sizeof rk);
    memset(out, 0xa5, sizeof out);
    memcpy(in, ct.p, 16);
    RVLAB_CALL(aes128_keyexp_dec, rk, key.p);
    RVLAB_CALL(aes128_decrypt, out, in, rk);
    rvlab_check(c, "pt", out, 16);
    guard_check(c, "aes128_decrypt");
#endif
}

/* cast128 test program: every case through the one-block protocol of harness/rvlab_block.h
 * (key, in and out at byte offsets 0..3, guards, in place, decrypt(encrypt(x)) = x), and
 * RFC 2144's maintenance test (B.2) for the case that has "iterations". */
#include <string.h>
#include "api.h"
#define RVLAB_BLOCK_RK_WORDS CAST128_RK_WORDS
#include "rvlab_block.h"

static const rvlab_block_cipher cast128 = {
    .block_bytes = 8, .key_bytes = 16,
#ifdef RVLAB_HAS_CAST128_KEYEXP_ENC
    .keyexp_enc = cast128_keyexp_enc, .keyexp_enc_name = "cast128_keyexp_enc",
#endif
#ifdef RVLAB_HAS_CAST128_ENCRYPT
    .encrypt = cast128_encrypt, .encrypt_name = "cast128_encrypt",
#endif
#ifdef RVLAB_HAS_CAST128_DECRYPT
    .decrypt = cast128_decrypt, .decrypt_name = "cast128_decrypt",
#endif
};

/* B.2: aL = E(aL, b), aR = E(aR, b), bL = E(bL, a), bR = E(bR, a), `iterations` times */
static void maintenance(const rvlab_case *c)
{
    static uint8_t a[16] __attribute__((aligned(4))), b[16] __attribute__((aligned(4)));
    static uint32_t rk[CAST128_RK_WORDS];
    rvlab_buf a0 = RVLAB_FIELD(c, "a"), b0 = RVLAB_FIELD(c, "b");
    uint32_t n = rvlab_field_u32(c, "iterations");
    if (a0.len != 16 || b0.len != 16) { rvlab_fail(c, "bad case shape (a and b must be 16 bytes)"); return; }
    memcpy(a, a0.p, 16);
    memcpy(b, b0.p, 16);
    for (uint32_t i = 0; i < n; i++) {
        cast128_keyexp_enc(rk, b);
        cast128_encrypt(a, a, rk);
        cast128_encrypt(a + 8, a + 8, rk);
        cast128_keyexp_enc(rk, a);
        cast128_encrypt(b, b, rk);
        cast128_encrypt(b + 8, b + 8, rk);
    }
    rvlab_check(c, "a_out", a, 16);
    rvlab_check(c, "b_out", b, 16);
}

void rvlab_test_case(const rvlab_case *c)
{
    if (rvlab_has_field(c, "iterations")) {
#if defined(RVLAB_HAS_CAST128_KEYEXP_ENC) && defined(RVLAB_HAS_CAST128_ENCRYPT)
        maintenance(c);
#endif
        return;
    }
    rvlab_block_test(c, &cast128);
}

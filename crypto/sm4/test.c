/* sm4 test program: every case through the one-block protocol of harness/rvlab_block.h
 * (key, in and out at byte offsets 0..3, guards, in place, decrypt(encrypt(x)) = x), and
 * GB/T 32907's iterated example (the case that has "iterations": pt encrypted that often). */
#include <string.h>
#include "api.h"
#define RVLAB_BLOCK_RK_WORDS SM4_RK_WORDS
#include "rvlab_block.h"

static const rvlab_block_cipher sm4 = {
    .block_bytes = 16, .key_bytes = 16,
#ifdef RVLAB_HAS_SM4_KEYEXP_ENC
    .keyexp_enc = sm4_keyexp_enc, .keyexp_enc_name = "sm4_keyexp_enc",
#endif
#ifdef RVLAB_HAS_SM4_ENCRYPT
    .encrypt = sm4_encrypt, .encrypt_name = "sm4_encrypt",
#endif
#ifdef RVLAB_HAS_SM4_DECRYPT
    .decrypt = sm4_decrypt, .decrypt_name = "sm4_decrypt",
#endif
};

static void iterated(const rvlab_case *c)
{
    static uint8_t x[16] __attribute__((aligned(4)));
    static uint32_t rk[SM4_RK_WORDS];
    rvlab_buf key = RVLAB_FIELD(c, "key"), pt = RVLAB_FIELD(c, "pt");
    uint32_t n = rvlab_field_u32(c, "iterations");
    if (key.len != 16 || pt.len != 16) { rvlab_fail(c, "bad case shape (key and pt must be 16 bytes)"); return; }
    memcpy(x, pt.p, 16);
    RVLAB_CALL(sm4_keyexp_enc, rk, key.p);
    for (uint32_t i = 0; i < n; i++)
        sm4_encrypt(x, x, rk);
    rvlab_check(c, "ct", x, 16);
}

void rvlab_test_case(const rvlab_case *c)
{
    if (rvlab_has_field(c, "iterations")) {
#if defined(RVLAB_HAS_SM4_KEYEXP_ENC) && defined(RVLAB_HAS_SM4_ENCRYPT)
        iterated(c);
#endif
        return;
    }
    rvlab_block_test(c, &sm4);
}

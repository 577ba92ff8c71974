/* aes128 test program: every case through the one-block protocol of harness/rvlab_block.h
 * (key, in and out at byte offsets 0..3, guard bytes, in place, decrypt(encrypt(x)) = x), for
 * the entry points the implementation has. */
#include "api.h"
#define RVLAB_BLOCK_RK_WORDS AES128_RK_WORDS
#include "rvlab_block.h"

static const rvlab_block_cipher aes128 = {
    .block_bytes = 16, .key_bytes = 16,
#ifdef RVLAB_HAS_AES128_KEYEXP_ENC
    .keyexp_enc = aes128_keyexp_enc, .keyexp_enc_name = "aes128_keyexp_enc",
#endif
#ifdef RVLAB_HAS_AES128_KEYEXP_DEC
    .keyexp_dec = aes128_keyexp_dec, .keyexp_dec_name = "aes128_keyexp_dec",
#endif
#ifdef RVLAB_HAS_AES128_ENCRYPT
    .encrypt = aes128_encrypt, .encrypt_name = "aes128_encrypt",
#endif
#ifdef RVLAB_HAS_AES128_DECRYPT
    .decrypt = aes128_decrypt, .decrypt_name = "aes128_decrypt",
#endif
};

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_block_test(c, &aes128);
}

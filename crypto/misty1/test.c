/* misty1 test program: every case through the one-block protocol of harness/rvlab_block.h
 * (key, in and out at byte offsets 0..3, guards, in place, decrypt(encrypt(x)) = x). */
#include "api.h"
#define RVLAB_BLOCK_RK_WORDS MISTY1_RK_WORDS
#include "rvlab_block.h"

static const rvlab_block_cipher misty1 = {
    .block_bytes = 8, .key_bytes = 16,
#ifdef RVLAB_HAS_MISTY1_KEYEXP_ENC
    .keyexp_enc = misty1_keyexp_enc, .keyexp_enc_name = "misty1_keyexp_enc",
#endif
#ifdef RVLAB_HAS_MISTY1_ENCRYPT
    .encrypt = misty1_encrypt, .encrypt_name = "misty1_encrypt",
#endif
#ifdef RVLAB_HAS_MISTY1_DECRYPT
    .decrypt = misty1_decrypt, .decrypt_name = "misty1_decrypt",
#endif
};

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_block_test(c, &misty1);
}

/* hight test program: harness/rvlab_block.h's test of key expansion, encrypt and decrypt at every
 * byte offset 0..3 of key, input and output, and in place (guard bytes checked). */
#include "api.h"
#define RVLAB_BLOCK_RK_WORDS HIGHT_RK_WORDS
#include "rvlab_block.h"

static const rvlab_block_cipher hight = {
    .block_bytes = 8, .key_bytes = 16,
#ifdef RVLAB_HAS_HIGHT_KEYEXP_ENC
    .keyexp_enc = hight_keyexp_enc, .keyexp_enc_name = "hight_keyexp_enc",
#endif
#ifdef RVLAB_HAS_HIGHT_KEYEXP_DEC
    .keyexp_dec = hight_keyexp_dec, .keyexp_dec_name = "hight_keyexp_dec",
#endif
#ifdef RVLAB_HAS_HIGHT_ENCRYPT
    .encrypt = hight_encrypt, .encrypt_name = "hight_encrypt",
#endif
#ifdef RVLAB_HAS_HIGHT_DECRYPT
    .decrypt = hight_decrypt, .decrypt_name = "hight_decrypt",
#endif
};

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_block_test(c, &hight);
}

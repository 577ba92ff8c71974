/* seed128 test program: harness/rvlab_block.h's checks (key at byte offsets 0..3, in/out at
 * offsets 0..3 and in place, guard bytes, decrypt(encrypt(pt)) = pt) on every case. */
#include "api.h"
#define RVLAB_BLOCK_RK_WORDS SEED128_RK_WORDS
#include "rvlab_block.h"

static const rvlab_block_cipher seed128 = {
    .block_bytes = 16, .key_bytes = 16,
#ifdef RVLAB_HAS_SEED128_KEYEXP_ENC
    .keyexp_enc = seed128_keyexp_enc, .keyexp_enc_name = "seed128_keyexp_enc",
#endif
#ifdef RVLAB_HAS_SEED128_KEYEXP_DEC
    .keyexp_dec = seed128_keyexp_dec, .keyexp_dec_name = "seed128_keyexp_dec",
#endif
#ifdef RVLAB_HAS_SEED128_ENCRYPT
    .encrypt = seed128_encrypt, .encrypt_name = "seed128_encrypt",
#endif
#ifdef RVLAB_HAS_SEED128_DECRYPT
    .decrypt = seed128_decrypt, .decrypt_name = "seed128_decrypt",
#endif
};

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_block_test(c, &seed128);
}

/* camellia128 test program: harness/rvlab_block.h's checks (key at byte offsets 0..3, in/out at
 * offsets 0..3 and in place, guard bytes, decrypt(encrypt(pt)) = pt) on every case. */
#include "api.h"
#define RVLAB_BLOCK_RK_WORDS CAMELLIA128_RK_WORDS
#include "rvlab_block.h"

static const rvlab_block_cipher camellia128 = {
    .block_bytes = 16, .key_bytes = 16,
#ifdef RVLAB_HAS_CAMELLIA128_KEYEXP_ENC
    .keyexp_enc = camellia128_keyexp_enc, .keyexp_enc_name = "camellia128_keyexp_enc",
#endif
#ifdef RVLAB_HAS_CAMELLIA128_KEYEXP_DEC
    .keyexp_dec = camellia128_keyexp_dec, .keyexp_dec_name = "camellia128_keyexp_dec",
#endif
#ifdef RVLAB_HAS_CAMELLIA128_ENCRYPT
    .encrypt = camellia128_encrypt, .encrypt_name = "camellia128_encrypt",
#endif
#ifdef RVLAB_HAS_CAMELLIA128_DECRYPT
    .decrypt = camellia128_decrypt, .decrypt_name = "camellia128_decrypt",
#endif
};

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_block_test(c, &camellia128);
}

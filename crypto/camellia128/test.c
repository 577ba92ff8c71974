/* camellia128 test program: harness/block_test.h's checks (key at byte offsets 0..3, in/out at
 * offsets 0..3 and in place, guard bytes, decrypt(encrypt(pt)) = pt) on every case. */
#include "api.h"

#define BT_BLOCK 16
#define BT_KEY 16
#define BT_RK_WORDS CAMELLIA128_RK_WORDS
#define BT_KEYEXP camellia128_keyexp_enc
#ifdef RVLAB_HAS_CAMELLIA128_ENCRYPT
#define BT_ENCRYPT camellia128_encrypt
#endif
#ifdef RVLAB_HAS_CAMELLIA128_DECRYPT
#define BT_DECRYPT camellia128_decrypt
#endif
#include "block_test.h"

/* seed128 test program: harness/block_test.h's checks (key at byte offsets 0..3, in/out at
 * offsets 0..3 and in place, guard bytes, decrypt(encrypt(pt)) = pt) on every case. */
#include "api.h"

#define BT_BLOCK 16
#define BT_KEY 16
#define BT_RK_WORDS SEED128_RK_WORDS
#define BT_KEYEXP seed128_keyexp_enc
#ifdef RVLAB_HAS_SEED128_ENCRYPT
#define BT_ENCRYPT seed128_encrypt
#endif
#ifdef RVLAB_HAS_SEED128_DECRYPT
#define BT_DECRYPT seed128_decrypt
#endif
#include "block_test.h"

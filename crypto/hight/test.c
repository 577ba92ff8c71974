/* hight test program: harness/block_test.h's test of key expansion, encrypt and decrypt at every
 * byte offset 0..3 of key, input and output, and in place (guard bytes checked). */
#include "api.h"

#define BT_KEY_BYTES 16
#define BT_BLOCK_BYTES 8
#define BT_RK_WORDS HIGHT_RK_WORDS
#define BT_KEYEXP_ENC hight_keyexp_enc
#ifdef RVLAB_HAS_HIGHT_KEYEXP_DEC
#define BT_KEYEXP_DEC hight_keyexp_dec
#endif
#define BT_ENCRYPT hight_encrypt
#define BT_DECRYPT hight_decrypt
#include "block_test.h"

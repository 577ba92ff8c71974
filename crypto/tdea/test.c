/* tdea test program (key = K1 || K2 || K3): harness/block_test.h's test of key expansion, encrypt and decrypt at every
 * byte offset 0..3 of key, input and output, and in place (guard bytes checked). */
#include "api.h"

#define BT_KEY_BYTES 24
#define BT_BLOCK_BYTES 8
#define BT_RK_WORDS TDEA_RK_WORDS
#define BT_KEYEXP_ENC tdea_keyexp_enc
#ifdef RVLAB_HAS_TDEA_KEYEXP_DEC
#define BT_KEYEXP_DEC tdea_keyexp_dec
#endif
#define BT_ENCRYPT tdea_encrypt
#define BT_DECRYPT tdea_decrypt
#include "block_test.h"

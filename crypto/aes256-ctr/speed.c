/* aes256-ctr speed/stack program: aes128-ctr's (../aes128-ctr/speed.c), with a 32-byte key. */
#include "api.h"
#define AESCTR_KEY_BYTES 32
#define AESCTR_RK_WORDS AES256CTR_RK_WORDS
#define AESCTR_KEYEXP aes256ctr_keyexp
#define AESCTR_XOR aes256ctr_xor
#include "../aes128-ctr/speed.c"

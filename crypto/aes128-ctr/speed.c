/* aes128-ctr speed/stack program, and aes256-ctr's (../aes256-ctr/speed.c includes this file
 * with its key size and names; seed 000 protocol: key schedule incl. conversion to the
 * implementation's form as "keyexp"; a 128-byte and a 4096-byte message as "encrypt"). */
#include "rvlab.h"
#ifndef AESCTR_KEY_BYTES        /* aes128-ctr's own */
#include "api.h"
#define AESCTR_KEY_BYTES 16
#define AESCTR_RK_WORDS AES128CTR_RK_WORDS
#define AESCTR_KEYEXP aes128ctr_keyexp
#define AESCTR_XOR aes128ctr_xor
#endif

static uint32_t rk[AESCTR_RK_WORDS] __attribute__((aligned(4)));
static uint8_t in[4096] __attribute__((aligned(4)));
static uint8_t out[4096] __attribute__((aligned(4)));
/* rvlab_secret_*: marked secret for the constant-time check (rvlab bench --secret) */
uint8_t rvlab_secret_key[AESCTR_KEY_BYTES] __attribute__((aligned(4)));
static uint8_t iv[16] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(iv, sizeof iv, 2);
    rvlab_fill(in, sizeof in, 3);
    RVLAB_BENCH("keyexp", AESCTR_KEY_BYTES, AESCTR_KEYEXP(rk, rvlab_secret_key));
    RVLAB_BENCH("encrypt", 128, AESCTR_XOR(out, in, 128, iv, rk));
    RVLAB_BENCH("encrypt", 4096, AESCTR_XOR(out, in, 4096, iv, rk));
}

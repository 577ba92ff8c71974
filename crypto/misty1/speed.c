/* misty1 speed/stack program: key expansion and one 8-byte block each way (seed 003 Table 4). */
#include "rvlab.h"
#include "api.h"

static uint32_t rk[MISTY1_RK_WORDS] __attribute__((aligned(4)));
/* rvlab_secret_*: marked secret for the constant-time check */
uint8_t rvlab_secret_key[16] __attribute__((aligned(4)));
uint8_t rvlab_secret_pt[8] __attribute__((aligned(4)));
static uint8_t out[8] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(rvlab_secret_pt, sizeof rvlab_secret_pt, 2);
#ifdef RVLAB_HAS_MISTY1_KEYEXP_ENC
    RVLAB_BENCH("keyexp", 16, misty1_keyexp_enc(rk, rvlab_secret_key));
#ifdef RVLAB_HAS_MISTY1_ENCRYPT
    RVLAB_BENCH("encrypt", 8, misty1_encrypt(out, rvlab_secret_pt, rk));
#endif
#ifdef RVLAB_HAS_MISTY1_DECRYPT
    RVLAB_BENCH("decrypt", 8, misty1_decrypt(out, rvlab_secret_pt, rk));
#endif
#endif
}

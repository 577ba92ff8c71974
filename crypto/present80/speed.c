/* present80 speed/stack program: both key schedules and one block each way. */
#include "rvlab.h"
#include "api.h"

static uint32_t rk[PRESENT80_RK_WORDS] __attribute__((aligned(4)));
/* rvlab_secret_*: marked secret for the constant-time check */
uint8_t rvlab_secret_key[16] __attribute__((aligned(4)));
uint8_t rvlab_secret_pt[8] __attribute__((aligned(4)));
static uint8_t out[8] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(rvlab_secret_pt, sizeof rvlab_secret_pt, 2);
#ifdef RVLAB_HAS_PRESENT128_KEYEXP_ENC
    RVLAB_BENCH("keyexp128", 8, present128_keyexp_enc(rk, rvlab_secret_key));
#endif
#ifdef RVLAB_HAS_PRESENT80_KEYEXP_ENC
    RVLAB_BENCH("keyexp", 8, present80_keyexp_enc(rk, rvlab_secret_key));
#endif
#ifdef RVLAB_HAS_PRESENT80_ENCRYPT
    RVLAB_BENCH("encrypt", 8, present80_encrypt(out, rvlab_secret_pt, rk));
#endif
#ifdef RVLAB_HAS_PRESENT80_DECRYPT
    RVLAB_BENCH("decrypt", 8, present80_decrypt(out, rvlab_secret_pt, rk));
#endif
}

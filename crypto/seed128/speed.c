/* seed128 speed/stack program: key expansion and one block each way. */
#include "rvlab.h"
#include "api.h"

static uint32_t rk[SEED128_RK_WORDS] __attribute__((aligned(4)));
/* rvlab_secret_*: marked secret for the constant-time check */
uint8_t rvlab_secret_key[16] __attribute__((aligned(4)));
uint8_t rvlab_secret_pt[16] __attribute__((aligned(4)));
static uint8_t out[16] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(rvlab_secret_pt, sizeof rvlab_secret_pt, 2);
    RVLAB_BENCH("keyexp", 16, seed128_keyexp_enc(rk, rvlab_secret_key));
#ifdef RVLAB_HAS_SEED128_ENCRYPT
    RVLAB_BENCH("encrypt", 16, seed128_encrypt(out, rvlab_secret_pt, rk));
#endif
#ifdef RVLAB_HAS_SEED128_DECRYPT
    RVLAB_BENCH("decrypt", 16, seed128_decrypt(out, rvlab_secret_pt, rk));
#endif
}

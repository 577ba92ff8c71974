/* sm4 speed/stack program: key expansion and one 16-byte block each way (not in seed 003). */
#include "rvlab.h"
#include "api.h"

static uint32_t rk[SM4_RK_WORDS] __attribute__((aligned(4)));
/* rvlab_secret_*: marked secret for the constant-time check */
uint8_t rvlab_secret_key[16] __attribute__((aligned(4)));
uint8_t rvlab_secret_pt[16] __attribute__((aligned(4)));
static uint8_t out[16] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(rvlab_secret_pt, sizeof rvlab_secret_pt, 2);
#ifdef RVLAB_HAS_SM4_KEYEXP_ENC
    RVLAB_BENCH("keyexp", 16, sm4_keyexp_enc(rk, rvlab_secret_key));
#ifdef RVLAB_HAS_SM4_ENCRYPT
    RVLAB_BENCH("encrypt", 16, sm4_encrypt(out, rvlab_secret_pt, rk));
#endif
#ifdef RVLAB_HAS_SM4_DECRYPT
    RVLAB_BENCH("decrypt", 16, sm4_decrypt(out, rvlab_secret_pt, rk));
#endif
#endif
}

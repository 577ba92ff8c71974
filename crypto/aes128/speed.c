/* aes128 speed/stack program: key expansion and one block (seed 000 Table 1). */
#include "rvlab.h"
#include "api.h"

static uint32_t rk[AES128_RK_WORDS] __attribute__((aligned(4)));
/* rvlab_secret_*: marked secret for the constant-time check */
uint8_t rvlab_secret_key[16] __attribute__((aligned(4)));
static uint8_t in[16] __attribute__((aligned(4)));
static uint8_t out[16] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(in, sizeof in, 2);
#ifdef RVLAB_HAS_AES128_KEYEXP_ENC
    RVLAB_BENCH("keyexp", 16, aes128_keyexp_enc(rk, rvlab_secret_key));
#ifdef RVLAB_HAS_AES128_ENCRYPT
    RVLAB_BENCH("encrypt", 16, aes128_encrypt(out, in, rk));
#endif
#endif
#ifdef RVLAB_HAS_AES128_KEYEXP_DEC
    RVLAB_BENCH("keyexp_dec", 16, aes128_keyexp_dec(rk, rvlab_secret_key));
#ifdef RVLAB_HAS_AES128_DECRYPT
    RVLAB_BENCH("decrypt", 16, aes128_decrypt(out, in, rk));
#endif
#endif
}

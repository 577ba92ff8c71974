/* tdea speed/stack program: key expansion and one 8-byte block (seed 003 Table 4). */
#include "rvlab.h"
#include "api.h"

static uint32_t rk[TDEA_RK_WORDS] __attribute__((aligned(4)));
/* rvlab_secret_*: marked secret for the constant-time check (key and plaintext) */
uint8_t rvlab_secret_key[24] __attribute__((aligned(4)));
uint8_t rvlab_secret_pt[8] __attribute__((aligned(4)));
static uint8_t out[8] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(rvlab_secret_pt, sizeof rvlab_secret_pt, 2);
    RVLAB_BENCH("keyexp", 24, tdea_keyexp_enc(rk, rvlab_secret_key));
    RVLAB_BENCH("encrypt", 8, tdea_encrypt(out, rvlab_secret_pt, rk));
#ifdef RVLAB_HAS_TDEA_KEYEXP_DEC
    RVLAB_BENCH("keyexp_dec", 24, tdea_keyexp_dec(rk, rvlab_secret_key));
#endif
    RVLAB_BENCH("decrypt", 8, tdea_decrypt(out, rvlab_secret_pt, rk));
}

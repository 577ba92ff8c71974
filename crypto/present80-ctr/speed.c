/* present80-ctr speed/stack program: key schedule incl. conversion to the implementation's
 * layout as "keyexp"; 128- and 4096-byte messages as "encrypt". */
#include "rvlab.h"
#include "api.h"

static uint32_t rk[PRESENT80CTR_RK_WORDS] __attribute__((aligned(4)));
static uint8_t in[4096] __attribute__((aligned(4)));
static uint8_t out[4096] __attribute__((aligned(4)));
/* rvlab_secret_*: marked secret for the constant-time check (rvlab bench --secret) */
uint8_t rvlab_secret_key[12] __attribute__((aligned(4)));
static uint8_t iv[8] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(iv, sizeof iv, 2);
    rvlab_fill(in, sizeof in, 3);
    RVLAB_BENCH("keyexp", 10, present80ctr_keyexp(rk, rvlab_secret_key));
    RVLAB_BENCH("encrypt", 128, present80ctr_xor(out, in, 128, iv, rk));
    RVLAB_BENCH("encrypt", 4096, present80ctr_xor(out, in, 4096, iv, rk));
}

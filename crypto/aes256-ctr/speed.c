/* aes256-ctr speed/stack program (aes128-ctr's, with a 32-byte key; seed 000 protocol: key
 * schedule incl. conversion to the implementation's form as "keyexp"; a 128-byte and a
 * 4096-byte message as "encrypt"). */
#include "rvlab.h"
#include "api.h"

static uint32_t rk[AES256CTR_RK_WORDS] __attribute__((aligned(4)));
static uint8_t in[4096] __attribute__((aligned(4)));
static uint8_t out[4096] __attribute__((aligned(4)));
/* rvlab_secret_*: marked secret for the constant-time check (rvlab bench --secret) */
uint8_t rvlab_secret_key[32] __attribute__((aligned(4)));
static uint8_t iv[16] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(iv, sizeof iv, 2);
    rvlab_fill(in, sizeof in, 3);
    RVLAB_BENCH("keyexp", 32, aes256ctr_keyexp(rk, rvlab_secret_key));
    RVLAB_BENCH("encrypt", 128, aes256ctr_xor(out, in, 128, iv, rk));
    RVLAB_BENCH("encrypt", 4096, aes256ctr_xor(out, in, 4096, iv, rk));
}

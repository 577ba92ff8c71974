/* chacha20 speed/stack program (seed 000 protocol: 4096-byte message). */
#include "rvlab.h"
#include "api.h"

static uint8_t in[4096] __attribute__((aligned(4)));
static uint8_t out[4096] __attribute__((aligned(4)));
/* rvlab_secret_*: marked secret for the constant-time check */
uint8_t rvlab_secret_key[32] __attribute__((aligned(4)));
static uint8_t nonce[12] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(nonce, sizeof nonce, 2);
    rvlab_fill(in, sizeof in, 3);
    RVLAB_BENCH("encrypt", 64, chacha20_xor(out, in, 64, rvlab_secret_key, nonce, 1));
    RVLAB_BENCH("encrypt", 4096, chacha20_xor(out, in, 4096, rvlab_secret_key, nonce, 1));
}

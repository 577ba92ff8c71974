/* sha256 speed/stack program: one compression (seed 003 Table 6) and the hash of a
 * 4096-byte message. */
#include "rvlab.h"
#include "api.h"

/* rvlab_secret_*: the message and the chaining value are secret for the constant-time check */
uint8_t rvlab_secret_msg[4096] __attribute__((aligned(4)));
uint32_t rvlab_secret_state[8] __attribute__((aligned(4)));
static uint8_t md[32] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_msg, sizeof rvlab_secret_msg, 1);
    rvlab_fill(rvlab_secret_state, sizeof rvlab_secret_state, 2);
#ifdef RVLAB_HAS_SHA256_COMPRESS
    RVLAB_BENCH("compress", 64, sha256_compress(rvlab_secret_state, rvlab_secret_msg, 1));
#endif
#ifdef RVLAB_HAS_SHA256
    RVLAB_BENCH("hash", 4096, sha256(md, rvlab_secret_msg, 4096));
#endif
}

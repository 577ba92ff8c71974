/* hmac-sha256 speed/stack program: the MAC of a 4096-byte message under a 32-byte key. */
#include "rvlab.h"
#include "api.h"

/* rvlab_secret_*: key and message are secret for the constant-time check */
uint8_t rvlab_secret_key[32] __attribute__((aligned(4)));
uint8_t rvlab_secret_msg[4096] __attribute__((aligned(4)));
static uint8_t tag[32] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_key, sizeof rvlab_secret_key, 1);
    rvlab_fill(rvlab_secret_msg, sizeof rvlab_secret_msg, 2);
#ifdef RVLAB_HAS_HMAC_SHA256
    RVLAB_BENCH("mac", 4096, hmac_sha256(tag, rvlab_secret_key, 32, rvlab_secret_msg, 4096));
#endif
}

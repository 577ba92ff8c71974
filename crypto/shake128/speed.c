/* shake128 speed/stack program: 4096-byte message to a 32-byte output (issue 4), and
 * 168 bytes of output (one rate block) from a short message. */
#include "rvlab.h"
#include "api.h"

/* rvlab_secret_*: the message is secret for the constant-time check (rvlab bench --secret) */
uint8_t rvlab_secret_msg[4096] __attribute__((aligned(4)));
#define msg rvlab_secret_msg
static uint8_t out[168] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(msg, sizeof msg, 1);
#ifdef RVLAB_HAS_SHAKE128
    RVLAB_BENCH("hash", 4096, shake128(out, 32, msg, 4096));
    RVLAB_BENCH_KV("hash", 32, "outlen", 168, shake128(out, 168, msg, 32));
#endif
}

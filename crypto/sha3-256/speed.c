/* sha3-256 speed/stack program: hash of a 4096-byte message (issue 4) and of a short one. */
#include "rvlab.h"
#include "api.h"

/* rvlab_secret_*: the message is secret for the constant-time check (rvlab bench --secret) */
uint8_t rvlab_secret_msg[4096] __attribute__((aligned(4)));
#define msg rvlab_secret_msg
static uint8_t md[32] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(msg, sizeof msg, 1);
#ifdef RVLAB_HAS_SHA3_256
    RVLAB_BENCH("hash", 64, sha3_256(md, msg, 64));
    RVLAB_BENCH("hash", 4096, sha3_256(md, msg, 4096));
#endif
}

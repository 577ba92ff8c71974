/* sha3-256 speed/stack program: hash of a 4096-byte message (issue 4) and of a short one. */
#include "rvlab.h"
#include "api.h"

static uint8_t msg[4096] __attribute__((aligned(4)));
static uint8_t md[32] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(msg, sizeof msg, 1);
#ifdef RVLAB_HAS_SHA3_256
    RVLAB_BENCH("hash", 64, sha3_256(md, msg, 64));
    RVLAB_BENCH("hash", 4096, sha3_256(md, msg, 4096));
#endif
}

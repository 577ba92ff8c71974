/* sha3-256 speed/stack program: hash of a 4096-byte message (issue 4) and of a short one;
 * "compress": one 136-byte block absorbed (xor into the state + Keccak-f[1600], in the
 * permutation's own lane representation), seed 003 Table 6's "one block" for SHA3-256. */
#include "rvlab.h"
#include "api.h"
#include "../keccakf1600/api.h"

/* rvlab_secret_*: the message is secret for the constant-time check (rvlab bench --secret) */
uint8_t rvlab_secret_msg[4096] __attribute__((aligned(4)));
#define msg rvlab_secret_msg
static uint8_t md[32] __attribute__((aligned(4)));
uint32_t rvlab_secret_state[50] __attribute__((aligned(4)));

void rvlab_speed(void)
{
    rvlab_fill(msg, sizeof msg, 1);
#ifdef RVLAB_HAS_SHA3_256
    RVLAB_BENCH("hash", 64, sha3_256(md, msg, 64));
    RVLAB_BENCH("hash", 4096, sha3_256(md, msg, 4096));
    keccakf1600_init_internal(rvlab_secret_state);
    RVLAB_BENCH("compress", 136, (keccakf1600_xor_lanes(rvlab_secret_state, msg, 17),
                                  keccakf1600_permute(rvlab_secret_state)));
#endif
}

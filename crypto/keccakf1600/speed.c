/* keccakf1600 speed/stack program: one permutation of a 200-byte state (seed 000 Table 1),
 * and the conversions to/from the internal representation (outside the permutation). */
#include "rvlab.h"
#include "api.h"

/* rvlab_secret_*: the state is secret for the constant-time check (rvlab bench --secret) */
uint32_t rvlab_secret_st[50] __attribute__((aligned(4)));
#define st rvlab_secret_st

void rvlab_speed(void)
{
    rvlab_fill(st, sizeof st, 1);
#ifdef RVLAB_HAS_KECCAKF1600_PERMUTE
    RVLAB_BENCH("permute", 200, keccakf1600_permute(st));
#endif
#ifdef RVLAB_HAS_KECCAKF1600_TO_INTERNAL
    RVLAB_BENCH("to_internal", 200, keccakf1600_to_internal(st));
#endif
#ifdef RVLAB_HAS_KECCAKF1600_FROM_INTERNAL
    RVLAB_BENCH("from_internal", 200, keccakf1600_from_internal(st));
#endif
}

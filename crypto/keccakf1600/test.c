/* keccakf1600 test program: state -> to_internal -> n x permute -> from_internal, compared;
 * plus to_internal/from_internal round trip and the sponge helpers against the same state, their
 * lanes read and written at every byte offset 0..3 (harness/rvlab_offsets.h). */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define RVLAB_OFFSETS_MAX 200
#include "rvlab_offsets.h"

static uint32_t st[50 + 4] __attribute__((aligned(4)));

#if defined(RVLAB_HAS_KECCAKF1600_INIT_INTERNAL) && defined(RVLAB_HAS_KECCAKF1600_XOR_LANES) \
    && defined(RVLAB_HAS_KECCAKF1600_EXTRACT_LANES) && defined(RVLAB_HAS_KECCAKF1600_PERMUTE)
/* the permutation through the sponge helpers: zero state, xor all 25 lanes from `in`,
 * permute *rounds times, extract 25 lanes to `out` */
static void call_sponge(void *ctx, uint8_t *out, const uint8_t *in)
{
    uint32_t n = *(const uint32_t *)ctx;
    RVLAB_CALL(keccakf1600_init_internal, st);
    RVLAB_CALL(keccakf1600_xor_lanes, st, in, 25);
    for (uint32_t i = 0; i < n; i++)
        RVLAB_CALL(keccakf1600_permute, st);
    RVLAB_CALL(keccakf1600_extract_lanes, st, out, 25);
}
#endif

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf in = RVLAB_FIELD(c, "state");
    uint32_t n = rvlab_field_u32(c, "n");
    if (in.len != 200 || n < 1 || n > 8) {
        rvlab_fail(c, "bad case shape (state %lu bytes, n %lu)", (unsigned long)in.len, (unsigned long)n);
        return;
    }
    st[50] = st[51] = 0x5a5a5a5au;                      /* guard words past the state */
#if defined(RVLAB_HAS_KECCAKF1600_TO_INTERNAL) && defined(RVLAB_HAS_KECCAKF1600_FROM_INTERNAL)
    memcpy(st, in.p, 200);
    RVLAB_CALL(keccakf1600_to_internal, st);
    RVLAB_CALL(keccakf1600_from_internal, st);
    if (memcmp(st, in.p, 200) != 0)
        rvlab_fail(c, "from_internal(to_internal(x)) != x");
#endif
#ifdef RVLAB_HAS_KECCAKF1600_PERMUTE
    memcpy(st, in.p, 200);
#ifdef RVLAB_HAS_KECCAKF1600_TO_INTERNAL
    RVLAB_CALL(keccakf1600_to_internal, st);
#endif
    for (uint32_t i = 0; i < n; i++)
        RVLAB_CALL(keccakf1600_permute, st);
#ifdef RVLAB_HAS_KECCAKF1600_FROM_INTERNAL
    RVLAB_CALL(keccakf1600_from_internal, st);
#endif
    rvlab_check(c, "out", st, 200);
#if defined(RVLAB_HAS_KECCAKF1600_INIT_INTERNAL) && defined(RVLAB_HAS_KECCAKF1600_XOR_LANES) \
    && defined(RVLAB_HAS_KECCAKF1600_EXTRACT_LANES)
    /* the same through the sponge helpers, with input and output at every byte offset 0..3 */
    rvlab_offsets(c, "out", in.p, 200, 200, call_sponge, &n);
#endif
#endif
    if (st[50] != 0x5a5a5a5au || st[51] != 0x5a5a5a5au)
        rvlab_fail(c, "wrote past the end of the state");
}

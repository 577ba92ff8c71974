/* sha3-256 test program: each message (read in place from flash, and copied to an
 * odd address) hashed and compared; Monte Carlo cases chain 1000 hashes. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAX_COPY 4096    /* vectors.py's LONG lengths run misaligned too */
static uint8_t copy[MAX_COPY + 1] __attribute__((aligned(4)));
static uint8_t md[32 + 8] __attribute__((aligned(4)));

void rvlab_test_case(const rvlab_case *c)
{
#ifdef RVLAB_HAS_SHA3_256
    if (rvlab_has_field(c, "seed")) {               /* CAVP Monte Carlo */
        rvlab_buf seed = RVLAB_FIELD(c, "seed");
        uint32_t it = rvlab_field_u32(c, "iterations");
        if (seed.len != 32) { rvlab_fail(c, "bad seed length %lu", (unsigned long)seed.len); return; }
        memcpy(md, seed.p, 32);
        for (uint32_t i = 0; i < it; i++) {
            RVLAB_CALL(sha3_256, copy, md, 32);
            memcpy(md, copy, 32);
        }
        rvlab_check(c, "md", md, 32);
        return;
    }
    rvlab_buf msg = RVLAB_FIELD(c, "msg");
    memset(md, 0xa5, sizeof md);
    RVLAB_CALL(sha3_256, md, msg.p, msg.len);
    rvlab_check(c, "md", md, 32);
    if (md[32] != 0xa5) rvlab_fail(c, "wrote past the 32-byte digest");
    if (msg.len <= MAX_COPY) {                      /* misaligned input and output */
        memcpy(copy + 1, msg.p, msg.len);
        RVLAB_CALL(sha3_256, md + 3, copy + 1, msg.len);
        rvlab_check(c, "md", md + 3, 32);
    }
#endif
}

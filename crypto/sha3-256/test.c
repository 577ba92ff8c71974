/* sha3-256 test program: each message hashed with input and digest at every byte offset 0..3
 * (harness/rvlab_offsets.h: digest compared, bytes around it and the input untouched), the CAVP
 * LongMsg ones once in place from flash; Monte Carlo cases chain `iterations` hashes. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAX_COPY 4096    /* vectors.py's long random lengths run at every offset too */
#define RVLAB_OFFSETS_MAX MAX_COPY
#include "rvlab_offsets.h"

static uint8_t md[32] __attribute__((aligned(4))), next[32] __attribute__((aligned(4)));

static void call_hash(void *ctx, uint8_t *out, const uint8_t *in)
{
    RVLAB_CALL(sha3_256, out, in, *(const uint32_t *)ctx);
}

void rvlab_test_case(const rvlab_case *c)
{
#ifdef RVLAB_HAS_SHA3_256
    if (rvlab_has_field(c, "seed")) {               /* CAVP Monte Carlo */
        rvlab_buf seed = RVLAB_FIELD(c, "seed");
        uint32_t it = rvlab_field_u32(c, "iterations");
        if (seed.len != 32) { rvlab_fail(c, "bad seed length %lu", (unsigned long)seed.len); return; }
        memcpy(md, seed.p, 32);
        for (uint32_t i = 0; i < it; i++) {
            RVLAB_CALL(sha3_256, next, md, 32);
            memcpy(md, next, 32);
        }
        rvlab_check(c, "md", md, 32);
        return;
    }
    rvlab_buf msg = RVLAB_FIELD(c, "msg");
    if (msg.len <= MAX_COPY && !strstr(c->name, "LongMsg")) {
        rvlab_offsets(c, "md", msg.p, msg.len, 32, call_hash, &msg.len);
    } else {            /* CAVP LongMsg (most of the work): once, read in place from flash */
        RVLAB_CALL(sha3_256, md, msg.p, msg.len);
        rvlab_check(c, "md", md, 32);
    }
#endif
}

/* shake128 test program: each message (read in place from flash, and copied to an odd
 * address) expanded to outlen bytes and compared; bytes past the output checked untouched. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAX_OUT 512
#define MAX_COPY 4096    /* vectors.py's LONG lengths run misaligned too */
#define GUARD 8
static uint8_t out[MAX_OUT + GUARD + 4] __attribute__((aligned(4)));
static uint8_t copy[MAX_COPY + 1] __attribute__((aligned(4)));

void rvlab_test_case(const rvlab_case *c)
{
#ifdef RVLAB_HAS_SHAKE128
    rvlab_buf msg = RVLAB_FIELD(c, "msg");
    uint32_t outlen = rvlab_field_u32(c, "outlen");
    if (outlen > MAX_OUT) { rvlab_fail(c, "outlen %lu > %d", (unsigned long)outlen, MAX_OUT); return; }
    memset(out, 0xa5, sizeof out);
    RVLAB_CALL(shake128, out, outlen, msg.p, msg.len);
    rvlab_check(c, "out", out, outlen);
    for (uint32_t i = outlen; i < outlen + GUARD; i++)
        if (out[i] != 0xa5) { rvlab_fail(c, "wrote past the end of out (byte %lu)", (unsigned long)i); break; }
    if (msg.len <= MAX_COPY) {                      /* misaligned input and output */
        memcpy(copy + 1, msg.p, msg.len);
        RVLAB_CALL(shake128, out + 3, outlen, copy + 1, msg.len);
        rvlab_check(c, "out", out + 3, outlen);
    }
#endif
}

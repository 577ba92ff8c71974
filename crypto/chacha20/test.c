/* chacha20 test program: every case through chacha20_xor, output compared,
 * bytes past the end of the output checked untouched. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAX_LEN 4096    /* vectors.py: MAX_LEN */
#define GUARD 16
static uint8_t out[MAX_LEN + GUARD] __attribute__((aligned(4)));
static uint8_t in[MAX_LEN] __attribute__((aligned(4)));

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), nonce = RVLAB_FIELD(c, "nonce");
    rvlab_buf pt = RVLAB_FIELD(c, "pt");
    uint32_t counter = rvlab_field_u32(c, "counter");
    if (key.len != 32 || nonce.len != 12 || pt.len > MAX_LEN) {
        rvlab_fail(c, "bad case shape (key %lu, nonce %lu, pt %lu bytes)",
                   (unsigned long)key.len, (unsigned long)nonce.len, (unsigned long)pt.len);
        return;
    }
    memcpy(in, pt.p, pt.len);
    memset(out, 0xa5, sizeof out);
    RVLAB_CALL(chacha20_xor, out, in, pt.len, key.p, nonce.p, counter);
    rvlab_check(c, "ct", out, pt.len);
    for (uint32_t i = pt.len; i < pt.len + GUARD; i++)
        if (out[i] != 0xa5) { rvlab_fail(c, "wrote past the end of out (byte %lu)", (unsigned long)i); break; }
}

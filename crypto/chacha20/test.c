/* chacha20 test program: every case through chacha20_xor with out, in, key and nonce at every
 * byte offset 0..3 (harness/rvlab_offsets.h): output compared, bytes around the output and the
 * input checked untouched. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAX_LEN 4096    /* vectors.py: MAX_LEN */
#define RVLAB_OFFSETS_MAX MAX_LEN
#include "rvlab_offsets.h"

struct xor_args { rvlab_buf key, nonce; uint32_t counter; uint32_t len; };

/* key and nonce at the input's byte offset too (the API allows any alignment) */
static void call_xor(void *ctx, uint8_t *out, const uint8_t *in)
{
    static uint8_t key[3 + 32] __attribute__((aligned(4))), nonce[3 + 12] __attribute__((aligned(4)));
    const struct xor_args *a = ctx;
    uint32_t o = (uintptr_t)in & 3;
    memcpy(key + o, a->key.p, 32);
    memcpy(nonce + o, a->nonce.p, 12);
    RVLAB_CALL(chacha20_xor, out, in, a->len, key + o, nonce + o, a->counter);
}

void rvlab_test_case(const rvlab_case *c)
{
    struct xor_args a = { RVLAB_FIELD(c, "key"), RVLAB_FIELD(c, "nonce"), rvlab_field_u32(c, "counter"), 0 };
    rvlab_buf pt = RVLAB_FIELD(c, "pt");
    if (a.key.len != 32 || a.nonce.len != 12) {
        rvlab_fail(c, "bad case shape (key %lu, nonce %lu bytes)", (unsigned long)a.key.len,
                   (unsigned long)a.nonce.len);
        return;
    }
    a.len = pt.len;
    rvlab_offsets(c, "ct", pt.p, pt.len, pt.len, call_xor, &a);
}

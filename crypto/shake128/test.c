/* shake128 test program: each message expanded to outlen bytes with input and output at byte
 * offsets 0..3, the cases taking turns at the eight offset pairs (harness/rvlab_offsets.h:
 * output compared, bytes around it and the input untouched; every pair at every case made this
 * the slowest test by far, 1.6 G instructions), the CAVP LongMsg ones once in place from flash. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAX_OUT 512
#define MAX_COPY 4096    /* vectors.py's long random lengths run at the offsets too */
#define RVLAB_OFFSETS_MAX MAX_COPY
#define RVLAB_OFFSETS_TAKE_TURNS
#include "rvlab_offsets.h"

struct shake_args { uint32_t outlen, len; };

static void call_shake(void *ctx, uint8_t *out, const uint8_t *in)
{
    const struct shake_args *a = ctx;
    RVLAB_CALL(shake128, out, a->outlen, in, a->len);
}

void rvlab_test_case(const rvlab_case *c)
{
#ifdef RVLAB_HAS_SHAKE128
    static uint8_t out[MAX_OUT] __attribute__((aligned(4)));
    rvlab_buf msg = RVLAB_FIELD(c, "msg");
    struct shake_args a = { rvlab_field_u32(c, "outlen"), msg.len };
    if (a.outlen > MAX_OUT) { rvlab_fail(c, "outlen %lu > %d", (unsigned long)a.outlen, MAX_OUT); return; }
    if (msg.len <= MAX_COPY && !strstr(c->name, "LongMsg")) {
        rvlab_offsets(c, "out", msg.p, msg.len, a.outlen, call_shake, &a);
    } else {            /* CAVP LongMsg (most of the work): once, read in place from flash */
        RVLAB_CALL(shake128, out, a.outlen, msg.p, msg.len);
        rvlab_check(c, "out", out, a.outlen);
    }
#endif
}

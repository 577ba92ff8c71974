/* hmac-sha256 test program: per case (key, msg, mac; mac may be a truncated tag), the
 * one-shot MAC from the case's aligned buffers, from copies of key and message at byte
 * offsets 1, 2, 3 into an output at offsets 3, 2, 1, and init/update/final in uneven
 * pieces; guard bytes past every output checked untouched. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAX_COPY 4096
#define GUARD 0xa5
static uint8_t msg_copy[MAX_COPY + 4] __attribute__((aligned(4)));
static uint8_t key_copy[256 + 4] __attribute__((aligned(4)));
static uint8_t out[32 + 8] __attribute__((aligned(4)));
static hmac_sha256_ctx ctx;
static const uint16_t pieces[] = {1, 63, 64, 65, 0, 2, 127, 128, 129, 300};

static void check_out(const rvlab_case *c, size_t off, uint32_t n, const char *how)
{
    rvlab_check(c, "mac", out + off, n);
    for (size_t i = off + 32; i < sizeof out; i++)
        if (out[i] != GUARD) { rvlab_fail(c, "%s wrote past the 32-byte tag", how); return; }
}

void rvlab_test_case(const rvlab_case *c)
{
#ifdef RVLAB_HAS_HMAC_SHA256
    rvlab_buf key = RVLAB_FIELD(c, "key"), msg = RVLAB_FIELD(c, "msg"), mac = RVLAB_FIELD(c, "mac");
    if (mac.len == 0 || mac.len > 32 || key.len > 256) { rvlab_fail(c, "bad case shape"); return; }

    memset(out, GUARD, sizeof out);
    RVLAB_CALL(hmac_sha256, out, key.p, key.len, msg.p, msg.len);
    check_out(c, 0, mac.len, "hmac_sha256");
    if (msg.len <= MAX_COPY) {
        for (size_t off = 1; off < 4; off++) {
            memcpy(key_copy + off, key.p, key.len);
            memcpy(msg_copy + off, msg.p, msg.len);
            memset(out, GUARD, sizeof out);
            RVLAB_CALL(hmac_sha256, out + 4 - off, key_copy + off, key.len, msg_copy + off, msg.len);
            check_out(c, 4 - off, mac.len, "hmac_sha256, misaligned");
        }
    }

    memset(out, GUARD, sizeof out);
    RVLAB_CALL(hmac_sha256_init, &ctx, key.p, key.len);
    size_t done = 0, k = msg.len;
    while (done < msg.len) {
        size_t n = pieces[k++ % (sizeof pieces / sizeof pieces[0])];
        if (n > msg.len - done)
            n = msg.len - done;
        RVLAB_CALL(hmac_sha256_update, &ctx, msg.p + done, n);
        done += n;
    }
    RVLAB_CALL(hmac_sha256_final, &ctx, out);
    check_out(c, 0, mac.len, "hmac_sha256_final");
#endif
}

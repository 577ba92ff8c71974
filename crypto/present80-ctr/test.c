/* present80-ctr test program: key expansion, then every case through present80ctr_xor with
 * in/out/iv at byte offsets 0..3; the output is compared and the bytes past it checked
 * untouched; the case is run again in place, and split into two calls at an 8-byte boundary
 * (the caller advancing the counter) to check the counter handling. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAX_LEN 4096    /* vectors.py: MAX_LEN */
#define GUARD 8
static uint32_t rk[PRESENT80CTR_RK_WORDS + 4] __attribute__((aligned(4)));
static uint8_t obuf[4 + MAX_LEN + GUARD] __attribute__((aligned(4)));
static uint8_t ibuf[4 + MAX_LEN] __attribute__((aligned(4)));
static uint8_t ivbuf[4 + 8] __attribute__((aligned(4)));
static uint8_t kbuf[4 + 10] __attribute__((aligned(4)));

static int guard_ok(const rvlab_case *c, const uint8_t *out, uint32_t len, const char *what)
{
    for (uint32_t i = len; i < len + GUARD; i++)
        if (out[i] != 0xa5) { rvlab_fail(c, "%s wrote past the end of out (byte %lu)", what, (unsigned long)i); return 0; }
    return 1;
}

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), ivf = RVLAB_FIELD(c, "iv");
    rvlab_buf pt = RVLAB_FIELD(c, "pt");
    if (key.len != 10 || ivf.len != 8 || pt.len > MAX_LEN) {
        rvlab_fail(c, "bad case shape (key %lu, iv %lu, pt %lu bytes)",
                   (unsigned long)key.len, (unsigned long)ivf.len, (unsigned long)pt.len);
        return;
    }
    static uint32_t n;                 /* cycles the offsets over the cases */
    int off = n++ & 3;
    memset(rk, 0xa5, sizeof rk);
    memcpy(kbuf + 3, key.p, 10);
    RVLAB_CALL(present80ctr_keyexp, rk, kbuf + 3);
    for (int i = PRESENT80CTR_RK_WORDS; i < PRESENT80CTR_RK_WORDS + 4; i++)
        if (rk[i] != 0xa5a5a5a5u) { rvlab_fail(c, "keyexp wrote past rk[%d]", PRESENT80CTR_RK_WORDS); return; }
    uint8_t *in = ibuf + off, *out = obuf + ((off + 1) & 3), *iv = ivbuf + ((off + 2) & 3);
    memcpy(in, pt.p, pt.len);
    memcpy(iv, ivf.p, 8);
    memset(obuf, 0xa5, sizeof obuf);
    RVLAB_CALL(present80ctr_xor, out, in, pt.len, iv, rk);
    if (!rvlab_check(c, "ct", out, pt.len) || !guard_ok(c, out, pt.len, "present80ctr_xor"))
        return;
    /* in place, at this case's offset */
    memset(obuf, 0xa5, sizeof obuf);
    out = obuf + off;
    memcpy(out, pt.p, pt.len);
    RVLAB_CALL(present80ctr_xor, out, out, pt.len, iv, rk);
    if (!rvlab_check(c, "ct", out, pt.len) || !guard_ok(c, out, pt.len, "in-place present80ctr_xor"))
        return;
    /* two calls: a multiple of 8 bytes, then the rest with the counter advanced */
    uint32_t first = (pt.len / 2) & ~7u;
    memset(obuf, 0xa5, sizeof obuf);
    RVLAB_CALL(present80ctr_xor, out, in, first, iv, rk);
    uint64_t ctr = 0;
    for (int i = 0; i < 8; i++)
        ctr = ctr << 8 | iv[i];
    ctr += first / 8;
    for (int i = 7; i >= 0; i--, ctr >>= 8)
        iv[i] = (uint8_t)ctr;
    RVLAB_CALL(present80ctr_xor, out + first, in + first, pt.len - first, iv, rk);
    rvlab_check(c, "ct", out, pt.len);
}

/* aes128-ctr test program: key expansion, then every case through aes128ctr_xor; the
 * output is compared, bytes past the end of out and past the round keys are checked
 * untouched, and the same case is run again split into two calls at a 16-byte boundary
 * (with the counter advanced by the caller) to check the counter handling. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAX_LEN 4096    /* vectors.py: MAX_LEN */
#define GUARD 16
static uint32_t rk[AES128CTR_RK_WORDS + 4] __attribute__((aligned(4)));
static uint8_t out[MAX_LEN + GUARD] __attribute__((aligned(4)));
static uint8_t in[MAX_LEN] __attribute__((aligned(4)));
static uint8_t iv[16] __attribute__((aligned(4)));

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf key = RVLAB_FIELD(c, "key"), ivf = RVLAB_FIELD(c, "iv");
    rvlab_buf pt = RVLAB_FIELD(c, "pt");
    if (key.len != 16 || ivf.len != 16 || pt.len > MAX_LEN) {
        rvlab_fail(c, "bad case shape (key %lu, iv %lu, pt %lu bytes)",
                   (unsigned long)key.len, (unsigned long)ivf.len, (unsigned long)pt.len);
        return;
    }
    memset(rk, 0xa5, sizeof rk);
    RVLAB_CALL(aes128ctr_keyexp, rk, key.p);
    for (int i = AES128CTR_RK_WORDS; i < AES128CTR_RK_WORDS + 4; i++)
        if (rk[i] != 0xa5a5a5a5u) { rvlab_fail(c, "keyexp wrote past rk[%d]", AES128CTR_RK_WORDS); return; }
    memcpy(in, pt.p, pt.len);
    memcpy(iv, ivf.p, 16);
    memset(out, 0xa5, sizeof out);
    RVLAB_CALL(aes128ctr_xor, out, in, pt.len, iv, rk);
    if (!rvlab_check(c, "ct", out, pt.len))
        return;
    for (uint32_t i = pt.len; i < pt.len + GUARD; i++)
        if (out[i] != 0xa5) { rvlab_fail(c, "wrote past the end of out (byte %lu)", (unsigned long)i); return; }
    /* split call: first part a multiple of 16 bytes, then the rest with counter + blocks */
    uint32_t first = (pt.len / 2) & ~15u;
    memset(out, 0xa5, sizeof out);
    RVLAB_CALL(aes128ctr_xor, out, in, first, iv, rk);
    uint32_t ctr = ((uint32_t)iv[12] << 24 | (uint32_t)iv[13] << 16 | (uint32_t)iv[14] << 8 | iv[15])
                   + first / 16;
    iv[12] = ctr >> 24; iv[13] = ctr >> 16; iv[14] = ctr >> 8; iv[15] = ctr;
    RVLAB_CALL(aes128ctr_xor, out + first, in + first, pt.len - first, iv, rk);
    rvlab_check(c, "ct", out, pt.len);
}

/* bigint-mul test program: every case through the impl's entry point, with guard words
 * around the 2n-limb result and the operands checked unchanged afterwards. Cases take turns
 * at the two 8-byte phases of a word array (a at word 0 or 1 of 8-byte aligned storage, b and
 * r at the other), so a kernel that steps a pointer with xori/ori instead of addi fails. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAXN 128
#define GUARD 0x6b8b4567u
static uint32_t A_[MAXN + 1] __attribute__((aligned(8))), B_[MAXN + 1] __attribute__((aligned(8)));
static uint32_t RB_[2 * MAXN + 3] __attribute__((aligned(8)));
static uint32_t A2[MAXN], B2[MAXN];
static uint32_t *A, *B, *RB, phase;
#define R (RB + 1)

static int load(const rvlab_case *c, const char *name, uint32_t *dst, uint32_t n)
{
    rvlab_buf f = RVLAB_FIELD(c, name);
    if (f.len != 4 * n) { rvlab_fail(c, "field '%s' has %lu bytes, expected %lu", name,
                                     (unsigned long)f.len, (unsigned long)(4 * n)); return 0; }
    memcpy(dst, f.p, f.len);
    return 1;
}

static void after(const rvlab_case *c, uint32_t n, const char *res, const char *fa, const char *fb)
{
    rvlab_check(c, res, R, 8 * n);
    if (RB[0] != GUARD || R[2 * n] != GUARD) rvlab_fail(c, "wrote outside r[0..2n)");
    if (memcmp(A, A2, 4 * n) || memcmp(B, B2, 4 * n)) rvlab_fail(c, "modified an operand (%s/%s)", fa, fb);
}

void rvlab_test_case(const rvlab_case *c)
{
    uint32_t n = rvlab_field_u32(c, "n");
    if (n > MAXN) { rvlab_fail(c, "n = %lu > MAXN", (unsigned long)n); return; }
    phase ^= 1;
    A = A_ + phase; B = B_ + (phase ^ 1); RB = RB_ + phase;     /* R = RB + 1: b's phase */
#ifdef RVLAB_HAS_BIGINT_MUL
    if (!load(c, "a", A, n) || !load(c, "b", B, n)) return;
    memcpy(A2, A, 4 * n); memcpy(B2, B, 4 * n);
    memset(R, 0xA5, 8 * n);                 /* the kernel must not rely on r being zero */
    RB[0] = GUARD; R[2 * n] = GUARD;
    RVLAB_CALL(bigint_mul, R, A, B, n);
    after(c, n, "r", "a", "b");
#endif
#ifdef RVLAB_HAS_BIGINT_MUL_REDUCED
    {
        uint32_t k = rvlab_field_u32(c, "k");
        if (k < 1 || k > bigint_mul_max_k(n)) { rvlab_fail(c, "k = %lu out of range", (unsigned long)k); return; }
        if (!load(c, "ra", A, n) || !load(c, "rb", B, n)) return;
        memcpy(A2, A, 4 * n); memcpy(B2, B, 4 * n);
        memset(R, 0xA5, 8 * n);
        RB[0] = GUARD; R[2 * n] = GUARD;
        RVLAB_CALL(bigint_mul_reduced, R, A, B, n, k);
        after(c, n, "rr", "ra", "rb");
    }
#endif
}

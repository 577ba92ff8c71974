/* bigint-add test program: every case through every entry point the impl provides,
 * out of place and in place (r = a), with a guard word after the result. Cases take turns at
 * the two 8-byte phases of a word array (a and r at word 0 or 1 of 8-byte aligned storage, b
 * at the other), so a kernel that steps a pointer with xori/ori instead of addi fails. */
#include <string.h>
#include "rvlab.h"
#include "api.h"

#define MAXN 80
#define GUARD 0x6b8b4567u
static uint32_t A_[MAXN + 1] __attribute__((aligned(8))), B_[MAXN + 1] __attribute__((aligned(8)));
static uint32_t R_[MAXN + 2] __attribute__((aligned(8)));
static uint32_t *A, *B, *R, phase;

static int load(const rvlab_case *c, const char *name, uint32_t *dst, uint32_t n)
{
    rvlab_buf f = RVLAB_FIELD(c, name);
    if (f.len != 4 * n) { rvlab_fail(c, "field '%s' has %lu bytes, expected %lu", name,
                                     (unsigned long)f.len, (unsigned long)(4 * n)); return 0; }
    memcpy(dst, f.p, f.len);
    return 1;
}

static void guard_check(const rvlab_case *c, uint32_t n, const char *what)
{
    if (R[n] != GUARD) rvlab_fail(c, "%s wrote past r[n-1]", what);
}

void rvlab_test_case(const rvlab_case *c)
{
    uint32_t n = rvlab_field_u32(c, "n");
    if (n > MAXN) { rvlab_fail(c, "n = %lu > MAXN", (unsigned long)n); return; }
    phase ^= 1;
    A = A_ + phase; B = B_ + (phase ^ 1); R = R_ + phase;
#ifdef RVLAB_HAS_BIGINT_ADD
    {
        uint32_t carry = 0;
        if (!load(c, "a", A, n) || !load(c, "b", B, n)) return;
        R[n] = GUARD;
        RVLAB_CALL_RET(carry, bigint_add, R, A, B, n);
        rvlab_check(c, "s", R, 4 * n);
        rvlab_check(c, "c", &carry, 4);
        guard_check(c, n, "bigint_add");
        memcpy(R, A, 4 * n);                       /* in place: r = a */
        RVLAB_CALL_RET(carry, bigint_add, R, R, B, n);
        rvlab_check(c, "s", R, 4 * n);
        rvlab_check(c, "c", &carry, 4);
        guard_check(c, n, "bigint_add (in place)");
    }
#endif
#ifdef RVLAB_HAS_BIGINT_ADD_REDUCED
    if (!load(c, "ra", A, n) || !load(c, "rb", B, n)) return;
    R[n] = GUARD;
    RVLAB_CALL(bigint_add_reduced, R, A, B, n);
    rvlab_check(c, "rs", R, 4 * n);
    guard_check(c, n, "bigint_add_reduced");
    memcpy(R, B, 4 * n);                           /* in place: r = b */
    RVLAB_CALL(bigint_add_reduced, R, A, R, n);
    rvlab_check(c, "rs", R, 4 * n);
    guard_check(c, n, "bigint_add_reduced (in place)");
#endif
#ifdef RVLAB_HAS_BIGINT_NORMALIZE
    {
        uint32_t k = rvlab_field_u32(c, "k"), carry = 0;
        if (!load(c, "rs", A, n)) return;
        R[n] = GUARD;
        RVLAB_CALL_RET(carry, bigint_normalize, R, A, n, k);
        rvlab_check(c, "rn", R, 4 * n);
        rvlab_check(c, "rc", &carry, 4);
        guard_check(c, n, "bigint_normalize");
        RVLAB_CALL_RET(carry, bigint_normalize, A, A, n, k);   /* in place */
        rvlab_check(c, "rn", A, 4 * n);
        rvlab_check(c, "rc", &carry, 4);
    }
#endif
}

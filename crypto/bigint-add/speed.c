/* bigint-add speed: operation "add" for n = 2..32 limbs (key "limbs"), and operation
 * "add_bits" at equal integer size (key "bits" = 256, 512, 1024, 2048): full radix adds
 * bits/32 limbs; reduced radix (k = BIGINT_ADD_DEFAULT_K) adds ceil(bits/k) limbs and
 * includes the carry normalisation back to limbs < 2^k. */
#include "rvlab.h"
#include "api.h"

#define MAXN 80
/* operands are secret (rvlab_secret_*: the constant-time checker taints them) */
uint32_t rvlab_secret_a[MAXN], rvlab_secret_b[MAXN];
static uint32_t r[MAXN];
#define a rvlab_secret_a
#define b rvlab_secret_b

static void mask(uint32_t *x, unsigned n, unsigned k)
{
    for (unsigned i = 0; i < n; i++) x[i] &= (1u << k) - 1;
}

void rvlab_speed(void)
{
    static const unsigned bits[] = { 256, 512, 1024, 2048 };
    rvlab_fill(a, sizeof a, 1);
    rvlab_fill(b, sizeof b, 2);
#ifdef RVLAB_HAS_BIGINT_ADD
    for (unsigned n = 2; n <= 32; n++)
        RVLAB_BENCH_KV("add", 4 * n, "limbs", n, bigint_add(r, a, b, n));
    for (unsigned i = 0; i < 4; i++) {
        unsigned n = bits[i] / 32;
        RVLAB_BENCH_KV("add_bits", 4 * n, "bits", bits[i], bigint_add(r, a, b, n));
    }
#endif
#ifdef RVLAB_HAS_BIGINT_ADD_REDUCED
    mask(a, MAXN, BIGINT_ADD_DEFAULT_K);
    mask(b, MAXN, BIGINT_ADD_DEFAULT_K);
    for (unsigned n = 2; n <= 32; n++)
        RVLAB_BENCH_KV("add", 4 * n, "limbs", n, bigint_add_reduced(r, a, b, n));
#ifdef RVLAB_HAS_BIGINT_NORMALIZE
    for (unsigned n = 2; n <= 32; n++)
        RVLAB_BENCH_KV("normalize", 4 * n, "limbs", n, bigint_normalize(r, r, n, BIGINT_ADD_DEFAULT_K));
    for (unsigned i = 0; i < 4; i++) {
        unsigned n = (bits[i] + BIGINT_ADD_DEFAULT_K - 1) / BIGINT_ADD_DEFAULT_K;
        RVLAB_BENCH_KV("add_bits", 4 * n, "bits", bits[i],
                       (bigint_add_reduced(r, a, b, n), bigint_normalize(r, r, n, BIGINT_ADD_DEFAULT_K)));
    }
#endif
#endif
}

/* bigint-mul speed: operation "mul" for n = 2..32 and 40, 48, 64, 96, 128 limbs (key
 * "limbs"; reduced radix with k = bigint_mul_max_k(n)), and operation "mul_bits" at equal
 * integer size (key "bits" = 256, 512, 1024, 2048): full radix multiplies bits/32 limbs,
 * reduced radix the smallest even n with n * bigint_mul_max_k(n) >= bits, radix
 * k = ceil(bits / n) (the reduced kernels return normalised limbs: the final carry pass is
 * included). */
#include "rvlab.h"
#include "api.h"

#define MAXN 128
/* operands are secret (rvlab_secret_*: the constant-time checker taints them) */
uint32_t rvlab_secret_a[MAXN], rvlab_secret_b[MAXN];
static uint32_t r[2 * MAXN];
#define a rvlab_secret_a
#define b rvlab_secret_b
static const unsigned sweep_big[] = { 40, 48, 64, 96, 128 };
static const unsigned bits[] = { 256, 512, 1024, 2048 };

#ifdef RVLAB_HAS_BIGINT_MUL_REDUCED
static void fill_reduced(unsigned k)
{
    rvlab_fill(a, sizeof a, 1);
    rvlab_fill(b, sizeof b, 2);
    for (unsigned i = 0; i < MAXN; i++) { a[i] &= (1u << k) - 1; b[i] &= (1u << k) - 1; }
}
#endif

void rvlab_speed(void)
{
    rvlab_fill(a, sizeof a, 1);
    rvlab_fill(b, sizeof b, 2);
#ifdef RVLAB_HAS_BIGINT_MUL
    for (unsigned n = 2; n <= 32; n++)
        RVLAB_BENCH_KV("mul", 4 * n, "limbs", n, bigint_mul(r, a, b, n));
    for (unsigned i = 0; i < sizeof sweep_big / sizeof *sweep_big; i++)
        RVLAB_BENCH_KV("mul", 4 * sweep_big[i], "limbs", sweep_big[i], bigint_mul(r, a, b, sweep_big[i]));
    for (unsigned i = 0; i < 4; i++)
        RVLAB_BENCH_KV("mul_bits", bits[i] / 8, "bits", bits[i], bigint_mul(r, a, b, bits[i] / 32));
#endif
#ifdef RVLAB_HAS_BIGINT_MUL_REDUCED
    for (unsigned n = 2; n <= 32; n++) {
        unsigned k = bigint_mul_max_k(n);
        fill_reduced(k);
        RVLAB_BENCH_KV("mul", 4 * n, "limbs", n, bigint_mul_reduced(r, a, b, n, k));
    }
    for (unsigned i = 0; i < sizeof sweep_big / sizeof *sweep_big; i++) {
        unsigned n = sweep_big[i], k = bigint_mul_max_k(n);
        fill_reduced(k);
        RVLAB_BENCH_KV("mul", 4 * n, "limbs", n, bigint_mul_reduced(r, a, b, n, k));
    }
    for (unsigned i = 0; i < 4; i++) {
        unsigned n = 2;
        while (n * bigint_mul_max_k(n) < bits[i]) n += 2;
        unsigned k = (bits[i] + n - 1) / n;
        fill_reduced(k);
        RVLAB_BENCH_KV("mul_bits", 4 * n, "bits", bits[i], bigint_mul_reduced(r, a, b, n, k));
    }
#endif
}

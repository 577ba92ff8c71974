/* bigint-mul/best: the fastest kernel of this folder for each n on the e31 model
 * (multiplier latency 5), from the measured crossovers (NOTES.md); n = 32 goes straight to
 * its kernel, every other n through the recursive Karatsuba below, which hands n < 30 and
 * odd n to best_base:
 *   n = 4, 8, 12        straight-line Comba (../comba-fixed/kernels.inc)
 *   other n <= 7        operand-scanning schoolbook (least set-up)
 *   n = 16, 24, 32      straight-line Karatsuba (../karatsuba-fixed/kernels.inc)
 *   other even n >= KAR_THRESHOLD   subtractive Karatsuba, recursing into this dispatcher
 *   other n             Duff-unrolled Comba (operand scanning above 64 limbs)
 * Radix 2^32, RV32IM. */
#ifndef KAR_THRESHOLD
#define KAR_THRESHOLD 30
#endif
#define SB_NAME best_sb
#define SB_VARIANT 1
#define SB_GLOBAL 0
#include "../common/schoolbook.inc"
#define CB_NAME best_comba
#define CB_VARIANT 1
#define CB_NMAX 64
#define CB_FALLBACK best_sb
#define CB_GLOBAL 0
#include "../common/comba.inc"
#include "../karatsuba-fixed/layout.inc"
    .text
    .type best_base, @function
    .p2align 2
best_base:
    li    t0, 4
    beq   a3, t0, cfx_mul4
    li    t0, 8
    bltu  a3, t0, best_sb
    beq   a3, t0, cfx_mul8
    li    t0, 12
    beq   a3, t0, cfx_mul12
    li    t0, 16
    beq   a3, t0, kf_mul16
    li    t0, 24
    beq   a3, t0, kf_mul24
    j     best_comba
    .size best_base, .-best_base
#define KAR_NAME best_kar
#define KAR_SUB bigint_mul
#define KAR_VARIANT 1
#define KAR_BASE best_base
#define KAR_RECURSE 1
#include "../common/karatsuba.inc"
    .text
    .globl bigint_mul
    .type bigint_mul, @function
    .p2align 2
bigint_mul:
    li    t0, 32
    beq   a3, t0, kf_mul32
    j     best_kar
    .size bigint_mul, .-bigint_mul

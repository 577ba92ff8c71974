/* bigint-mul/best: the fastest kernel of this folder for each n on the e31 model
 * (multiplier latency 5), from the measured crossovers (NOTES.md); n = 32 goes straight to
 * its kernel, every other n through the recursive Karatsuba below, which hands n < 30 and
 * odd n to best_base:
 *   n = 2..8            straight-line Comba (../comba-fixed/kernels.inc)
 *   n = 0, 1            operand-scanning schoolbook
 *   n = 10, 12, 14, 16, 18, 20, 24, 28, 32  straight-line Karatsuba (../karatsuba-fixed/kernels.inc)
 *   other even n >= KAR_THRESHOLD   subtractive Karatsuba, recursing into this dispatcher
 *   odd n = 13..19, 23, 27, 31..63  the operands zero-extended to n + 1 limbs (odd.inc)
 *   other n             Duff-unrolled Comba (operand scanning above 64 limbs)
 * Radix 2^32, RV32IM.  Code order: the dispatcher, the recursion and the odd-n path first, then
 * the kernels (../karatsuba-fixed/layout.inc), so the n = 32 chain starts right after the caller. */
#ifndef KAR_THRESHOLD
#define KAR_THRESHOLD 30
#endif
#include "../common/dispatch.inc"
    .text
    .globl bigint_mul
    .type bigint_mul, @function
    .p2align 2
bigint_mul:
    on_n  32, kf_mul32
    j     best_kar
    .size bigint_mul, .-bigint_mul
#define KAR_NAME best_kar
#define KAR_SUB bigint_mul
#define KAR_VARIANT 1
#define KAR_BASE best_base
#define KAR_RECURSE 1
#include "../common/karatsuba.inc"
#include "odd.inc"                  /* odd n: through the kernel for n + 1 */
#define LAYOUT_AFTER_N32 "../best/small.inc"   /* (resolved next to layout.inc) */
#include "../karatsuba-fixed/layout.inc"

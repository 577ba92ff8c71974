/* bigint-mul/best: the fastest kernel of this folder for each n on the e31 model
 * (multiplier latency 5), from the measured crossovers (NOTES.md); n = 32 goes straight to
 * its kernel, every other n through the recursive Karatsuba below, which hands n < 32 and
 * odd n to best_base:
 *   n = 2..8            straight-line Comba (../comba-fixed/kernels.inc)
 *   n = 0, 1            operand-scanning schoolbook
 *   n = 10, 12, 14, 16, 18, 20, 24, 28, 32  straight-line Karatsuba (../karatsuba-fixed/kernels.inc)
 *   other even n >= KAR_THRESHOLD   subtractive Karatsuba, recursing into this dispatcher
 *   n = 13, 15, 17, 19, 22, 23, 25..27, 29..31 and odd n = 33..63: the operands
 *                       zero-extended to a size with a kernel (pad.inc)
 *   other n             Duff-unrolled Comba (operand scanning above 64 limbs)
 * Radix 2^32, RV32IM.  Code order: the dispatcher, pad.inc and the recursion first, then
 * the kernels (../karatsuba-fixed/layout.inc), so the n = 32 chain starts right after the caller. */
#ifndef KAR_THRESHOLD
#define KAR_THRESHOLD 32           /* n = 30 is faster through pad.inc (kf_mul32) */
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
#include "pad.inc"                  /* n without a kernel, through a larger size with one */
#define KAR_NAME best_kar
#define KAR_SUB bigint_mul
#define KAR_VARIANT 1
#define KAR_BASE best_base
#define KAR_RECURSE 1
#include "../common/karatsuba.inc"
#define LAYOUT_AFTER_N32 "../best/small.inc"   /* (resolved next to layout.inc) */
#include "../karatsuba-fixed/layout.inc"

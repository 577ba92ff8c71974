/* bigint-mul/best: the fastest kernel of this folder for each n on the e31 model
 * (multiplier latency 5), from the measured crossovers (NOTES.md).  n <= 32 jumps through a
 * table of kernel addresses (the same 8 instructions for every n, no compare chain; the table
 * is data, in the DTIM, so it moves no code: the kernels' I-cache layout stays as
 * layout_check.py wants it); n > 32 goes to the recursive Karatsuba below, which recurses
 * into bigint_mul and hands odd n to best_pad:
 *   n = 0, 1            operand-scanning schoolbook
 *   n = 2..9, 11, 13, 15, 17  straight-line Comba (../comba-fixed/kernels.inc)
 *   n = 10, 12, 14, 16, 18, 20, 24, 28, 32  straight-line Karatsuba (../karatsuba-fixed/kernels.inc)
 *   n = 19, 22, 23, 25..27, 29..31 and odd n = 33..63: the operands
 *                       zero-extended to a size with a kernel (pad.inc)
 *   n = 21 and odd n > 63   Duff-unrolled Comba (operand scanning above 64 limbs)
 *   even n > 32         subtractive Karatsuba, recursing into bigint_mul
 * Radix 2^32, RV32IM.  Code order: the dispatcher, pad.inc and the recursion first, then
 * the kernels (../karatsuba-fixed/layout.inc), so the n = 32 chain starts right after the caller. */
#ifndef KAR_THRESHOLD
#define KAR_THRESHOLD 33           /* n <= 32 never reaches the recursion (the table) */
#endif
#include "../common/dispatch.inc"
    .section .data.bigint_mul_table, "aw"
    .p2align 2
best_table:                        /* entry n: where bigint_mul(r, a, b, n) goes */
    .word best_sb, best_sb                                            /* 0, 1 */
    .word cfx_mul2, cfx_mul3, cfx_mul4, cfx_mul5, cfx_mul6, cfx_mul7, cfx_mul8
    .word cfx_mul9, kf_mul10, cfx_mul11, kf_mul12                     /* 9..12 */
    .word cfx_mul13, kf_mul14, cfx_mul15, kf_mul16                    /* 13..16 */
    .word cfx_mul17, kf_mul18, best_pad20, kf_mul20                   /* 17..20 */
    .word best_comba, best_pad24, best_pad24, kf_mul24                /* 21..24 */
    .word best_pad28, best_pad28, best_pad28, kf_mul28                /* 25..28 */
    .word best_pad32, best_pad32, best_pad32, kf_mul32                /* 29..32 */
    .text
    .globl bigint_mul
    .type bigint_mul, @function
    .p2align 2
bigint_mul:
    jump_table best_table, 33, best_kar
    .size bigint_mul, .-bigint_mul
#include "pad.inc"                  /* n without a kernel, through a larger size with one */
#define KAR_NAME best_kar
#define KAR_SUB bigint_mul
#define KAR_VARIANT 1
#define KAR_BASE best_pad            /* odd n > 32 */
#define KAR_RECURSE 1
#include "../common/karatsuba.inc"
#define LAYOUT_AFTER_N24 "../best/small.inc"   /* (resolved next to layout.inc) */
#include "../karatsuba-fixed/layout.inc"
/* the straight-line Combas for odd n = 9..17, behind every chain (each is called alone), in the
 * order that keeps the sets the two longer than one I-cache way (n = 15: 8.9 KiB, n = 17,
 * P-521: 11.5 KiB) cover twice clear of the callers' (python3 ../layout_check.py SPEED_ELF) */
#define CFX_PICK 15
#include "../comba-fixed/kernels.inc"
#undef CFX_PICK
#define CFX_PICK 9
#include "../comba-fixed/kernels.inc"
#undef CFX_PICK
#define CFX_PICK 17
#include "../comba-fixed/kernels.inc"
#undef CFX_PICK
#define CFX_PICK 11
#include "../comba-fixed/kernels.inc"
#undef CFX_PICK
#define CFX_PICK 13
#include "../comba-fixed/kernels.inc"
#undef CFX_PICK

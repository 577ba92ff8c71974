/* bigint-mul/comba-carry: product-scanning schoolbook (Duff-style unrolled columns), radix 2^32,
 * carries with the xcarry addc instruction; n <= 64 (larger n: the operand-scanning schoolbook).
 * See ../common/comba.inc. */
#include "ise.inc"
#define SB_NAME comba_big_mul
#define SB_VARIANT 2
#define SB_GLOBAL 0
#include "../common/schoolbook.inc"
#define CB_NAME bigint_mul
#define CB_VARIANT 2
#define CB_NMAX 64
#define CB_FALLBACK comba_big_mul
#define CB_GLOBAL 1
#include "../common/comba.inc"

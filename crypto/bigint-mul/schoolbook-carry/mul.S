/* bigint-mul/schoolbook-carry: operand-scanning schoolbook, radix 2^32, carries with the
 * xcarry add-with-carry instruction. See ../common/schoolbook.inc. */
#include "ise.inc"
#define SB_NAME bigint_mul
#define SB_VARIANT 2
#define SB_GLOBAL 1
#include "../common/schoolbook.inc"

/* bigint-mul/schoolbook: operand-scanning schoolbook, radix 2^32, ADD+SLTU carries (RV32IM).
 * See ../common/schoolbook.inc. */
#define SB_NAME bigint_mul
#define SB_VARIANT 1
#define SB_GLOBAL 1
#include "../common/schoolbook.inc"

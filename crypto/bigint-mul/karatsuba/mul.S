/* bigint-mul/karatsuba: one level of Karatsuba (n even) over the operand-scanning schoolbook.
 * See ../common/karatsuba.inc and ../common/schoolbook.inc. */
#define SB_NAME kar_base_mul
#define SB_VARIANT 1
#define SB_GLOBAL 0
#include "../common/schoolbook.inc"
#define KAR_NAME bigint_mul
#define KAR_VARIANT 1
#define KAR_BASE kar_base_mul
#define KAR_RECURSE 0
#include "../common/karatsuba.inc"

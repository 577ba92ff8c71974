/* bigint-mul/karatsuba-carry: one level of Karatsuba (n even) over the operand-scanning schoolbook.
 * See ../common/karatsuba.inc and ../common/schoolbook.inc. */
#include "ise.inc"
#define SB_NAME kar_base_mul
#define SB_VARIANT 2
#define SB_GLOBAL 0
#include "../common/schoolbook.inc"
#define KAR_NAME bigint_mul
#define KAR_VARIANT 2
#define KAR_BASE kar_base_mul
#define KAR_RECURSE 0
#include "../common/karatsuba.inc"

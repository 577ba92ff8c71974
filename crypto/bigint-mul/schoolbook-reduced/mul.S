/* bigint-mul/schoolbook-reduced: operand-scanning schoolbook in radix 2^k (k at run time),
 * no carry propagation in the rows, one carry pass at the end. See ../common/schoolbook.inc. */
#define SB_NAME bigint_mul_reduced
#define SB_VARIANT 3
#define SB_GLOBAL 1
#include "../common/schoolbook.inc"

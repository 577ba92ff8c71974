/* bigint-mul/schoolbook-carry: operand-scanning schoolbook, radix 2^32, carries with the
 * xcarry add-with-carry instruction. See ../common/schoolbook.inc. */
/* xcarry macros from ise/addc and ise/subc (not ise.inc: its generated first comment ends
 * early under cpp, see the bigint report) */
#include "addc/macro.inc"
#include "subc/macro.inc"
#define SB_NAME bigint_mul
#define SB_VARIANT 2
#define SB_GLOBAL 1
#include "../common/schoolbook.inc"

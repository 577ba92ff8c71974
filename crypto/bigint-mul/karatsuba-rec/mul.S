/* bigint-mul/karatsuba-rec: recursive subtractive Karatsuba, radix 2^32 (RV32IM).
 * Even n >= KAR_THRESHOLD splits in halves; odd n or n < KAR_THRESHOLD use the Comba
 * product-scanning base case (../common/comba.inc). The threshold is the measured crossover
 * between one Karatsuba level and Comba (see ../NOTES.md); override with -DKAR_THRESHOLD=.
 * See ../common/karatsuba.inc. */
#ifndef KAR_THRESHOLD
#define KAR_THRESHOLD 30
#endif
#define SB_NAME kr_big_mul
#define SB_VARIANT 1
#define SB_GLOBAL 0
#include "../common/schoolbook.inc"
#define CB_NAME kr_comba_mul
#define CB_VARIANT 1
#define CB_NMAX 64
#define CB_FALLBACK kr_big_mul
#define CB_GLOBAL 0
#include "../common/comba.inc"
#define KAR_NAME bigint_mul
#define KAR_VARIANT 1
#define KAR_BASE kr_comba_mul
#define KAR_RECURSE 1
#include "../common/karatsuba.inc"

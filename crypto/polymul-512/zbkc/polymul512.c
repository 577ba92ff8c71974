/* polymul-512/zbkc: two Karatsuba levels over the polymul-128/zbkc kernel (9 calls). */
#include "api.h"
#include "../../polymul-128/karatsuba.h"
void polymul_128(uint32_t r[8], const uint32_t a[4], const uint32_t b[4]);
POLYMUL_KARATSUBA(static, polymul_256_k, polymul_128, 4)
POLYMUL_KARATSUBA(, polymul_512, polymul_256_k, 8)

/* polymul-256/lut-x: one Karatsuba level over the polymul-128/lut-x kernel (3 calls). */
#include "api.h"
#include "../../polymul-128/karatsuba.h"
void polymul_128(uint32_t r[8], const uint32_t a[4], const uint32_t b[4]);
POLYMUL_KARATSUBA(, polymul_256, polymul_128, 4)

/* polymul-128 test program: every case through polymul_128, checked against the oracle. */
#include "api.h"
#define PM_WORDS 4
#define PM_FN polymul_128
#ifdef RVLAB_HAS_POLYMUL_128
#define PM_HAS 1
#endif
#include "polymul_test.h"

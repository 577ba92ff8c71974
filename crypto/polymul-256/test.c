/* polymul-256 test program: every case through polymul_256, checked against the oracle. */
#include "api.h"
#define PM_WORDS 8
#define PM_FN polymul_256
#ifdef RVLAB_HAS_POLYMUL_256
#define PM_HAS 1
#endif
#include "../polymul-128/polymul_test.h"

/* polymul-128 speed/stack program: operation "mul". */
#include "api.h"
#define PM_WORDS 4
#define PM_FN polymul_128
#ifdef RVLAB_HAS_POLYMUL_128
#define PM_HAS 1
#endif
#include "polymul_speed.h"

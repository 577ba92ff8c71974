/* polymul-256 speed/stack program: operation "mul". */
#include "api.h"
#define PM_WORDS 8
#define PM_FN polymul_256
#ifdef RVLAB_HAS_POLYMUL_256
#define PM_HAS 1
#endif
#include "../polymul-128/polymul_speed.h"

/* polymul-512 speed/stack program: operation "mul". */
#include "api.h"
#define PM_WORDS 16
#define PM_FN polymul_512
#ifdef RVLAB_HAS_POLYMUL_512
#define PM_HAS 1
#endif
#include "../polymul-128/polymul_speed.h"

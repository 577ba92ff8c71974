/* Shared body of the polymul-128/256/512 speed programs (see polymul_test.h). */
#include "rvlab.h"

static uint32_t pm_a[PM_WORDS], pm_b[PM_WORDS], pm_r[2 * PM_WORDS];

void rvlab_speed(void)
{
    rvlab_fill(pm_a, sizeof pm_a, 1);
    rvlab_fill(pm_b, sizeof pm_b, 2);
#ifdef PM_HAS
    /* input_bytes: both operands */
    RVLAB_BENCH("mul", 8 * PM_WORDS, PM_FN(pm_r, pm_a, pm_b));
#endif
}

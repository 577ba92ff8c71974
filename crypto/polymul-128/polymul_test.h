/* Shared body of the polymul-128/256/512 test programs. The including test.c defines
 * PM_WORDS (limbs per operand), PM_FN (entry point) and PM_HAS (if the manifest lists it). */
#include <string.h>
#include "rvlab.h"

#define PM_GUARD 0xA5C3E1F7u
static uint32_t pm_a[PM_WORDS], pm_b[PM_WORDS], pm_a0[PM_WORDS], pm_b0[PM_WORDS];
static uint32_t pm_r[2 * PM_WORDS + 2];   /* pm_r[0] and pm_r[2W+1] are guard words */

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_buf a = RVLAB_FIELD(c, "a");
    rvlab_buf b = RVLAB_FIELD(c, "b");
    if (a.len != 4 * PM_WORDS || b.len != 4 * PM_WORDS) {
        rvlab_fail(c, "operands are %lu and %lu bytes, expected %u",
                   (unsigned long)a.len, (unsigned long)b.len, 4 * PM_WORDS);
        return;
    }
    memcpy(pm_a, a.p, 4 * PM_WORDS);
    memcpy(pm_b, b.p, 4 * PM_WORDS);
    memcpy(pm_a0, pm_a, sizeof pm_a);
    memcpy(pm_b0, pm_b, sizeof pm_b);
#ifdef PM_HAS
    for (int i = 0; i < 2 * PM_WORDS + 2; i++)    /* garbage: the kernel must not rely on r = 0 */
        pm_r[i] = PM_GUARD ^ (uint32_t)i;
    RVLAB_CALL(PM_FN, pm_r + 1, pm_a, pm_b);
    rvlab_check(c, "r", pm_r + 1, 8 * PM_WORDS);
    if (pm_r[0] != PM_GUARD || pm_r[2 * PM_WORDS + 1] != (PM_GUARD ^ (2u * PM_WORDS + 1)))
        rvlab_fail(c, "wrote outside r");
    if (memcmp(pm_a, pm_a0, sizeof pm_a) || memcmp(pm_b, pm_b0, sizeof pm_b))
        rvlab_fail(c, "modified an operand");
#endif
}

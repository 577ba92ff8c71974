/* Shared body of the polymul-128/256/512 speed programs (see polymul_test.h).
 * Both operands are secret for the constant-time checker (global rvlab_secret_* names,
 * harness/README.md): in GCM or binary-field ECC at least one of them is. */
#include "rvlab.h"
/* rvlab bench marks the rvlab_secret_* symbols at load time (rvsim --secret); rvsim keeps
 * such secret inputs secret through start-up and rvlab_fill, whatever is stored into them,
 * until they are declassified (sim/README.md, constant-time checker), as in every other speed
 * program. The run-time marking below (semihosting call 0x100, which rvsim understands; the
 * speed and stack programs run only on rvsim) is therefore redundant under rvlab bench; it
 * makes the operands secret also in a run that only turns the checker on (rvsim --secret 0:0). */
#define RVLAB_CT 1
#include "rvlab_ct.h"

uint32_t rvlab_secret_a[PM_WORDS], rvlab_secret_b[PM_WORDS];
static uint32_t pm_r[2 * PM_WORDS];

void rvlab_speed(void)
{
    rvlab_fill(rvlab_secret_a, sizeof rvlab_secret_a, 1);
    rvlab_fill(rvlab_secret_b, sizeof rvlab_secret_b, 2);
    RVLAB_SECRET(rvlab_secret_a, sizeof rvlab_secret_a);
    RVLAB_SECRET(rvlab_secret_b, sizeof rvlab_secret_b);
#ifdef PM_HAS
    /* input_bytes: both operands */
    RVLAB_BENCH("mul", 8 * PM_WORDS, PM_FN(pm_r, rvlab_secret_a, rvlab_secret_b));
#endif
}

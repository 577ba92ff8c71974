/* sm3 test program: the shared hash test body ../sha256/md_test.h (one-shot, misaligned,
 * in place, incremental and repeated-message cases). */
#include "rvlab.h"
#include "api.h"
#include "../sha256/md_test.h"

#ifdef RVLAB_HAS_SM3
static const md_alg alg = MD_ALG(32, sm3_init, sm3_update, sm3_final, sm3, sm3_compress);
#endif

void rvlab_test_case(const rvlab_case *c)
{
#ifdef RVLAB_HAS_SM3
    rvlab_buf md = RVLAB_FIELD(c, "md");
    if (md.len != 32) { rvlab_fail(c, "md must be 32 bytes"); return; }
    md_test_case(c, &alg);
#endif
}

/* sha256 test program: SHA-224 or SHA-256 by the case's digest length (28 or 32 bytes),
 * through the shared hash test body md_test.h (one-shot, misaligned, in place, incremental,
 * repeated-message and Monte Carlo cases). */
#include "rvlab.h"
#include "api.h"
#include "md_test.h"

#ifdef RVLAB_HAS_SHA256
static const md_alg alg[2] = {
    MD_ALG(28, sha224_init, sha256_update, sha224_final, sha224, sha256_compress),
    MD_ALG(32, sha256_init, sha256_update, sha256_final, sha256, sha256_compress),
};
#endif

void rvlab_test_case(const rvlab_case *c)
{
#ifdef RVLAB_HAS_SHA256
    rvlab_buf md = RVLAB_FIELD(c, "md");
    if (md.len != 28 && md.len != 32) { rvlab_fail(c, "md must be 28 or 32 bytes"); return; }
    md_test_case(c, &alg[md.len == 32]);
#endif
}

/* sha512 test program: SHA-384 or SHA-512 by the case's digest length (48 or 64 bytes),
 * through the shared hash test body ../sha256/md_test.h. */
#include "rvlab.h"
#include "api.h"
#include "../sha256/md_test.h"

#ifdef RVLAB_HAS_SHA512
static const md_alg alg[2] = {
    MD_ALG(48, sha384_init, sha512_update, sha384_final, sha384, sha512_compress),
    MD_ALG(64, sha512_init, sha512_update, sha512_final, sha512, sha512_compress),
};
#endif

void rvlab_test_case(const rvlab_case *c)
{
#ifdef RVLAB_HAS_SHA512
    rvlab_buf md = RVLAB_FIELD(c, "md");
    if (md.len != 48 && md.len != 64) { rvlab_fail(c, "md must be 48 or 64 bytes"); return; }
    md_test_case(c, &alg[md.len == 64]);
#endif
}

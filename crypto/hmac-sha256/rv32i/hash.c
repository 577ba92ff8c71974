/* the SHA-256 padding and incremental API (sha256/hash.c), on the kernel above */
#include "../../sha256/hash.c"

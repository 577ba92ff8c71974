/* the SHA-256 compression kernel of sha256/zknh */
#include "../../sha256/zknh/sha256.S"

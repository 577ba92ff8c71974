/* the SHA-256 compression kernel of sha256/zbkb */
#include "../../sha256/zbkb/sha256.S"

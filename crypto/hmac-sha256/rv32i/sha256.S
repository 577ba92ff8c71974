/* the SHA-256 compression kernel of sha256/rv32i */
#include "../../sha256/rv32i/sha256.S"

/* SHA-256/224 padding and incremental API on this folder's kernel */
#include "../hash.c"

/* SHA-512/384 padding and incremental API on this folder's kernel */
#include "../hash.c"

/* SM3 padding and incremental API on this folder's kernel */
#include "../hash.c"

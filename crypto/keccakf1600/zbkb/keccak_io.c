/* Zbkb variant: zip/unzip for the bit-interleaving, no lane complementing. */
#define KECCAK_ZBKB 1
#include "../rv32i/keccak_io.c"

/* conversion and sponge helpers for this ISA's Keccak-f[1600] kernel */
#include "../../keccakf1600/zbkb/keccak_io.c"

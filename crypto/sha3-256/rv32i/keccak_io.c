/* conversion and sponge helpers for this ISA's Keccak-f[1600] kernel */
#include "../../keccakf1600/rv32i/keccak_io.c"

/* the Keccak-f[1600] permutation kernel for this ISA */
#include "../../keccakf1600/rv32i/keccakf1600.S"

/* the Keccak-f[1600] permutation kernel for this ISA */
#include "../../keccakf1600/zbkb/keccakf1600.S"

/* SHA3-256 = Keccak[512](M || 01, 256): C sponge over this ISA's Keccak-f[1600] kernel. */
#include "api.h"
#include "../../keccakf1600/sponge.h"

void sha3_256(uint8_t out[32], const uint8_t *in, size_t len)
{
    keccak_sponge(out, 32, in, len, 17, 0x06);
}

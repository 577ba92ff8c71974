/* SHAKE128 = Keccak[256](M || 1111, d): C sponge over this ISA's Keccak-f[1600] kernel. */
#include "api.h"
#include "../../keccakf1600/sponge.h"

void shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t len)
{
    keccak_sponge(out, outlen, in, len, 21, 0x1F);
}

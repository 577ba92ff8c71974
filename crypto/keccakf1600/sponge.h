/* Generic Keccak sponge (FIPS 202) over the keccakf1600 API and its sponge helpers.
 * Header-only (static), included by the sha3-256 and shake128 implementations so that
 * each is built on the permutation of its ISA.  rate_lanes = rate in 8-byte lanes
 * (SHA3-256: 17, SHAKE128: 21); ds = domain-separation byte incl. the first pad bit
 * (SHA3: 0x06, SHAKE: 0x1F). */
#ifndef RVLAB_KECCAK_SPONGE_H
#define RVLAB_KECCAK_SPONGE_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "../keccakf1600/api.h"

static void keccak_sponge(uint8_t *out, size_t outlen, const uint8_t *in, size_t len,
                          unsigned rate_lanes, uint8_t ds)
{
    const size_t rate = 8u * rate_lanes;
    uint32_t st[50];
    uint8_t blk[8 * 21] __attribute__((aligned(4)));

    keccakf1600_init_internal(st);
    while (len >= rate) {
        keccakf1600_xor_lanes(st, in, rate_lanes);
        keccakf1600_permute(st);
        in += rate;
        len -= rate;
    }
    memset(blk, 0, rate);
    memcpy(blk, in, len);
    blk[len] ^= ds;
    blk[rate - 1] ^= 0x80;
    keccakf1600_xor_lanes(st, blk, rate_lanes);
    keccakf1600_permute(st);
    while (outlen >= rate) {
        keccakf1600_extract_lanes(st, out, rate_lanes);
        out += rate;
        outlen -= rate;
        if (outlen)
            keccakf1600_permute(st);
    }
    if (outlen) {
        unsigned nl = (unsigned)((outlen + 7) / 8);
        keccakf1600_extract_lanes(st, blk, nl);
        memcpy(out, blk, outlen);
    }
}
#endif

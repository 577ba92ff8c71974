#ifndef RVLAB_KECCAKF1600_API_H
#define RVLAB_KECCAKF1600_API_H
/* Keccak-f[1600] permutation (FIPS 202), interfaces.md §7.
 * The state is 50 32-bit words in the implementation's own internal representation.
 * Standard representation: lane i = x + 5*y as 8 little-endian bytes at byte offset 8*i
 * (so on RV32, word 2i = low half, word 2i+1 = high half). */
#include <stddef.h>
#include <stdint.h>

void keccakf1600_permute(uint32_t state[50]);
void keccakf1600_to_internal(uint32_t state[50]);   /* standard byte order -> internal */
void keccakf1600_from_internal(uint32_t state[50]); /* internal -> standard byte order */

/* Sponge helpers (extension of the §7 API, used by sha3-256 and shake128):
 * init_internal: the all-zero state in internal form;
 * xor_lanes:     xor nlanes 8-byte little-endian lanes from in (any alignment) into lanes 0..nlanes-1;
 * extract_lanes: write lanes 0..nlanes-1 in standard byte order to out (any alignment). */
void keccakf1600_init_internal(uint32_t state[50]);
void keccakf1600_xor_lanes(uint32_t state[50], const uint8_t *in, unsigned nlanes);
void keccakf1600_extract_lanes(const uint32_t state[50], uint8_t *out, unsigned nlanes);
#endif

/* SHA-512 and SHA-384 (FIPS 180-4) — the API every implementation in crypto/sha512/ provides.
 * Inputs and outputs may have any alignment (byte offsets 1, 2, 3 included); any length.
 * SHA-384 is the same compression with other initial values and a 48-byte output; it uses
 * sha512_update. */
#ifndef SHA512_API_H
#define SHA512_API_H
#include <stddef.h>
#include <stdint.h>

#define SHA512_BLOCK_BYTES 128

/* the compression function (FIPS 180-4 §6.4.2) on nblocks consecutive 128-byte blocks:
 * state[i] = H_i as a native 64-bit word.  Records: operation "compress" (one block). */
void sha512_compress(uint64_t state[8], const uint8_t *in, size_t nblocks);

typedef struct {
    uint64_t state[8];
    uint64_t bytes;                     /* message bytes absorbed so far (< 2^64) */
    uint8_t buf[SHA512_BLOCK_BYTES];    /* the last bytes % 128 of them */
} sha512_ctx;

void sha512_init(sha512_ctx *ctx);
void sha384_init(sha512_ctx *ctx);
void sha512_update(sha512_ctx *ctx, const uint8_t *in, size_t len);
void sha512_final(sha512_ctx *ctx, uint8_t out[64]);   /* also clears ctx */
void sha384_final(sha512_ctx *ctx, uint8_t out[48]);   /* also clears ctx */

/* one-shot.  Records: operation "hash" (4096 bytes). */
void sha512(uint8_t out[64], const uint8_t *in, size_t len);
void sha384(uint8_t out[48], const uint8_t *in, size_t len);

#endif

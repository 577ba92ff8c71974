/* SHA-256 and SHA-224 (FIPS 180-4) — the API every implementation in crypto/sha256/ provides.
 * Inputs and outputs may have any alignment (byte offsets 1, 2, 3 included); any length.
 * SHA-224 is the same compression with other initial values and a 28-byte output; it uses
 * sha256_update. */
#ifndef SHA256_API_H
#define SHA256_API_H
#include <stddef.h>
#include <stdint.h>

#define SHA256_BLOCK_BYTES 64

/* the compression function (FIPS 180-4 §6.2.2) on nblocks consecutive 64-byte blocks:
 * state[i] = H_i as a native 32-bit word.  Records: operation "compress" (one block). */
void sha256_compress(uint32_t state[8], const uint8_t *in, size_t nblocks);

typedef struct {
    uint32_t state[8];
    uint64_t bytes;                     /* message bytes absorbed so far */
    uint8_t buf[SHA256_BLOCK_BYTES];    /* the last bytes % 64 of them */
} sha256_ctx;

void sha256_init(sha256_ctx *ctx);
void sha224_init(sha256_ctx *ctx);
void sha256_update(sha256_ctx *ctx, const uint8_t *in, size_t len);
void sha256_final(sha256_ctx *ctx, uint8_t out[32]);   /* also clears ctx */
void sha224_final(sha256_ctx *ctx, uint8_t out[28]);   /* also clears ctx */

/* one-shot.  Records: operation "hash" (4096 bytes). */
void sha256(uint8_t out[32], const uint8_t *in, size_t len);
void sha224(uint8_t out[28], const uint8_t *in, size_t len);

#endif

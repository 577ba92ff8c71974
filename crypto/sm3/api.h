/* SM3 (GB/T 32905-2016, ISO/IEC 10118-3) — the API every implementation in crypto/sm3/ provides.
 * Inputs and outputs may have any alignment (byte offsets 1, 2, 3 included); any length. */
#ifndef SM3_API_H
#define SM3_API_H
#include <stddef.h>
#include <stdint.h>

#define SM3_BLOCK_BYTES 64

/* the compression function CF (GB/T 32905 §5.3) on nblocks consecutive 64-byte blocks:
 * state[i] = the i-th word of V as a native 32-bit word.  Records: operation "compress". */
void sm3_compress(uint32_t state[8], const uint8_t *in, size_t nblocks);

typedef struct {
    uint32_t state[8];
    uint64_t bytes;                     /* message bytes absorbed so far */
    uint8_t buf[SM3_BLOCK_BYTES];       /* the last bytes % 64 of them */
} sm3_ctx;

void sm3_init(sm3_ctx *ctx);
void sm3_update(sm3_ctx *ctx, const uint8_t *in, size_t len);
void sm3_final(sm3_ctx *ctx, uint8_t out[32]);          /* also clears ctx */

/* one-shot.  Records: operation "hash" (4096 bytes). */
void sm3(uint8_t out[32], const uint8_t *in, size_t len);

#endif

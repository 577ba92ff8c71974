/* HMAC-SHA-256 (RFC 2104, FIPS 198-1) — the API every implementation in crypto/hmac-sha256/
 * provides, each on one crypto/sha256 implementation.  Key, message and output may have any
 * alignment; any key and message length (a key longer than 64 bytes is hashed first). */
#ifndef HMAC_SHA256_API_H
#define HMAC_SHA256_API_H
#include <stddef.h>
#include <stdint.h>
#include "../sha256/api.h"

typedef struct {
    sha256_ctx inner;           /* H((K ^ ipad) || message ...) */
    sha256_ctx outer;           /* H((K ^ opad) || ...), waiting for the inner digest */
} hmac_sha256_ctx;

void hmac_sha256_init(hmac_sha256_ctx *ctx, const uint8_t *key, size_t keylen);
void hmac_sha256_update(hmac_sha256_ctx *ctx, const uint8_t *in, size_t len);
void hmac_sha256_final(hmac_sha256_ctx *ctx, uint8_t out[32]);   /* also clears ctx */

/* one-shot.  Records: operation "mac" (4096-byte message, 32-byte key). */
void hmac_sha256(uint8_t out[32], const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len);

#endif

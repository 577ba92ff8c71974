/* HMAC-SHA-256 (RFC 2104 §2) over the sha256 API of the implementation this one is built on:
 * the key's two padded blocks are compressed once in init, so a message costs its own
 * blocks plus two (the inner padding and the outer block).  Built once per implementation
 * through the one-line hmac.c in its folder.  Constant time: branches on lengths only. */
#include "api.h"
#include "../sha256/md.h"

/* k0 (the key padded, or hashed then padded, to 64 bytes) ^ pad byte, as one block */
static void padded_key(uint32_t blk[16], const uint8_t *key, size_t keylen, uint32_t pad)
{
    uint8_t *b = (uint8_t *)blk;
    if (keylen > SHA256_BLOCK_BYTES) {
        sha256(b, key, keylen);
        keylen = 32;
    } else {
        md_copy(b, key, keylen);
    }
    md_zero(b + keylen, SHA256_BLOCK_BYTES - keylen);
    for (int i = 0; i < 16; i++)
        blk[i] ^= pad;
}

void hmac_sha256_init(hmac_sha256_ctx *ctx, const uint8_t *key, size_t keylen)
{
    uint32_t blk[16];
    padded_key(blk, key, keylen, 0x36363636u);
    sha256_init(&ctx->inner);
    sha256_update(&ctx->inner, (const uint8_t *)blk, sizeof blk);
    for (int i = 0; i < 16; i++)
        blk[i] ^= 0x36363636u ^ 0x5c5c5c5cu;
    sha256_init(&ctx->outer);
    sha256_update(&ctx->outer, (const uint8_t *)blk, sizeof blk);
    md_wipe(blk, sizeof blk);   /* no copy of the key left on the stack */
}

void hmac_sha256_update(hmac_sha256_ctx *ctx, const uint8_t *in, size_t len)
{
    sha256_update(&ctx->inner, in, len);
}

void hmac_sha256_final(hmac_sha256_ctx *ctx, uint8_t out[32])
{
    uint8_t ih[32] __attribute__((aligned(4)));
    sha256_final(&ctx->inner, ih);
    sha256_update(&ctx->outer, ih, sizeof ih);
    sha256_final(&ctx->outer, out);
    md_wipe(ih, sizeof ih);
}

void hmac_sha256(uint8_t out[32], const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len)
{
    hmac_sha256_ctx ctx;
    hmac_sha256_init(&ctx, key, keylen);
    hmac_sha256_update(&ctx, msg, len);
    hmac_sha256_final(&ctx, out);
}

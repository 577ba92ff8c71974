/* SHA-256/SHA-224 on this implementation's sha256_compress kernel: initial values,
 * incremental update, padding and output (the Merkle-Damgard part is ../sha256/md.h).
 * Built once per implementation through the one-line hash.c in its folder. */
#include "api.h"
#include "md.h"

/* FIPS 180-4 §5.3.3 and §5.3.2 */
static const uint32_t iv256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
static const uint32_t iv224[8] = {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
                                  0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4};

static void blocks(void *state, const uint8_t *in, size_t n) { sha256_compress(state, in, n); }

static void init(sha256_ctx *ctx, const uint32_t iv[8])
{
    md_copy((uint8_t *)ctx->state, (const uint8_t *)iv, sizeof ctx->state);
    ctx->bytes = 0;
}

void sha256_init(sha256_ctx *ctx) { init(ctx, iv256); }
void sha224_init(sha256_ctx *ctx) { init(ctx, iv224); }

void sha256_update(sha256_ctx *ctx, const uint8_t *in, size_t len)
{
    md_update(ctx->state, ctx->buf, &ctx->bytes, SHA256_BLOCK_BYTES, blocks, in, len);
}

static void final(sha256_ctx *ctx, uint8_t *out, size_t outlen)
{
    md_pad(ctx->state, ctx->buf, ctx->bytes, SHA256_BLOCK_BYTES, 8, blocks);
    md_out_be32(out, ctx->state, outlen);
    md_wipe(ctx, sizeof *ctx);
}

void sha256_final(sha256_ctx *ctx, uint8_t out[32]) { final(ctx, out, 32); }
void sha224_final(sha256_ctx *ctx, uint8_t out[28]) { final(ctx, out, 28); }

static void oneshot(uint8_t *out, size_t outlen, const uint32_t iv[8], const uint8_t *in, size_t len)
{
    sha256_ctx ctx;
    init(&ctx, iv);
    sha256_update(&ctx, in, len);
    final(&ctx, out, outlen);
}

void sha256(uint8_t out[32], const uint8_t *in, size_t len) { oneshot(out, 32, iv256, in, len); }
void sha224(uint8_t out[28], const uint8_t *in, size_t len) { oneshot(out, 28, iv224, in, len); }

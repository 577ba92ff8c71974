/* SHA-512/SHA-384 on this implementation's sha512_compress kernel: initial values,
 * incremental update, padding and output (the Merkle-Damgard part is ../sha256/md.h).
 * Built once per implementation through the one-line hash.c in its folder. */
#include "api.h"
#include "../sha256/md.h"

/* FIPS 180-4 §5.3.5 and §5.3.4 */
static const uint64_t iv512[8] = {
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
static const uint64_t iv384[8] = {
    0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
    0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4};

static void blocks(void *state, const uint8_t *in, size_t n) { sha512_compress(state, in, n); }

static void init(sha512_ctx *ctx, const uint64_t iv[8])
{
    md_copy((uint8_t *)ctx->state, (const uint8_t *)iv, sizeof ctx->state);
    ctx->bytes = 0;
}

void sha512_init(sha512_ctx *ctx) { init(ctx, iv512); }
void sha384_init(sha512_ctx *ctx) { init(ctx, iv384); }

void sha512_update(sha512_ctx *ctx, const uint8_t *in, size_t len)
{
    md_update(ctx->state, ctx->buf, &ctx->bytes, SHA512_BLOCK_BYTES, blocks, in, len);
}

static void final(sha512_ctx *ctx, uint8_t *out, size_t outlen)
{
    md_pad(ctx->state, ctx->buf, ctx->bytes, SHA512_BLOCK_BYTES, 16, blocks);
    md_out_be64(out, ctx->state, outlen);
    md_wipe(ctx, sizeof *ctx);
}

void sha512_final(sha512_ctx *ctx, uint8_t out[64]) { final(ctx, out, 64); }
void sha384_final(sha512_ctx *ctx, uint8_t out[48]) { final(ctx, out, 48); }

static void oneshot(uint8_t *out, size_t outlen, const uint64_t iv[8], const uint8_t *in, size_t len)
{
    sha512_ctx ctx;
    init(&ctx, iv);
    sha512_update(&ctx, in, len);
    final(&ctx, out, outlen);
}

void sha512(uint8_t out[64], const uint8_t *in, size_t len) { oneshot(out, 64, iv512, in, len); }
void sha384(uint8_t out[48], const uint8_t *in, size_t len) { oneshot(out, 48, iv384, in, len); }

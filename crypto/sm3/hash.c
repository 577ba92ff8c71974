/* SM3 on this implementation's sm3_compress kernel: initial value, incremental update,
 * padding (§5.2, the same as SHA-256's) and output (the Merkle-Damgard part is
 * ../sha256/md.h).  Built once per implementation through the one-line hash.c in its folder. */
#include "api.h"
#include "../sha256/md.h"

/* GB/T 32905-2016 §4.1 */
static const uint32_t iv[8] = {0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
                               0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e};

static void blocks(void *state, const uint8_t *in, size_t n) { sm3_compress(state, in, n); }

void sm3_init(sm3_ctx *ctx)
{
    md_copy((uint8_t *)ctx->state, (const uint8_t *)iv, sizeof ctx->state);
    ctx->bytes = 0;
}

void sm3_update(sm3_ctx *ctx, const uint8_t *in, size_t len)
{
    md_update(ctx->state, ctx->buf, &ctx->bytes, SM3_BLOCK_BYTES, blocks, in, len);
}

void sm3_final(sm3_ctx *ctx, uint8_t out[32])
{
    md_pad(ctx->state, ctx->buf, ctx->bytes, SM3_BLOCK_BYTES, 8, blocks);
    md_out_be32(out, ctx->state, 32);
    md_wipe(ctx, sizeof *ctx);
}

void sm3(uint8_t out[32], const uint8_t *in, size_t len)
{
    sm3_ctx ctx;
    sm3_init(&ctx);
    sm3_update(&ctx, in, len);
    sm3_final(&ctx, out);
}

/* Portable C AES-128 (FIPS 197) with one 1 KiB T-table per direction plus
 * rotations: the "what a compiler gives you" baseline. Not constant time
 * (secret-indexed table loads).
 * rk layout: 44 big-endian round-key words; for decryption the equivalent
 * inverse cipher's keys (InvMixColumns applied to rounds 1..9), last round first. */
#include <stdint.h>
#include "../api.h"
#include "tables.inc"

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static uint32_t load_be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

void aes128_keyexp_enc(uint32_t rk[AES128_RK_WORDS], const uint8_t key[16])
{
    uint32_t rcon = 1;
    for (int i = 0; i < 4; i++) rk[i] = load_be(key + 4 * i);
    for (int i = 4; i < 44; i += 4) {
        uint32_t t = rk[i - 1];
        t = ((uint32_t)SBOX[(t >> 16) & 255] << 24) | ((uint32_t)SBOX[(t >> 8) & 255] << 16) |
            ((uint32_t)SBOX[t & 255] << 8) | SBOX[t >> 24];
        rk[i] = rk[i - 4] ^ t ^ (rcon << 24);
        rk[i + 1] = rk[i - 3] ^ rk[i];
        rk[i + 2] = rk[i - 2] ^ rk[i + 1];
        rk[i + 3] = rk[i - 1] ^ rk[i + 2];
        rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
    }
}

static uint32_t inv_mix_column(uint32_t w)
{
    /* TD0[SBOX[b]] is InvMixColumns of a column with b in row 0 */
    return TD0[SBOX[w >> 24]] ^ ROR(TD0[SBOX[(w >> 16) & 255]], 8) ^
           ROR(TD0[SBOX[(w >> 8) & 255]], 16) ^ ROR(TD0[SBOX[w & 255]], 24);
}

void aes128_keyexp_dec(uint32_t rk[AES128_RK_WORDS], const uint8_t key[16])
{
    uint32_t ek[44];
    aes128_keyexp_enc(ek, key);
    for (int j = 0; j < 4; j++) {
        rk[j] = ek[40 + j];
        rk[40 + j] = ek[j];
    }
    for (int r = 1; r < 10; r++)
        for (int j = 0; j < 4; j++) rk[4 * r + j] = inv_mix_column(ek[40 - 4 * r + j]);
}

void aes128_encrypt(uint8_t out[16], const uint8_t in[16], const uint32_t rk[AES128_RK_WORDS])
{
    uint32_t s0 = load_be(in) ^ rk[0], s1 = load_be(in + 4) ^ rk[1];
    uint32_t s2 = load_be(in + 8) ^ rk[2], s3 = load_be(in + 12) ^ rk[3];
    uint32_t t0, t1, t2, t3;
    for (int r = 1; r < 10; r++) {
        rk += 4;
        t0 = TE0[s0 >> 24] ^ ROR(TE0[(s1 >> 16) & 255], 8) ^ ROR(TE0[(s2 >> 8) & 255], 16) ^ ROR(TE0[s3 & 255], 24) ^ rk[0];
        t1 = TE0[s1 >> 24] ^ ROR(TE0[(s2 >> 16) & 255], 8) ^ ROR(TE0[(s3 >> 8) & 255], 16) ^ ROR(TE0[s0 & 255], 24) ^ rk[1];
        t2 = TE0[s2 >> 24] ^ ROR(TE0[(s3 >> 16) & 255], 8) ^ ROR(TE0[(s0 >> 8) & 255], 16) ^ ROR(TE0[s1 & 255], 24) ^ rk[2];
        t3 = TE0[s3 >> 24] ^ ROR(TE0[(s0 >> 16) & 255], 8) ^ ROR(TE0[(s1 >> 8) & 255], 16) ^ ROR(TE0[s2 & 255], 24) ^ rk[3];
        s0 = t0; s1 = t1; s2 = t2; s3 = t3;
    }
    rk += 4;
#define FINAL(a, b, c, d) (((uint32_t)SBOX[(a) >> 24] << 24) | ((uint32_t)SBOX[((b) >> 16) & 255] << 16) | \
                           ((uint32_t)SBOX[((c) >> 8) & 255] << 8) | SBOX[(d) & 255])
    store_be(out, FINAL(s0, s1, s2, s3) ^ rk[0]);
    store_be(out + 4, FINAL(s1, s2, s3, s0) ^ rk[1]);
    store_be(out + 8, FINAL(s2, s3, s0, s1) ^ rk[2]);
    store_be(out + 12, FINAL(s3, s0, s1, s2) ^ rk[3]);
}

void aes128_decrypt(uint8_t out[16], const uint8_t in[16], const uint32_t rk[AES128_RK_WORDS])
{
    uint32_t s0 = load_be(in) ^ rk[0], s1 = load_be(in + 4) ^ rk[1];
    uint32_t s2 = load_be(in + 8) ^ rk[2], s3 = load_be(in + 12) ^ rk[3];
    uint32_t t0, t1, t2, t3;
    for (int r = 1; r < 10; r++) {
        rk += 4;
        t0 = TD0[s0 >> 24] ^ ROR(TD0[(s3 >> 16) & 255], 8) ^ ROR(TD0[(s2 >> 8) & 255], 16) ^ ROR(TD0[s1 & 255], 24) ^ rk[0];
        t1 = TD0[s1 >> 24] ^ ROR(TD0[(s0 >> 16) & 255], 8) ^ ROR(TD0[(s3 >> 8) & 255], 16) ^ ROR(TD0[s2 & 255], 24) ^ rk[1];
        t2 = TD0[s2 >> 24] ^ ROR(TD0[(s1 >> 16) & 255], 8) ^ ROR(TD0[(s0 >> 8) & 255], 16) ^ ROR(TD0[s3 & 255], 24) ^ rk[2];
        t3 = TD0[s3 >> 24] ^ ROR(TD0[(s2 >> 16) & 255], 8) ^ ROR(TD0[(s1 >> 8) & 255], 16) ^ ROR(TD0[s0 & 255], 24) ^ rk[3];
        s0 = t0; s1 = t1; s2 = t2; s3 = t3;
    }
    rk += 4;
#define IFINAL(a, b, c, d) (((uint32_t)SBOX_INV[(a) >> 24] << 24) | ((uint32_t)SBOX_INV[((b) >> 16) & 255] << 16) | \
                            ((uint32_t)SBOX_INV[((c) >> 8) & 255] << 8) | SBOX_INV[(d) & 255])
    store_be(out, IFINAL(s0, s3, s2, s1) ^ rk[0]);
    store_be(out + 4, IFINAL(s1, s0, s3, s2) ^ rk[1]);
    store_be(out + 8, IFINAL(s2, s1, s0, s3) ^ rk[2]);
    store_be(out + 12, IFINAL(s3, s2, s1, s0) ^ rk[3]);
}

/* present80-ctr: PRESENT-80 (crypto/present80) in counter mode (NIST SP 800-38A) — the API
 * every implementation in crypto/present80-ctr/ provides.  rk is opaque to the caller (each
 * implementation chooses its layout, at most PRESENT80CTR_RK_WORDS words).
 *
 * Counter block: the 8-byte iv, read as a big-endian 64-bit integer; block j of the keystream
 * is PRESENT-80(key, iv + j mod 2^64) (the whole block is the counter: it carries across all
 * eight bytes and wraps from ff..ff to 00..00).  out[i] = in[i] ^ keystream[i] for i < len;
 * any len (0 allowed).  To continue a message, pass iv + (bytes done) / 8 with a multiple of
 * 8 bytes done.
 * Buffers: in, out and iv may have any alignment; out may equal in (in place) but must not
 * overlap it otherwise; rk must be 4-byte aligned.  The key is 10 bytes, any alignment.
 * Records: keyexp (incl. conversion to the implementation's layout), encrypt (len bytes). */
#ifndef PRESENT80CTR_API_H
#define PRESENT80CTR_API_H
#include <stddef.h>
#include <stdint.h>

#define PRESENT80CTR_RK_WORDS 128
void present80ctr_keyexp(uint32_t rk[PRESENT80CTR_RK_WORDS], const uint8_t key[10]);
void present80ctr_xor(uint8_t *out, const uint8_t *in, size_t len, const uint8_t iv[8],
                      const uint32_t rk[PRESENT80CTR_RK_WORDS]);

#endif

/* A small firmware program built against librvlab.a (`rvlab lib`): it encrypts a message with
 * every cipher the library has for this -march, hashes it with every hash, and prints the
 * results as hex. Output goes through picolibc's semihosting stdio, so the same ELF prints on
 * QEMU's sifive_e machine, on rvsim and on a HiFive1 under a debugger; tests/test_lib.py checks
 * each line against Python's own AES, ChaCha20, SHA-2 and SHA-3. */
#include <stdio.h>
#include <string.h>
#include "rvlab.h"

#define ALIGNED __attribute__((aligned(4)))          /* the kernels want 4-byte aligned buffers */

static const char message[] = "rvlab on the HiFive1: encrypt, hash, print.";
static uint8_t msg[64] ALIGNED, out[64] ALIGNED;
static const uint8_t key[32] ALIGNED = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f};
static const uint8_t iv[16] ALIGNED = {                /* a nonce for ChaCha20, a counter block for CTR */
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};

static void print_hex(const char *what, const uint8_t *p, size_t n)
{
    printf("%-11s ", what);
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
    putchar('\n');
}

int main(void)
{
    size_t n = strlen(message);
    memcpy(msg, message, n);
    printf("rvlab example, librvlab.a for -march=%s\n", RVLAB_LIB_MARCH);
    print_hex("message", msg, n);
#ifdef RVLAB_HAS_CHACHA20_XOR
    chacha20_xor(out, msg, n, key, iv, 1);
    print_hex("chacha20", out, n);
#endif
#ifdef RVLAB_HAS_AES128CTR_XOR
    {
        static uint32_t rk[AES128CTR_RK_WORDS];
        aes128ctr_keyexp(rk, key);
        aes128ctr_xor(out, msg, n, iv, rk);
        print_hex("aes128-ctr", out, n);
    }
#endif
#ifdef RVLAB_HAS_AES128_ENCRYPT
    {
        static uint32_t rk[AES128_RK_WORDS];
        aes128_keyexp_enc(rk, key);
        aes128_encrypt(out, msg, rk);                   /* the first block of the message */
        print_hex("aes128", out, 16);
    }
#endif
#ifdef RVLAB_HAS_SHA256
    sha256(out, msg, n);
    print_hex("sha256", out, 32);
#endif
#ifdef RVLAB_HAS_HMAC_SHA256
    hmac_sha256(out, key, sizeof key, msg, n);
    print_hex("hmac-sha256", out, 32);
#endif
#ifdef RVLAB_HAS_SHA512
    sha512(out, msg, n);
    print_hex("sha512", out, 64);
#endif
#ifdef RVLAB_HAS_SHA3_256
    sha3_256(out, msg, n);
    print_hex("sha3-256", out, 32);
#endif
    return 0;
}

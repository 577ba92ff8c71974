//! Scalar-crypto instructions on the standards' own examples, through a program: one C
//! program (inline asm, the cross assembler's mnemonics) computes
//!  - AES-128 decryption of FIPS-197 Appendix C.1 (key 000102..0f, ciphertext
//!    69c4e0d86a7b0430d8cdb78070b4c55a) with the equivalent inverse cipher: key schedule with
//!    aes32esi, round keys through InvMixColumns and the rounds with aes32dsmi, last round
//!    aes32dsi; the state after the first round is checked against the printed
//!    round[ 2].istart too;
//!  - SHA-512("abc") with sha512sig0l/h, sha512sig1l/h, sha512sum0r, sha512sum1r (the 64-bit
//!    sigma/sum functions from two halves), checked against the FIPS 180-4 example digest;
//!  - SM3("abc") with sm3p0/sm3p1, checked against the GB/T 32905 example digest.
//! It runs on the E31 model through `common::run` (block engine and per-instruction loop);
//! the results are read from the program's memory by symbol.

mod common;
use common::*;
use std::process::Command;

// SHA-512 constants (FIPS 180-4 §4.2.3, §5.3.5): the first 64 bits of the fractional parts of
// the cube roots of the first 80 primes (K) and of the square roots of the first 8 (H0),
// computed exactly here with a few lines of multi-word arithmetic, not typed in.
fn mul(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut r = vec![0u64; a.len() + b.len()];
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, &y) in b.iter().enumerate() {
            let t = r[i + j] as u128 + x as u128 * y as u128 + carry;
            r[i + j] = t as u64;
            carry = t >> 64;
        }
        r[i + b.len()] = carry as u64;
    }
    r
}
fn le(a: &[u64], b: &[u64]) -> bool {
    let n = a.len().max(b.len());
    for i in (0..n).rev() {
        let (x, y) = (a.get(i).copied().unwrap_or(0), b.get(i).copied().unwrap_or(0));
        if x != y { return x < y; }
    }
    true
}
/// floor(p^(1/k) * 2^64) mod 2^64: the largest m with m^k <= p * 2^(64k), fractional bits.
fn root_frac64(p: u64, k: usize) -> u64 {
    let mut n = vec![0u64; k];
    n.push(p);
    let mut m = 0u128;
    for bit in (0..72).rev() {
        let c = m | 1u128 << bit;
        let limbs = [c as u64, (c >> 64) as u64];
        let pow = (0..k).fold(vec![1u64], |acc, _| mul(&acc, &limbs));
        if le(&pow, &n) { m = c; }
    }
    m as u64
}
fn primes(n: usize) -> Vec<u64> {
    let mut v = vec![];
    let mut x = 2u64;
    while v.len() < n {
        if (2..x).take_while(|d| d * d <= x).all(|d| x % d != 0) { v.push(x); }
        x += 1;
    }
    v
}

const PROGRAM: &str = r#"
#include <stdint.h>
#include <string.h>

#define BS(op, a, b, bs) ({ uint32_t r_; __asm__ (op " %0, %1, %2, " #bs : "=r"(r_) : "r"(a), "r"(b)); r_; })
#define RR(op, a, b) ({ uint32_t r_; __asm__ (op " %0, %1, %2" : "=r"(r_) : "r"(a), "r"(b)); r_; })
#define UN(op, a) ({ uint32_t r_; __asm__ (op " %0, %1" : "=r"(r_) : "r"(a)); r_; })

extern const uint64_t K512[80], H512[8];
extern const uint8_t AES_KEY[16], AES_CT[16];
uint32_t aes_out[4], aes_round1[4], sm3_out[8];
uint64_t sha512_out[8];

/* ---- AES-128: words are little-endian columns (byte 4c + r = row r of column c) ---- */
static uint32_t sub_word(uint32_t x) {
    uint32_t t = 0;
    t = BS("aes32esi", t, x, 0); t = BS("aes32esi", t, x, 1);
    t = BS("aes32esi", t, x, 2); t = BS("aes32esi", t, x, 3);
    return t;
}
/* InvMixColumns of a column: aes32dsmi applies InvSubBytes first, so feed it SubBytes(x) */
static uint32_t inv_mix(uint32_t x) {
    uint32_t s = sub_word(x), t = 0;
    t = BS("aes32dsmi", t, s, 0); t = BS("aes32dsmi", t, s, 1);
    t = BS("aes32dsmi", t, s, 2); t = BS("aes32dsmi", t, s, 3);
    return t;
}
/* one output column: row r comes from column c - r (InvShiftRows) */
#define DCOL(op, k, s, c) ({ uint32_t t_ = (k); \
    t_ = BS(op, t_, s[(c) & 3], 0); t_ = BS(op, t_, s[((c) + 3) & 3], 1); \
    t_ = BS(op, t_, s[((c) + 2) & 3], 2); t_ = BS(op, t_, s[((c) + 1) & 3], 3); t_; })

static void aes128_decrypt(uint32_t out[4], const uint8_t key[16], const uint8_t ct[16]) {
    uint32_t w[44], s[4], n[4], rc = 1;
    memcpy(w, key, 16);
    for (int i = 4; i < 44; i++) {
        uint32_t t = w[i - 1];
        if (i % 4 == 0) {
            t = sub_word(t);
            t = (t >> 8) | (t << 24);            /* RotWord, on little-endian words */
            t ^= rc;
            rc = (rc << 1) ^ ((rc & 0x80) ? 0x11b : 0);
        }
        w[i] = w[i - 4] ^ t;
    }
    memcpy(s, ct, 16);
    for (int c = 0; c < 4; c++) s[c] ^= w[40 + c];
    for (int r = 9; r >= 1; r--) {
        for (int c = 0; c < 4; c++) n[c] = DCOL("aes32dsmi", inv_mix(w[4 * r + c]), s, c);
        memcpy(s, n, 16);
        if (r == 9) memcpy(aes_round1, s, 16);
    }
    for (int c = 0; c < 4; c++) out[c] = DCOL("aes32dsi", w[c], s, c);
}

/* ---- SHA-512: 64-bit functions from the RV32 half instructions ---- */
static uint64_t sig0(uint64_t x) { uint32_t l = x, h = x >> 32; return (uint64_t)RR("sha512sig0h", h, l) << 32 | RR("sha512sig0l", l, h); }
static uint64_t sig1(uint64_t x) { uint32_t l = x, h = x >> 32; return (uint64_t)RR("sha512sig1h", h, l) << 32 | RR("sha512sig1l", l, h); }
static uint64_t sum0(uint64_t x) { uint32_t l = x, h = x >> 32; return (uint64_t)RR("sha512sum0r", h, l) << 32 | RR("sha512sum0r", l, h); }
static uint64_t sum1(uint64_t x) { uint32_t l = x, h = x >> 32; return (uint64_t)RR("sha512sum1r", h, l) << 32 | RR("sha512sum1r", l, h); }

/* one-block messages (len < 112) */
static void sha512(uint64_t h[8], const uint8_t *msg, uint32_t len) {
    uint8_t block[128];
    uint64_t W[80];
    memset(block, 0, sizeof block);
    memcpy(block, msg, len);
    block[len] = 0x80;
    for (int i = 0; i < 8; i++) block[127 - i] = (uint8_t)(((uint64_t)len * 8) >> (8 * i));
    for (int t = 0; t < 16; t++) { uint64_t v = 0; for (int j = 0; j < 8; j++) v = v << 8 | block[8 * t + j]; W[t] = v; }
    for (int t = 16; t < 80; t++) W[t] = sig1(W[t - 2]) + W[t - 7] + sig0(W[t - 15]) + W[t - 16];
    uint64_t a = H512[0], b = H512[1], c = H512[2], d = H512[3], e = H512[4], f = H512[5], g = H512[6], hh = H512[7];
    for (int t = 0; t < 80; t++) {
        uint64_t t1 = hh + sum1(e) + ((e & f) ^ (~e & g)) + K512[t] + W[t];
        uint64_t t2 = sum0(a) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] = H512[0] + a; h[1] = H512[1] + b; h[2] = H512[2] + c; h[3] = H512[3] + d;
    h[4] = H512[4] + e; h[5] = H512[5] + f; h[6] = H512[6] + g; h[7] = H512[7] + hh;
}

/* ---- SM3 (GB/T 32905): P0/P1 are the instructions ---- */
static const uint32_t SM3_IV[8] = { 0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
                                    0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e };
static uint32_t rotl(uint32_t x, int n) { n &= 31; return n ? (x << n) | (x >> (32 - n)) : x; }

/* one-block messages (len < 56) */
static void sm3(uint32_t v[8], const uint8_t *msg, uint32_t len) {
    uint8_t block[64];
    uint32_t W[68], W1[64];
    memset(block, 0, sizeof block);
    memcpy(block, msg, len);
    block[len] = 0x80;
    for (int i = 0; i < 8; i++) block[63 - i] = (uint8_t)(((uint64_t)len * 8) >> (8 * i));
    for (int j = 0; j < 16; j++) W[j] = (uint32_t)block[4 * j] << 24 | block[4 * j + 1] << 16 | block[4 * j + 2] << 8 | block[4 * j + 3];
    for (int j = 16; j < 68; j++)
        W[j] = UN("sm3p1", W[j - 16] ^ W[j - 9] ^ rotl(W[j - 3], 15)) ^ rotl(W[j - 13], 7) ^ W[j - 6];
    for (int j = 0; j < 64; j++) W1[j] = W[j] ^ W[j + 4];
    uint32_t A = SM3_IV[0], B = SM3_IV[1], C = SM3_IV[2], D = SM3_IV[3], E = SM3_IV[4], F = SM3_IV[5], G = SM3_IV[6], H = SM3_IV[7];
    for (int j = 0; j < 64; j++) {
        uint32_t T = j < 16 ? 0x79cc4519 : 0x7a879d8a;
        uint32_t ss1 = rotl(rotl(A, 12) + E + rotl(T, j), 7);
        uint32_t ss2 = ss1 ^ rotl(A, 12);
        uint32_t ff = j < 16 ? A ^ B ^ C : (A & B) | (A & C) | (B & C);
        uint32_t gg = j < 16 ? E ^ F ^ G : (E & F) | (~E & G);
        uint32_t tt1 = ff + D + ss2 + W1[j];
        uint32_t tt2 = gg + H + ss1 + W[j];
        D = C; C = rotl(B, 9); B = A; A = tt1; H = G; G = rotl(F, 19); F = E; E = UN("sm3p0", tt2);
    }
    v[0] = SM3_IV[0] ^ A; v[1] = SM3_IV[1] ^ B; v[2] = SM3_IV[2] ^ C; v[3] = SM3_IV[3] ^ D;
    v[4] = SM3_IV[4] ^ E; v[5] = SM3_IV[5] ^ F; v[6] = SM3_IV[6] ^ G; v[7] = SM3_IV[7] ^ H;
}

int main(void) {
    aes128_decrypt(aes_out, AES_KEY, AES_CT);
    sha512(sha512_out, (const uint8_t *)"abc", 3);
    sm3(sm3_out, (const uint8_t *)"abc", 3);
    return 0;
}
"#;

fn hex(s: &str) -> Vec<u8> { (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect() }

const ISA: &str = "rv32imac_zkne_zknd_zknh_zksh";

#[test]
fn aes_sha512_sm3_known_answers() {
    let p = primes(80);
    let k: Vec<u64> = p.iter().map(|&q| root_frac64(q, 3)).collect();
    let h0: Vec<u64> = p[..8].iter().map(|&q| root_frac64(q, 2)).collect();
    // spot checks against FIPS 180-4 §4.2.3 / §5.3.5
    assert_eq!((k[0], k[1]), (0x428a2f98d728ae22, 0x7137449123ef65cd));
    assert_eq!((h0[1], h0[7]), (0xbb67ae8584caa73b, 0x5be0cd19137e2179));

    let bytes = |v: &[u8]| v.iter().map(|b| format!("0x{b:02x}")).collect::<Vec<_>>().join(", ");
    let mut src = String::from(PROGRAM);
    src.push_str(&format!("const uint64_t K512[80] = {{ {} }};\n", k.iter().map(|x| format!("0x{x:016x}ull")).collect::<Vec<_>>().join(", ")));
    src.push_str(&format!("const uint64_t H512[8] = {{ {} }};\n", h0.iter().map(|x| format!("0x{x:016x}ull")).collect::<Vec<_>>().join(", ")));
    // FIPS-197 Appendix C.1
    src.push_str(&format!("const uint8_t AES_KEY[16] = {{ {} }};\n", bytes(&hex("000102030405060708090a0b0c0d0e0f"))));
    src.push_str(&format!("const uint8_t AES_CT[16] = {{ {} }};\n", bytes(&hex("69c4e0d86a7b0430d8cdb78070b4c55a"))));

    let dir = out_dir();
    let (c, o, elf) = (dir.join("crypto_kat.c"), dir.join("crypto_kat.o"), dir.join("crypto_kat.elf"));
    std::fs::write(&c, src).unwrap();
    // the kernel with the crypto extensions; linked against picolibc's rv32imac multilib
    tool(Command::new(CC).args([&format!("-march={ISA}"), "-mabi=ilp32", "--specs=picolibc.specs", "-O2", "-c", "-o"]).arg(&o).arg(&c));
    link_board(&[&o], &elf, &[]);

    let r = run(&elf, ISA, Some(rvsim::timing::CoreParams::e31()));
    assert_eq!(r.exit, Ok(0));
    let data = std::fs::read(&elf).unwrap();
    let syms = rvsim::elf::load(&data, &mut rvsim::mem::Memory::new(rvsim::mem::MapKind::E31)).unwrap().symbols;
    let read = |name: &str, n: u32| -> Vec<u8> {
        let s = syms.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no symbol {name}"));
        (0..n).map(|i| r.m.mem.read::<1>(s.addr + i).unwrap() as u8).collect()
    };
    // FIPS-197 C.1: round[ 2].istart and the plaintext
    assert_eq!(read("aes_round1", 16), hex("54d990a16ba09ab596bbf40ea111702f"), "AES state after the first inverse round");
    assert_eq!(read("aes_out", 16), hex("00112233445566778899aabbccddeeff"), "AES-128 decryption");
    // FIPS 180-4 example SHA-512("abc"): 64-bit words, stored little-endian
    let digest: Vec<u8> = read("sha512_out", 64).chunks(8).flat_map(|w| w.iter().rev().copied().collect::<Vec<u8>>()).collect();
    assert_eq!(digest, hex("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
                            2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"), "SHA-512(\"abc\")");
    // GB/T 32905 example 1: SM3("abc")
    let digest: Vec<u8> = read("sm3_out", 32).chunks(4).flat_map(|w| w.iter().rev().copied().collect::<Vec<u8>>()).collect();
    assert_eq!(digest, hex("66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0"), "SM3(\"abc\")");
    // the instructions really ran (not a compiler-generated fallback)
    let counts = r.m.mnemonic_counts();
    let count = |m: &str| counts.iter().enumerate().filter(|(id, _)| rvsim::exec::mnem(*id, r.m.table) == m).map(|(_, c)| c).sum::<u64>();
    for m in ["aes32esi", "aes32dsmi", "aes32dsi", "sha512sig0l", "sha512sig0h", "sha512sig1l", "sha512sig1h",
              "sha512sum0r", "sha512sum1r", "sm3p0", "sm3p1"] {
        assert!(count(m) > 0, "{m} did not execute");
    }
}

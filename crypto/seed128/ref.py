"""SEED (RFC 4269, 128-bit key, 16 rounds) in plain Python: the tables gen.py writes into the
kernels, and a reference the tests check against the RFC's vectors and the `cryptography`
package. Written from RFC 4269 §2 (F, G, key schedule) and Appendix A (S-boxes).

Words are big-endian: block bytes 0..3 are L0, 4..7 L1, 8..11 R0, 12..15 R1; key bytes
0..3 are A, ... 12..15 are D.
"""
from __future__ import annotations

# The two 8x8 S-boxes (RFC 4269 Appendix A.1; KISA's S1 and S2). Checked in
# tests/test_seed128_ref.py against their algebraic definition in the SEED specification:
# S1(x) = A1 . x^247 + 169 and S2(x) = A2 . x^251 + 56 over GF(2^8) mod x^8+x^6+x^5+x+1,
# A1, A2 linear -- which a mistyped entry would break.
S1 = bytes.fromhex(
    "a985d6d3541dac255d43181e51fcca63" "2844209de0e2c817a58f037bbb13d2ee"
    "708c3fa832ddf674ec950b575c5bbd01" "241c739810ccf2d92ce772839bd186c9"
    "6050a3eb0db69e4fb75ac678a612afd5" "61c3b441527d8d081f9900190453f7e1"
    "fd762f27b08b0eaba26e934d697c090a" "bfeff3c58714fe64de2e4b1a06216b66"
    "02f5928a0cb37ed07a4796e52680addf" "a13037ae36152238f4a7454c81e98497"
    "35cbce3c7111c78975fbdaf8945982c4" "ff493967c0cfd7b80f8e4223916cdba4"
    "34f148c26f3d2d40be3ebcc1aaba4e55" "3bdc687f9cd84a5677a0ed46b52b65fa"
    "e3b9b19f5ef9e6b231ea6d5fe4f0cd88" "163a58d462290733e81b0579906a2a9a")
S2 = bytes.fromhex(
    "38e82da6cfdeb3b8af6055c7446f6b5b" "c36233b529a0e2a7d39111061cbc364b"
    "ef886ca817c416f4c245e1d63f3d8e98" "284ef63ea5f90ddfd82b667a272ff172"
    "42d441c07367ac8bf7ad801fca2caa34" "d20beee95d9418f857ae08c513cd86b9"
    "ff7dc131f58a6ab1d120d70222046871" "07db9d9961bee659dd5190dc9aa3abd0"
    "810f471ae3ec8dbf967b5ca2a163234d" "c89e9c3a0c2eba6e9f5af292f34978cc"
    "15fb70757f351003646dc674d5b4ea09" "7619fe4012e0bd05fa01f02a5ea95643"
    "8514899bb0e5487997fc1e82218c1b5f" "7754b21d254f0046ed5852eb7edac9fd"
    "3095653cb6e4bb7c0e50392632846993" "37e724a4cb530a87d94c838fce3b4ab7")

# G's masks (RFC 4269 §2.2): m0..m3 keep all but one 2-bit group of an S-box output
M = (0xFC, 0xF3, 0xCF, 0x3F)
MASK32 = 0xFFFFFFFF


def ss_tables() -> list[list[int]]:
    """SS0..SS3: byte j of the G input selects SS_j, whose byte k is S(x) & m[(j + k) % 4]
    (S = S1 for j = 0, 2 and S2 for j = 1, 3), so G(x) = SS0[x0] ^ SS1[x1] ^ SS2[x2] ^ SS3[x3]."""
    out = []
    for j in range(4):
        s = S1 if j % 2 == 0 else S2
        out.append([sum((s[x] & M[(j + k) % 4]) << (8 * k) for k in range(4)) for x in range(256)])
    return out


SS = ss_tables()

# KC_i = the golden-ratio constant 0x9e3779b9 rotated left by i (RFC 4269 §2.3)
KC = [((0x9E3779B9 << i) | (0x9E3779B9 >> (32 - i))) & MASK32 if i else 0x9E3779B9 for i in range(16)]


def g(x: int) -> int:
    return SS[0][x & 0xFF] ^ SS[1][(x >> 8) & 0xFF] ^ SS[2][(x >> 16) & 0xFF] ^ SS[3][x >> 24]


def f(r0: int, r1: int, k0: int, k1: int) -> tuple[int, int]:
    """The round function on the right half (r0, r1) with round key (k0, k1)."""
    t0, t1 = r0 ^ k0, r1 ^ k1
    t1 = g(t1 ^ t0)
    t0 = g((t0 + t1) & MASK32)
    t1 = g((t1 + t0) & MASK32)
    t0 = (t0 + t1) & MASK32
    return t0, t1


def words(b: bytes) -> list[int]:
    return [int.from_bytes(b[i:i + 4], "big") for i in range(0, len(b), 4)]


def keyexp(key: bytes) -> list[int]:
    """The 32 round-key words K_{i,0}, K_{i,1} of rounds i = 1..16."""
    a, b, c, d = words(key)
    rk = []
    for i in range(16):
        rk += [g((a + c - KC[i]) & MASK32), g((b - d + KC[i]) & MASK32)]
        if i % 2 == 0:                          # A||B rotated right by 8
            a, b = ((a >> 8) | (b << 24)) & MASK32, ((b >> 8) | (a << 24)) & MASK32
        else:                                   # C||D rotated left by 8
            c, d = ((c << 8) | (d >> 24)) & MASK32, ((d << 8) | (c >> 24)) & MASK32
    return rk


def _rounds(block: bytes, pairs: list[tuple[int, int]]) -> bytes:
    l0, l1, r0, r1 = words(block)
    for n, (k0, k1) in enumerate(pairs):
        t0, t1 = f(r0, r1, k0, k1)
        l0, l1 = l0 ^ t0, l1 ^ t1
        if n != len(pairs) - 1:                 # no swap after the last round
            l0, l1, r0, r1 = r0, r1, l0, l1
    return b"".join(w.to_bytes(4, "big") for w in (l0, l1, r0, r1))


def encrypt(key: bytes, block: bytes) -> bytes:
    rk = keyexp(key)
    return _rounds(block, [(rk[2 * i], rk[2 * i + 1]) for i in range(16)])


def decrypt(key: bytes, block: bytes) -> bytes:
    rk = keyexp(key)
    return _rounds(block, [(rk[2 * i], rk[2 * i + 1]) for i in reversed(range(16))])

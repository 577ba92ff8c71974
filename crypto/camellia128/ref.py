"""Camellia-128 (RFC 3713) in plain Python: the tables gen.py writes into the kernels, and a
reference the tests check against the RFC's vectors and the `cryptography` package. Written
from RFC 3713 §2.2 (key schedule), §2.3 (data randomizing), §2.4 (F, FL, FLINV, S-boxes).

Bytes are big-endian: a 64-bit half is two words, word 0 = bytes 0..3 (t1 = its MSB).
"""
from __future__ import annotations

# SBOX1 (RFC 3713 §2.4.4); SBOX2..4 follow from it (rotations), as the RFC defines them
SBOX1 = bytes.fromhex(
    "70822cecb327c0e5e4855735ea0cae41" "23ef6b934519a521ed0e4f4e1d6592bd"
    "86b8af8f7ceb1fce3e30dc5f5ec50b1a" "a6e139cad5475d3dd9015ad651566c4d"
    "8b0d9a66fbccb02d74122b20f0b18499" "df4ccbc2347e76056db7a931d11704d7"
    "14583a61de1b111c320f9c165318f222" "fe44cfb2c3b57a912408e8a860fc6950"
    "aad0a07da1896297545b1e95e0ff64d2" "10c40048a3f775db8a03e6da093fdd94"
    "875c8302cd4a90337367f6f39d7fbfe2" "529bd826c837c63b81966f4b13be632e"
    "e979a78c9f6ebc8e29f5f9b62ffdb459" "7898066ae74671bad425ab4288a28dfa"
    "7207b955f8eeac0a36492a683c38f1a4" "4028d37bbbc943c115e3adf477c7809e")

M32, M64, M128 = (1 << 32) - 1, (1 << 64) - 1, (1 << 128) - 1
SIGMA = [0xA09E667F3BCC908B, 0xB67AE8584CAA73B2, 0xC6EF372FE94F82BE, 0x54FF53A5F1D36F1C]


def rotl8(x: int, n: int) -> int:
    return ((x << n) | (x >> (8 - n))) & 0xFF


def rotl32(x: int, n: int) -> int:
    n %= 32
    return ((x << n) | (x >> (32 - n))) & M32 if n else x


def rotl128(x: int, n: int) -> int:
    return ((x << n) | (x >> (128 - n))) & M128 if n else x


SBOX2 = bytes(rotl8(v, 1) for v in SBOX1)
SBOX3 = bytes(rotl8(v, 7) for v in SBOX1)
SBOX4 = bytes(SBOX1[rotl8(x, 1)] for x in range(256))
# which S-box each input byte t1..t8 of F goes through
F_SBOXES = [SBOX1, SBOX2, SBOX3, SBOX4, SBOX2, SBOX3, SBOX4, SBOX1]


def p_function(t: list[int]) -> list[int]:
    """RFC 3713 §2.4.1: the eight output bytes y1..y8 from t1..t8."""
    t1, t2, t3, t4, t5, t6, t7, t8 = t
    return [t1 ^ t3 ^ t4 ^ t6 ^ t7 ^ t8, t1 ^ t2 ^ t4 ^ t5 ^ t7 ^ t8, t1 ^ t2 ^ t3 ^ t5 ^ t6 ^ t8,
            t2 ^ t3 ^ t4 ^ t5 ^ t6 ^ t7, t1 ^ t2 ^ t6 ^ t7 ^ t8, t2 ^ t3 ^ t5 ^ t7 ^ t8,
            t3 ^ t4 ^ t5 ^ t6 ^ t8, t1 ^ t4 ^ t5 ^ t6 ^ t7]


def f(x: int, k: int) -> int:
    """F(F_IN, KE) on 64-bit integers."""
    x ^= k
    t = [F_SBOXES[i][(x >> (56 - 8 * i)) & 0xFF] for i in range(8)]
    return int.from_bytes(bytes(p_function(t)), "big")


def sp_tables() -> dict[str, list[int]]:
    """The four 8->32 SP tables of the 32-bit formulation (word = y1..y4 of the P-function,
    y1 the MSB): SP1110[x] = s1(x) in y1..y3, SP0222 = s2 in y2..y4, SP3033 = s3 in y1, y3,
    y4, SP4404 = s4 in y1, y2, y4. F's left word zL = SP1110[x1] ^ SP0222[x2] ^ SP3033[x3] ^
    SP4404[x4], its right word zR = SP1110[x8] ^ SP0222[x5] ^ SP3033[x6] ^ SP4404[x7]; then
    y1..y4 = zL ^ zR and y5..y8 = y1..y4 ^ (zL rotated right by 8)."""
    def word(v, pattern):
        return sum(v << (24 - 8 * i) for i in range(4) if pattern[i])
    return {"1110": [word(SBOX1[x], (1, 1, 1, 0)) for x in range(256)],
            "0222": [word(SBOX2[x], (0, 1, 1, 1)) for x in range(256)],
            "3033": [word(SBOX3[x], (1, 0, 1, 1)) for x in range(256)],
            "4404": [word(SBOX4[x], (1, 1, 0, 1)) for x in range(256)]}


def fl(x: int, k: int) -> int:
    x1, x2, k1, k2 = x >> 32, x & M32, k >> 32, k & M32
    x2 ^= rotl32(x1 & k1, 1)
    x1 ^= x2 | k2
    return x1 << 32 | x2


def flinv(y: int, k: int) -> int:
    y1, y2, k1, k2 = y >> 32, y & M32, k >> 32, k & M32
    y1 ^= y2 | k2
    y2 ^= rotl32(y1 & k1, 1)
    return y1 << 32 | y2


def ka_of(kl: int) -> int:
    """KA from KL (KR = 0 for 128-bit keys), RFC 3713 §2.2."""
    d1, d2 = kl >> 64, kl & M64
    d2 ^= f(d1, SIGMA[0])
    d1 ^= f(d2, SIGMA[1])
    d1 ^= kl >> 64
    d2 ^= kl & M64
    d2 ^= f(d1, SIGMA[2])
    d1 ^= f(d2, SIGMA[3])
    return d1 << 64 | d2


# 128-bit key: (name, source, rotation, half) for the 26 subkeys in the order encryption uses
# them (RFC 3713 §2.2); half 0 = the left 64 bits (>> 64), 1 = the right
SCHEDULE = [("kw1", "KL", 0, 0), ("kw2", "KL", 0, 1), ("k1", "KA", 0, 0), ("k2", "KA", 0, 1),
            ("k3", "KL", 15, 0), ("k4", "KL", 15, 1), ("k5", "KA", 15, 0), ("k6", "KA", 15, 1),
            ("ke1", "KA", 30, 0), ("ke2", "KA", 30, 1), ("k7", "KL", 45, 0), ("k8", "KL", 45, 1),
            ("k9", "KA", 45, 0), ("k10", "KL", 60, 1), ("k11", "KA", 60, 0), ("k12", "KA", 60, 1),
            ("ke3", "KL", 77, 0), ("ke4", "KL", 77, 1), ("k13", "KL", 94, 0), ("k14", "KL", 94, 1),
            ("k15", "KA", 94, 0), ("k16", "KA", 94, 1), ("k17", "KL", 111, 0), ("k18", "KL", 111, 1),
            ("kw3", "KA", 111, 0), ("kw4", "KA", 111, 1)]


def subkeys(key: bytes) -> dict[str, int]:
    kl = int.from_bytes(key, "big")
    src = {"KL": kl, "KA": ka_of(kl)}
    out = {}
    for name, s, rot, half in SCHEDULE:
        v = rotl128(src[s], rot)
        out[name] = v >> 64 if half == 0 else v & M64
    return out


def encrypt(key: bytes, block: bytes) -> bytes:
    k = subkeys(key)
    m = int.from_bytes(block, "big")
    d1, d2 = (m >> 64) ^ k["kw1"], (m & M64) ^ k["kw2"]
    for r in range(1, 19, 2):
        d2 ^= f(d1, k[f"k{r}"])
        d1 ^= f(d2, k[f"k{r + 1}"])
        if r == 5:
            d1, d2 = fl(d1, k["ke1"]), flinv(d2, k["ke2"])
        elif r == 11:
            d1, d2 = fl(d1, k["ke3"]), flinv(d2, k["ke4"])
    d2 ^= k["kw3"]
    d1 ^= k["kw4"]
    return (d2 << 64 | d1).to_bytes(16, "big")


def decrypt(key: bytes, block: bytes) -> bytes:
    """RFC 3713 §2.3.2: the same network with the subkeys in reverse order."""
    k = subkeys(key)
    c = int.from_bytes(block, "big")
    d1, d2 = (c >> 64) ^ k["kw3"], (c & M64) ^ k["kw4"]
    for r in range(18, 0, -2):
        d2 ^= f(d1, k[f"k{r}"])
        d1 ^= f(d2, k[f"k{r - 1}"])
        if r == 14:
            d1, d2 = fl(d1, k["ke4"]), flinv(d2, k["ke3"])
        elif r == 8:
            d1, d2 = fl(d1, k["ke2"]), flinv(d2, k["ke1"])
    d2 ^= k["kw1"]
    d1 ^= k["kw2"]
    return (d2 << 64 | d1).to_bytes(16, "big")

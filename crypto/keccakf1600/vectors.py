"""Keccak-f[1600] test cases.

Official: the Keccak team's known-answer value of Keccak-f[1600] applied to the all-zero
state (KeccakF-1600-IntermediateValues.txt, typed below), and the same permutation applied
twice.  The FIPS 202 SHA3/SHAKE vectors test the permutation again through the sponges
(crypto/sha3-256, crypto/shake128).
Random: random states through 1-3 permutations, expected values from the plain Python
Keccak-f[1600] below (itself checked here against the zero-state KAT and, through a
minimal sponge, against hashlib's SHA3-256 and SHAKE128).

Fields: "state" (200 bytes, lane x+5y as 8 little-endian bytes at offset 8(x+5y)),
"n" (number of permutations, u32), "out" (expected state after n permutations).
"""
import hashlib
import random

from rvlab.testcase import Case

# Keccak-f[1600](0): lanes 0..24 (i = x + 5y) as 64-bit values, from the Keccak team's KAT
ZERO_KAT = """
F1258F7940E1DDE7 84D5CCF933C0478A D598261EA65AA9EE BD1547306F80494D 8B284E056253D057
FF97A42D7F8E6FD4 90FEE5A0A44647C4 8C5BDA0CD6192E76 AD30A6F71B19059C 30935AB7D08FFC64
EB5AA93F2317D635 A9A6E6260D712103 81A57C16DBCF555F 43B831CD0347C826 01F22F1A11A5569F
05E5635A21D9AE61 64BEFEF28CC970F2 613670957BC46611 B87C5A554FD00ECB 8C3EE88A1CCF32C8
940C7922AE3A2614 1841F924A2C509E4 16F53526E70465C2 75F644E97F30A13B EAF1FF7B5CECA249
"""

MASK = (1 << 64) - 1
ROT = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61],
       [28, 55, 25, 21, 56], [27, 20, 39, 8, 14]]           # ROT[x][y]


def _rc_bits():
    """round constants straight from FIPS 202 Algorithm 5 (rc(t))"""
    def rc(t):
        if t % 255 == 0:
            return 1
        R = [1, 0, 0, 0, 0, 0, 0, 0]
        for _ in range(t % 255):
            R = [0] + R
            R[0] ^= R[8]
            R[4] ^= R[8]
            R[5] ^= R[8]
            R[6] ^= R[8]
            R = R[:8]
        return R[0]
    out = []
    for ir in range(24):
        c = 0
        for j in range(7):
            if rc(j + 7 * ir):
                c |= 1 << ((1 << j) - 1)
        out.append(c)
    return out


RC = _rc_bits()


def _rol(v, n):
    n %= 64
    return ((v << n) | (v >> (64 - n))) & MASK if n else v


def keccak_f(lanes):
    """plain Keccak-f[1600] on 25 lanes (index x + 5y), FIPS 202 step mappings"""
    a = list(lanes)
    for ir in range(24):
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x - 1) % 5] ^ _rol(c[(x + 1) % 5], 1) for x in range(5)]
        a = [a[i] ^ d[i % 5] for i in range(25)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _rol(a[x + 5 * y], ROT[x][y])
        a = [b[x + 5 * y] ^ ((~b[(x + 1) % 5 + 5 * y] & MASK) & b[(x + 2) % 5 + 5 * y])
             for y in range(5) for x in range(5)]
        a[0] ^= RC[ir]
    return a


def to_bytes(lanes):
    return b"".join(v.to_bytes(8, "little") for v in lanes)


def from_bytes(b):
    return [int.from_bytes(b[8 * i:8 * i + 8], "little") for i in range(25)]


def permute_bytes(state: bytes, n: int = 1) -> bytes:
    lanes = from_bytes(state)
    for _ in range(n):
        lanes = keccak_f(lanes)
    return to_bytes(lanes)


def _sponge(msg: bytes, rate: int, pad: int, outlen: int) -> bytes:
    st = bytes(200)
    m = bytearray(msg) + bytes([pad])
    while len(m) % rate:
        m.append(0)
    m[-1] |= 0x80
    for i in range(0, len(m), rate):
        blk = bytes(a ^ b for a, b in zip(st[:rate], m[i:i + rate])) + st[rate:]
        st = permute_bytes(blk)
    out = b""
    while len(out) < outlen:
        out += st[:rate]
        st = permute_bytes(st)
    return out[:outlen]


def _self_check():
    zero = [int(w, 16) for w in ZERO_KAT.split()]
    assert keccak_f([0] * 25) == zero, "Python Keccak-f disagrees with the zero-state KAT"
    for msg in (b"", b"abc", bytes(range(200))):
        assert _sponge(msg, 136, 0x06, 32) == hashlib.sha3_256(msg).digest()
        assert _sponge(msg, 168, 0x1F, 200) == hashlib.shake_128(msg).digest(200)


def cases(rng: random.Random, n_random: int) -> list:
    _self_check()
    zero_out = to_bytes([int(w, 16) for w in ZERO_KAT.split()])
    out = [Case("keccak-team-kat:zero", {"state": bytes(200), "n": (1).to_bytes(4, "little"),
                                         "out": zero_out}),
           Case("keccak-team-kat:zero-twice", {"state": bytes(200), "n": (2).to_bytes(4, "little"),
                                               "out": permute_bytes(zero_out)})]
    for i in range(n_random):
        st = rng.randbytes(200)
        if i % 10 == 1:
            st = bytes([0xff]) * 200
        n = 1 + (i % 3)
        out.append(Case(f"random#{i}:n={n}", {"state": st, "n": n.to_bytes(4, "little"),
                                               "out": permute_bytes(st, n)}))
    return out

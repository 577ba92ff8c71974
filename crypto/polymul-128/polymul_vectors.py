"""Shared test-case generator of polymul-128/256/512 (imported by each vectors.py).

Oracle: schoolbook multiplication in GF(2)[x] on Python integers (bit i = coefficient of
x^i), cross-checked at import time against a second, independent method (Karatsuba on
integers down to 8-bit pieces, with a bytes table for the 8x8 products).
Operands and result are little-endian bytes (= little-endian 32-bit limbs).
"""
import random


def clmul(a: int, b: int) -> int:
    """product in GF(2)[x] (schoolbook, one shifted XOR per set bit of a)"""
    r = 0
    i = 0
    while a >> i:
        if (a >> i) & 1:
            r ^= b << i
        i += 1
    return r


_T8 = [[0] * 256 for _ in range(256)]
for _x in range(256):
    for _y in range(256):
        _v = 0
        for _j in range(8):
            if (_y >> _j) & 1:
                _v ^= _x << _j
        _T8[_x][_y] = _v


def _kara(a: int, b: int, bits: int) -> int:
    if bits <= 8:
        return _T8[a][b]
    h = bits // 2
    m = (1 << h) - 1
    a0, a1, b0, b1 = a & m, a >> h, b & m, b >> h
    lo, hi = _kara(a0, b0, h), _kara(a1, b1, h)
    mid = _kara(a0 ^ a1, b0 ^ b1, h) ^ lo ^ hi
    return lo ^ (mid << h) ^ (hi << (2 * h))


def _selfcheck():
    rng = random.Random(12345)
    for bits in (8, 128, 256, 512):
        for _ in range(20):
            a, b = rng.getrandbits(bits), rng.getrandbits(bits)
            assert clmul(a, b) == _kara(a, b, bits) == clmul(b, a)
    # squaring spreads the bits: (sum x^i)^2 = sum x^(2i) in characteristic 2
    a = rng.getrandbits(128)
    assert clmul(a, a) == sum(1 << (2 * i) for i in range(128) if (a >> i) & 1)
    assert clmul(0b11, 0b11) == 0b101 and clmul(0b111, 0b11) == 0b1001


_selfcheck()


def make_cases(Case, bits: int, rng: random.Random, n_random: int):
    nb = bits // 8
    full = (1 << bits) - 1

    def case(name, a, b):
        return Case(name, {"a": a.to_bytes(nb, "little"), "b": b.to_bytes(nb, "little"),
                           "r": clmul(a, b).to_bytes(2 * nb, "little")})

    out = []
    r1, r2 = rng.getrandbits(bits), rng.getrandbits(bits)
    out.append(case("zero-x-zero", 0, 0))
    out.append(case("zero-x-random", 0, r1))
    out.append(case("random-x-zero", r2, 0))
    out.append(case("ones-x-ones", full, full))
    out.append(case("ones-x-random", full, r1))
    out.append(case("random-x-ones", r2, full))
    out.append(case("one-x-random", 1, r1))
    out.append(case("random-x-one", r2, 1))
    out.append(case("top-x-top", 1 << (bits - 1), 1 << (bits - 1)))
    out.append(case("alt5-x-altA", int("5" * (bits // 4), 16), int("A" * (bits // 4), 16)))
    for i in (0, 1, 31, 32, 33, bits // 2 - 1, bits // 2, bits - 33, bits - 1):
        out.append(case("xpow%d-x-random" % i, 1 << i, rng.getrandbits(bits)))
    for w in range(bits // 32):       # one limb of ones, the others zero (limb boundary carries)
        out.append(case("limb%d-x-ones" % w, 0xFFFFFFFF << (32 * w), full))
    for i in range(n_random):
        out.append(case("random#%d" % i, rng.getrandbits(bits), rng.getrandbits(bits)))
    return out

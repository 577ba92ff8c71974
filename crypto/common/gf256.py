"""Arithmetic in GF(2^8) = GF(2)[x] / (poly), and the AES S-box built from it (FIPS 197 §5.1.1:
the multiplicative inverse modulo x^8 + x^4 + x^3 + x + 1, then the affine map). One place for
the generators of the AES kernels and tables (crypto/aes128/*, hw/units/gen_aes_units.py) and
for the other ciphers whose S-box is an inversion in GF(2^8) (SM4: another polynomial)."""

AES_POLY = 0x11B


def xtime(a: int, poly: int = AES_POLY) -> int:
    """a * x"""
    a <<= 1
    return a ^ poly if a & 0x100 else a


def mul(a: int, b: int, poly: int = AES_POLY) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        a, b = xtime(a, poly), b >> 1
    return r


def inverse(a: int, poly: int = AES_POLY) -> int:
    """the multiplicative inverse of a (0 for 0, as the AES S-box takes it)"""
    return 0 if a == 0 else next(y for y in range(1, 256) if mul(a, y, poly) == 1)


def rotl8(b: int, n: int) -> int:
    return ((b << n) | (b >> (8 - n))) & 0xFF


def _aes_sbox(x: int) -> int:
    b = inverse(x)
    return b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ 0x63


AES_SBOX = [_aes_sbox(x) for x in range(256)]
AES_INV_SBOX = [AES_SBOX.index(y) for y in range(256)]
assert AES_SBOX[0x00] == 0x63 and AES_SBOX[0x53] == 0xED       # FIPS 197 Figure 7


def aes_rcon(n: int) -> list[int]:
    """the first n round constants of the key expansion: 1, 2, 4, ... (x^(i-1))"""
    out, r = [], 1
    for _ in range(n):
        out.append(r)
        r = xtime(r)
    return out

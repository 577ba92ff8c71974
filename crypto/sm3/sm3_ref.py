"""SM3 (GB/T 32905-2016) in plain Python, from the standard's text: the oracle vectors.py
falls back to where the local hashlib (OpenSSL) has no sm3.  tests/test_sm3_ref.py checks it
against the standard's examples and, where available, hashlib."""
import struct

IV = [0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
      0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e]     # §4.1
M32 = 0xffffffff


def _rotl(x, n):
    n %= 32
    return ((x << n) | (x >> (32 - n))) & M32


def _p0(x):
    return x ^ _rotl(x, 9) ^ _rotl(x, 17)


def _p1(x):
    return x ^ _rotl(x, 15) ^ _rotl(x, 23)


def compress(v, block):
    """CF(V, B) of §5.3.3: V (8 words) and one 64-byte block -> the next V"""
    w = list(struct.unpack(">16I", block))
    for j in range(16, 68):                                   # §5.3.2 message expansion
        w.append(_p1(w[j - 16] ^ w[j - 9] ^ _rotl(w[j - 3], 15)) ^ _rotl(w[j - 13], 7) ^ w[j - 6])
    w1 = [w[j] ^ w[j + 4] for j in range(64)]
    a, b, c, d, e, f, g, h = v
    for j in range(64):
        t = 0x79cc4519 if j < 16 else 0x7a879d8a
        ss1 = _rotl((_rotl(a, 12) + e + _rotl(t, j)) & M32, 7)
        ss2 = ss1 ^ _rotl(a, 12)
        if j < 16:
            ff, gg = a ^ b ^ c, e ^ f ^ g
        else:
            ff, gg = (a & b) | (a & c) | (b & c), (e & f) | (~e & g)
        tt1 = (ff + d + ss2 + w1[j]) & M32
        tt2 = (gg + h + ss1 + w[j]) & M32
        a, b, c, d = tt1, a, _rotl(b, 9), c
        e, f, g, h = _p0(tt2), e, _rotl(f, 19), g
    return [x ^ y for x, y in zip(v, (a, b, c, d, e, f, g, h))]


def sm3(msg: bytes) -> bytes:
    """§5.2 padding (as SHA-256: 0x80, zeros, 64-bit big-endian bit length), then §5.3"""
    m = msg + b"\x80" + b"\x00" * ((55 - len(msg)) % 64) + struct.pack(">Q", 8 * len(msg))
    v = IV
    for i in range(0, len(m), 64):
        v = compress(v, m[i:i + 64])
    return struct.pack(">8I", *v)

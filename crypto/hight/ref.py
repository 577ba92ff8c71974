"""HIGHT (ISO/IEC 18033-3; TTAK.KO-12.0040/R1; Hong et al., CHES 2006), a plain reference
written from the specification: the oracle for crypto/hight/vectors.py and the model the
generator (gen.py) follows. tests/test_hight_ref.py checks it against the specification's
vectors first.

Byte order: byte i of a key/block array is MK_i / P_i / C_i of the specification (the order
of KISA's reference code). The specification writes its vectors most significant byte first,
MK15 ... MK0 and P7 ... P0, so vectors.py reverses them.
"""


def rotl8(x: int, n: int) -> int:
    return ((x << n) | (x >> (8 - n))) & 0xFF


def f0(x: int) -> int:
    return rotl8(x, 1) ^ rotl8(x, 2) ^ rotl8(x, 7)


def f1(x: int) -> int:
    return rotl8(x, 3) ^ rotl8(x, 4) ^ rotl8(x, 6)


def deltas() -> list[int]:
    """delta_0..delta_127: a 7-bit LFSR s_{i+6} = s_{i+2} xor s_{i-1}, s_0..s_6 = 0,1,0,1,1,0,1;
    delta_i = s_{i+6} || ... || s_i."""
    s = [0, 1, 0, 1, 1, 0, 1]
    for i in range(1, 128):
        s.append(s[i + 2] ^ s[i - 1])
    return [sum(s[i + k] << k for k in range(7)) for i in range(128)]


DELTA = deltas()


def whitening_keys(mk: bytes) -> list[int]:
    """WK_0..3 = MK_12..15, WK_4..7 = MK_0..3."""
    return [mk[i + 12] for i in range(4)] + [mk[i] for i in range(4)]


def subkeys(mk: bytes) -> list[int]:
    """SK_{16i+j} = MK_{(j-i) mod 8} + delta, SK_{16i+j+8} = MK_{((j-i) mod 8)+8} + delta (mod 256)."""
    sk = [0] * 128
    for i in range(8):
        for j in range(8):
            sk[16 * i + j] = (mk[(j - i) % 8] + DELTA[16 * i + j]) & 0xFF
            sk[16 * i + j + 8] = (mk[(j - i) % 8 + 8] + DELTA[16 * i + j + 8]) & 0xFF
    return sk


def encrypt(mk: bytes, pt: bytes) -> bytes:
    assert len(mk) == 16 and len(pt) == 8
    wk, sk = whitening_keys(mk), subkeys(mk)
    x = list(pt)
    x[0] = (x[0] + wk[0]) & 0xFF
    x[2] ^= wk[1]
    x[4] = (x[4] + wk[2]) & 0xFF
    x[6] ^= wk[3]
    for r in range(32):
        y = [0] * 8
        y[1], y[3], y[5], y[7] = x[0], x[2], x[4], x[6]
        y[0] = x[7] ^ ((f0(x[6]) + sk[4 * r + 3]) & 0xFF)
        y[2] = (x[1] + (f1(x[0]) ^ sk[4 * r])) & 0xFF
        y[4] = x[3] ^ ((f0(x[2]) + sk[4 * r + 1]) & 0xFF)
        y[6] = (x[5] + (f1(x[4]) ^ sk[4 * r + 2])) & 0xFF
        # the last round has no byte rotation: undo the one just made
        x = y if r < 31 else y[1:] + y[:1]
    x[0] = (x[0] + wk[4]) & 0xFF
    x[2] ^= wk[5]
    x[4] = (x[4] + wk[6]) & 0xFF
    x[6] ^= wk[7]
    return bytes(x)


def decrypt(mk: bytes, ct: bytes) -> bytes:
    assert len(mk) == 16 and len(ct) == 8
    wk, sk = whitening_keys(mk), subkeys(mk)
    y = list(ct)
    y[0] = (y[0] - wk[4]) & 0xFF
    y[2] ^= wk[5]
    y[4] = (y[4] - wk[6]) & 0xFF
    y[6] ^= wk[7]
    y = y[-1:] + y[:-1]                  # redo the rotation the last round left out
    for r in range(31, -1, -1):
        x = [0] * 8
        x[0], x[2], x[4], x[6] = y[1], y[3], y[5], y[7]
        x[7] = y[0] ^ ((f0(x[6]) + sk[4 * r + 3]) & 0xFF)
        x[1] = (y[2] - (f1(x[0]) ^ sk[4 * r])) & 0xFF
        x[3] = y[4] ^ ((f0(x[2]) + sk[4 * r + 1]) & 0xFF)
        x[5] = (y[6] - (f1(x[4]) ^ sk[4 * r + 2])) & 0xFF
        y = x
    y[0] = (y[0] - wk[0]) & 0xFF
    y[2] ^= wk[1]
    y[4] = (y[4] - wk[2]) & 0xFF
    y[6] ^= wk[3]
    return bytes(y)

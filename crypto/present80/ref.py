"""PRESENT (Bogdanov et al., "PRESENT: An Ultra-Lightweight Block Cipher", CHES 2007), written
from the paper's specification as the oracle of crypto/present80 and crypto/present80-ctr:
plain integer arithmetic, one bit operation after another, nothing optimised.

State and round keys are 64-bit integers, bit 63 the leftmost (most significant) bit; a block
of bytes is read big-endian (byte 0 holds bits 63..56), an 80-bit key K = k79..k0 from 10 bytes
and a 128-bit key from 16 bytes the same way.  Checked against the paper's vectors by
tests/test_present80_ref.py."""
from __future__ import annotations

ROUNDS = 31
SBOX = (0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD, 0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2)
SBOX_INV = tuple(SBOX.index(v) for v in range(16))


def p_position(i: int) -> int:
    """pLayer: bit i of the state moves to bit P(i) = 16 i mod 63 (P(63) = 63)."""
    return 63 if i == 63 else (16 * i) % 63


def s_layer(state: int, box=SBOX) -> int:
    return sum(box[(state >> (4 * n)) & 0xF] << (4 * n) for n in range(16))


def p_layer(state: int) -> int:
    return sum(((state >> i) & 1) << p_position(i) for i in range(64))


def p_layer_inv(state: int) -> int:
    return sum(((state >> p_position(i)) & 1) << i for i in range(64))


def round_keys_80(key: bytes) -> list[int]:
    """K_1 .. K_32 of the 80-bit key schedule: K_i = the leftmost 64 bits of the key register;
    then rotate left by 61, S-box on bits 79..76, XOR the round counter i into bits 19..15."""
    if len(key) != 10:
        raise ValueError("PRESENT-80 takes a 10-byte key")
    k = int.from_bytes(key, "big")
    out = []
    for i in range(1, ROUNDS + 2):
        out.append(k >> 16)
        k = ((k << 61) | (k >> 19)) & (2**80 - 1)
        k = (SBOX[k >> 76] << 76) | (k & (2**76 - 1))
        k ^= i << 15
    return out


def round_keys_128(key: bytes) -> list[int]:
    """K_1 .. K_32 of the 128-bit key schedule: the leftmost 64 bits; rotate left by 61, S-box
    on bits 127..124 and on 123..120, XOR the round counter into bits 66..62."""
    if len(key) != 16:
        raise ValueError("PRESENT-128 takes a 16-byte key")
    k = int.from_bytes(key, "big")
    out = []
    for i in range(1, ROUNDS + 2):
        out.append(k >> 64)
        k = ((k << 61) | (k >> 67)) & (2**128 - 1)
        k = (SBOX[k >> 124] << 124) | (SBOX[(k >> 120) & 0xF] << 120) | (k & (2**120 - 1))
        k ^= i << 62
    return out


def round_keys(key: bytes) -> list[int]:
    return round_keys_80(key) if len(key) == 10 else round_keys_128(key)


def encrypt_block(key: bytes, pt: bytes) -> bytes:
    rk = round_keys(key)
    s = int.from_bytes(pt, "big")
    for i in range(ROUNDS):
        s = p_layer(s_layer(s ^ rk[i]))
    return (s ^ rk[ROUNDS]).to_bytes(8, "big")


def decrypt_block(key: bytes, ct: bytes) -> bytes:
    rk = round_keys(key)
    s = int.from_bytes(ct, "big") ^ rk[ROUNDS]
    for i in reversed(range(ROUNDS)):
        s = s_layer(p_layer_inv(s), SBOX_INV) ^ rk[i]
    return s.to_bytes(8, "big")


def ctr_xor(key: bytes, iv: bytes, data: bytes) -> bytes:
    """Counter mode (crypto/present80-ctr/api.h): block j of the keystream is
    E_K(iv + j mod 2^64), the 8-byte iv read as a big-endian integer."""
    if len(iv) != 8:
        raise ValueError("the counter block is 8 bytes")
    ctr = int.from_bytes(iv, "big")
    out = bytearray()
    for j in range(0, len(data), 8):
        ks = encrypt_block(key, ((ctr + j // 8) % 2**64).to_bytes(8, "big"))
        out += bytes(a ^ b for a, b in zip(data[j:j + 8], ks))
    return bytes(out)

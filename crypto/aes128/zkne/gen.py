#!/usr/bin/env python3
"""Generates zkne/aes_zkne.S (keyexp_enc, encrypt) and zknd/aes_zknd.S (keyexp_dec, decrypt)
with the scalar AES instructions aes32es[m]i / aes32ds[m]i.  Run: python3 gen.py"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from common.asm import Asm, header  # noqa: E402
from common.buffers import call_on_aligned_copy, load_le_words_bytes  # noqa: E402
from common.gf256 import aes_rcon  # noqa: E402

S = ["a4", "a5", "a6", "a7"]
N = ["t0", "t1", "t2", "t3"]


def load_in(e, tag):
    e("or   t0, a0, a1")
    e("andi t0, t0, 3")
    e(f"bnez t0, .L{tag}_unaligned", note="in or out not word-aligned")
    for j in range(4):
        e(f"lw   {S[j]}, {4 * j}(a1)")
    for j in range(4):
        e(f"lw   {N[j]}, {4 * j}(a2)")
    for j in range(4):
        e(f"xor  {S[j]}, {S[j]}, {N[j]}")


def cipher(e, dec):
    cur, nxt = S, N
    for r in range(1, 11):
        e.comment(f"round {r}: {' '.join(nxt)} = rk[{4 * r}..{4 * r + 3}] ^ "
                  f"{'Inv' if dec else ''}{'SubBytes' if r == 10 else 'MixColumns(SubBytes)'} of {' '.join(cur)}")
        for j in range(4):
            e(f"lw   {nxt[j]}, {16 * r + 4 * j}(a2)")
        op = ("aes32dsmi" if dec else "aes32esmi") if r < 10 else ("aes32dsi" if dec else "aes32esi")
        for j in range(4):
            for k in range(4):
                src = (j - k) % 4 if dec else (j + k) % 4
                e(f"{op} {nxt[j]}, {nxt[j]}, {cur[src]}, {k}")
        cur, nxt = nxt, cur
    for j in range(4):
        e(f"sw   {cur[j]}, {4 * j}(a0)")
    e("ret")


def block_function(e, dec):
    """aes128_encrypt / aes128_decrypt (out, in, rk); an unaligned in or out takes the aligned
    path on a copy"""
    name, tag = ("aes128_decrypt", "dec") if dec else ("aes128_encrypt", "enc")
    with e.function(name, doc="(out, in, rk)"):
        load_in(e, tag)
        cipher(e, dec)
        call_on_aligned_copy(e, f".L{tag}_unaligned", name)


def load_key(e, tag):
    e("andi t0, a1, 3")
    e(f"bnez t0, .L{tag}_unaligned", note="key not word-aligned")
    for j in range(4):
        e(f"lw   {S[j]}, {4 * j}(a1)")
    e.label(f".L{tag}_go")


def load_key_unaligned(e, tag):
    e.label(f".L{tag}_unaligned")
    load_le_words_bytes(e, S, "a1")
    e(f"j    .L{tag}_go")


def keyround(e, rcon):
    e.comment(f"a4 ^= SubWord(RotWord(a7)) ^ {rcon:#x}, then a5, a6, a7")
    e("srli t0, a7, 8")
    e("slli t1, a7, 24")
    e("or   t0, t0, t1", note="RotWord")
    e(f"xori a4, a4, {rcon}")
    for k in range(4):
        e(f"aes32esi a4, a4, t0, {k}")
    e("xor  a5, a5, a4")
    e("xor  a6, a6, a5")
    e("xor  a7, a7, a6")


def gen_zkne():
    e = Asm({"zkne"})
    e.raw(header("AES-128 key expansion and encryption with Zkne (aes32esmi/aes32esi).", "gen.py").rstrip())
    e.section(".text")
    block_function(e, dec=False)
    with e.function("aes128_keyexp_enc", doc="(rk, key)"):
        load_key(e, "kx")
        for j in range(4):
            e(f"sw   {S[j]}, {4 * j}(a0)")
        for i, rcon in enumerate(aes_rcon(10), 1):
            keyround(e, rcon)
            for j in range(4):
                e(f"sw   {S[j]}, {16 * i + 4 * j}(a0)")
        e("ret")
        load_key_unaligned(e, "kx")
    return e.text()


def gen_zknd():
    e = Asm({"zknd", "zkne"})
    e.raw(header("AES-128 decryption key schedule and decryption (equivalent inverse cipher) with Zknd",
                 "../zkne/gen.py", ["(aes32dsmi/aes32dsi; the key schedule also uses Zkne aes32esi)."]).rstrip())
    e.section(".text")
    block_function(e, dec=True)
    with e.function("aes128_keyexp_dec", doc="(rk, key)"):
        load_key(e, "kd")
        e.comment("decryption round i uses encryption round key 10-i; InvMixColumns on 1..9")
        for j in range(4):
            e(f"sw   {S[j]}, {160 + 4 * j}(a0)")
        for i, rcon in enumerate(aes_rcon(10), 1):
            keyround(e, rcon)
            d = 10 - i
            for j in range(4):
                if i == 10:
                    e(f"sw   {S[j]}, {4 * j}(a0)")
                    continue
                # InvMixColumns(w) = the dsmi chain over SubWord(w)
                e(f"aes32esi t0, zero, {S[j]}, 0", note=f"SubWord({S[j]})")
                e(f"aes32esi t0, t0, {S[j]}, 1")
                e(f"aes32esi t0, t0, {S[j]}, 2")
                e(f"aes32esi t0, t0, {S[j]}, 3")
                e("aes32dsmi t1, zero, t0, 0", note="InvMixColumns(w) = the dsmi chain over SubWord(w)")
                e("aes32dsmi t1, t1, t0, 1")
                e("aes32dsmi t1, t1, t0, 2")
                e("aes32dsmi t1, t1, t0, 3")
                e(f"sw   t1, {16 * d + 4 * j}(a0)")
        e("ret")
        load_key_unaligned(e, "kd")
    return e.text()


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "aes_zkne.S"), "w") as f:
        f.write(gen_zkne())
    with open(os.path.join(here, "..", "zknd", "aes_zknd.S"), "w") as f:
        # the encryption half is the Zkne kernel itself, included rather than copied
        f.write(gen_zknd() + '\n/* keyexp_enc and encrypt: the Zkne kernel */\n#include "../zkne/aes_zkne.S"\n')

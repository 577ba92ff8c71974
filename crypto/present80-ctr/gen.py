#!/usr/bin/env python3
"""Generator of the PRESENT-80-CTR kernels: the block encryption cores of ../present80/gen.py
(bitsliced for rv32i, nibble-sliced xperm4 for zbkb-zbkx) in a counter-mode loop.

    python3 gen.py      rewrite rv32i/*.S and zbkb-zbkx/*.S

The counter is kept in the layout the cores start from (LW: the two little-endian words of
the big-endian block), so a block needs no conversion on the way in: rv32i adds 1 to the top
byte of the second word (byte 7 of the block) and takes a slow path, once per 256 blocks,
when that byte carries; with Zbkb the counter is kept as two integers and rev8 puts them in
LW (2 instructions).  The keystream comes out in LW, the layout of lw/sw on the data.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "present80"))
import gen as P  # noqa: E402
import layout as L  # noqa: E402

# argument copies, live across the block loop
OUT, IN, LEN, CX, CY, RK = "s6", "s7", "s8", "s9", "s10", "s11"


def bswap(asm, d, s, t, m):
    """d = s with its bytes reversed (rv32i); m: scratch, t: scratch"""
    asm("slli", d, s, 24)
    asm("srli", t, s, 24)
    asm("or", d, d, t)
    asm("li", m, 0xFF00)
    asm("srli", t, s, 8)
    asm("and", t, t, m)
    asm("or", d, d, t)
    asm("slli", t, s, 8)
    asm("slli", m, m, 8)
    asm("and", t, t, m)
    asm("or", d, d, t)


def xor_out(asm, st, name):
    """out[0..8) = in[0..8) ^ keystream (st, layout LW), or the tail when fewer than 8 bytes
    are left; advances in/out/len; falls through when len is 0, else back to the block loop"""
    x, y = st.regs
    asm("li", "t0", 8)
    asm("bltu", LEN, "t0", f".L{name}_tail")
    asm("or", "t0", OUT, IN)
    asm("andi", "t0", "t0", 3)
    asm("bnez", "t0", f".L{name}_bytes", c="unaligned in or out: byte by byte")
    asm("lw", "t0", f"0({IN})")
    asm("lw", "t1", f"4({IN})")
    asm("xor", "t0", "t0", x)
    asm("xor", "t1", "t1", y)
    asm("sw", "t0", f"0({OUT})")
    asm("sw", "t1", f"4({OUT})")
    asm.label(f".L{name}_next")
    asm("addi", IN, IN, 8)
    asm("addi", OUT, OUT, 8)
    asm("addi", LEN, LEN, -8)
    asm("bnez", LEN, f".L{name}_block")
    asm("j", f".L{name}_done")
    asm.label(f".L{name}_bytes")
    for r, base in ((x, 0), (y, 4)):
        for i in range(4):
            asm("lbu", "t0", f"{base + i}({IN})")
            asm("xor", "t0", "t0", r)
            asm("sb", "t0", f"{base + i}({OUT})")
            if i < 3:
                asm("srli", r, r, 8)
    asm("j", f".L{name}_next")
    asm.label(f".L{name}_tail")           # 1..7 bytes: x's four bytes, then y's
    asm("li", "t1", 4)
    asm.label(f".L{name}_tail_byte")
    asm("lbu", "t0", f"0({IN})")
    asm("xor", "t0", "t0", x)
    asm("sb", "t0", f"0({OUT})")
    asm("srli", x, x, 8)
    asm("addi", IN, IN, 1)
    asm("addi", OUT, OUT, 1)
    asm("addi", LEN, LEN, -1)
    asm("beqz", LEN, f".L{name}_done")
    asm("addi", "t1", "t1", -1)
    asm("bnez", "t1", f".L{name}_tail_byte")
    asm("mv", x, y)
    asm("j", f".L{name}_tail_byte")


def load_iv(asm, words, ptr, t, big_endian):
    """the 8 iv bytes at ptr (any alignment) as two words: little-endian (LW) or big-endian"""
    for w, r in enumerate(words):
        order = range(4) if big_endian else reversed(range(4))
        first = True
        for i in order:
            asm("lbu", t if not first else r, f"{4 * w + i}({ptr})")
            if not first:
                asm("slli", r, r, 8)
                asm("or", r, r, t)
            first = False


def gen_ctr(isa):
    asm = P.Asm()
    name = "present80ctr_xor"
    if isa == "rv32i":
        P.header(asm, "PRESENT-80-CTR, the bitsliced block core of present80/rv32i-ct in a counter loop",
                 "ISA rv32i.  Constant time: no table, branches only on lengths, alignment and the public counter.")
        _, _, _, key_lays, masks = P.bs_setup()
        period = 6
        saved = list(masks.values()) + [OUT, IN, LEN, CX, CY, RK]
    else:
        P.header(asm, "PRESENT-80-CTR, the nibble-sliced xperm4 core of present80/zbkb-zbkx in a counter loop",
                 "ISA rv32i_zbkb_zbkx.  Constant time: xperm4 tables in registers, no secret branch or address.")
        rounds, entry, fin_pl, lf, fin_path, key_lays, tab_keys = P.nibble_plan("zbkb")
        period = len(rounds)
        treg = ["t2", "t3", "t4", "t5", "t6", "a0", "a1", "a7", "s0", "s1", "s2", "s3", "s4", "s5"]
        tabs = {k: (treg[2 * i], treg[2 * i + 1]) for i, k in enumerate(tab_keys)}
        saved = [r for r in treg[:2 * len(tab_keys)] if r.startswith("s")] + [OUT, IN, LEN, CX, CY, RK]
    P.func_begin(asm, name)
    P.save_regs(asm, saved)
    for r, a in ((OUT, "a0"), (IN, "a1"), (LEN, "a2"), (RK, "a4")):
        asm("mv", r, a)
    load_iv(asm, (CX, CY), "a3", "t0", big_endian=isa != "rv32i")
    if isa == "rv32i":
        for k, r in masks.items():
            asm.li(r, L.MASK0[k])
    else:
        P.nibble_tables(asm, tab_keys, tabs, "a6", False)
    asm("beqz", LEN, f".L{name}_done")
    asm.label(f".L{name}_block")
    if isa == "rv32i":
        st = P.State("a3", "a4", L.LW)
        asm("mv", "a3", CX, c="counter block, layout LW")
        asm("mv", "a4", CY)
        asm("mv", "a2", RK)
        P.bs_encrypt_core(asm, st, name, False, masks,
                          ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a6", "a7", "a1", "a0"])
        # counter + 1: byte 7 of the block is the top byte of CY
        asm("srli", "t0", CY, 24, c="counter + 1")
        asm("addi", "t0", "t0", -255)
        asm("beqz", "t0", f".L{name}_carry")
        asm("li", "t0", 1 << 24)
        asm("add", CY, CY, "t0")
        asm.label(f".L{name}_counted")
    else:
        st = P.State("a3", "a4", L.LW)
        asm("rev8", "a3", CX, c="counter block (two integers) into layout LW")
        asm("rev8", "a4", CY)
        asm("mv", "a2", RK)
        P.nibble_encrypt_core(asm, st, name, "zbkb", tabs, "a6", "t0", "t1")
        asm("addi", CY, CY, 1, c="counter + 1")
        asm("seqz", "t0", CY)
        asm("add", CX, CX, "t0")
    xor_out(asm, st, name)
    if isa == "rv32i":
        asm.label(f".L{name}_carry")         # byte 7 carries: 64-bit increment, via integers
        bswap(asm, "t2", CY, "t0", "t1")
        bswap(asm, "t3", CX, "t0", "t1")
        asm("addi", "t2", "t2", 1)
        asm("seqz", "t0", "t2")
        asm("add", "t3", "t3", "t0")
        bswap(asm, CY, "t2", "t0", "t1")
        bswap(asm, CX, "t3", "t0", "t1")
        asm("j", f".L{name}_counted")
    asm.label(f".L{name}_done")
    P.restore_regs(asm, saved)
    asm("ret")
    P.func_end(asm, name)

    # the key schedule: present80's, with the layouts of this core
    conv = lambda a, nm: P.emit_convert_loop(a, nm, key_lays, period, ("a2", "a3", "t0", "t1", "a4", "a5"))
    P.emit_keyexp(asm, "present80ctr_keyexp", 80, conv, complement_hi=isa == "rv32i",
                  shared_label=".Lpresent80ctr_keys_to_layouts")
    return asm


def main():
    (HERE / "rv32i" / "present80ctr_rv32i.S").write_text(gen_ctr("rv32i").text())
    (HERE / "zbkb-zbkx" / "present80ctr_zbkb_zbkx.S").write_text(gen_ctr("zbkb").text())


if __name__ == "__main__":
    main()

"""The value of one RV32 ALU operation of a generator's SSA or register code, for the
generators' self-checks (they run what they emit on a model before writing assembly)."""
from __future__ import annotations

M32 = 0xFFFFFFFF


def alu(op: str, s: list[int], imm: int | None) -> int:
    """op over the source values s (unsigned 32-bit) and the immediate imm."""
    if op == "li":
        return imm & M32
    if op == "xor":
        return s[0] ^ s[1]
    if op == "and":
        return s[0] & s[1]
    if op == "or":
        return s[0] | s[1]
    if op == "srli":
        return s[0] >> imm
    if op == "slli":
        return (s[0] << imm) & M32
    if op == "rori":
        return ((s[0] >> imm) | (s[0] << (32 - imm))) & M32
    if op == "pack":
        return (s[0] & 0xFFFF) | (s[1] & 0xFFFF) << 16
    if op == "addi":
        return (s[0] + imm) & M32
    if op == "xori":
        return s[0] ^ (imm & M32)
    if op == "andi":
        return s[0] & (imm & M32)
    raise ValueError(op)

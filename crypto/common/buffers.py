"""Emitters for a kernel's block and key buffers: byte order, and buffers of any alignment.
(The E31 traps on a misaligned lw/sw, and the APIs take byte pointers.)"""


def call_on_aligned_copy(a, label, fn, size=16, out="a0", inp="a1"):
    """The slow path of a kernel that needs aligned buffers: at `label`, copy the `size`-byte
    input to the stack, call the aligned entry `fn` on the copy (in place), copy the result to
    the real output. 4 + 4 * size instructions and a call, for the rare unaligned caller."""
    a.label(label)
    frame = 2 * size + 16
    a("addi", "sp", "sp", -frame)
    a("sw", "ra", f"{frame - 4}(sp)")
    a("sw", out, f"{frame - 8}(sp)")
    for i in range(size):
        a("lbu", "t0", f"{i}({inp})")
        a("sb", "t0", f"{i}(sp)")
    a("addi", out, "sp", size, note="out: the copy's second half")
    a("mv", inp, "sp")
    a("call", fn)
    a("lw", out, f"{frame - 8}(sp)")
    for i in range(size):
        a("lbu", "t0", f"{size + i}(sp)")
        a("sb", "t0", f"{i}({out})")
    a("lw", "ra", f"{frame - 4}(sp)")
    a("addi", "sp", "sp", frame)
    a("ret")


def load_le_words_bytes(a, dsts, src, tmp="t0"):
    """dsts[j] = the little-endian word at src + 4j (any alignment): lbu, then per byte
    lbu/slli/or (10 instructions a word)."""
    for j, r in enumerate(dsts):
        a("lbu", r, f"{4 * j}({src})")
        for b in range(1, 4):
            a("lbu", tmp, f"{4 * j + b}({src})")
            a("slli", tmp, tmp, 8 * b)
            a("or", r, r, tmp)

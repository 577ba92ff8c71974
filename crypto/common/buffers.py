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


def load_be_words(a, src, dsts, sets, role=None):
    """dsts[j] = the big-endian word at src + 4j (any alignment), for four words. Two sets of
    four temporaries alternate so that no lbu result is used within its 3-cycle latency (word
    j+1's loads go between word j's loads and its combination). Zbkb: packh/packh/pack instead
    of three shifts and three ors."""
    def loads(j):
        for b, t in enumerate(sets[j % 2]):
            a("lbu", t, f"{4 * j + b}({src})", role=role)

    def combine(j):
        t = sets[j % 2]
        if a.has("zbkb"):
            a("packh", t[0], t[1], t[0], role=role)
            a("packh", t[2], t[3], t[2], role=role)
            a("pack", dsts[j], t[2], t[0], role=role)
            return
        a("slli", t[0], t[0], 24, role=role)
        a("slli", t[1], t[1], 16, role=role)
        a("slli", t[2], t[2], 8, role=role)
        a("or", t[0], t[0], t[1], role=role)
        a("or", t[2], t[2], t[3], role=role)
        a("or", dsts[j], t[0], t[2], role=role, note="big-endian word")
    loads(0)
    loads(1)
    combine(0)
    loads(2)
    combine(1)
    loads(3)
    combine(2)
    combine(3)


def store_be_words(a, regs, dst, temps=("t0", "t1", "t2"), role=None):
    """the words regs to dst + 4j as big-endian bytes (any alignment): the low byte first, then
    three shifts and three stores."""
    for j, r in enumerate(regs):
        a("sb", r, f"{4 * j + 3}({dst})", role=role)
        for b, t in zip((2, 1, 0), temps):
            a("srli", t, r, 24 - 8 * b, role=role)
        for b, t in zip((2, 1, 0), temps):
            a("sb", t, f"{4 * j + b}({dst})", role=role)


def store_le_words_bytes(a, regs, dst, tmp, offsets=None):
    """the words regs to dst (+ offsets[j], default 4j) as little-endian bytes (any alignment):
    sb, then per byte srli/sb (7 instructions a word)."""
    for j, r in enumerate(regs):
        base = 4 * j if offsets is None else offsets[j]
        a("sb", r, f"{base}({dst})")
        for i in range(1, 4):
            a("srli", tmp, r, 8 * i)
            a("sb", tmp, f"{base + i}({dst})")


def load_be_block(a, src, dsts, sets, tag, scratch, role=None, note="not word-aligned", jump_role=None):
    """dsts = the four big-endian words at src (any alignment). Without Zbkb: load_be_words.
    With Zbkb: lw + rev8 when src is word-aligned (a branch on the pointer, not on data), else a
    branch to .L{tag}_load_bytes. Returns the emitter of that out-of-line path (load_be_words,
    then a jump back to .L{tag}_loaded) for the caller to place after its return, or None."""
    if not a.has("zbkb"):
        load_be_words(a, src, dsts, sets, role=role)
        return None
    a("andi", scratch, src, 3, role=role)
    a("bnez", scratch, f".L{tag}_load_bytes", role=role, note=note)
    for j, r in enumerate(dsts):
        a("lw", r, f"{4 * j}({src})", role=role)
    for r in dsts:
        a("rev8", r, r, role=role)
    a.label(f".L{tag}_loaded")

    def slow():
        a.label(f".L{tag}_load_bytes")
        load_be_words(a, src, dsts, sets, role=role)
        a("j", f".L{tag}_loaded", role=jump_role)
    return slow


def store_be_block(a, regs, dst, tag, scratch, finish, temps=("t0", "t1", "t2"), role=None,
                   note="out not word-aligned", jump_role=None):
    """the words regs to dst as big-endian bytes (any alignment), then finish() (the function's
    epilogue). Without Zbkb: store_be_words. With Zbkb: rev8 + sw when dst is word-aligned (a
    branch on the pointer), the bytes path after finish(), jumping back to it."""
    if not a.has("zbkb"):
        store_be_words(a, regs, dst, temps=temps, role=role)
        finish()
        return
    a("andi", scratch, dst, 3, role=role)
    a("bnez", scratch, f".L{tag}_store_bytes", role=role, note=note)
    for j, r in enumerate(regs):
        a("rev8", r, r, role=role)
        a("sw", r, f"{4 * j}({dst})", role=role)
    a.label(f".L{tag}_stored")
    finish()
    a.label(f".L{tag}_store_bytes")
    store_be_words(a, regs, dst, temps=temps, role=role)
    a("j", f".L{tag}_stored", role=jump_role)

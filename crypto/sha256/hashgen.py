"""RV32 code emission shared by the generators of the Merkle-Damgard hash kernels
(crypto/sha256/gen.py, crypto/sha512/gen.py, crypto/sm3/gen.py).

Every kernel has the same frame: ra and s0-s11 saved (the rounds want all 28 usable
registers), plus three spill words for the arguments (state pointer, input pointer, block
count), which the rounds need no register for.  Big-endian message words are loaded with
`lbu` on rv32i (any alignment, 10 instructions a word), with `lw` + `rev8` on Zbkb when the
input is 4-byte aligned and with `lbu` + `packh`/`pack` when it is not.
"""
import os

SAVED = ["ra"] + [f"s{i}" for i in range(12)]


def args_offset(save_off):
    """where prologue() spills state, in, nblocks (4 bytes apart)"""
    return save_off + 4 * len(SAVED)


class Asm:
    """Collects assembly lines and counts instructions by mnemonic (for --stats)."""

    def __init__(self, isa):
        self.isa = isa                      # "rv32i", "zbkb", or a hash extension (implies zbkb)
        self.lines = []
        self.count = {}

    @property
    def zbkb(self):
        return self.isa != "rv32i"

    def __call__(self, op, *args, note=None):
        line = "    %-7s %s" % (op, ", ".join(str(a) for a in args))
        if note:
            line = "%-40s # %s" % (line, note)
        self.lines.append(line)
        self.count[op] = self.count.get(op, 0) + 1

    def label(self, name):
        self.lines.append(f"{name}:")

    def comment(self, text):
        self.lines.append(f"    # {text}")

    def raw(self, text):
        self.lines.append(text)

    def part(self, name, what):
        """A local function symbol: rvsim's per-function counts (and --annotate) then show
        this part of the kernel (rounds, schedule, loads) on its own."""
        self.raw("")
        self.raw(f"    .type   {name}, @function          # {what}")
        self.label(name)

    def text(self):
        return "\n".join(self.lines) + "\n"

    # ------------------------------------------------------------ rotations
    def rotr(self, dst, src, n, tmp):
        """dst = src rotated right by n (0 < n < 32); rv32i needs tmp != dst."""
        if self.zbkb:
            self("rori", dst, src, n)
        else:
            self("slli", tmp, src, 32 - n)
            self("srli", dst, src, n)
            self("or", dst, dst, tmp)

    def xor_rotr(self, dst, src, rots, tmp, shr=None):
        """dst = XOR of src rotated right by each of rots (and src >> shr); dst != src != tmp.
        rv32i: every rotation is two shifts, so 2 * len(rots) (+1) shifts and one XOR fewer."""
        if self.zbkb:
            terms = [("rori", r) for r in rots] + ([("srli", shr)] if shr else [])
        else:
            terms = ([("srli", shr)] if shr else []) + \
                [t for r in rots for t in (("srli", r), ("slli", 32 - r))]
        (op, n), rest = terms[0], terms[1:]
        self(op, dst, src, n)
        for op, n in rest:
            self(op, tmp, src, n)
            self("xor", dst, dst, tmp)

    # ------------------------------------------------------------ frame
    def prologue(self, name, frame, save_off, doc):
        """enter: nothing to do for nblocks = 0; else save ra, s0-s11 at sp+save_off and
        spill the three arguments after them (args_offset(save_off))"""
        self.raw("    .text")
        self.raw(f"    .globl  {name}")
        self.raw(f"    .type   {name}, @function          # {doc}")
        self.raw("    .p2align 2")
        self.label(name)
        self("beqz", "a2", f".L{name}_none", note="no blocks: nothing to do")
        self("addi", "sp", "sp", -frame)
        for i, r in enumerate(SAVED):
            self("sw", r, f"{save_off + 4 * i}(sp)")
        for i, r in enumerate(["a0", "a1", "a2"]):
            self("sw", r, f"{args_offset(save_off) + 4 * i}(sp)", note=("state", "in", "nblocks")[i])

    def epilogue(self, name, frame, save_off):
        for i, r in enumerate(SAVED):
            self("lw", r, f"{save_off + 4 * i}(sp)")
        self("addi", "sp", "sp", frame)
        self.label(f".L{name}_none")
        self("ret")
        self.raw(f"    .size   {name}, .-{name}")

    # ------------------------------------------------------------ big-endian loads
    def load_be32(self, dst, base, off, tmps):
        """dst = big-endian word at base+off, any alignment: 4 lbu (three temporaries),
        ordered so that no byte is used within 3 cycles of its load (E31 LBU latency)."""
        b1, b2, b3 = tmps
        self("lbu", dst, f"{off}({base})")
        self("lbu", b1, f"{off + 1}({base})")
        self("lbu", b2, f"{off + 2}({base})")
        self("lbu", b3, f"{off + 3}({base})")
        if self.zbkb:                               # (b0 << 8 | b1) << 16 | (b2 << 8 | b3)
            self("packh", dst, b1, dst)
            self("packh", b2, b3, b2)
            self("pack", dst, b2, dst)
        else:
            self("slli", dst, dst, 24)
            self("slli", b1, b1, 16)
            self("or", dst, dst, b1)
            self("slli", b2, b2, 8)
            self("or", dst, dst, b2)
            self("or", dst, dst, b3)

    def load_be_words(self, dsts, base, off, tmps, tag):
        """dsts[i] = big-endian word at base+off+4i.  Zbkb: lw + rev8 when base is 4-byte
        aligned, else (a branch per block on the pointer, which is public) the byte path of
        load_be32 in an out-of-line copy that jumps back."""
        if not self.zbkb:
            for i, d in enumerate(dsts):
                self.load_be32(d, base, off + 4 * i, tmps)
            return None
        self("andi", tmps[0], base, 3)
        self("bnez", tmps[0], f"{tag}_unaligned", note="input not 4-byte aligned")
        for i, d in enumerate(dsts):
            self("lw", d, f"{off + 4 * i}({base})")
        for d in dsts:
            self("rev8", d, d)
        self.label(f".L{tag}_loaded")

        def unaligned():
            self.part(f"{tag}_unaligned", "the same loads byte by byte")
            for i, d in enumerate(dsts):
                self.load_be32(d, base, off + 4 * i, tmps)
            self("j", f".L{tag}_loaded")
        return unaligned


FRAME32 = 64                        # the 32-bit kernels' frame: saved registers and arguments


def kernel32(a, prefix, title, table, S, W, T, KP, rounds, combine):
    """The whole .S of a 32-bit kernel (SHA-256, SM3): frame, block loop and state update
    around rounds(a), which emits one block's rounds (W loaded, KP = the table's first word).
    All 16 message words in the registers W, the state in S, temporaries T (3), KP the
    constants' pointer; combine: "add" (SHA-256) or "xor" (SM3) of the working variables into
    the state; table = (symbol, words, comment) of the constants, in .data with a 0 word after."""
    name = f"{prefix}_compress"
    args = args_offset(0)
    a.prologue(name, FRAME32, 0, "(state[8], in, nblocks)")
    for i, r in enumerate(S):
        a("lw", r, f"{4 * i}(a0)", note="working variables = state" if i == 0 else None)
    a("mv", KP, "a1", note="KP holds the input pointer until the block is loaded")
    a.label(".Lblock")
    a.part(f"{prefix}_load", "the block's 16 big-endian words into W")
    out_of_line = a.load_be_words(W, KP, 0, list(T), f"{prefix}_load")
    a("la", KP, table[0])
    rounds(a)
    a.part(f"{prefix}_update_state", f"state = state {combine} working variables; next block")
    t0, t1 = T[:2]
    a("lw", t0, f"{args}(sp)", note="state")
    a("lw", t1, f"{args + 8}(sp)", note="nblocks")
    a("lw", KP, f"{args + 4}(sp)", note="in")
    for i in range(8):
        a("lw", W[i], f"{4 * i}({t0})")
    a("addi", t1, t1, -1)
    a("addi", KP, KP, 64)
    a("sw", t1, f"{args + 8}(sp)")
    a("sw", KP, f"{args + 4}(sp)")
    for i in range(8):
        a(combine, S[i], S[i], W[i])
        a("sw", S[i], f"{4 * i}({t0})")
    a("bnez", t1, ".Lblock")
    a.epilogue(name, FRAME32, 0)
    if out_of_line:
        out_of_line()
    hdr = header(f"{title} compression, {a.isa}", "../gen.py", [
        f"void {name}(uint32_t state[8], const uint8_t *in, size_t nblocks);",
        f"in: nblocks * 64 bytes, any alignment.  Stack: {FRAME32} bytes.  Design: ../gen.py, ../NOTES.md."])
    sym, words, comment = table
    return hdr + a.text() + "\n" + data_table(sym, words + [0], comment)


def primes(n):
    out, k = [], 2
    while len(out) < n:
        if all(k % p for p in out):
            out.append(k)
        k += 1
    return out


def iroot(x, e):
    """floor(x ** (1/e)) for integers (Newton)"""
    r = 1 << ((x.bit_length() + e - 1) // e)
    while True:
        s = ((e - 1) * r + x // r ** (e - 1)) // e
        if s >= r:
            return r
        r = s


def header(title, gen, lines):
    return "\n".join([f"/* {title}", f" * GENERATED by {gen} -- edit the generator, not this file."]
                     + [f" * {l}" if l else " *" for l in lines] + [" */"]) + "\n"


def data_table(name, words, comment):
    """a .data table of 32-bit words (copied to the DTIM at start-up), 4 per line"""
    out = [f"    .section .data.{name}, \"aw\"", "    .p2align 2", f"{name}:                         # {comment}"]
    for i in range(0, len(words), 4):
        out.append("    .word   " + ", ".join("0x%08x" % w for w in words[i:i + 4]))
    return "\n".join(out) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def stats(name, asm):
    n = sum(asm.count.values())
    print(f"{name}: {n} static instructions; " + ", ".join(f"{k} {v}" for k, v in sorted(asm.count.items())))


def generate(gen_file, prim, isas, kernel, argv):
    """a generator's main: <prim>/<isa>/<prim>.S for each isa next to gen_file, or with
    --stats in argv only the static instruction counts.  kernel(isa) -> (Asm, text)"""
    here = os.path.dirname(os.path.abspath(gen_file))
    for isa in isas:
        a, text = kernel(isa)
        if "--stats" in argv:
            stats(f"{prim}/{isa}", a)
        else:
            write(os.path.join(here, isa, f"{prim}.S"), text)

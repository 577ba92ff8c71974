"""crypto/present80/xzbp.inc: the .insn macros for the draft grev/shfl/unshfl instructions
(which binutils does not know) against rvsim's decoder.  Every macro is assembled with every
control value it takes; the word must match the xzbp row of sim/src/ext/table.rs (mask and
match computed from the row as table.rs does), and running it on rvsim must give the value of
a bit-index definition of the instruction written here."""
import random
import re
import subprocess
from pathlib import Path

from rvlab import build as rb

ROOT = Path(__file__).resolve().parent.parent
INC = ROOT / "crypto" / "present80"
TABLE = ROOT / "sim" / "src" / "ext" / "table.rs"
RVSIM = ROOT / "sim" / "target" / "release" / "rvsim"

# the encoding helpers of table.rs, as functions of their arguments
FORMS = {
    "r": lambda f7, f3: (0xFE00707F, (f7 << 25) | (f3 << 12) | 0x33),
    "sh": lambda f7, f3: (0xFE00707F, (f7 << 25) | (f3 << 12) | 0x13),
    "shf": lambda f3: (0xFF00707F, (0x04 << 25) | (f3 << 12) | 0x13),
}


def decoder_rows():
    rows = {}
    for m in re.finditer(r'row!\("(\w+)", "xzbp", (\w+)\(([^)]*)\)', TABLE.read_text()):
        args = [int(a, 0) for a in m.group(3).split(",")]
        rows[m.group(1)] = FORMS[m.group(2)](*args)
    return rows


# bit-index definitions (draft bitmanip 0.93): grev: result bit i = x bit (i ^ k); a shuffle
# stage s swaps index bits s and s+1; shfl applies stages 3..0 of k, unshfl 0..3
def grev(x, k):
    return sum(((x >> (i ^ (k & 31))) & 1) << i for i in range(32))


def stage(x, s):
    out = 0
    for i in range(32):
        a, b = (i >> s) & 1, (i >> (s + 1)) & 1
        j = i ^ ((1 << s) | (1 << (s + 1))) if a != b else i
        out |= ((x >> i) & 1) << j
    return out


def shfl(x, k, inverse=False):
    for s in ((0, 1, 2, 3) if inverse else (3, 2, 1, 0)):
        if k >> s & 1:
            x = stage(x, s)
    return x


CASES = ([("grevi", k) for k in range(32)] + [("shfli", k) for k in range(16)] +
         [("unshfli", k) for k in range(16)] + [("grev", None), ("shfl", None), ("unshfl", None)])


def expected(name, x, k):
    base = name.rstrip("i") if name.endswith("i") else name
    return {"grev": grev(x, k & 31), "shfl": shfl(x, k & 15),
            "unshfl": shfl(x, k & 15, True)}[base]


def test_macros_against_rvsim_decoder(tmp_path, rvsim_built):
    rows = decoder_rows()
    assert set(rows) == {"grev", "grevi", "shfl", "unshfl", "shfli", "unshfli"}, rows
    src = ['#include "xzbp.inc"', "    .text"]
    for i, (name, k) in enumerate(CASES):
        src += [f"    .globl t{i}", f"t{i}:", f"    {name} a0, a0, {k if k is not None else 'a1'}", "    ret"]
    (tmp_path / "xz.S").write_text("\n".join(src) + "\n")
    rng = random.Random(5)
    operands = [(rng.getrandbits(32), rng.getrandbits(32)) for _ in CASES]
    calls = "\n".join(f"    r = t{i}(0x{x:08x}u, 0x{k:08x}u); printf(\"%08lx\\n\", (unsigned long)r);"
                      for i, (x, k) in enumerate(operands))
    decls = "\n".join(f"uint32_t t{i}(uint32_t, uint32_t);" for i in range(len(CASES)))
    (tmp_path / "main.c").write_text(f"#include <stdio.h>\n#include <stdint.h>\n{decls}\n"
                                     f"int main(void) {{ uint32_t r;\n{calls}\n    return 0; }}\n")
    flags = [f"-march={rb.HARNESS_MARCH}", "-O1"] + rb.COMMON
    objs = [rb._compile(tmp_path / "xz.S", tmp_path / "xz.o", flags + [f"-I{INC}"], [], "xzbp macros"),
            rb._compile(tmp_path / "main.c", tmp_path / "main.o", flags, [], "xzbp driver")]
    # the words as assembled, against the decoder's rows
    dump = subprocess.run(["riscv64-unknown-elf-objdump", "-d", str(objs[0])], capture_output=True,
                          text=True, check=True).stdout
    words = [int(w, 16) for w in re.findall(r"^\s+[0-9a-f]+:\s+([0-9a-f]{8})\s", dump, re.M)]
    insns = words                           # each function: the instruction, then a 2-byte c.ret
    assert len(insns) == len(CASES)
    for (name, k), w in zip(CASES, insns):
        mask, match = rows[name]
        assert w & mask == match, f"{name} {k}: {w:08x} is not what rvsim decodes as {name}"
        assert (w >> 7) & 31 == 10 and (w >> 15) & 31 == 10, f"{name}: rd/rs1 should be a0"
        if k is not None:
            field = (w >> 20) & (31 if name == "grevi" else 15)
            assert field == k, f"{name} {k}: control field {field}"
    elf = rb._link(objs, tmp_path / "xz.elf", "xzbp test link")
    p = subprocess.run([str(RVSIM), "--isa", "rv32imac_xzbp", "--stop-on-trap", str(elf)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    got = [int(l, 16) for l in p.stdout.split()]
    for (name, k), (x, y), g in zip(CASES, operands, got):
        assert g == expected(name, x, k if k is not None else y), f"{name} {k}: x={x:08x}"

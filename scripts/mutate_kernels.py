#!/usr/bin/env python3
"""Mutation testing of the assembly kernels: does `rvlab test` catch a realistic one-line bug?

Each mutant is one change to one line of one kernel source (crypto/<primitive>/<impl>/*.S or a
shared .inc it includes): a mnemonic swapped for a near relative (add/sub, xor/or, srli/srai,
bne/beq, blt/bltu, lbu/lb, ...), an immediate or offset off by one step, a source register
replaced by another register of the same function, an instruction dropped, or one bit of a table
word flipped. The primitive's folder is copied to a scratch folder, the line is changed there, and
`rvlab test --crypto-dir SCRATCH --filter '^primitive/impl$' --runner rvsim` runs (the official
vectors and the oracle's random cases; rvsim alone, QEMU adds nothing to finding a wrong output).
A mutant is killed when that fails, survives when it passes, and is not counted when it does not
assemble or leaves the implementation's program byte for byte unchanged (a line of a shared .inc
that this implementation does not assemble). Survivors are printed with the line: each is either a gap in the tests or an equivalent
mutant (a change that cannot alter any output), which the report should say.

  python3 scripts/mutate_kernels.py [--per-impl 2] [--seed 1] [--filter REGEX] [--timeout 300]
                                    [--json FILE] [--list]

The sample: --per-impl mutants in each assembly implementation, lines and operators drawn with
--seed (the same seed gives the same mutants). Slow: one build and test run per mutant.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRYPTO = ROOT / "crypto"

# mnemonic -> near relatives a slip of the pen would give
SWAPS = {
    "add": ["sub", "xor", "or"], "sub": ["add"], "xor": ["or", "and", "add"], "or": ["xor", "and"],
    "and": ["or", "andn"], "andn": ["and"], "orn": ["or"], "xnor": ["xor"],
    "sll": ["srl"], "srl": ["sra", "sll"], "sra": ["srl"],
    "slli": ["srli"], "srli": ["srai", "slli"], "srai": ["srli"],
    "addi": ["xori", "ori"], "xori": ["ori", "andi"], "ori": ["xori"], "andi": ["ori"],
    "beq": ["bne"], "bne": ["beq"], "blt": ["bge", "bltu"], "bge": ["blt", "bgeu"],
    "bltu": ["bgeu", "blt"], "bgeu": ["bltu", "bge"], "beqz": ["bnez"], "bnez": ["beqz"],
    "lbu": ["lb"], "lb": ["lbu"], "lhu": ["lh"], "lh": ["lhu"],
    "mul": ["mulhu"], "mulhu": ["mulh", "mul"], "mulh": ["mulhu"], "mulhsu": ["mulhu"],
    "sltu": ["slt"], "slt": ["sltu"], "sltiu": ["slti"],
    "ror": ["rol"], "rol": ["ror"], "rev8": ["brev8"], "pack": ["packh"], "packh": ["pack"],
    "clmul": ["clmulh"], "clmulh": ["clmul"],
    "aes32esmi": ["aes32esi"], "aes32esi": ["aes32esmi"], "aes32dsmi": ["aes32dsi"], "aes32dsi": ["aes32dsmi"],
}
REGS = (["zero", "ra", "sp", "gp", "tp", "fp"] + [f"t{i}" for i in range(7)] + [f"s{i}" for i in range(12)]
        + [f"a{i}" for i in range(8)] + [f"x{i}" for i in range(32)])
OPERATORS = ["swap", "imm", "reg", "drop", "table"]
INSN = re.compile(r"^(\s*(?:[\w.$]+:\s*)?)([a-z][a-z0-9.]*)(\s+)(.*)$")
NUM = re.compile(r"(?<![\w.])(-?(?:0x[0-9a-fA-F]+|\d+))(?![\w.])")


@dataclass
class Mutant:
    primitive: str
    impl: str
    file: str          # relative to the primitive folder
    line: int          # 1-based
    op: str
    before: str
    after: str
    result: str = ""   # killed | survived | invalid | unchanged
    seconds: float = 0.0


def code_part(line: str) -> str:
    for mark in ("#", "//", "/*"):
        i = line.find(mark)
        if i >= 0 and not (mark == "#" and line.lstrip().startswith("#")):
            line = line[:i]
    return line


def register_names(text: str) -> set[str]:
    """The register names of a source: the ABI names plus its `#define NAME reg` aliases."""
    names = set(REGS)
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+(\w+)\s*$", text, re.M):
        if m.group(2) in REGS:
            names.add(m.group(1))
    return names


def candidates(line: str, regs: set[str]) -> dict[str, list[str]]:
    """Every mutation of one line, by operator (empty for lines that are not instructions)."""
    code = code_part(line)
    out: dict[str, list[str]] = {o: [] for o in OPERATORS}
    if code.lstrip().startswith((".word", ".4byte", ".long")):
        m = re.search(r"\.(?:word|4byte|long)\s+(.*)$", code)
        vals = [v.strip() for v in m.group(1).split(",")] if m else []
        for i, v in enumerate(vals):
            try:
                x = int(v, 0)
            except ValueError:
                continue
            for bit in (0, 7, 13, 31):
                nv = list(vals)
                nv[i] = hex((x ^ (1 << bit)) & 0xffffffff)
                out["table"].append(code[:m.start(1)] + ", ".join(nv) + line[len(code):])
        return out
    m = INSN.match(code)
    # control transfers and address set-up are left alone: breaking them crashes at once and
    # says nothing about the tests
    if not m or m.group(2).startswith(".") or m.group(2) in ("ret", "nop", "call", "tail", "j", "jr", "jal", "jalr", "la"):
        return out
    pre, mn, sp, ops = m.group(1), m.group(2), m.group(3), m.group(4)
    rest = line[len(code):]
    for alt in SWAPS.get(mn, []):
        out["swap"].append(f"{pre}{alt}{sp}{ops}{rest}")
    for n in NUM.finditer(ops):
        try:
            v = int(n.group(1), 0)
        except ValueError:      # e.g. 003 (a leading zero) is not a number Python's int() takes
            continue
        step = 4 if re.match(r"^[ls]w$", mn) else 1
        for nv in (v + step, v - step):
            if nv < 0 and mn in ("slli", "srli", "srai", "rori", "andi") or nv == v:
                continue
            out["imm"].append(f"{pre}{mn}{sp}{ops[:n.start(1)]}{nv}{ops[n.end(1):]}{rest}")
    words = [w for w in re.finditer(r"\b\w+\b", ops) if w.group(0) in regs]
    sources = words[1:] if len(words) > 1 and not re.match(r"^(s[bhw]|b\w+)$", mn) else words
    used = [w.group(0) for w in words]
    for w in sources:
        for alt in sorted(set(used) | {"t0", "a0"}):
            if alt != w.group(0) and alt not in ("zero", "x0", "sp"):
                out["reg"].append(f"{pre}{mn}{sp}{ops[:w.start()]}{alt}{ops[w.end():]}{rest}")
    out["drop"].append(f"{pre}nop{rest}")
    return out


def sources_of(prim_dir: Path, impl: str) -> list[Path]:
    """The assembly the implementation assembles: its .S files and the .inc files they include."""
    d = prim_dir / impl
    files = sorted(d.glob("*.S"))
    seen = list(files)
    for f in files:
        for inc in re.findall(r'#\s*include\s+"([^"]+\.(?:inc|S))"', f.read_text()):
            p = (d / inc).resolve()
            if p.is_file() and prim_dir.resolve() in p.parents and p not in seen:
                seen.append(p)
    return seen


def sample(per_impl: int, seed: int, flt: str | None) -> list[Mutant]:
    rng = random.Random(seed)
    out = []
    for man in sorted(CRYPTO.glob("*/*/manifest.toml")):
        prim, impl = man.parent.parent.name, man.parent.name
        if flt and not re.search(flt, f"{prim}/{impl}"):
            continue
        files = sources_of(man.parent.parent, impl)
        sites = []   # (file, line index, operator, new line)
        for f in files:
            text = f.read_text()
            regs = register_names(text)
            for i, line in enumerate(text.splitlines()):
                for op, alts in candidates(line, regs).items():
                    sites += [(f, i, op, a) for a in alts]
        if not sites:
            continue
        by_op: dict[str, list] = {}
        for s in sites:
            by_op.setdefault(s[2], []).append(s)
        for _ in range(per_impl):
            ops = [o for o in OPERATORS if by_op.get(o)]
            op = rng.choice(ops)
            f, i, op, new = rng.choice(by_op[op])
            rel = f.resolve().relative_to(man.parent.parent.resolve())
            out.append(Mutant(prim, impl, str(rel), i + 1, op, f.read_text().splitlines()[i].strip(), new.strip()))
    return out


def image(crypto_dir: str | None, m: Mutant) -> bytes | None:
    """The loadable bytes of the implementation's test program (kernel code, tables, the same
    cases), built from crypto/ or from a scratch copy; None if it does not build."""
    cmd = [sys.executable, "-m", "rvlab", "build", "--filter", f"^{m.primitive}/{m.impl}$"]
    if crypto_dir:
        cmd += ["--crypto-dir", crypto_dir]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    elf = next((w for l in p.stdout.splitlines() for w in l.split() if "/test-s" in w and w.endswith(".elf")), None)
    if p.returncode != 0 or not elf:
        return None
    with tempfile.NamedTemporaryFile(suffix=".bin") as out:
        subprocess.run(["riscv64-unknown-elf-objcopy", "-O", "binary", elf, out.name], check=True)
        return Path(out.name).read_bytes()


def mutated_copy(m: Mutant, tmp: str) -> None:
    """crypto/<primitive>/ copied into tmp with the mutant's line changed."""
    dst = Path(tmp) / m.primitive
    shutil.copytree(CRYPTO / m.primitive, dst, ignore=shutil.ignore_patterns("__pycache__"))
    f = dst / m.file
    lines = f.read_text().splitlines(keepends=True)
    old = lines[m.line - 1]
    lines[m.line - 1] = old[:len(old) - len(old.lstrip())] + m.after + "\n"
    f.write_text("".join(lines))


def assembled(m: Mutant) -> bool:
    """Does the change reach the implementation's program at all? A line of a shared .inc
    inside a macro or #if branch this implementation does not use leaves its image unchanged:
    such a mutant is not counted (it cannot fail any test)."""
    with tempfile.TemporaryDirectory(prefix="rvlab-mut-") as tmp:
        mutated_copy(m, tmp)
        return image(tmp, m) != image(None, m)


def run(m: Mutant, timeout: float) -> None:
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="rvlab-mut-") as tmp:
        mutated_copy(m, tmp)
        cmd = [sys.executable, "-m", "rvlab", "test", "--crypto-dir", tmp, "--filter", f"^{m.primitive}/{m.impl}$",
               "--runner", "rvsim"]
        try:
            p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
            out = p.stdout + p.stderr
            if p.returncode == 0:
                m.result = "survived" if assembled(m) else "unchanged"
            elif re.search(r"Error:|error: |BUILD FAIL|build failed|assembl", out) and "FAIL " not in out:
                m.result = "invalid"
            else:
                m.result = "killed"
        except subprocess.TimeoutExpired:
            m.result = "killed"    # a mutant that never finishes is caught (rvlab test times it out)
    m.seconds = round(time.time() - t0, 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-impl", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--filter", help="regular expression on primitive/impl")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per mutant's test run")
    ap.add_argument("--json", help="write every mutant and its result here")
    ap.add_argument("--list", action="store_true", help="only list the sample")
    ap.add_argument("--recheck", metavar="JSON", help="classify the survivors of an earlier --json run again "
                    "(whether the change reaches the program at all) instead of running a sample")
    a = ap.parse_args()
    if a.per_impl < 1:
        ap.error("--per-impl must be at least 1")
    if a.recheck:
        muts = [Mutant(**d) for d in json.loads(Path(a.recheck).read_text())]
        for m in muts:
            if m.result == "survived" and not assembled(m):
                m.result = "unchanged"
        a.list = False
        return summarise(muts, a.json)
    muts = sample(a.per_impl, a.seed, a.filter)
    if not muts:
        print("mutate_kernels: no assembly implementation matches", file=sys.stderr)
        return 2
    for i, m in enumerate(muts, 1):
        if not a.list:
            run(m, a.timeout)
        print(f"[{i}/{len(muts)}] {m.result or '-':8} {m.primitive}/{m.impl} {m.file}:{m.line} {m.op}: "
              f"{m.before!r} -> {m.after!r}" + (f" ({m.seconds} s)" if m.seconds else ""), flush=True)
    if a.list:
        return 0
    return summarise(muts, a.json)


def summarise(muts: list[Mutant], json_out: str | None) -> int:
    """The kill rate over the mutants that reach the program, by operator; the survivors."""
    counted = [m for m in muts if m.result in ("killed", "survived")]
    killed = sum(m.result == "killed" for m in counted)
    rate = 100.0 * killed / len(counted) if counted else 0.0
    invalid = sum(m.result == "invalid" for m in muts)
    unchanged = sum(m.result == "unchanged" for m in muts)
    print(f"\n{killed} of {len(counted)} mutants killed ({rate:.1f}%); not counted: {invalid} did not assemble, "
          f"{unchanged} left the program unchanged (a line this implementation does not assemble)")
    for op in OPERATORS:
        c = [m for m in counted if m.op == op]
        if c:
            print(f"  {op:6} {sum(m.result == 'killed' for m in c)}/{len(c)}")
    for m in counted:
        if m.result == "survived":
            print(f"  survived: {m.primitive}/{m.impl} {m.file}:{m.line}: {m.before!r} -> {m.after!r}")
    if json_out:
        Path(json_out).write_text(json.dumps([asdict(m) for m in muts], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

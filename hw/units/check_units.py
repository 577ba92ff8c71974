#!/usr/bin/env python3
"""Checks every Verilog instruction unit against rvsim's own semantics on random operands.

Units: `ise/<name>/unit.v` (one custom instruction; ports a, b, c, carry_in -> y, carry_out)
and `hw/units/<ext>_unit.v` (a standard extension; ports op, a, b, c -> y, where op indexes
the instruction names listed on the file's `// ops:` line). Expected values come from
`ise-eval` (sim/src/bin/ise-eval.rs), which runs the rows of rvsim's extension table; the
Verilog runs under Icarus Verilog.

    python3 hw/units/check_units.py [--vectors N] [--seed S] [NAME ...]

NAME is an instruction (addc) or an extension unit (zbkb); default: all. Exit status 0 if
every unit agrees on every vector, 1 on a mismatch, 2 if a tool is missing.
"""
from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))                       # rvlab, also when run from a clone not installed
from rvlab import area  # noqa: E402  (the one list of units: rvlab area's)
ISE_EVAL = ROOT / "sim" / "target" / "release" / "ise-eval"
EDGE = [0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE, 0x01234567, 0x89ABCDEF]


class CheckError(Exception):
    pass


@dataclass
class Unit:
    name: str                   # instruction or extension
    verilog: Path
    top: str
    ops: list[str]              # instruction names; one entry for a custom unit
    form: dict                  # per instruction: how to draw operands


def _form_of_custom(d: dict) -> dict:
    form = d["form"]
    imm_bits = 5 if int(d.get("mask", 0)) & 0xFE000000 else 12     # imm[11:5] fixed to zero?
    return {"b": imm_bits if form in ("Imm", "RdAccImm") else 32,
            "c": {"Bs": 2, "R": 0, "Imm": 0, "Unary": 0}.get(form, 32),
            "b_used": form != "Unary", "carry": d.get("ext") == "xcarry"}


UNARY = ("brev8", "rev8", "zip", "unzip", "sha256sum0", "sha256sum1", "sha256sig0", "sha256sig1",
         "sm3p0", "sm3p1")


def _form_of_standard(op: str) -> dict:
    unary = op in UNARY
    bs_form = op.startswith(("aes32", "sm4"))          # byte select in c
    return {"b": 0 if unary else 32, "c": 2 if bs_form else 0, "b_used": not unary, "carry": False}


def discover(root: Path = ROOT) -> list[Unit]:
    """The units `rvlab area` synthesises, with the instructions behind each and their forms."""
    out = []
    for u in area.units(root):
        if u.verilog.name == "unit.v":              # a custom instruction: its insn.toml
            d = tomllib.loads((u.verilog.parent / "insn.toml").read_text(encoding="utf-8"))
            out.append(Unit(u.name, u.verilog, u.top, [u.name], {u.name: _form_of_custom(d)}))
            continue
        m = re.search(r"^//\s*ops:\s*(.+)$", u.verilog.read_text(), re.M)
        if not m:
            raise CheckError(f"{u.verilog}: no `// ops: name ...` line naming the instructions behind `op`")
        ops = m.group(1).split()
        out.append(Unit(u.name, u.verilog, u.top, ops, {o: _form_of_standard(o) for o in ops}))
    return out


def vectors(unit: Unit, n_random: int, rng: random.Random) -> list[tuple[int, str, int, int, int, int]]:
    """(op index, op name, a, b, c, carry): edge cases, every small field value, then random."""
    vec = []
    for i, op in enumerate(unit.ops):
        f = unit.form[op]
        bmask = (1 << f["b"]) - 1
        cmask = (1 << f["c"]) - 1
        carries = (0, 1) if f["carry"] else (0,)
        for a in EDGE:
            for b in EDGE + list(range(32)):
                for carry in carries:
                    vec.append((i, op, a, b & bmask, (a ^ b) & cmask, carry))
        for c in range(min(cmask + 1, 4)):
            vec.append((i, op, 0x11223344, 0x55667788 & bmask, c, 0))
        for _ in range(n_random):
            vec.append((i, op, rng.getrandbits(32), rng.getrandbits(32) & bmask,
                        rng.getrandbits(32) & cmask, rng.getrandbits(1) if f["carry"] else 0))
    return vec


def expected(vec) -> list[tuple[int, int]]:
    if not ISE_EVAL.is_file():
        raise CheckError(f"{ISE_EVAL} not built: run `make setup` (cargo build --release in sim/)")
    text = "".join(f"{op} {a:x} {b:x} {c:x} {k}\n" for _, op, a, b, c, k in vec)
    p = subprocess.run([str(ISE_EVAL)], input=text, capture_output=True, text=True)
    if p.returncode != 0:
        raise CheckError(f"ise-eval failed: {p.stderr.strip()}")
    return [(int(y, 16), int(k, 16)) for y, k in (line.split() for line in p.stdout.splitlines())]


TB = """module tb;
    reg [31:0] a, b, c; reg [3:0] op; reg carry_in;
    wire [31:0] y; wire carry_out;
    reg [100:0] mem [0:{n}];
    integer i;
    {inst}
    initial begin
        $readmemh("{hex}", mem);
        for (i = 0; i < {n}; i = i + 1) begin
            {{op, carry_in, a, b, c}} = mem[i];
            #1 $display("%h %h", y, carry_out);
        end
        $finish;
    end
endmodule
"""


def simulate(unit: Unit, vec) -> list[tuple[int, int]]:
    for tool in ("iverilog", "vvp"):
        if not shutil.which(tool):
            raise CheckError(f"{tool} not found: install Icarus Verilog (`make setup`)")
    if len(unit.ops) == 1:
        inst = f"{unit.top} dut(.a(a), .b(b), .c(c), .carry_in(carry_in), .y(y), .carry_out(carry_out));"
    else:
        inst = f"{unit.top} dut(.op(op), .a(a), .b(b), .c(c), .y(y)); assign carry_out = 1'b0;"
    with tempfile.TemporaryDirectory() as d:
        hexf = Path(d) / "vec.hex"
        hexf.write_text("".join(f"{(i << 97) | (k << 96) | (a << 64) | (b << 32) | c:026x}\n"
                                for i, _, a, b, c, k in vec))
        (Path(d) / "tb.v").write_text(TB.format(n=len(vec), inst=inst, hex=hexf))
        p = subprocess.run(["iverilog", "-g2005", "-o", f"{d}/sim", f"{d}/tb.v", str(unit.verilog)],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise CheckError(f"{unit.name}: iverilog rejected {unit.verilog}:\n{p.stderr.strip()}")
        p = subprocess.run(["vvp", "-n", f"{d}/sim"], capture_output=True, text=True)
    rows = [line.split() for line in p.stdout.splitlines() if re.fullmatch(r"[0-9a-fxz]{8} [0-9a-fxz]", line)]
    if len(rows) != len(vec):
        raise CheckError(f"{unit.name}: the testbench printed {len(rows)} results for {len(vec)} vectors:\n"
                         f"{p.stdout[-500:]}{p.stderr[-500:]}")
    # an x or z bit (undriven output) can never equal the expected value
    return [(int(y, 16) if re.fullmatch(r"[0-9a-f]+", y) else -1, int(k, 16) if k in "01" else -1)
            for y, k in rows]


def check(unit: Unit, n_random: int = 2000, seed: int = 1) -> list[str]:
    """Mismatches (at most 5, as readable lines); empty if the unit agrees on every vector."""
    vec = vectors(unit, n_random, random.Random(seed))
    want, got = expected(vec), simulate(unit, vec)
    bad = []
    for (i, op, a, b, c, k), w, g in zip(vec, want, got):
        carry = len(unit.ops) == 1 and unit.form[op]["carry"]
        if g[0] != w[0] or (carry and g[1] != w[1]):
            bad.append(f"{op} a={a:08x} b={b:08x} c={c:08x} carry={k}: rvsim y={w[0]:08x} C={w[1]}, "
                       f"Verilog y={'x' if g[0] < 0 else format(g[0], '08x')} C={g[1]}")
            if len(bad) == 5:
                break
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="instructions or extension units (default: all)")
    ap.add_argument("--vectors", type=int, default=2000, help="random vectors per instruction (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        units = discover()
        if args.names:
            unknown = set(args.names) - {u.name for u in units}
            if unknown:
                print(f"check_units: error: no unit named {', '.join(sorted(unknown))} "
                      f"(have: {', '.join(u.name for u in units)})", file=sys.stderr)
                return 2
            units = [u for u in units if u.name in args.names]
        status = 0
        for u in units:
            bad = check(u, args.vectors, args.seed)
            print(f"{'FAIL' if bad else 'ok  '} {u.name:<12} {u.verilog.relative_to(ROOT)}")
            for line in bad:
                print(f"     {line}")
            status |= bool(bad)
        return status
    except CheckError as e:
        print(f"check_units: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""The baseline RV32I core (hw/core/rv32i_core.v) executes RV32I as rvsim does: the same
retired instructions with the same register writes, on programs covering every RV32I
instruction and a loop-heavy one; an illegal instruction stops it with an error."""
import re
import subprocess

import pytest

from conftest import RVSIM, ROOT
from rvlab.build import CC             # the cross compiler rvlab builds with

CORE = ROOT / "hw" / "core"


@pytest.fixture(scope="module")
def core_sim(tmp_path_factory):
    out = tmp_path_factory.mktemp("core") / "core.vvp"
    subprocess.run(["iverilog", "-g2005", "-o", str(out), str(CORE / "tb_core.v"), str(CORE / "rv32i_core.v")],
                   check=True)
    return out


def build(src, tmp_path):
    elf, binf, hexf = tmp_path / "p.elf", tmp_path / "p.bin", tmp_path / "p.hex"
    subprocess.run([CC, "-march=rv32i", "-mabi=ilp32", "-nostdlib", "-nostartfiles",
                    "-Wl,-Ttext=0x20400000", "-o", str(elf), str(src)], check=True)
    subprocess.run([CC.replace("gcc", "objcopy"), "-O", "binary", "-j", ".text", str(elf), str(binf)], check=True)
    b = binf.read_bytes()
    b += bytes(-len(b) % 4)
    hexf.write_text("".join(f"{int.from_bytes(b[i:i + 4], 'little'):08x}\n" for i in range(0, len(b), 4)))
    return elf, hexf


def run_core(core_sim, hexf):
    p = subprocess.run(["vvp", "-n", str(core_sim), f"+hex={hexf}"], capture_output=True, text=True, timeout=120)
    lines = p.stdout.split("\n")
    steps = [tuple(int(f, 16) if i != 2 else int(f) for i, f in enumerate(line.split()))
             for line in lines if re.fullmatch(r"[0-9a-f]{8} [0-9a-f]{8} \d+ [0-9a-f]{8}", line)]
    end = [line for line in lines if line.startswith(("HALT", "ERROR"))]
    return steps, end[0] if end else p.stdout[-300:]


ABI = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1"] + [f"a{i}" for i in range(8)] + \
      [f"s{i}" for i in range(2, 12)] + ["t3", "t4", "t5", "t6"]


def run_rvsim(elf, tmp_path):
    trace = tmp_path / "trace"
    p = subprocess.run([str(RVSIM), "--isa", "rv32i", "--core", "ideal", "--memory", "flat",
                        "--trace", str(trace), str(elf)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    steps = []
    for line in trace.read_text().splitlines():
        f = line.split()
        pc, insn = int(f[1], 16), int(f[2], 16)
        if insn == 0x00100073:                      # the semihosting ebreak: the core halts here
            break
        m = re.search(r"\s(\w+)=0x([0-9a-f]{8})\s*$", line)
        rd, val = (ABI.index(m.group(1)), int(m.group(2), 16)) if m else (0, 0)
        steps.append((pc, insn, rd, val if rd else 0))
    return steps


@pytest.mark.parametrize("prog", ["rv32i_all.S", "sort_hash.S"])
def test_core_retires_what_rvsim_retires(core_sim, tmp_path, prog):
    elf, hexf = build(CORE / "tests" / prog, tmp_path)
    got, end = run_core(core_sim, hexf)
    want = run_rvsim(elf, tmp_path)
    assert end == "HALT"
    assert len(want) > 100
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, (f"instruction {i}: core retired pc {g[0]:08x} insn {g[1]:08x} x{g[2]}={g[3]:08x}, "
                        f"rvsim pc {w[0]:08x} insn {w[1]:08x} x{w[2]}={w[3]:08x}")
    assert len(got) == len(want)


def test_illegal_instruction_stops_the_core_with_an_error(core_sim, tmp_path):
    _, hexf = build(CORE / "tests" / "illegal.S", tmp_path)
    got, end = run_core(core_sim, hexf)
    assert len(got) == 1 and end.startswith("ERROR at pc 20400004 insn 02a50533")

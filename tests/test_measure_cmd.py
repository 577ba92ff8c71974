"""`rvlab measure`: the user's own function timed with the harness's protocol, on functions
whose cost is known instruction by instruction."""
import json
import re

import pytest

from conftest import ROOT, rvlab

# the README's example function (sum_words), then functions for the checks below
SUM = (ROOT / "examples" / "measure" / "sum.S").read_text() + """
    .globl uses_stack
uses_stack:             # 48 bytes of stack, the lowest word touched
    addi sp, sp, -48
    sw zero, 0(sp)
    addi sp, sp, 48
    ret
    .globl clobbers_s3
clobbers_s3:
    li s3, 7
    ret
    .globl clobbers_s0
clobbers_s0:            # the compiled callers keep pointers in s0: this one crashed them
    li s0, 5
    ret
    .globl misaligned
misaligned:
    lw a0, 2(a0)
    ret
"""
ROR = """
    .text
    .globl rot
rot:
    rori a0, a0, 8
    ret
"""
C = """
#include <stdint.h>
static uint32_t twice(uint32_t x) { return 2 * x; }
uint32_t add_twice(uint32_t a, uint32_t b) { return twice(a) + b; }
"""


@pytest.fixture
def src(tmp_path):
    def write(name, text):
        f = tmp_path / name
        f.write_text(text)
        return f
    return write


def _measure(*args):
    p = rvlab("measure", *args, "--json")
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout)


def test_cycles_are_the_instructions_on_ideal(src, rvsim_built):
    f = src("sum.S", SUM)
    m8, m16 = (_measure(f, "--function", "sum_words", "--args", "buf:64", n, "--core", "ideal") for n in (8, 16))
    for m in (m8, m16):
        assert m["cycles"] == m["instret"] and m["stalls"] == {} and m["stack_bytes"] == 0
        assert m["functions"]["sum_words"]["instret"] == 5 * int(m["args"][1]) + 3
    assert m16["instret"] - m8["instret"] == 5 * 8
    words = bytes.fromhex("01000000" "02000000" "03000000")
    assert _measure(f, "--function", "sum_words", "--args", "hex:" + words.hex(), "3", "--core", "ideal")["returned"] == 6


def test_e31_stalls_and_stack(src, rvsim_built):
    f = src("sum.S", SUM)
    m = _measure(f, "--function", "sum_words", "--args", "buf:64", "16")
    assert m["core"] == "e31" and m["mul_latency"] == 5
    assert m["stalls"]["load_use"] == 16              # LW's result latency is 2: one stall per word
    assert m["cycles"] > m["instret"] and m["icache_misses"] == 0        # warm
    # the stalls are those of the timed window (rvsim's cycle_window): with its instructions
    # they make its cycles exactly, none negative
    assert all(v > 0 for v in m["stalls"].values())
    assert m["window_instret"] + sum(m["stalls"].values()) == m["window_cycles"]
    assert m["window_cycles"] - m["cycles"] == m["window_instret"] - m["instret"]  # the reads
    assert _measure(f, "--function", "uses_stack")["stack_bytes"] == 48


def test_c_and_extensions(src, rvsim_built):
    m = _measure(src("f.c", C), "--function", "add_twice", "--args", "20", "2", "--core", "ideal")
    assert m["returned"] == 42 and m["cycles"] > 0
    r = src("rot.S", ROR)
    assert _measure(r, "--function", "rot", "--args", "0x11223344", "--isa", "rv32i_zbkb")["returned"] == 0x44112233
    p = rvlab("measure", r, "--function", "rot")                 # rori is not in rv32imac
    assert p.returncode == 1 and "rori" in p.stderr


def test_human_output_and_annotate(src, rvsim_built):
    p = rvlab("measure", src("sum.S", SUM), "--function", "sum_words", "--args", "buf:64", "16", "--annotate", "1")
    assert p.returncode == 0, p.stderr
    assert "cycles" in p.stdout and "load_use 16" in p.stdout and "== sum_words (" in p.stdout


@pytest.mark.parametrize("args, says", [
    (["--function", "clobbers_s3"], "did not preserve s3"),
    (["--function", "clobbers_s0"], "did not preserve s0"),
    (["--function", "misaligned", "--args", "buf:8"], "misaligned load"),
    (["--function", "nowhere"], "no function nowhere"),
    (["--function", "sum_words", "--args", "buf:0"], "1..16384"),
    (["--function", "sum_words", "--args", "seven"], "is not an integer"),
    (["--function", "sum_words", "--args"] + ["1"] * 9, "at most 8"),
    (["--function", "sum_words", "--isa", "rv64i"], "not an RV32 ISA"),
    (["--function", "sum words"], "not a C identifier"),
    (["--function", "sum_words", "--mul-latency", "0"], "1..1000"),
])
def test_bad_input(src, args, says, rvsim_built):
    p = rvlab("measure", src("sum.S", SUM), *args)
    assert p.returncode == 1 and says in p.stderr and "Traceback" not in p.stderr, p.stderr


def _readme_measure_section():
    text = (ROOT / "README.md").read_text()
    sec = text[text.index("## Timing your own function"):]
    sec = sec[:sec.index("\n## ", 1)]
    blocks = re.findall(r"```(?:sh)?\n(.*?)```", sec, re.S)
    cmds = [c.split("#")[0].split() for c in blocks[0].replace("\\\n", " ").splitlines() if c.strip()]
    return cmds, blocks[1].splitlines()


def test_readme_examples_run_as_written(rvsim_built):
    """The README's `rvlab measure` commands run from the checkout with the files of
    examples/measure/, and the first prints the summary the README shows (up to its `...`)."""
    cmds, shown = _readme_measure_section()
    assert len(cmds) == 3
    outs = []
    for c in cmds:
        assert c[:3] == ["python3", "-m", "rvlab"], c
        p = rvlab(*c[3:])
        assert p.returncode == 0, p.stdout + p.stderr
        outs.append(p.stdout)
    got = outs[0].splitlines()
    upto = shown.index("  ...")
    assert got[:upto] == shown[:upto]
    assert json.loads(outs[1])["cycles"] == json.loads(outs[1])["instret"]
    assert "== mix (" in outs[2] and "== rotr32 (" in outs[2]


def test_hifive1_revb_core(src, rvsim_built):
    """--core takes rvsim's built-in cores, as rvlab bench does: hifive1-revb too."""
    m = _measure(src("sum.S", SUM), "--function", "sum_words", "--args", "buf:64", "16", "--core", "hifive1-revb")
    assert m["core"] == "hifive1-revb" and m["stalls"]["load_use"] == 16
    p = rvlab("measure", src("sum.S", SUM), "--function", "sum_words", "--core", "hifive1-revc")
    assert p.returncode == 1 and "hifive1-revb" in p.stderr and "Traceback" not in p.stderr

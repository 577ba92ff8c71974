"""The 5-stage Verilog core (hw/core/rv5_core.v) and rvsim's model of it (sim/cores/rv5.toml)
agree instruction by instruction: the same issue cycle and pc for every retired instruction
and the same register writes, on the hand-written programs of hw/core/tests/ (every RV32I
instruction, the hazards, M, C, CSRs, traps; every crypto-unit instruction on random
operands, with separate and shared S-box units); and `rvlab rtl` compares a harness speed
program and reports a difference. The full set: `python3 -m rvlab rtl` (hw/README.md)."""
import json
import re
import subprocess

import pytest

from conftest import RVSIM, rvlab
from rvlab import rtl

ABI = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1"] + [f"a{i}" for i in range(8)] + \
      [f"s{i}" for i in range(2, 12)] + ["t3", "t4", "t5", "t6"]


@pytest.fixture(scope="module")
def sim():
    sims = rtl.simulators()
    assert sims, "neither Verilator nor Icarus Verilog is installed: run `make setup`"
    return sims[0]


def rvsim_trace(elf, cfg, tmp_path):
    trace = tmp_path / "rvsim.trace"
    p = subprocess.run([str(RVSIM), "--isa", cfg.isa, "--core", str(rtl.CORE_FILE), "--trace", str(trace), str(elf)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    issues, writes = [], []
    for line in trace.read_text().splitlines():
        f = line.split()
        if f[2] == "trap:":                 # an exception: the instruction did not retire
            continue
        issues.append((int(f[0]), int(f[1], 16)))
        m = re.search(r"\s(\w+)=0x([0-9a-f]{8})\s*$", line)
        if m and m.group(1) != "zero":
            writes.append((int(f[1], 16), ABI.index(m.group(1)), int(m.group(2), 16)))
    return issues, writes


def rtl_trace(elf, cfg, sim):
    _, err, status, cycles, instret = rtl.run_rtl(elf, cfg, sim, timeout=600, trace=True)
    issues = [(int(c), int(pc, 16)) for c, pc in re.findall(r"^R (\d+) ([0-9a-f]{8})$", err, re.M)]
    writes = [(int(pc, 16), int(rd), int(v, 16)) for pc, rd, v in re.findall(r"^W ([0-9a-f]{8}) (\d+) ([0-9a-f]{8})$", err, re.M)]
    return status, issues, writes


def assert_same_trace(elf, cfg, sim, tmp_path):
    """Every retired instruction issues in the same cycle at the same pc, and every register
    write is the same, on the RTL and on rvsim."""
    want_issue, want_write = rvsim_trace(elf, cfg, tmp_path)
    status, got_issue, got_write = rtl_trace(elf, cfg, sim)
    assert status == 0
    assert len(want_issue) > 100
    for i, (g, w) in enumerate(zip(got_issue, want_issue)):
        assert g == w, f"instruction {i}: RTL issued pc {g[1]:08x} at cycle {g[0]}, rvsim pc {w[1]:08x} at cycle {w[0]}"
    assert len(got_issue) == len(want_issue)
    for i, (g, w) in enumerate(zip(got_write, want_write)):
        assert g == w, (f"register write {i}: RTL pc {g[0]:08x} x{g[1]}={g[2]:08x}, "
                        f"rvsim pc {w[0]:08x} x{w[1]}={w[2]:08x}")
    assert len(got_write) == len(want_write)


@pytest.mark.parametrize("stem", sorted(rtl.HW_PROGRAMS))
def test_every_instruction_issues_and_writes_as_rvsim_says(stem, sim, tmp_path):
    march, cfg = rtl.HW_PROGRAMS[stem]
    assert_same_trace(rtl.build_hw_program(stem, march), cfg, sim, tmp_path)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_programs_issue_and_write_as_rvsim_says(seed, sim, tmp_path):
    """rvsim's differential generator (the programs tests/diff_qemu.rs checks against QEMU):
    seed 1 on the shared S-box core, seed 2 on separate units."""
    prog = rtl.random_programs(1, seed, 300, 3)[0]
    assert prog.cfg.shared_sbox == (seed == 1) and "zknh" in prog.cfg.units
    assert_same_trace(prog.build(), prog.cfg, sim, tmp_path)


def test_random_programs_catch_a_forwarding_bug(tmp_path, sim, monkeypatch):
    """A core whose rs2 forwarding prefers WB over MEM (stale value when both write the
    register) passes the same random program only by luck: the printed state differs."""
    broken = tmp_path / "rv5_core.v"
    src = rtl.CORE_V.read_text()
    good = ("wire [31:0] rs2v = (mem_valid && mem_wr && !mem_load && mem_rd == xr2 && xr2 != 5'd0) ? mem_val\n"
            "                     : (wb_wr && wb_rd == xr2 && xr2 != 5'd0) ? wb_val : ex_b;")
    bad = ("wire [31:0] rs2v = (wb_wr && wb_rd == xr2 && xr2 != 5'd0) ? wb_val\n"
           "                     : (mem_valid && mem_wr && !mem_load && mem_rd == xr2 && xr2 != 5'd0) ? mem_val : ex_b;")
    assert good in src
    broken.write_text(src.replace(good, bad))
    monkeypatch.setattr(rtl, "CORE_V", broken)
    monkeypatch.setattr(rtl, "RTL_BUILD", tmp_path / "rtl")
    prog = rtl.random_programs(1, 2, 300, 3)[0]
    o = rtl.compare(prog.name, prog.build(), prog.cfg, sim, 300)
    assert not o.output_match and o.problem, "the broken core was not caught"


def test_pipeline_program_takes_every_trap_it_sets_up(sim, tmp_path):
    march, cfg = rtl.HW_PROGRAMS["rv5_pipeline"]
    _, writes = rvsim_trace(rtl.build_hw_program("rv5_pipeline", march), cfg, tmp_path)
    causes = [v for pc, rd, v in writes if rd == ABI.index("s8")]
    # ecall, illegal (32-bit, 16-bit, unknown CSR, read-only CSR), misaligned load/store/load,
    # load and store access fault, breakpoint (ebreak, c.ebreak), instruction access fault
    assert causes[-13:] == [11, 2, 2, 2, 2, 4, 6, 4, 5, 7, 3, 3, 1]


def test_rvlab_rtl_compares_a_speed_program(tmp_path):
    out = tmp_path / "rtl.json"
    p = rvlab("rtl", "--filter", "^chacha20/zbkb$|^hw/rv32i_all$|^random/", "--json", out,
              "--random", "1", "--seed", "5", "--random-len", "100", "--random-iters", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    recs = {r["program"]: r for r in json.loads(out.read_text())}
    assert set(recs) == {"chacha20/zbkb", "hw/rv32i_all", "random/5"}
    for r in recs.values():
        assert r["output_match"] and r["rtl_cycles"] == r["sim_cycles"] > 100 and r["problem"] is None
    assert "ok   chacha20/zbkb" in p.stdout


def test_a_timing_difference_is_reported(tmp_path, sim, monkeypatch):
    """rvsim told a 3-cycle branch penalty: same output, different cycles -> a problem."""
    core = tmp_path / "rv5-wrong.toml"
    core.write_text(rtl.CORE_FILE.read_text().replace("mispredict_penalty = 2", "mispredict_penalty = 3"))
    monkeypatch.setattr(rtl, "CORE_FILE", core)
    march, cfg = rtl.HW_PROGRAMS["rv32i_all"]
    o = rtl.compare("hw/rv32i_all", rtl.build_hw_program("rv32i_all", march), cfg, sim, 300)
    assert o.output_match and o.exit_match
    assert o.problem and "cycles RTL" in o.problem and o.rtl_cycles < o.sim_cycles


def test_a_wrong_core_is_caught(tmp_path, sim, monkeypatch):
    """A core whose load-use interlock looks at stores instead of loads computes wrong values."""
    broken = tmp_path / "rv5_core.v"
    src = rtl.CORE_V.read_text()
    assert "ex_inst[6:0] == 7'h03 && ex_rd" in src
    broken.write_text(src.replace("ex_inst[6:0] == 7'h03 && ex_rd", "ex_inst[6:0] == 7'h23 && ex_rd"))
    monkeypatch.setattr(rtl, "CORE_V", broken)
    monkeypatch.setattr(rtl, "RTL_BUILD", tmp_path / "rtl")
    march, cfg = rtl.HW_PROGRAMS["rv5_pipeline"]
    elf = rtl.build_hw_program("rv5_pipeline", march)
    o = rtl.compare("hw/rv5_pipeline", elf, cfg, sim, 300)
    assert o.problem, "the broken core was not caught"


def test_config_for_isa():
    assert rtl.config_for_isa("rv32i_zbkb_zknh").isa == "rv32imc_zbkb_zknh"
    assert rtl.config_for_isa("rv32i_xcarry_xsbox").params["XCARRY"] == 1
    assert rtl.config_for_isa("rv32im_xpolymul").params["XPOLYMUL"] == 1
    with pytest.raises(rtl.RtlError, match="no unit in hw/ for zba"):
        rtl.config_for_isa("rv32im_zba")

"""`rvlab micro`: the microbenchmarks of harness/micro measure on rvsim what the core files
say, the programs to flash carry the model's figure and are linked where each board's boot
loader jumps, and a board's log is compared."""
import re
import subprocess

import pytest

from conftest import ROOT, rvlab

EFFECTS = ("load_use_lw|load_use_lbu|mul_chain|div_small|div_large|btb_capacity_16|btb_capacity_64|btb_alias|"
           "misaligned_target|misaligned_stream|mispredict|ras_depth_4|ras_depth_8|store_load|icache_miss")


def per_rep(out: str) -> dict[str, float]:
    rows = re.findall(r"^\| (\w+) \| \d+ \| (-?[\d.]+) \|", out, re.M)
    return {name: float(v) for name, v in rows}


@pytest.fixture(scope="module")
def tables():
    out = {}
    for core in ("e31", "hifive1-revb"):
        p = rvlab("micro", "--core", core, "--filter", EFFECTS)
        assert p.returncode == 0, p.stdout + p.stderr
        out[core] = (p.stdout, per_rep(p.stdout))
    return out


def test_model_figures_follow_the_core_files(rvsim_built, tables):
    """Each figure is the parameter it times (within the few cycles of the frame that do
    not divide evenly among the repetitions)."""
    for core, (_, t) in tables.items():
        assert set(t) == set(EFFECTS.split("|")), core
        assert t["load_use_lw"] == pytest.approx(2 + 1, abs=0.1)      # latency.lw + the user
        assert t["load_use_lbu"] == pytest.approx(3 + 1, abs=0.1)     # latency.lb_lh + 1
        assert t["mul_chain"] == pytest.approx(5, abs=0.2)            # latency.mul
        assert t["div_small"] == pytest.approx(2 + 3 - 2, abs=0.1)    # div_base + bitlen(7) - bitlen(3)
        assert t["div_large"] == pytest.approx(2 + 32 - 1, abs=0.1)
        assert t["misaligned_target"] == pytest.approx(1, abs=0.1)    # misaligned_fetch_penalty
        assert t["misaligned_stream"] == pytest.approx(0, abs=0.1)
    # 64 jumps do not fit either BTB: the G000 mispredicts each (3), the G002's predecoder
    # redirects each (1)
    assert tables["e31"][1]["btb_capacity_64"] == pytest.approx(3, abs=0.1)
    assert tables["hifive1-revb"][1]["btb_capacity_64"] == pytest.approx(1, abs=0.1)
    for core, (_, t) in tables.items():
        assert t["btb_capacity_16"] == pytest.approx(0, abs=0.2), core   # 16 jumps fit both BTBs
        assert t["btb_alias"] == pytest.approx(0, abs=0.1), core         # both fully associative
        assert 3 <= t["mispredict"] <= 4, core                           # mispredict_penalty = 3
        assert t["store_load"] == pytest.approx(0, abs=0.1), core        # store_load_replay = 0 (no source)
        # a 64-byte line of 16 instructions + icache.miss_penalty (20) when (nearly) all miss
        assert 16 + 20 * 0.9 <= t["icache_miss"] <= 16 + 20, core
    # a return deeper than the RAS mispredicts (3) once per chain, entered from 2 sites:
    # the G000's 2 entries miss at depth 4 and 8, the G002's 6 only at depth 8
    assert tables["e31"][1]["ras_depth_4"] == pytest.approx(2.5, abs=0.6)
    assert tables["e31"][1]["ras_depth_8"] == pytest.approx(2.5, abs=0.6)
    assert tables["hifive1-revb"][1]["ras_depth_4"] == pytest.approx(0, abs=0.6)
    assert tables["hifive1-revb"][1]["ras_depth_8"] > tables["hifive1-revb"][1]["ras_depth_4"] + 3


def test_store_load_replay_from_the_core_file(rvsim_built, tmp_path):
    """A core file that sets [memory] store_load_replay (what a board owner does with the
    store_load figure of the board) makes store_load cost that per repetition."""
    text = (ROOT / "sim" / "cores" / "e31.toml").read_text()
    assert text.count("store_load_replay = 0") == 1
    core = tmp_path / "e31-replay.toml"
    core.write_text(text.replace("store_load_replay = 0", "store_load_replay = 5"))
    p = rvlab("micro", "--core", core, "--filter", "store_load")
    assert p.returncode == 0, p.stdout + p.stderr
    t = per_rep(p.stdout)
    assert t["store_load"] == pytest.approx(5, abs=0.1), p.stdout


def test_programs_to_flash(rvsim_built, tables):
    """The -p programs print the model's figure as their prediction, and each is linked at
    its board's code address."""
    for core, base in (("e31", 0x20400000), ("hifive1-revb", 0x20010000)):
        elf = ROOT / "build" / "micro" / core / "load_use_lw-p.elf"
        hdr = subprocess.run(["riscv64-unknown-elf-readelf", "-h", str(elf)], capture_output=True, text=True)
        entry = int(re.search(r"Entry point address:\s+(0x[0-9a-f]+)", hdr.stdout).group(1), 16)
        assert base <= entry < base + 0x1000, (core, hex(entry))
        p = subprocess.run([str(ROOT / "sim/target/release/rvsim"), "--core", core, str(elf)],
                           capture_output=True, text=True)
        line = re.search(r'RVLAB_MICRO .*"measured_x100": (-?\d+), "predicted_x100": (-?\d+)', p.stdout)
        assert line and line.group(1) == line.group(2) and int(line.group(2)) > 0, p.stdout


def test_board_log(rvsim_built, tmp_path):
    """A board's console output (here: made-up figures in OpenOCD's log format) is matched by
    effect and its difference to the model printed."""
    log = tmp_path / "board.log"
    log.write_text("Info : halted\n"
                   'RVLAB_MICRO {"effect": "load_use_lw", "reps": 32, "body": 140, "empty": 12, '
                   '"measured_x100": 400, "predicted_x100": 296}\n')
    p = rvlab("micro", "--filter", "load_use_lw$", "--board-log", log)
    assert p.returncode == 0, p.stderr
    assert re.search(r"\| load_use_lw \| 32 \| 2\.96 \| 4\.00 \| 1\.04 \|", p.stdout), p.stdout


def test_bad_input():
    p = rvlab("micro", "--core", "no-such-core")
    assert p.returncode == 1 and "no-such-core" in p.stderr
    p = rvlab("micro", "--filter", "nothing-matches-this")
    assert p.returncode == 1 and "no microbenchmark matches" in p.stderr
    p = rvlab("micro", "--board-log", "/nonexistent/board.log", "--filter", "load_use_lw$")
    assert p.returncode == 1 and p.stderr == "rvlab: error: --board-log /nonexistent/board.log: no such file\n", p.stderr


def test_bench_on_the_rev_b_links_where_its_boot_loader_jumps(rvsim_built, tmp_path):
    """`rvlab bench --core hifive1-revb` runs speed programs linked at the Rev B's user-code
    address (0x2001_0000), not the HiFive1's."""
    p = rvlab("bench", "--filter", "^chacha20/rv32i$", "--core", "hifive1-revb", "--json", tmp_path / "b.json")
    assert p.returncode == 0, p.stdout + p.stderr
    elfs = list((ROOT / "build" / "chacha20").glob("rv32i*/speed-20010000.elf"))
    assert elfs
    hdr = subprocess.run(["riscv64-unknown-elf-readelf", "-h", str(elfs[0])], capture_output=True, text=True)
    assert re.search(r"Entry point address:\s+0x20010000$", hdr.stdout, re.M), hdr.stdout

"""`rvlab rtl`: the same ELFs on the Verilog 5-stage core (hw/core/rv5_core.v, under Icarus
Verilog or Verilator) and on rvsim's model of it (sim/cores/rv5.toml); console output, exit
status and cycle counts must be equal.

The core is built per configuration (its units from the program's ISA: M, C and the
extension units of hw/units/), so a program runs on exactly the core it needs; rvsim runs it
with that ISA (rv32imc + the kernel's extensions: the core has no A extension). Programs:
the speed program of every implementation whose extensions the core has units for, the
hand-written programs of hw/core/tests/ (rv32i/rv32imc; the `rtl` sample of `make test`), and
with `--random N` random programs of rvsim's differential generator (`rvsim-randprog`, the one
tests/diff_qemu.rs runs against QEMU): RV32IMC, CSRs and every crypto unit's instructions in
loops, branches and hazards no hand-written program has; each prints its registers and
memory at the end, so equal output means equal architectural state.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import struct
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import build as B
from . import runner as R

HW = B.ROOT / "hw"
CORE_V = HW / "core" / "rv5_core.v"
TB_V = HW / "core" / "tb_rv5.v"
CORE_FILE = B.ROOT / "sim" / "cores" / "rv5.toml"
RTL_BUILD = B.ROOT / "build" / "rtl"
# the board map the ELFs are linked for (harness/board.toml)
ROM_LOAD, ROM_BYTES = B.FLASH, B.BOARD["__flash_size"]
RAM_BASE, RAM_BYTES = B.RAM_BASE, B.RAM_SIZE
# ISA extension -> core parameter (the unit that implements it)
UNIT_PARAMS = {"zbkb": "ZBKB", "zbkc": "ZBKC", "zbkx": "ZBKX", "zkne": "ZKNE", "zknd": "ZKND",
               "zknh": "ZKNH", "zksed": "ZKSED", "zksh": "ZKSH", "xzbp": "XZBP",
               "xcarry": "XCARRY", "xsbox": "XSBOX", "xpolymul": "XPOLYMUL"}
# the custom instructions' units the core instantiates
CUSTOM_UNITS = ["addc", "subc", "sboxaddr", "sboxaddrw", "srliandi", "sllior", "muladd", "andbnexadd"]
SUMMARY = re.compile(r"^RV5 exit=(-?\d+) cycles=(\d+) instret=(\d+)$", re.M)


class RtlError(Exception):
    """A program or the core could not be built or run; the message says which and why."""


# ------------------------------------------------------------------ configuration
@dataclass(frozen=True)
class Config:
    m: bool = True
    c: bool = True
    units: tuple[str, ...] = ()        # ISA extension names, e.g. ("zbkb", "zknh")
    shared_sbox: bool = False
    zicsr: bool = True                 # False: seed 003's bare RV32I core (programs without CSRs)

    @property
    def params(self) -> dict[str, int]:
        p = {"M": int(self.m), "C": int(self.c), "ZICSR": int(self.zicsr), "SHARED_SBOX": int(self.shared_sbox)}
        p.update({UNIT_PARAMS[u]: 1 for u in self.units})
        return p

    @property
    def isa(self) -> str:
        """The ISA string rvsim runs the program with: what this core implements."""
        return "_".join(["rv32i" + ("m" if self.m else "") + ("c" if self.c else "")] + list(self.units))

    @property
    def tag(self) -> str:
        return self.isa + ("-shared" if self.shared_sbox else "") + ("" if self.zicsr else "-nocsr")


def config_for_isa(isa: str, shared_sbox: bool = False) -> Config:
    """The core for a manifest ISA string (plus the harness's M and C); RtlError if the core
    has no unit for one of its extensions."""
    exts = [e for e in isa.split("_")[1:] if e not in ("zicsr", "zifencei")]
    missing = [e for e in exts if e not in UNIT_PARAMS]
    if missing:
        raise RtlError(f"no unit in hw/ for {', '.join(missing)}")
    return Config(units=tuple(sorted(exts)), shared_sbox=shared_sbox)


# ------------------------------------------------------------------ memory images
def load_images(elf: Path) -> tuple[list[int], list[int], int]:
    """(ROM words from 0x2040_0000, RAM words, entry) from the ELF's PT_LOAD segments, placed
    at their physical addresses as rvsim and QEMU load them."""
    data = elf.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise RtlError(f"{elf}: not a 32-bit little-endian ELF")
    entry, phoff = struct.unpack_from("<II", data, 24)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    rom, ram = bytearray(), bytearray(RAM_BYTES)
    for i in range(phnum):
        p_type, off, _vaddr, paddr, filesz, _memsz = struct.unpack_from("<IIIIII", data, phoff + i * phentsize)
        if p_type != 1 or filesz == 0:
            continue
        seg = data[off:off + filesz]
        if 0 <= paddr - ROM_LOAD and paddr + filesz <= ROM_LOAD + ROM_BYTES:
            o = paddr - ROM_LOAD
            rom.extend(b"\0" * max(0, o + filesz - len(rom)))
            rom[o:o + filesz] = seg
        elif 0 <= paddr - RAM_BASE and paddr + filesz <= RAM_BASE + RAM_BYTES:
            ram[paddr - RAM_BASE:paddr - RAM_BASE + filesz] = seg
        else:
            raise RtlError(f"{elf}: segment at 0x{paddr:08x} is outside the ROM image and the RAM")
    rom.extend(b"\0" * (-len(rom) % 4))
    words = lambda b: list(struct.unpack(f"<{len(b) // 4}I", bytes(b)))
    return words(rom), words(ram), entry


def _hex(words: list[int], path: Path) -> None:
    path.write_text("".join(f"{w:08x}\n" for w in words))


# ------------------------------------------------------------------ building the core
def verilog_sources() -> list[Path]:
    return [TB_V, CORE_V] + sorted((HW / "units").glob("*_unit.v")) + \
        [B.ROOT / "ise" / n / "unit.v" for n in CUSTOM_UNITS]


def simulators() -> list[str]:
    return [s for s, tool in (("verilator", "verilator"), ("icarus", "iverilog")) if shutil.which(tool)]


def build_core(cfg: Config, sim: str, rom_words: int, entry: int) -> list[str]:
    """Compile the test bench for cfg (cached by the sources' contents); the command that runs it."""
    params = cfg.params | {"ENTRY": entry, "ROM_WORDS": rom_words}
    h = hashlib.sha256(json.dumps([sim, sorted(params.items())]).encode())
    for f in verilog_sources():
        h.update(f.read_bytes())
    out = RTL_BUILD / f"{sim}-{cfg.tag}-{h.hexdigest()[:10]}"
    exe = out / ("Vtb_rv5" if sim == "verilator" else "tb.vvp")
    if not exe.is_file():
        out.mkdir(parents=True, exist_ok=True)
        srcs = [str(f) for f in verilog_sources()]
        if sim == "verilator":
            cmd = ["verilator", "--binary", "--timing", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-O2",
                   "--x-assign", "0", "--x-initial", "0", "-j", "2", "--top-module", "tb_rv5",
                   "-Mdir", str(out)] + [f"-G{k}={v}" for k, v in params.items()] + srcs
        else:
            cmd = ["iverilog", "-g2005", "-o", str(exe), "-s", "tb_rv5"] + \
                  [f"-Ptb_rv5.{k}={v}" for k, v in params.items()] + srcs
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0 or not exe.is_file():
            raise RtlError(f"{sim} could not build the core ({cfg.tag}):\n{(p.stdout + p.stderr)[-2000:]}")
    return [str(exe)] if sim == "verilator" else ["vvp", "-n", str(exe)]


# ------------------------------------------------------------------ running
@dataclass
class Outcome:
    program: str
    rtl_cycles: int | None
    sim_cycles: int | None
    rtl_instret: int | None
    sim_instret: int | None
    output_match: bool
    exit_match: bool
    problem: str | None = None          # why the two differ or could not run

    @property
    def ok(self) -> bool:
        return self.problem is None

    def record(self) -> dict:
        return {"program": self.program, "rtl_cycles": self.rtl_cycles, "sim_cycles": self.sim_cycles,
                "output_match": self.output_match, "exit_match": self.exit_match,
                "rtl_instret": self.rtl_instret, "sim_instret": self.sim_instret, "problem": self.problem}


def run_rtl(elf: Path, cfg: Config, sim: str, timeout: float, max_cycles: int = 0,
            trace: bool = False) -> tuple[str, str, int, int, int]:
    """(stdout, stderr, exit status, cycles, instret) of the ELF on the Verilog core."""
    rom, ram, entry = load_images(elf)
    rom_words = 1 << max(10, (len(rom) - 1).bit_length())
    run = build_core(cfg, sim, rom_words, entry)
    with tempfile.TemporaryDirectory() as d:
        _hex(rom + [0] * (rom_words - len(rom)), Path(d) / "rom.hex")
        _hex(ram, Path(d) / "ram.hex")
        # the command line rvsim gives the program (GET_CMDLINE): the ELF path as passed
        args = [f"+rom={d}/rom.hex", f"+ram={d}/ram.hex", f"+cmdline={elf}"] + \
               ([f"+max_cycles={max_cycles}"] if max_cycles else []) + (["+trace"] if trace else [])
        try:
            p = subprocess.run(run + args, capture_output=True, text=True, timeout=timeout, errors="replace")
        except subprocess.TimeoutExpired:
            raise RtlError(f"{elf}: the {sim} simulation took more than {timeout:.0f} s") from None
    # Verilator reports where $finish was called on stdout: not program output
    out = re.sub(r"(?m)^- \S+: Verilog \$finish\n", "", p.stdout)
    m = SUMMARY.search(p.stderr)
    if not m:
        msg = [ln for ln in p.stderr.splitlines() if ln.startswith("RV5 error")] or p.stderr.splitlines()[-3:]
        raise RtlError(f"{elf.name} on the Verilog core: {' / '.join(msg) or 'no summary line'}")
    return out, p.stderr, int(m.group(1)), int(m.group(2)), int(m.group(3))


def run_sim(elf: Path, cfg: Config, timeout: float) -> tuple[str, int, int, int]:
    """(stdout, exit status, cycles, instret) of the ELF on rvsim's model of the core."""
    with tempfile.TemporaryDirectory() as d:
        js = Path(d) / "stats.json"
        cmd = [str(R.RVSIM), "--isa", cfg.isa, "--core", str(CORE_FILE), "--json-out", str(js), str(elf)]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, errors="replace")
        except subprocess.TimeoutExpired:
            raise RtlError(f"{elf}: rvsim took more than {timeout:.0f} s") from None
        if not js.is_file():
            raise RtlError(f"{elf.name} on rvsim: {p.stderr.strip()[-500:]}")
        st = json.loads(js.read_text())
    return p.stdout, p.returncode, st["cycles"], st["instret"]


def compare(name: str, elf: Path, cfg: Config, sim: str, timeout: float) -> Outcome:
    try:
        s_out, s_exit, s_cyc, s_ins = run_sim(elf, cfg, timeout)
        r_out, _, r_exit, r_cyc, r_ins = run_rtl(elf, cfg, sim, timeout, max_cycles=max(4 * s_cyc, 1000))
    except RtlError as e:
        return Outcome(name, None, None, None, None, False, False, str(e))
    o = Outcome(name, r_cyc, s_cyc, r_ins, s_ins, r_out == s_out, r_exit == s_exit)
    diffs = []
    if not o.output_match:
        a, b = r_out.splitlines(), s_out.splitlines()
        k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        diffs.append(f"output differs at line {k + 1}: RTL {a[k] if k < len(a) else '<end>'!r}, "
                     f"rvsim {b[k] if k < len(b) else '<end>'!r}")
    if not o.exit_match:
        diffs.append(f"exit status RTL {r_exit}, rvsim {s_exit}")
    if r_ins != s_ins:
        diffs.append(f"instructions retired RTL {r_ins}, rvsim {s_ins}")
    if r_cyc != s_cyc:
        diffs.append(f"cycles RTL {r_cyc}, rvsim {s_cyc}")
    o.problem = "; ".join(diffs) or None
    return o


# ------------------------------------------------------------------ test programs
# the crypto units the assembler knows (not xzbp, whose draft instructions it lacks, nor the
# custom ones): what rv5_ext.S and the random programs are assembled with
ASM_UNITS = ("zbkb", "zbkc", "zbkx", "zknd", "zkne", "zknh", "zksed", "zksh")
ASM_UNITS_MARCH = "rv32imc_zicsr_" + "_".join(ASM_UNITS)


def assemble(src: Path, elf: Path, march: str, flags: list[str]) -> None:
    """A bare-metal test program (no C library) from one assembly file; RtlError if it fails."""
    p = subprocess.run([B.CC, f"-march={march}", "-mabi=ilp32", "-nostdlib", "-nostartfiles", *flags,
                        "-o", str(elf), str(src)], capture_output=True, text=True)
    if p.returncode != 0:
        raise RtlError(f"assembling {src}: {p.stderr.strip()[-1000:]}")


RANDPROG = R.RVSIM.with_name("rvsim-randprog")
TESTS_ASM = B.ROOT / "sim" / "tests" / "asm"            # rt.h and link.ld of the generated programs


def build_random_program(seed: int, length: int, iters: int) -> Path:
    """Assemble random program `seed` (length instructions, loop bodies run iters times)."""
    out = RTL_BUILD / "random" / f"{seed}-{length}x{iters}"
    s, elf = out.with_suffix(".S"), out.with_suffix(".elf")
    s.parent.mkdir(parents=True, exist_ok=True)
    if not RANDPROG.is_file():
        raise RtlError(f"{RANDPROG} not found: build rvsim with `make setup`")
    p = subprocess.run([str(RANDPROG), "--seed", str(seed), "--len", str(length), "--iters", str(iters),
                        "--exts", ",".join(ASM_UNITS)], capture_output=True, text=True)
    if p.returncode != 0:
        raise RtlError(f"rvsim-randprog: {p.stderr.strip()}")
    s.write_text(p.stdout)
    assemble(s, elf, ASM_UNITS_MARCH, ["-T", str(TESTS_ASM / "link.ld"), f"-I{TESTS_ASM}"])
    return elf


def random_programs(n: int, seed: int, length: int, iters: int) -> list["Program"]:
    """n random programs from `seed` on; every other one on a core with the shared S-box unit."""
    return [Program(f"random/{seed + i}", Config(units=ASM_UNITS, shared_sbox=(seed + i) % 2 == 1),
                    lambda k=seed + i: build_random_program(k, length, iters))
            for i in range(n)]


# ------------------------------------------------------------------ the programs
# hand-written programs (hw/core/tests/): file -> (-march, the core that runs them)
ALL_UNITS = tuple(sorted(u for u in UNIT_PARAMS if u not in ("xcarry", "xsbox", "xpolymul")))
HW_PROGRAMS = {
    "rv32i_all": ("rv32i", Config()),
    "sort_hash": ("rv32i", Config()),
    # the same two on seed 003's core (RV32I only: no M, C or CSRs), the area table's denominator
    "rv32i_all-base": ("rv32i", Config(m=False, c=False, zicsr=False)),
    "sort_hash-base": ("rv32i", Config(m=False, c=False, zicsr=False)),
    "rv5_pipeline": ("rv32imc_zicsr_zifencei", Config()),
    "rv5_ext": (ASM_UNITS_MARCH, Config(units=ALL_UNITS)),              # xzbp through .insn
    "rv5_ext-shared": (ASM_UNITS_MARCH, Config(units=ALL_UNITS, shared_sbox=True)),
    "rv5_xpolymul": ("rv32imc_zicsr", Config(units=("xpolymul",))),    # custom-2 through ise.inc
    "rv5_xpolymul-nom": ("rv32ic_zicsr", Config(m=False, units=("xpolymul",))),  # muladd's own multiplier
}


@dataclass
class Program:
    name: str               # "hw/rv5_pipeline" or "<primitive>/<impl>" (its speed program)
    cfg: Config
    build: object           # () -> Path of the ELF
    skip: str | None = None  # why it cannot run on this core


def build_hw_program(stem: str, march: str) -> Path:
    src = HW / "core" / "tests" / f"{stem.split('-')[0]}.S"
    out = RTL_BUILD / "programs" / f"{stem}.elf"
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.is_file() or out.stat().st_mtime < max(f.stat().st_mtime for f in src.parent.glob("*.[Si]*")):
        assemble(src, out, march, ["-Wl,-N", "-Wl,--no-warn-rwx-segments", "-Wl,-Ttext=0x20400000",
                                   "-Wl,-Tdata=0x80000000", f"-I{HW / 'core' / 'tests'}", f"-I{B.ROOT / 'ise'}"])
    return out


def programs(impls, shared_sbox: bool = False) -> list[Program]:
    """The hand-written programs, then the speed program of every implementation."""
    out = [Program(f"hw/{stem}", cfg, lambda s=stem, m=march: build_hw_program(s, m))
           for stem, (march, cfg) in HW_PROGRAMS.items()]
    for im in impls:
        try:
            cfg = config_for_isa(im.isa, shared_sbox)
            out.append(Program(im.name, cfg, lambda im=im: B.build_speed(im, B.kernel_objects(im)).speed))
        except RtlError as e:
            out.append(Program(im.name, Config(), None, str(e)))
    return out

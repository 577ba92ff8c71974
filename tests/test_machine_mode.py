"""Machine-mode exceptions, CSRs and mret: rvsim against the privileged spec and QEMU."""
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "tests" / "machine_mode"
RVSIM = ROOT / "sim" / "target" / "release" / "rvsim"
GCC = "riscv64-unknown-elf-gcc"
PICOLIBC = ["--specs=picolibc.specs", "--crt0=semihost", "--oslib=semihost"]
# Flat layout for QEMU -M virt (RAM at 0x8000_0000); rvsim runs it with --memory flat.
FLAT = ["-Wl,--defsym=__flash=0x80000000", "-Wl,--defsym=__flash_size=0x100000",
        "-Wl,--defsym=__ram=0x80100000", "-Wl,--defsym=__ram_size=0x100000"]
# The HiFive1 board: code in flash at 0x2040_0000, data in the 16 KiB DTIM; rvsim's e31 map.
BOARD = ["-Wl,--defsym=__flash=0x20400000", "-Wl,--defsym=__flash_size=0x100000",
         "-Wl,--defsym=__ram=0x80000000", "-Wl,--defsym=__ram_size=0x4000"]

VARIANTS = {
    # name: (compile -march, link -march (picolibc multilib), defines, layout, rvsim isa, qemu -cpu or None)
    "common": ("rv32imac_zicsr", "rv32imac", [], FLAT, "rv32imac", "rv32"),
    "norvc": ("rv32im_zicsr", "rv32im", ["-DNO_RVC"], FLAT, "rv32im", "rv32,c=false"),
    "e31": ("rv32imac_zicsr", "rv32imac", ["-DE31_MISALIGNED_TRAPS"], FLAT, "rv32imac", None),
    "board": ("rv32imac_zicsr", "rv32imac", ["-DE31_MISALIGNED_TRAPS", "-DE31_BOARD"], BOARD, "rv32imac", None),
}
# -DSPEC_ONLY adds the checks QEMU cannot make: where QEMU's rv32 CPU and virt board
# legitimately differ from a hart with M-mode only (S/U/H-mode bits in mie/mip/mstatush, a
# platform timer) or where QEMU 7.2 departs from the specification (causes of faulting AMOs,
# mtval of misaligned jal/branch targets, SC address checks, csrs with a zero register,
# 64-bit counter carries). traps.c says which, at each check. Every variant is run on rvsim
# with them (against the specification); the variants QEMU runs are compared with QEMU
# line for line in a build without them.


def build(variant, tmp: Path, spec_only=False) -> Path:
    march, link_march, defines, layout, _, _ = VARIANTS[variant]
    defines = defines + (["-DSPEC_ONLY"] if spec_only else [])
    tag = f"{variant}-spec" if spec_only else variant
    objs = []
    for src in ("traps.c", "trap_vec.S"):
        obj = tmp / f"{src}-{tag}.o"
        subprocess.run([GCC, f"-march={march}", "-mabi=ilp32", "-O2", "--specs=picolibc.specs",
                        *defines, "-c", str(SRC / src), "-o", str(obj)], check=True)
        objs.append(str(obj))
    elf = tmp / f"traps-{tag}.elf"
    subprocess.run([GCC, f"-march={link_march}", "-mabi=ilp32", *PICOLIBC, *layout, *objs, "-o", str(elf)],
                   check=True)
    return elf


def run_rvsim(elf, isa, memory="flat"):
    return subprocess.run([str(RVSIM), "--core", "e31", "--memory", memory, "--isa", isa, str(elf)],
                          capture_output=True, text=True, timeout=60)


def run_qemu(elf, cpu):
    return subprocess.run(
        ["qemu-system-riscv32", "-M", "virt", "-m", "128M", "-cpu", cpu, "-bios", "none",
         "-kernel", str(elf), "-display", "none", "-monitor", "none", "-serial", "none",
         "-chardev", "stdio,id=shc", "-semihosting-config", "enable=on,target=native,chardev=shc"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_traps(variant, tmp_path):
    assert RVSIM.exists(), "build rvsim first: cargo build --release --manifest-path sim/Cargo.toml"
    _, _, _, layout, isa, qemu_cpu = VARIANTS[variant]
    memory = "e31" if layout is BOARD else "flat"
    # against the specification, with the checks QEMU cannot make
    spec = run_rvsim(build(variant, tmp_path, spec_only=True), isa, memory)
    assert spec.returncode == 0, f"rvsim (SPEC_ONLY): {spec.stdout}\n{spec.stderr}"
    assert spec.stdout.rstrip().endswith("0 failures")
    elf = build(variant, tmp_path)
    sim = run_rvsim(elf, isa, memory)
    assert sim.returncode == 0, f"rvsim: {sim.stdout}\n{sim.stderr}"
    assert sim.stdout.rstrip().endswith("0 failures")
    # the spec build makes every check of the plain build, and more
    assert len(spec.stdout.splitlines()) > len(sim.stdout.splitlines())
    if qemu_cpu is not None:
        assert shutil.which("qemu-system-riscv32"), "qemu-system-misc is not installed"
        qemu = run_qemu(elf, qemu_cpu)
        assert qemu.returncode == 0, f"qemu: {qemu.stdout}\n{qemu.stderr}"
        assert sim.stdout == qemu.stdout


def test_no_handler_is_a_clear_error(tmp_path):
    """Without a handler of the program's own, a fault stops rvsim with a one-line message."""
    src = tmp_path / "crash.S"
    src.write_text(".globl _start\n_start:\n  li t0, 0xA0000000\n  lw t1, 0(t0)\n1: j 1b\n")
    elf = tmp_path / "crash.elf"
    subprocess.run([GCC, "-march=rv32imac", "-mabi=ilp32", "-nostdlib", "-Wl,-Ttext=0x80001000",
                    str(src), "-o", str(elf)], check=True)
    sim = run_rvsim(elf, "rv32imac")
    assert sim.returncode == 125
    assert "rvsim: error:" in sim.stderr and "a0000000" in sim.stderr.lower()
    assert "panicked" not in sim.stderr


CRASH_C = """#include <stdio.h>
int main(void) { puts("before"); __asm__ volatile(".word 0xffffffff"); puts("not reached"); return 0; }
"""


def test_picolibc_handler_matches_qemu_and_stop_on_trap(tmp_path):
    """picolibc's crt0 installs its own handler (a register dump, exit 1): rvsim delivers the
    trap to it exactly as QEMU does on the same E31-linked ELF. With --stop-on-trap rvsim
    stops at the faulting instruction with its own message instead (what rvlab uses)."""
    src = tmp_path / "crash.c"
    src.write_text(CRASH_C)
    elf = tmp_path / "crash.elf"
    subprocess.run([GCC, "-march=rv32imac", "-mabi=ilp32", "-O2", "--specs=picolibc.specs",
                    "--crt0=semihost", "--oslib=semihost",
                    "-Wl,--defsym=__flash=0x20400000", "-Wl,--defsym=__flash_size=0x100000",
                    "-Wl,--defsym=__ram=0x80000000", "-Wl,--defsym=__ram_size=0x4000",
                    str(src), "-o", str(elf)], check=True)
    sim = subprocess.run([str(RVSIM), str(elf)], capture_output=True, text=True, timeout=60)
    assert sim.returncode == 1, sim.stderr
    assert "RISCV fault" in sim.stdout and "mcause:   0x00000002" in sim.stdout
    assert "not reached" not in sim.stdout
    qemu = subprocess.run(
        ["qemu-system-riscv32", "-M", "sifive_e", "-bios", "none", "-kernel", str(elf),
         "-display", "none", "-monitor", "none", "-serial", "none",
         "-chardev", "stdio,id=shc", "-semihosting-config", "enable=on,target=native,chardev=shc"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert (qemu.returncode, qemu.stdout) == (sim.returncode, sim.stdout)

    stop = subprocess.run([str(RVSIM), "--stop-on-trap", str(elf)], capture_output=True, text=True, timeout=60)
    assert stop.returncode == 125
    assert stop.stdout == "before\n"
    assert "rvsim: error: illegal instruction 0xffffffff at pc" in stop.stderr

"""The programs the scripts in sim/benches/ run: the loops of this folder (built here) and the
ELFs `python3 -m rvlab build` left under build/."""
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIM = ROOT / "sim"
CC = "riscv64-unknown-elf-gcc"
# (name, sources besides sim/benches/<name>.S, iterations, bytes at 0x80000100 a
# constant-time run marks secret: the words mix_loop works on, Keccak's state)
LOOPS = [
    ("alu_loop", [], 50_000_000, 8),
    ("keccak_loop", [ROOT / "crypto" / "keccakf1600" / "rv32i" / "keccakf1600.S"], 40_000, 200),
    ("mix_loop", [], 20_000_000, 8),
]


def build_loops(tmp: Path, scale: float = 1.0) -> list[tuple[str, Path, list[str], list[str]]]:
    """(name, elf, rvsim options, --secret options) of the loops, iterations scaled by `scale`."""
    out = []
    for name, extra, iters, secret in LOOPS:
        elf = tmp / f"{name}.elf"
        subprocess.run([CC, "-march=rv32im", "-mabi=ilp32", "-nostdlib", "-nostartfiles", "-T", str(SIM / "tests" / "asm" / "link.ld"),
                        f"-DITER={max(1, int(iters * scale))}", str(SIM / "benches" / f"{name}.S"), *map(str, extra), "-o", str(elf)], check=True)
        out.append((name, elf, ["--isa", "rv32im", "--memory", "e31"], ["--secret", f"0x80000100:{secret}"]))
    return out


def secret_symbols(elf: Path) -> list[str]:
    """The rvlab_secret_* symbols of a speed program (what `rvlab bench` marks secret)."""
    out = subprocess.run(["riscv64-unknown-elf-nm", str(elf)], capture_output=True, text=True).stdout
    return sorted({l.split()[-1] for l in out.splitlines() if l.split()[-1:] and l.split()[-1].startswith("rvlab_secret_")})


def rvlab_builds(build: Path, pattern: str = "*/*") -> list[tuple[Path, str]]:
    """(folder, run ISA) of every implementation rvlab built (build/<primitive>/<impl>-<tag>/)."""
    return [(f.parent, f.read_text().strip()) for f in sorted(build.glob(f"{pattern}/rvsim-isa"))]

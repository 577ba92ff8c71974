"""Running ELF files on rvsim and QEMU."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .build import ROOT

RVSIM = Path(os.environ.get("RVLAB_RVSIM", ROOT / "sim" / "target" / "release" / "rvsim"))
QEMU = os.environ.get("RVLAB_QEMU", "qemu-system-riscv32")
QEMU_EXTS = {"zba", "zbb", "zbc", "zbs", "zbkb", "zbkc", "zbkx", "zknd", "zkne", "zknh",
             "zksed", "zksh", "zkn", "zks", "zk", "zkr", "zkt"}


class RunnerMissing(Exception):
    """rvsim or QEMU is not installed."""


class RunError(Exception):
    """A program ran and failed (non-zero exit, time-out, no result line); the message holds
    what it printed and the command that reproduces the run."""


@dataclass
class Run:
    runner: str
    cmd: list[str]
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False
    # rvsim only (docs/interfaces.md §1: the exit status alone cannot tell rvsim's 125/2 from a
    # program's own): rvsim's message when it stopped the run or refused to start it, None
    # when the program ran to its exit (returncode is then the program's status)
    rvsim_error: str | None = None

    @property
    def reproduce(self) -> str:
        """The command a user runs to see the same: without a --json-out into rvlab's scratch
        files (the statistics go to the terminal with --stats instead)."""
        cmd = list(self.cmd)
        if "--json-out" in cmd:
            i = cmd.index("--json-out")
            cmd[i:i + 2] = ["--stats"]
        return shlex.join(cmd)

    def results(self, tag: str = "RVLAB_RESULT") -> list[dict]:
        out = []
        for line in self.stdout.splitlines():
            if line.startswith(tag + " "):
                out.append(json.loads(line[len(tag) + 1:]))
        return out

    def summary(self) -> dict | None:
        """The test program's summary line (RVLAB_TEST {...}), None if it printed none."""
        r = self.results("RVLAB_TEST")
        return r[-1] if r else None

    def describe_failure(self, max_lines: int = 12) -> list[str]:
        """Indented lines for a failed run: its FAIL lines, the end of stderr, a missing
        summary, and the command that reproduces it."""
        out = []
        fails = [l for l in self.stdout.splitlines() if l.startswith("FAIL")]
        for l in fails[:max_lines]:
            out.append(f"    {shorten_fail(l)}")
        if len(fails) > max_lines:
            out.append(f"    ... {len(fails) - max_lines} more FAIL lines")
        if self.timed_out:
            out.append(f"    {self.stderr.strip()}")
        elif self.stderr.strip():
            for l in self.stderr.strip().splitlines()[-5:]:
                out.append(f"    {self.runner} stderr: {l}")
        if self.rvsim_error is not None:
            out.append(f"    rvsim stopped the run: {self.rvsim_error}")
        elif self.summary() is None and not self.timed_out:
            out.append(f"    {self.runner}: the program ended (exit status {self.returncode}) without its summary line "
                       f"(crash, trap or early exit)")
        out.append(f"    reproduce: {self.reproduce}")
        return out


_FAIL_HEX = re.compile(r"^(FAIL .*?: )got ([0-9a-f]*) expected ([0-9a-f]*) "
                       r"\((?:first difference at byte (\d+)|length (\d+), expected (\d+))\)$")


def shorten_fail(line: str, window: int = 32) -> str:
    """A harness FAIL line with long got/expected hex (a 4 KiB output prints 8 KiB of hex twice),
    cut to `window` bytes from a little before the first difference; short ones stay whole.
    The whole values: the reproduce command's output."""
    m = _FAIL_HEX.match(line)
    if not m or max(len(m.group(2)), len(m.group(3))) <= 2 * window:
        return line
    got, exp = bytes.fromhex(m.group(2)), bytes.fromhex(m.group(3))
    first = int(m.group(4)) if m.group(4) else next((i for i, (a, b) in enumerate(zip(got, exp)) if a != b),
                                                    min(len(got), len(exp)))
    a = max(0, first - 8)
    b = a + window

    def cut(v: bytes) -> str:
        return ("…" if a else "") + v[a:b].hex() + ("…" if b < len(v) else "")
    why = (f"first difference at byte {first}" if m.group(4) else
           f"length {m.group(5)}, expected {m.group(6)}; first difference at byte {first}")
    sizes = f"{len(got)}" if len(got) == len(exp) else f"{len(got)} and {len(exp)}"
    return (f"{m.group(1)}got {cut(got)} expected {cut(exp)} ({why}; bytes {a}..{min(b, max(len(got), len(exp))) - 1} "
            f"of {sizes} shown)")


def rvsim_available() -> bool:
    return RVSIM.is_file() and os.access(RVSIM, os.X_OK)


def qemu_available() -> bool:
    return shutil.which(QEMU) is not None


def rvsim_cmd(elf: Path, isa: str, core: str = "e31", mul_latency: int | None = None,
              json_out: Path | None = None, max_insns: int | None = None) -> list[str]:
    # harness programs are picolibc programs whose crt0 installs a register-dump trap
    # handler; a trap in a kernel is a bug, and rvsim's own message names the instruction.
    # Their stack is picolibc's stack region (__stack_size below __stack, 4 KiB): sp below it
    # means the stack grew into .data/.bss, an error naming the function (--stack-limit auto)
    cmd = [str(RVSIM), "--isa", isa, "--core", core, "--stop-on-trap", "--stack-limit", "auto"]
    if mul_latency is not None:
        cmd += ["--mul-latency", str(mul_latency)]
    if max_insns is not None:
        cmd += ["--max-insns", str(max_insns)]
    if json_out is not None:
        cmd += ["--json-out", str(json_out)]
    return cmd + [str(elf)]


def qemu_unsupported(exts: list[str]) -> list[str]:
    return [e for e in exts if e not in QEMU_EXTS]


def qemu_cmd(elf: Path, exts: list[str]) -> list[str]:
    cpu = ",".join(["rv32"] + [f"{e}=true" for e in exts])
    return [QEMU, "-M", "sifive_e", "-cpu", cpu, "-bios", "none", "-kernel", str(elf), "-display", "none",
            "-chardev", "stdio,id=rvlab0", "-semihosting-config", "enable=on,target=native,chardev=rvlab0",
            "-monitor", "none", "-serial", "none"]


def rvsim_error(returncode: int, stderr: str, json_out: Path) -> str | None:
    """rvsim's own failure of a finished run, from its --json-out file (docs/interfaces.md §1):
    the file's `error`, or when rvsim wrote no file (it refused the command line or the ELF)
    its `rvsim: error:` line; None when the program ran to its exit."""
    try:
        return json.loads(json_out.read_text()).get("error")
    except (OSError, ValueError):
        msg = [l[len("rvsim: error: "):] for l in stderr.splitlines() if l.startswith("rvsim: error: ")]
        return msg[0] if msg else f"rvsim wrote no statistics (exit status {returncode})"


def run(runner: str, cmd: list[str], timeout: float = 300) -> Run:
    """Run `cmd`; for rvsim also read its statistics (a --json-out of the command, or one added
    here into a scratch file) to tell rvsim's own failures from the program's exit status."""
    with tempfile.TemporaryDirectory(prefix="rvlab-run-") as tmp:
        full, json_out = cmd, None
        if runner == "rvsim":
            if "--json-out" in cmd:
                json_out = Path(cmd[cmd.index("--json-out") + 1])
            else:
                json_out = Path(tmp) / "stats.json"
                full = cmd[:-1] + ["--json-out", str(json_out)] + cmd[-1:]
            json_out.unlink(missing_ok=True)
        r = _run(runner, cmd, full, timeout)
        if json_out is not None and not r.timed_out:
            r.rvsim_error = rvsim_error(r.returncode, r.stderr, json_out)
        return r


def _run(runner: str, cmd: list[str], full: list[str], timeout: float) -> Run:
    try:
        p = subprocess.run(full, capture_output=True, text=True, timeout=timeout, errors="replace")
        return Run(runner, cmd, p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return Run(runner, cmd, -1, out, f"{runner}: timed out after {timeout:g} s (a kernel that never returns? "
                                         f"for a long run raise the limit with --timeout)", timed_out=True)
    except FileNotFoundError:
        raise RunnerMissing(f"{cmd[0]} not found — run `make setup`") from None

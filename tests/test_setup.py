"""scripts/setup.sh's Python step and the Makefile's choice of interpreter, in a throwaway copy
with stub commands: nothing is installed (apt-get, `python3 -m venv` and the venv's `-m pip` are
stubs that log). What they check: rvlab always goes into the checkout's .venv -- also where the
python3 on PATH would accept a pip install (a shared interpreter: the `rvlab` command would then
act on whichever clone was set up last) -- and is not installed again on a second run; an
existing .venv is reused; a python3 without the venv module gets python3-venv/python3-pip from
apt; the Makefile uses .venv/bin's python3 once it exists, also when `setup` creates it in the
same run."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

needs_sh_make = pytest.mark.skipif(not (shutil.which("sh") and shutil.which("make")), reason="needs sh and make")


def _stub(path: Path, text: str) -> None:
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(0o755)


@pytest.fixture
def sandbox(tmp_path):
    """A checkout copy (setup.sh, pyproject.toml, rvlab/) and a stub bin/ first on PATH:
    apt-get and sudo log; python3 runs this interpreter (PYTHONPATH=$SHADOW) except for `-m pip`
    (logs: a system-wide install, which must never happen) and `-m venv DIR` (logs and makes
    DIR/bin/python: this interpreter again, whose `-m pip` logs and makes DIR/bin/rvlab)."""
    co = tmp_path / "co"
    (co / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup.sh", co / "scripts")
    shutil.copy(ROOT / "pyproject.toml", co)
    shutil.copytree(ROOT / "rvlab", co / "rvlab", ignore=shutil.ignore_patterns("__pycache__"))
    log = tmp_path / "log"
    log.write_text("")
    stub = tmp_path / "bin"
    stub.mkdir()
    _stub(stub / "apt-get", f'echo "apt-get $*" >> {log}\n')
    _stub(stub / "sudo", f'echo "sudo $*" >> {log}\nexec "$@"\n')
    venv_python = (f'#!/bin/sh\nif [ "${{1:-}}" = -m ] && [ "${{2:-}}" = pip ]; then echo "venv python $*" >> {log}; '
                   f'touch "$(dirname "$0")/rvlab"; chmod +x "$(dirname "$0")/rvlab"; exit 0; fi\n'
                   f'PYTHONPATH="${{SHADOW:-}}" exec {sys.executable} "$@"\n')
    _stub(stub / "python3",
          f'if [ "${{1:-}}" = -m ] && [ "${{2:-}}" = pip ]; then echo "system python3 $*" >> {log}; exit 0; fi\n'
          f'if [ "${{1:-}}" = -m ] && [ "${{2:-}}" = venv ]; then echo "python3 $*" >> {log}; mkdir -p "$3/bin"; '
          f"cat > \"$3/bin/python\" <<'EOF'\n{venv_python}EOF\nchmod +x \"$3/bin/python\"; exit 0; fi\n"
          f'PYTHONPATH="${{SHADOW:-}}" exec {sys.executable} "$@"\n')
    # import shadows: no venv module; the modules a finished set-up has (rvlab from the copy)
    novenv = tmp_path / "novenv"
    for m in ("venv", "ensurepip"):
        (novenv / m).mkdir(parents=True)
        (novenv / m / "__init__.py").write_text("raise ImportError('no venv')\n")
    fake = tmp_path / "fake"
    for m in ("Crypto", "cryptography_vectors", "pycryptodome_test_vectors", "pytest", "selenium", "adjustText"):
        (fake / m).mkdir(parents=True)
        (fake / m / "__init__.py").write_text("")

    def run(shadow=""):
        env = dict(os.environ, PATH=f"{stub}:{os.environ['PATH']}", SHADOW=shadow)
        env.pop("VIRTUAL_ENV", None)
        p = subprocess.run(["sh", str(co / "scripts" / "setup.sh")], env=env, capture_output=True, text=True,
                           timeout=600)
        out = log.read_text()
        log.write_text("")
        return p, out
    return co, run, {"novenv": str(novenv), "installed": f"{co}:{fake}"}


def _pip_lines(log: str) -> list[str]:
    return [l for l in log.splitlines() if "-m pip" in l]


@needs_sh_make
def test_setup_installs_into_the_checkouts_venv_once(sandbox):
    co, run, shadow = sandbox
    p, log = run(shadow["installed"])
    assert p.returncode == 0, p.stdout + p.stderr
    assert "python3 -m venv .venv" in log.splitlines(), log
    assert _pip_lines(log) == ["venv python -m pip install --quiet --disable-pip-version-check -e ."], log
    assert "system python3" not in log and "apt-get" not in log
    assert (co / "build" / ".pip-installed").read_text().split()[0] == str(co)
    assert "are in .venv/bin" in p.stdout
    p, log = run(shadow["installed"])                  # idempotent: the venv reused, nothing installed again
    assert p.returncode == 0 and "rvlab Python package installed in .venv" in p.stdout, p.stdout + p.stderr
    assert log == ""


@needs_sh_make
def test_setup_reinstalls_when_pyproject_changes(sandbox):
    co, run, shadow = sandbox
    run(shadow["installed"])
    with open(co / "pyproject.toml", "a") as f:
        f.write("\n# changed\n")
    p, log = run(shadow["installed"])
    assert p.returncode == 0, p.stdout + p.stderr
    assert "-m venv" not in log and _pip_lines(log) == ["venv python -m pip install --quiet "
                                                        "--disable-pip-version-check -e ."], log


@needs_sh_make
def test_setup_python_without_venv_gets_it_from_apt(sandbox):
    co, run, shadow = sandbox
    p, log = run(shadow["novenv"])
    assert p.returncode == 0, p.stdout + p.stderr
    assert "apt-get install -y --no-install-recommends python3-venv python3-pip" in log, log
    assert "python3 -m venv .venv" in log and "system python3" not in log, log


@needs_sh_make
def test_makefile_uses_the_venv_once_it_exists(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path)
    (tmp_path / "scripts").mkdir()
    # set-up stub: makes .venv/bin/python3 when MAKE_VENV=1, as setup.sh does
    (tmp_path / "scripts" / "setup.sh").write_text(
        'if [ "${MAKE_VENV:-}" = 1 ]; then mkdir -p .venv/bin; '
        "printf '#!/bin/sh\\necho venv python3 \"$*\"\\n' > .venv/bin/python3; chmod +x .venv/bin/python3; fi\n")
    sysbin = tmp_path / "sysbin"
    sysbin.mkdir()
    _stub(sysbin / "python3", 'echo system python3 "$*"\n')
    env = dict(os.environ, PATH=f"{sysbin}:{os.environ['PATH']}")

    def make(*a, **kw):
        p = subprocess.run(["make", "-s", *a], cwd=tmp_path, env=dict(env, **kw), capture_output=True, text=True)
        assert p.returncode == 0, p.stdout + p.stderr
        return p.stdout.strip()
    assert make("report") == "system python3 -m rvlab report --html"
    assert make("build", MAKE_VENV="1") == "venv python3 -m rvlab build"      # created by this run's setup
    assert make("report") == "venv python3 -m rvlab report --html"
    assert make("-n", "report", "PY=python3.99") == "python3.99 -m rvlab report --html"

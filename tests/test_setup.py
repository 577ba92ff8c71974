"""scripts/setup.sh's Python step and the Makefile's choice of interpreter, in a throwaway copy
with stub commands: nothing is installed (apt-get and `python3 -m pip` are stubs that log),
no virtual environment is created.  What they check: where python3 works today the set-up
runs the same pip command as before and does not reinstall on a second run; a python3 without
pip gets python3-pip/python3-venv from apt; the Makefile uses .venv/bin's python3 once it
exists, also when `setup` creates it in the same run."""
import os
import shutil
import subprocess
import sys
import sysconfig
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
    apt-get and sudo log; python3 runs this interpreter (with PYTHONPATH=$SHADOW) except for
    `-m pip`, which logs."""
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
    _stub(stub / "python3", f'if [ "${{1:-}}" = -m ] && [ "${{2:-}}" = pip ]; then echo "python3 $*" >> {log}; exit 0; fi\n'
                            f'PYTHONPATH="${{SHADOW:-}}" exec {sys.executable} "$@"\n')
    # import shadows: no pip; installed modules of a finished set-up (rvlab from the copy)
    nopip = tmp_path / "nopip"
    (nopip / "pip").mkdir(parents=True)
    (nopip / "pip" / "__init__.py").write_text("raise ImportError('no pip')\n")
    fake = tmp_path / "fake"
    for m in ("Crypto", "cryptography_vectors", "pycryptodome_test_vectors", "pytest"):
        (fake / m).mkdir(parents=True)
        (fake / m / "__init__.py").write_text("")
    _stub(stub / "rvlab", "exit 0\n")

    def run(shadow=""):
        env = dict(os.environ, PATH=f"{stub}:{os.environ['PATH']}", SHADOW=shadow)
        p = subprocess.run(["sh", str(co / "scripts" / "setup.sh")], env=env, capture_output=True, text=True,
                           timeout=600)
        out = log.read_text()
        log.write_text("")
        return p, out
    return co, run, {"nopip": str(nopip), "installed": f"{co}:{fake}"}


def _externally_managed() -> bool:
    """This interpreter is externally managed (PEP 668) and not a venv: set-up takes the venv path."""
    return sys.prefix == sys.base_prefix and os.path.isfile(
        os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))


def _pip_lines(log: str) -> list[str]:
    return [l for l in log.splitlines() if "-m pip" in l]


@needs_sh_make
def test_setup_python_that_works_installs_as_before_and_only_once(sandbox):
    co, run, shadow = sandbox
    if not subprocess.run([sys.executable, "-c", "import pip"]).returncode == 0:
        pytest.skip("this interpreter has no pip")
    if _externally_managed():
        pytest.skip("this interpreter is externally managed")
    p, log = run(shadow["installed"])
    assert p.returncode == 0, p.stdout + p.stderr
    assert _pip_lines(log) == ["python3 -m pip install --quiet --disable-pip-version-check -e ."], log
    assert "python3-pip" not in log and not (co / ".venv").exists()
    assert (co / "build" / ".pip-installed").read_text().split()[0] == str(co)
    p, log = run(shadow["installed"])                  # idempotent: nothing installed again
    assert p.returncode == 0 and "rvlab Python package installed" in p.stdout, p.stdout + p.stderr
    assert not _pip_lines(log) and "python3-pip" not in log


@needs_sh_make
def test_setup_python_without_pip_gets_it_from_apt(sandbox):
    co, run, shadow = sandbox
    if _externally_managed():
        pytest.skip("this interpreter is externally managed (the venv path would be taken)")
    p, log = run(shadow["nopip"])
    assert p.returncode == 0, p.stdout + p.stderr
    assert "apt-get install -y --no-install-recommends python3-pip python3-venv" in log, log
    assert _pip_lines(log) == ["python3 -m pip install --quiet --disable-pip-version-check -e ."], log


@needs_sh_make
def test_makefile_uses_the_venv_once_it_exists(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path)
    (tmp_path / "scripts").mkdir()
    # set-up stub: makes .venv/bin/python3 when MAKE_VENV=1, as setup.sh does on an
    # externally managed Python
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
    assert make("report") == "system python3 -m rvlab report"
    assert make("build", MAKE_VENV="1") == "venv python3 -m rvlab build"      # created by this run's setup
    assert make("report") == "venv python3 -m rvlab report"
    assert make("-n", "report", "PY=python3.99") == "python3.99 -m rvlab report"

"""Shared helpers for the workbench tests."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
RVSIM = ROOT / "sim" / "target" / "release" / "rvsim"


def rvlab(*args, timeout=900):
    """Run the rvlab command as a user would; returns the CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "rvlab", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def rvsim_works() -> bool:
    """True if the rvsim binary exists and is executable (it is built by `make setup`)."""
    return RVSIM.is_file() and os.access(RVSIM, os.X_OK)


@pytest.fixture
def rvsim_built():
    """Tests that need rvsim fail (not skip) without it: `make test` always builds it."""
    assert rvsim_works(), f"rvsim not built at {RVSIM}: run `make setup`"


@pytest.fixture
def run_rvlab():
    return rvlab


def load_module(name, path):
    """A module from a file: the primitives' generators and references are scripts in their
    folders, not a package."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def pytest_collectstart(collector):
    """Each test module imports its primitive's helpers (ref, gen, optable, ...) by their bare
    names: forget those another test module loaded, so it gets its own primitive's."""
    if isinstance(collector, pytest.Module):
        from rvlab.build import forget_primitive_modules
        forget_primitive_modules()

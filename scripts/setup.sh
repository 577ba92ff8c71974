#!/bin/sh
# Idempotent set-up: Debian packages (only if missing), rvsim (cargo), the rvlab Python package
# in the checkout's .venv.
# Running it twice does not reinstall anything.
set -eu
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

# 1. Debian packages: the RISC-V cross toolchain, picolibc, QEMU, and Yosys + Icarus Verilog
#    for the hardware units (hw/, `rvlab area`), Verilator for the 5-stage core (`rvlab rtl`),
#    the OSU 0.18 um standard-cell library of qflow-tech-osu018 (`rvlab area`), and Chromium and
#    chromedriver for the HTML report's browser test, pinned to the versions the results were
#    produced with (Debian 12). If the mirror no longer carries a pinned version
#    (a point release replaced it), the current one is installed and a warning names both.
PINS="gcc-riscv64-unknown-elf=12.2.0-14+deb12u1+11+b2
binutils-riscv64-unknown-elf=2.40-2+4+b1
picolibc-riscv64-unknown-elf=1.8-1
qemu-system-misc=1:7.2+dfsg-7+deb12u18+b3
yosys=0.23-6
iverilog=11.0-1.1+b1
verilator=5.006-3
qflow-tech-osu018=1.3.17+dfsg.1-3
chromium=156.0.8078.108-1~deb12u1
chromium-driver=156.0.8078.108-1~deb12u1"
pin_of() { printf '%s\n' "$PINS" | sed -n "s/^$1=//p"; }
missing=""
command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 || missing="$missing gcc-riscv64-unknown-elf"
command -v riscv64-unknown-elf-as >/dev/null 2>&1 || missing="$missing binutils-riscv64-unknown-elf"
[ -f /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs ] || missing="$missing picolibc-riscv64-unknown-elf"
command -v qemu-system-riscv32 >/dev/null 2>&1 || missing="$missing qemu-system-misc"
command -v yosys >/dev/null 2>&1 || missing="$missing yosys"
command -v iverilog >/dev/null 2>&1 || missing="$missing iverilog"
command -v verilator >/dev/null 2>&1 || missing="$missing verilator"
# the OSU 0.18 um standard-cell library (Liberty) that `rvlab area` maps onto
[ -f /usr/share/qflow/tech/osu018/osu018_stdcells.lib ] || missing="$missing qflow-tech-osu018"
# headless Chromium and its WebDriver: the HTML report's browser test (tests/test_html_report.py)
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v chromedriver >/dev/null 2>&1 || missing="$missing chromium-driver"
if [ -n "$missing" ]; then
    pinned=""
    for p in $missing; do pinned="$pinned $p=$(pin_of "$p")"; done
    say "installing Debian packages:$pinned"
    $SUDO apt-get update
    if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pinned; then
        say "warning: a pinned version is not available from the mirror; installing the current ones"
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
    fi
else
    say "Debian packages present (riscv64-unknown-elf gcc/binutils, picolibc, qemu-system-riscv32, yosys, iverilog, verilator, qflow-tech-osu018, chromium, chromedriver)"
fi
if command -v dpkg-query >/dev/null 2>&1; then
    printf '%s\n' "$PINS" | while IFS='=' read -r pkg ver; do
        have=$(dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null || true)
        [ -z "$have" ] || [ "$have" = "$ver" ] || say "warning: $pkg $have installed, results were made with $ver"
    done
fi

# 2. rvsim (cargo decides itself whether anything needs rebuilding).
if [ -f sim/Cargo.toml ]; then
    command -v cargo >/dev/null 2>&1 || { say "error: cargo not found — install Rust (https://rustup.rs)"; exit 1; }
    say "building rvsim (cargo build --release in sim/)"
    (cd sim && cargo build --release --quiet)
else
    say "warning: sim/ not present yet; rvsim not built"
fi

# 3. The rvlab Python package and its pinned dependencies, always into a virtual environment
#    .venv of this checkout (gitignored) -- never into a shared interpreter, where the `rvlab`
#    command would act on whichever clone was set up last. The Makefile (and so .ci/run) puts
#    .venv/bin first on PATH. Installed only when not installed from this checkout or when
#    pyproject.toml changed since. A python3 without the venv module (ensurepip) gets the
#    Debian packages python3-venv and python3-pip.
VENV=.venv
py_has() {    # py_has PYTHON "mod1, mod2": the interpreter can import them
    "$1" -c "import $2" >/dev/null 2>&1
}
command -v python3 >/dev/null 2>&1 || { say "error: python3 not found (rvlab needs Python >= 3.11)"; exit 1; }
if ! [ -x "$VENV/bin/python" ] || ! py_has "$VENV/bin/python" pip; then
    if ! py_has python3 "venv, ensurepip"; then
        if ! command -v apt-get >/dev/null 2>&1; then
            say "error: $(command -v python3) lacks the venv module (ensurepip) and apt-get is not available: install venv for it"
            exit 1
        fi
        say "python3 ($(command -v python3)) lacks the venv module (ensurepip): installing Debian packages python3-venv python3-pip"
        $SUDO apt-get update
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv python3-pip
    fi
    if [ -x "$VENV/bin/python" ]; then
        say "$VENV has no pip (an interrupted set-up?): running python3 -m venv on it again"
    else
        say "creating a virtual environment in $VENV (python3 -m venv, with $(command -v python3))"
    fi
    python3 -m venv "$VENV"
fi
PY="$(pwd)/$VENV/bin/python"

stamp=build/.pip-installed
mkdir -p build
want="$(pwd) $(cksum < pyproject.toml) $VENV"
# (checked from outside the checkout: the installed rvlab must be this checkout's)
here="$(pwd -P)"
installed_here() {
    (cd / && "$PY" -c "import os, sys, rvlab, Crypto, cryptography_vectors, pycryptodome_test_vectors, pytest, selenium, adjustText
sys.exit(0 if os.path.realpath(rvlab.__file__).startswith(sys.argv[1] + '/') else 1)" "$here") 2>/dev/null
}
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && installed_here && [ -x "$VENV/bin/rvlab" ]; then
    say "rvlab Python package installed in $VENV"
else
    say "pip install -e . (rvlab and its pinned dependencies) into $VENV"
    "$PY" -m pip install --quiet --disable-pip-version-check -e .
    echo "$want" > "$stamp"
fi
say "rvlab, rvsim and the python3 they run with are in $VENV/bin (make uses them by itself); for your shell:"
say "  . $VENV/bin/activate      or      export PATH=\"$(pwd)/$VENV/bin:\$PATH\""
say "done"

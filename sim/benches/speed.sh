#!/bin/sh
# Simulation speed of rvsim in million instructions per second (e31 and ideal models),
# from the CPU time of the rvsim process (user+sys; robust on a shared machine) and wall time.
# usage: sim/benches/speed.sh
set -e
cd "$(dirname "$0")/.."
cargo build --release -q
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for prog in alu_loop mix_loop; do
  riscv64-unknown-elf-gcc -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -T tests/asm/link.ld \
      benches/$prog.S -o "$tmp/$prog.elf"
done
python3 - "$tmp" <<'PY'
import json, os, resource, subprocess, sys, time
tmp = sys.argv[1]
for prog in ("alu_loop", "mix_loop"):
    for core in ("e31", "ideal"):
        out = os.path.join(tmp, "out.json")
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t0 = time.time()
        subprocess.run(["./target/release/rvsim", "--core", core, "--memory", "e31", "--isa", "rv32im",
                        "--json-out", out, os.path.join(tmp, prog + ".elf")], check=True)
        wall = time.time() - t0; r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        j = json.load(open(out)); n = j["instret"]
        print(f"{prog:9s} {core:6s} {n/1e6:6.1f} M insns {j['cycles']/1e6:6.1f} M cycles  "
              f"cpu {cpu:5.2f} s = {n/cpu/1e6:6.1f} MIPS   wall {wall:5.2f} s = {n/wall/1e6:6.1f} MIPS")
PY

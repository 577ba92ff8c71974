#!/bin/sh
# Regenerates the 128-bit kernels of every implementation folder (run from anywhere).
set -e
cd "$(dirname "$0")"
python3 gen_lut.py      > ../lut/polymul128.S
python3 gen_lut.py x    > ../lut-x/polymul128.S
python3 gen_ctmul.py 48 > ../ct/polymul128.S   # (gen_ct.py b 16: masked comb, ~1,870 cycles)
python3 gen_ct.py x 24  > ../ct-x/polymul128.S
python3 gen_zbkc.py k1  > ../zbkc/polymul128.S

#!/bin/sh
# Regenerates the 128-bit kernels of every implementation folder (run from anywhere).
set -e
cd "$(dirname "$0")"
python3 gen_lut.py      > ../lut/polymul128.S
python3 gen_lut.py x    > ../lut-x/polymul128.S
python3 gen_ctmul.py 50 > ../ct/polymul128.S   # (gen_ct.py b: masked comb, see ct-comb)
python3 gen_ct.py x 16 3 > ../ct-x/polymul128.S
python3 gen_zbkc.py k1  > ../zbkc/polymul128.S
# Zbkc 256/512: dedicated kernels (schoolbook 256; one Karatsuba level over 256-bit schoolbook leaves for 512)
python3 gen_zbkc_big.py 8 0     > ../../polymul-256/zbkc/polymul256.S
python3 gen_zbkc_big.py 16 1 24 > ../../polymul-512/zbkc/polymul512.S
python3 gen_ct.py b 16 2 > ../ct-comb/polymul128.S
# the 256/512 folders include the 128-bit kernels by reference: make sure builds notice
touch ../../polymul-256/*/core128.S ../../polymul-512/*/core128.S 2>/dev/null || true
# Karatsuba glue of polymul-256 / polymul-512 (lut, lut-x, ct, ct-x include these by reference)
python3 gen_kara.py 256 > ../../polymul-256/karatsuba256.S
python3 gen_kara.py 512 > ../../polymul-512/karatsuba512.S
touch ../../polymul-256/*/glue.S ../../polymul-512/*/glue.S 2>/dev/null || true

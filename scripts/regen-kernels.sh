#!/bin/sh
# Regenerates every generated kernel file under crypto/ from its generator (gen.py and friends).
# usage: scripts/regen-kernels.sh [CRYPTO_DIR]   (default: the repository's crypto/)
# tests/test_generated.py runs this on a copy of crypto/ and requires the copy to be unchanged.
set -e
CRYPTO=$(cd "${1:-$(dirname "$0")/../crypto}" && pwd)
cd "$CRYPTO"
python3 aes128/table/gen.py                      # aes128/table/*.S, aes128/table-xsbox/*.S
python3 aes128/zkne/gen.py                       # aes128/zkne/*.S, aes128/zknd/*.S
python3 aes128/ref/gen_tables.py                  # aes128/ref/tables.inc
python3 aes128/fixsliced/gen.py > /dev/null       # aes128/fixsliced{,-zbkb}/*.S (stdout: counts)
python3 aes128-ctr/bitsliced/gen.py > /dev/null  # aes{128,256}-ctr/bitsliced{,-zbkb}/*.S (stdout: schedule stats)
python3 keccakf1600/gen.py                       # keccakf1600/{rv32i,zbkb}/*.S
python3 cast128/gen.py                           # cast128/{rv32i,zbkb,table-xsbox}/cast128.S
python3 misty1/gen.py                            # misty1/{rv32i,zbkb}/misty1.S
python3 sm4/gen.py                               # sm4/{table,zksed,rv32i-ct,zbkb-ct}/sm4.S
python3 hight/gen.py                             # hight/{rv32i,rv32i-ct,zbkb}/hight.S
python3 tdea/gen.py                              # tdea/{rv32i,zbkb}/tdea.S
python3 sha256/gen.py                            # sha256/{rv32i,zbkb,zknh}/sha256.S
python3 sha512/gen.py                            # sha512/{rv32i,zbkb,zknh}/sha512.S
python3 sm3/gen.py                               # sm3/{rv32i,zbkb,zksh}/sm3.S
python3 seed128/gen.py                           # seed128/{table,table-small,table-xsbox,rv32i-ct,zbkb-ct}/*.S
python3 camellia128/gen.py                       # camellia128/{table,table-small,table-xsbox,zbkb,rv32i-ct,zbkb-ct}/*.S
sh polymul-128/gen/regen.sh                      # polymul-{128,256,512}
python3 bigint-mul/comba-fixed/gen.py > bigint-mul/comba-fixed/kernels.inc
python3 bigint-mul/karatsuba-fixed/gen.py > bigint-mul/karatsuba-fixed/kernels.inc
python3 bigint-mul/best/gen.py > bigint-mul/best/kernels.inc
python3 present80/gen.py                         # present80/{rv32i,rv32i-ct,zbkb-zbkx,xzbp}/*.S
python3 present80-ctr/gen.py                     # present80-ctr/{rv32i,zbkb-zbkx}/*.S

/* Every instruction of the crypto units the 5-stage core can carry (Zbkb, Zbkc, Zbkx, Zkne,
   Zknd, Zknh, Zksed, Zksh, xzbp), on 400 pseudo-random operand pairs, each result used
   right away (forwarding) and folded into a checksum. `rvlab rtl` / tests/test_hw_rv5.py
   compare every register write and every issue cycle with rvsim's. */
#include "exit.inc"
/* xzbp is not in binutils 2.40: its encodings (bitmanip 0.93; sim/src/ext/table.rs) */
#define GREV(rd, rs1, rs2)   .insn r 0x33, 5, 0x34, rd, rs1, rs2
#define GREVI(rd, rs1, k)    .insn i 0x13, 5, rd, rs1, 0x680 | (k)
#define SHFL(rd, rs1, rs2)   .insn r 0x33, 1, 0x04, rd, rs1, rs2
#define UNSHFL(rd, rs1, rs2) .insn r 0x33, 5, 0x04, rd, rs1, rs2
#define SHFLI(rd, rs1, k)    .insn i 0x13, 1, rd, rs1, 0x080 | (k)
#define UNSHFLI(rd, rs1, k)  .insn i 0x13, 5, rd, rs1, 0x080 | (k)
#define MIX(r) xor s0, s0, r; rori s0, s0, 7
    .globl _start
_start:
    li   sp, 0x80004000
    li   s0, 0                  /* checksum */
    li   s1, 400                /* iterations */
    li   s2, 0x12345678         /* x */
    li   s3, 0x9e3779b9         /* y */
    li   s4, 1664525
    li   s5, 1013904223
1:  mul  s2, s2, s4             /* two LCG streams */
    add  s2, s2, s5
    mul  s3, s3, s4
    xor  s3, s3, s2
    add  s3, s3, s5
    /* Zbkb */
    ror  a0, s2, s3;  MIX(a0)
    rol  a0, s2, s3;  MIX(a0)
    rori a0, s2, 13;  MIX(a0)
    andn a0, s2, s3;  MIX(a0)
    orn  a0, s2, s3;  MIX(a0)
    xnor a0, s2, s3;  MIX(a0)
    pack a0, s2, s3;  MIX(a0)
    packh a0, s2, s3; MIX(a0)
    brev8 a0, s2;     MIX(a0)
    rev8 a0, s2;      MIX(a0)
    zip  a0, s2;      MIX(a0)
    unzip a0, s2;     MIX(a0)
    /* Zbkc, Zbkx: xperm indices drawn small half of the time (andi 0x33/0x07 masks) */
    clmul a0, s2, s3;  MIX(a0)
    clmulh a0, s2, s3; MIX(a0)
    xperm4 a0, s2, s3; MIX(a0)
    li   t0, 0x77777777
    and  t1, s3, t0
    xperm4 a0, s2, t1; MIX(a0)
    xperm8 a0, s2, s3; MIX(a0)
    li   t0, 0x03030303
    and  t1, s3, t0
    xperm8 a0, s2, t1; MIX(a0)
    /* Zkne, Zknd, Zksed: every byte select */
    .irp bs, 0, 1, 2, 3
    aes32esi  a0, s2, s3, \bs; MIX(a0)
    aes32esmi a0, s2, s3, \bs; MIX(a0)
    aes32dsi  a0, s2, s3, \bs; MIX(a0)
    aes32dsmi a0, s2, s3, \bs; MIX(a0)
    sm4ed     a0, s2, s3, \bs; MIX(a0)
    sm4ks     a0, s2, s3, \bs; MIX(a0)
    .endr
    /* Zknh, Zksh */
    sha256sum0 a0, s2; MIX(a0)
    sha256sum1 a0, s2; MIX(a0)
    sha256sig0 a0, s2; MIX(a0)
    sha256sig1 a0, s2; MIX(a0)
    sha512sum0r a0, s2, s3; MIX(a0)
    sha512sum1r a0, s2, s3; MIX(a0)
    sha512sig0l a0, s2, s3; MIX(a0)
    sha512sig0h a0, s2, s3; MIX(a0)
    sha512sig1l a0, s2, s3; MIX(a0)
    sha512sig1h a0, s2, s3; MIX(a0)
    sm3p0 a0, s2; MIX(a0)
    sm3p1 a0, s2; MIX(a0)
    /* xzbp */
    GREV(a0, s2, s3);   MIX(a0)
    GREVI(a0, s2, 5);   MIX(a0)
    GREVI(a0, s2, 31);  MIX(a0)
    SHFL(a0, s2, s3);   MIX(a0)
    UNSHFL(a0, s2, s3); MIX(a0)
    SHFLI(a0, s2, 9);   MIX(a0)
    UNSHFLI(a0, s2, 6); MIX(a0)
    /* an extension result used by a load address and a branch */
    andi a1, s2, 0x7c
    li   t0, 0x80000000
    add  a1, a1, t0
    sw   s0, 0(a1)
    lw   a2, 0(a1)
    sm3p0 a3, a2
    beq  a3, s0, 2f
    addi s0, s0, 1
2:  addi s1, s1, -1
    bnez s1, 1b
    mv   a2, s0
    csrr a3, misa               /* X is set: xzbp is a non-standard extension */
    rvlab_exit

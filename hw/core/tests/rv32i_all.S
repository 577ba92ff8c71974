/* Every RV32I instruction, with the edge cases where implementations go wrong. */
#include "exit.inc"
    .globl _start
_start:
    li   sp, 0x80004000
    lui  t0, 0x80000            # lui with the sign bit
    lui  t1, 0xfffff
    auipc t2, 0
    auipc t3, 0x80000
    li   s0, -7
    li   s1, 5
    li   s2, 0x80000000
    li   s3, 0x7fffffff
    /* register-register */
    add  a0, s0, s1
    add  a1, s2, s2             # wraps to 0
    sub  a2, s1, s0
    sub  a3, s2, s1
    sll  a4, s1, s1
    sll  a5, s0, s3             # shift by 31 (low 5 bits)
    slt  a6, s0, s1
    slt  a7, s1, s0
    sltu t4, s0, s1             # -7 is a large unsigned number
    sltu t5, s1, s0
    xor  t6, s0, s3
    srl  a0, s0, s1
    sra  a1, s0, s1
    sra  a2, s2, s3
    srl  a3, s2, s3
    or   a4, s0, s1
    and  a5, s0, s3
    add  zero, s0, s1           # x0 stays zero
    add  a6, zero, zero
    slt  a7, s2, s3             # min < max
    sltu t4, s2, s3
    /* immediates */
    addi a0, s0, -2048
    addi a1, s3, 1
    slti a2, s0, -6
    slti a3, s0, -8
    sltiu a4, s1, -1            # compares with 0xffffffff
    sltiu a5, zero, 1           # seqz
    xori a6, s0, -1             # not
    ori  a7, s1, 0x7f0
    andi t4, s0, 0x0ff
    slli t5, s1, 0
    slli t6, s1, 31
    srli a0, s0, 0
    srli a1, s0, 31
    srai a2, s0, 31
    srai a3, s2, 1
    /* loads and stores at every lane */
    li   t0, 0x80001000
    li   t1, 0x8899aabb
    sw   t1, 0(t0)
    lb   a0, 0(t0)
    lb   a1, 1(t0)
    lb   a2, 2(t0)
    lb   a3, 3(t0)
    lbu  a4, 0(t0)
    lbu  a5, 3(t0)
    lh   a6, 0(t0)
    lh   a7, 2(t0)
    lhu  t4, 0(t0)
    lhu  t5, 2(t0)
    lw   t6, 0(t0)
    li   t1, 0x11
    sb   t1, 1(t0)
    li   t1, 0x22
    sb   t1, 3(t0)
    li   t1, 0x3344
    sh   t1, 0(t0)
    lw   a0, 0(t0)
    li   t1, 0x5566
    sh   t1, 2(t0)
    lw   a1, 0(t0)
    sb   s0, 0(t0)
    lw   a2, 0(t0)
    sw   s1, -4(t0)             # negative offset
    lw   a3, -4(t0)
    lw   a4, 2044(t0)           # zero-initialised memory
    /* branches: taken and not taken, forwards and backwards */
    li   a0, 0
    beq  s1, s1, 1f
    addi a0, a0, 1
1:  bne  s1, s1, 1f
    addi a0, a0, 2
1:  blt  s0, s1, 1f
    addi a0, a0, 4
1:  blt  s1, s0, 1f
    addi a0, a0, 8
1:  bge  s1, s0, 1f
    addi a0, a0, 16
1:  bge  s1, s1, 1f
    addi a0, a0, 32
1:  bltu s1, s0, 1f
    addi a0, a0, 64
1:  bltu s0, s1, 1f
    addi a0, a0, 128
1:  bgeu s0, s1, 1f
    addi a0, a0, 256
1:  bgeu s1, s0, 1f
    addi a0, a0, 512
1:  li   a1, 3
2:  addi a1, a1, -1         # backwards loop
    bnez a1, 2b
    /* jumps */
    jal  ra, 3f
    addi a0, a0, 1024
    j    4f
3:  addi a2, ra, 0
    ret
4:  la   t0, 5f
    addi t0, t0, 1              # jalr clears bit 0 of the target
    jalr t1, 0(t0)
    addi a0, a0, -2048
5:  la   t0, 6f - 4
    jalr zero, 4(t0)
    addi a0, a0, 1
6:  fence
    rvlab_exit

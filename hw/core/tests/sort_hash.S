/* A loop-heavy program: fill 256 words of RAM from a xorshift generator, insertion-sort
   them (signed), then fold them into an FNV-style hash with shifts and adds. */
#include "exit.inc"
    .globl _start
_start:
    li   sp, 0x80004000
    li   s0, 0x80000000         # array
    li   s1, 256                # length
    li   t0, 0x2545f491         # xorshift state
    mv   t1, s0
    mv   t2, s1
fill:
    slli t3, t0, 13
    xor  t0, t0, t3
    srli t3, t0, 17
    xor  t0, t0, t3
    slli t3, t0, 5
    xor  t0, t0, t3
    sw   t0, 0(t1)
    addi t1, t1, 4
    addi t2, t2, -1
    bnez t2, fill
    li   t1, 1                  # insertion sort
outer:
    slli t2, t1, 2
    add  t2, t2, s0
    lw   t3, 0(t2)              # key
inner:
    beq  t2, s0, place
    lw   t4, -4(t2)
    bge  t3, t4, place
    sw   t4, 0(t2)
    addi t2, t2, -4
    j    inner
place:
    sw   t3, 0(t2)
    addi t1, t1, 1
    blt  t1, s1, outer
    li   a5, 0x811c9dc5         # hash
    mv   t1, s0
    mv   t2, s1
fold:
    lbu  t3, 1(t1)
    lh   t4, 2(t1)
    xor  a5, a5, t3
    slli t5, a5, 5
    add  a5, a5, t5
    xor  a5, a5, t4
    srai t5, a5, 3
    sub  a5, a5, t5
    addi t1, t1, 4
    addi t2, t2, -1
    bnez t2, fold
    rvlab_exit

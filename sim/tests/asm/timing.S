/* E31 timing test kernels; one is selected with -DT_<NAME>. Each measures a block with
   rdcycle and leaves the cycle delta (second rdcycle - first) in s2 (and s3), then exits.
   Expected values are derived in tests/timing.rs from the documented latencies. */
#include "rt.h"
#define START rdcycle s0
#define STOP  rdcycle s1; sub s2, s1, s0

    .section .text.start
    .globl _start
_start:
    li sp, 0x80004000
    la a0, cell
    la s4, bytes
    li a2, 7
    li a3, 3
    li s5, 0xffffffff
    li s6, 1
    j  test
    .balign 32
test:
#if defined(T_LW_CHAIN)
    /* 8 dependent LW: cell holds its own address */
    START
    lw a1, 0(a0)
    .rept 7
    lw a1, 0(a1)
    .endr
    STOP
#elif defined(T_LBU_CHAIN)
    /* 8 dependent (LBU, ADD) pairs: bytes[0] = 0, so a1 stays = &bytes */
    mv a1, s4
    START
    .rept 8
    lbu t2, 0(a1)
    add a1, s4, t2
    .endr
    STOP
#elif defined(T_MUL_CHAIN)
    /* 8 dependent MUL */
    li a1, 3
    START
    .rept 8
    mul a1, a1, a2
    .endr
    STOP
#elif defined(T_MUL_INDEP)
    /* 4 independent MUL: the multiplier blocks until the previous one completes */
    START
    mul a4, a2, a3
    mul a5, a2, a3
    mul a6, a2, a3
    mul a7, a2, a3
    STOP
#elif defined(T_MUL_WAW)
    /* write-after-write: ADDI writes the MUL's destination */
    START
    mul a4, a2, a3
    addi a4, zero, 1
    STOP
#elif defined(T_ALU_INDEP)
    /* 16 independent ALU ops */
    START
    .rept 4
    add a4, a2, a3
    xor a5, a2, a3
    sub a6, a2, a3
    slli a7, a2, 2
    .endr
    STOP
#elif defined(T_DIV)
    /* DIVU 0xffffffff/1 (33 cycles), then DIVU 7/3 (2 + 3 - 2 = 3 cycles), each consumed */
    START
    divu a4, s5, s6
    add a5, a4, zero
    STOP
    mv s3, s2
    START
    divu a4, a2, a3
    add a5, a4, zero
    STOP
#elif defined(T_DIV_INDEP)
    /* DIVU 0xffffffff/1 (33 cycles) followed by an instruction that does not use it */
    START
    divu a4, s5, s6
    add a5, a2, a3
    STOP
#elif defined(T_LOOP)
    /* a loop of 10 iterations: predicted after the first taken branch */
    li t2, 10
    START
1:  addi t2, t2, -1
    bnez t2, 1b
    STOP
#elif defined(T_PATTERN)
    /* a branch alternating taken / not taken defeats a 2-bit counter */
    li t2, 8
    li a5, 0
    START
1:  andi t3, t2, 1
    beqz t3, 2f
    addi a5, a5, 1
2:  addi t2, t2, -1
    bnez t2, 1b
    STOP
#elif defined(T_CALLS)
    /* call depth 4 (deeper than the 2-entry RAS): warm-up call, then measured call */
    call f1
    START
    call f1
    STOP
#elif defined(T_ICACHE)
    /* 64 instructions (4 lines of 64 bytes) run cold, then warm */
    START
    call block
    STOP
    mv s3, s2
    START
    call block
    STOP
#elif defined(T_MULADD)
    /* 4 independent muladd (xpolymul): they occupy the multiplier like MUL */
#include "../../../ise/ise.inc"
    START
    muladd a4, a2, a3, a3
    muladd a5, a2, a3, a3
    muladd a6, a2, a3, a3
    muladd a7, a2, a3, a3
    STOP
#elif defined(T_TRAP)
    /* ecall into a handler that skips it and returns with mret */
    la t1, handler
    csrw mtvec, t1
    START
    ecall
    STOP
#elif defined(T_ICACHE_LRU)
    /* seq (below) twice: the first pass warms the BTB and leaves lines fa, fb, fc (one
       set, 2 ways) in a known LRU state; s2 keeps the second pass's delta */
    li s7, 2
1:  jal t0, seq                 /* t0: the alternate link register (seq's calls use ra) */
    addi s7, s7, -1
    bnez s7, 1b
#elif defined(T_BTB_ALIAS) || defined(T_BTB_NOALIAS)
    /* two jumps 80 bytes apart ((pc/2) mod 40 equal: one BTB entry) or 84 (different
       entries), executed alternately 10 times */
    li s7, 10
    START
1:  j 2f
#if defined(T_BTB_ALIAS)
    .skip 76
#else
    .skip 80
#endif
2:  j 3f
3:  addi s7, s7, -1
    bnez s7, 1b
    STOP
#elif defined(T_BHT_ALIAS) || defined(T_BHT_NOALIAS)
    /* an always-taken branch and a never-taken one 256 bytes apart ((pc/2) mod 128 equal:
       one 2-bit counter) or 260 (different counters), executed alternately 10 times */
    li s7, 10
    START
1:  beq zero, zero, 2f
#if defined(T_BHT_ALIAS)
    .skip 252
#else
    .skip 256
#endif
2:  bne zero, zero, 1b
    addi s7, s7, -1
    bnez s7, 1b
    STOP
#elif defined(T_MISALIGNED) || defined(T_ALIGNED)
    /* a jump to a 32-bit instruction at a 2-mod-4 address (or at a 4-byte aligned one), then
       16 straight-line 32-bit instructions at 2-mod-4 addresses; built with C */
    START
    j 1f
    .balign 4
#if defined(T_MISALIGNED)
    c.nop
#else
    c.nop
    c.nop
#endif
1:  .option push
    .option norvc
    .rept 16
    addi a4, a4, 1
    .endr
    .option pop
    STOP
#elif defined(T_SL_SAME)
    /* store->load (core file [memory] store_load_replay): sp - 16 .. sp - 4 are DTIM words.
       A load of the word stored just before */
    START
    sw a2, -8(sp)
    lw t1, -8(sp)
    STOP
#elif defined(T_SL_OTHER)
    /* ... of the next word */
    START
    sw a2, -8(sp)
    lw t1, -4(sp)
    STOP
#elif defined(T_SL_GAP1)
    /* one instruction between: the store is not written yet (its first chance is the load's cycle) */
    START
    sw a2, -8(sp)
    nop
    lw t1, -8(sp)
    STOP
#elif defined(T_SL_GAP2)
    /* two: the store is written in the second one's cycle */
    START
    sw a2, -8(sp)
    nop
    nop
    lw t1, -8(sp)
    STOP
#elif defined(T_SL_LOADS)
    /* only loads between: the store stays pending */
    START
    sw a2, -8(sp)
    lw t1, -4(sp)
    lw t2, -4(sp)
    lw t3, -4(sp)
    lw t4, -8(sp)
    STOP
#elif defined(T_SL_BYTE)
    /* a byte store and a word load that covers it */
    START
    sb a2, -7(sp)
    lw t1, -8(sp)
    STOP
#elif defined(T_SL_BYTE_OTHER)
    /* a byte store and a byte load of another byte of the same word */
    START
    sb a2, -7(sp)
    lbu t1, -6(sp)
    STOP
#elif defined(T_SL_TWO)
    /* two stores, then loads: the older one is still pending */
    START
    sw a2, -8(sp)
    sw a3, -4(sp)
    lw t1, -12(sp)
    lw t2, -8(sp)
    STOP
#elif defined(T_SL_TWO_GAP) || defined(T_SL_TWO_GAP_B)
    /* two stores, a free cycle that writes the older one, a load of the older (or the newer) */
    START
    sw a2, -8(sp)
    sw a3, -4(sp)
    nop
#if defined(T_SL_TWO_GAP)
    lw t1, -8(sp)
#else
    lw t1, -4(sp)
#endif
    STOP
#elif defined(T_SL_LOOP) || defined(T_SL_LOOP_FAR)
    /* 10 iterations of a store and a load of its word, one (or two) instructions apart */
    li t2, 10
    START
1:  sw a2, -8(sp)
    addi t2, t2, -1
#if defined(T_SL_LOOP_FAR)
    addi t3, t3, 1
#endif
    lw t1, -8(sp)
    bnez t2, 1b
    STOP
#else
#error "select a test with -DT_<NAME>"
#endif
    EXIT_OK

#if defined(T_CALLS)
    .balign 4
f1: addi sp, sp, -16
    sw ra, 0(sp)
    call f2
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f2: addi sp, sp, -16
    sw ra, 0(sp)
    call f3
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f3: addi sp, sp, -16
    sw ra, 0(sp)
    call f4
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f4: ret
#endif
#if defined(T_ICACHE)
    .balign 64
block:
    .rept 63
    addi zero, zero, 0
    .endr
    ret
#endif
#if defined(T_ICACHE_LRU)
    /* seq's jal sites must not share a BTB entry with `jal t0, seq` or the loop's bnez: the
       skip puts them 96..116 bytes after `jal seq` ((pc/2) mod 40 differs by 8..18) */
    .balign 32
    .skip 32
seq:
    START
    jal fa
    jal fb
    jal fa
    jal fc
    jal fa
    jal fb
    STOP
    jr t0                       /* a return: rs1 = t0 pops the RAS */
    /* three one-instruction functions 8 KiB apart, 1 KiB into an 8 KiB block: I-cache set
       (addr / 64) mod 128 = 16 for all three, away from the sets of the code above */
    .balign 8192
    .skip 1024
fa: ret
    .balign 8192
    .skip 1024
fb: ret
    .balign 8192
    .skip 1024
fc: ret
#endif
#if defined(T_TRAP)
    .balign 4
handler:
    csrr t0, mepc
    addi t0, t0, 4
    csrw mepc, t0
    mret
#endif

    .data
    .balign 4
cell:  .word cell
bytes: .byte 0, 1, 2, 3

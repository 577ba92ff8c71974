/* Programs for the block engine's corner cases (tests/blocks.rs); one is selected with
   -DB_<NAME>. Each leaves results in s-registers and exits; the tests run every program on
   the block engine and on the per-instruction loop and require identical results. */
#include "rt.h"

    .section .text.start
    .globl _start
_start:
#if defined(B_SMC_FIRST)
    addi s7, s7, 1          /* the first instruction of the code: patched to addi s7, s7, 2 */
#endif
    li sp, 0x80004000
    la a0, cell
    la s4, bytes
    li a2, 7
    li a3, 3
    la t1, handler
    csrw mtvec, t1
    j test
    .balign 32
test:
#if defined(B_CROSS)
    /* results in flight when a block ends: read by the next block's first instruction
       (the whole block is delayed), by a later one (replayed), overwritten (WAW) */
    li t0, 40
    li a4, 1
loop:
    mul a4, a4, a2
    andi t1, t0, 3
    lbu a1, 1(s4)
    beqz t1, first
    add s7, s7, a1          /* falls through: reads the LBU result at once */
    addi t1, t1, -1
    beqz t1, later
    addi t1, t1, -1
    beqz t1, waw
    lbu t2, 0(s4)
    j next
first:
    add a5, a1, a4          /* reads the LBU and MUL results of the block before */
    j next
later:
    addi a6, a6, 1
    add a5, a5, a4          /* reads the MUL result one instruction into the block */
    mul a7, a4, a2          /* the multiplier is still busy */
    j next
waw:
    li a4, 5                /* overwrites the MUL result still in flight */
    li a1, 9                /* ... and the LBU result */
next:
    add s2, s2, a5
    add s3, s3, a6
    add s5, s5, a7
    addi t0, t0, -1
    bnez t0, loop
#elif defined(B_MIDDLE)
    /* jumps into the middle of a block that already exists, and falls through into it */
    la t1, mid
    li t0, 9
top:
    addi s2, s2, 1
mid:
    addi s3, s3, 1
    addi t0, t0, -1
    beqz t0, done
    andi t2, t0, 1
    beqz t2, top
    jr t1
done:
#elif defined(B_FAULT)
    /* loads and stores that fault in the middle of a block, taken by a handler that skips
       them: the block runs up to the faulting instruction, then the handler */
    li t0, 6
loop:
    addi s2, s2, 1
    lw t3, 0(zero)          /* access fault */
    addi s3, s3, 1
    lw t3, 2(a0)            /* misaligned */
    sw s3, 0(a0)
    sh s3, 1(a0)            /* misaligned store */
    addi t0, t0, -1
    bnez t0, loop
    lw s5, 0(a0)
#elif defined(B_JUMP_MISALIGNED)
    /* without C, a jump to a 2-byte aligned target traps at the jump (the last instruction
       of its block); the handler (mepc += 4) continues after it */
    li t0, 3
loop:
    la t1, target
    addi t1, t1, 2
    addi s2, s2, 1
    jalr ra, 0(t1)
    addi s3, s3, 1
    addi t0, t0, -1
    bnez t0, loop
    j done
target:
    nop
    nop
done:
#elif defined(B_LONG)
    /* a straight line longer than the longest block, run twice; it spans many cache lines */
    li t0, 2
loop:
    .rept 1500
    addi s2, s2, 3
    .endr
    addi t0, t0, -1
    bnez t0, loop
#elif defined(B_ICACHE)
    /* three functions 8 KiB apart share a set of the 2-way 16 KiB cache: they evict each
       other (LRU), so blocks meet cold and non-MRU lines */
    li t0, 5
loop:
    call f1
    call f2
    call f3
    call f1
    addi t0, t0, -1
    bnez t0, loop
#elif defined(B_CSR)
    /* rdcycle between blocks, while a multiply is in flight: the value read is the issue cycle */
    li t0, 4
loop:
    mul a4, a2, a3
    rdcycle t2
    add s2, s2, t2
    div a5, a4, a3          /* DIV is not in blocks either */
    add s3, s3, a5
    rdcycle t3
    sub t3, t3, t2
    add s5, s5, t3
    addi t0, t0, -1
    bnez t0, loop
#elif defined(B_SMC) || defined(B_SMC_LOOP)
    /* code in RAM that rewrites itself: the patched block must be rebuilt (B_SMC_LOOP: 3000
       times, with a 200-instruction block after the patched one) */
#if defined(B_SMC_LOOP)
    li t0, 3000
#else
    li t0, 4
#endif
loop:
    call patchme
    add s2, s2, a1
    la t1, patchme
    lw t2, 0(t1)
    li t3, 0x100000
    add t2, t2, t3          /* addi a1, zero, k -> k + 1 */
    sw t2, 0(t1)
    fence.i
    addi t0, t0, -1
    bnez t0, loop
#elif defined(B_FALLTHROUGH)
    /* functions entered by falling through from the one before: the per-function
       statistics follow the pc, not only taken jumps */
    li t0, 4
    j part1
    .globl part1
part1:
    addi s2, s2, 1
    .globl part2
part2:
    addi s3, s3, 1
    addi s3, s3, 1
    addi t0, t0, -1
    bnez t0, part1
#elif defined(B_SMC_FIRST)
    /* rewrite the very first instruction of the code, then run from the start again */
    bnez s8, 1f
    li s8, 1
    la t1, _start
    lw t2, 0(t1)
    li t3, 0x100000
    add t2, t2, t3
    sw t2, 0(t1)
    fence.i
    j _start
1:
#elif defined(B_LOOP)
    /* loops of one block, whose steady state the block engine runs with deferred timing:
       trip counts that vary (the exit mispredicts), a multiply read at the top of the next
       execution (every one delayed: never steady), one stalling inside the block, a load
       read at the top, and a load that faults after 16 executions (the handler skips it) */
    li s8, 5
outer:
    mv t0, s8
    slli t0, t0, 3
1:  mul a4, a4, a2          /* reads the multiply of the execution before */
    addi t0, t0, -1
    add s2, s2, a4
    bnez t0, 1b
    mv t0, s8
    slli t0, t0, 2
2:  mul a5, a2, t0
    addi t0, t0, -1
    add s3, s3, a5          /* waits for the multiply inside the block */
    bnez t0, 2b
    li t0, 23
3:  add s5, s5, t2          /* the load of the execution before */
    addi t0, t0, -1
    lbu t2, 1(s4)
    bnez t0, 3b
    addi s8, s8, -1
    bnez s8, outer
    li t1, 0x80000000
    li t0, 20
4:  lw t3, 0(t1)            /* access fault from t1 = 0x80004000 (DTIM is 16 KiB) */
    addi t1, t1, 1024
    addi s7, s7, 1
    addi t0, t0, -1
    bnez t0, 4b
#elif defined(B_TRIPS)
    /* loops of several blocks, whose steady state the block engine runs with a whole trip's
       timing deferred (exec/blocks.rs, Trip): an `if` that alternates (a period of two
       iterations) beside a load, a store and a multiply; one taken every third time, with a
       forward `j` in the body; two branches on an LFSR's bits (steady states that break);
       a nested loop whose inner trips end at every exit of the inner loop */
    li t0, 600
1:  lw a4, 0(a0)
    add a4, a4, a2
    sw a4, 4(a0)
    mul a5, a4, a2
    andi a6, t0, 1
    beqz a6, 2f
    xor a2, a2, a5
2:  lbu a7, 4(a0)
    add s2, s2, a7
    addi t0, t0, -1
    bnez t0, 1b
    li t0, 600
    li t1, 0
3:  addi t1, t1, 1
    li t2, 3
    bne t1, t2, 4f
    li t1, 0
    addi s3, s3, 1
    j 5f
4:  add s3, s3, t1
5:  addi t0, t0, -1
    bnez t0, 3b
    li t0, 2000
    li t1, 0xace1
6:  srli t2, t1, 1
    andi t3, t1, 1
    beqz t3, 7f
    li t4, 0xb400
    xor t2, t2, t4
7:  mv t1, t2
    andi t3, t1, 0x30
    bnez t3, 8f
    addi s7, s7, 1
8:  addi t0, t0, -1
    bnez t0, 6b
    li s8, 40
9:  li t0, 20
10: andi t1, t0, 1
    beqz t1, 11f
    addi s5, s5, 3
11: addi s5, s5, 1
    addi t0, t0, -1
    bnez t0, 10b
    addi s8, s8, -1
    bnez s8, 9b
#else
#error "select a program with -DB_<NAME>"
#endif
    EXIT_OK

    .balign 4
handler:
    csrr t5, mepc
    addi t5, t5, 4
    csrw mepc, t5
    addi s6, s6, 1
    mret

#if defined(B_SMC) || defined(B_SMC_LOOP)
    .balign 4
patchme:
    addi a1, zero, 1
#if defined(B_SMC_LOOP)
    .rept 200
    addi a2, a2, 1
    .endr
#endif
    ret
#endif

#if defined(B_ICACHE)
    .balign 8192
f1: addi s2, s2, 1
    ret
    .balign 8192
f2: addi s3, s3, 1
    ret
    .balign 8192
f3: addi s5, s5, 1
    ret
#endif

    .data
    .balign 4
cell: .word cell
bytes: .byte 0, 1, 2, 3

/* The 5-stage core's hazards, M, C, CSRs and traps, each where implementations go wrong:
   forwarding from every distance, the load-use interlock for every load width, branches and
   jumps (32- and 16-bit), multiply/divide edge cases with forwarded operands, counters and
   their writes/inhibits, and exceptions taken by a handler that returns with mret.
   `rvlab rtl` / tests/test_hw_rv5.py compare every register write and issue cycle with rvsim. */
#include "exit.inc"
    .globl _start
_start:
    li   sp, 0x80004000
    la   gp, data
    la   t0, handler
    csrw mtvec, t0
    /* ---- forwarding: results used 1, 2, 3 and 4 instructions later */
    li   a0, 5
    addi a1, a0, 1
    add  a2, a0, a1
    add  a3, a0, a2
    add  a4, a0, a3
    sub  a5, a4, a0
    /* ---- load-use, every width; store of a just-loaded value; load feeding a branch/jalr */
    lw   a0, 0(gp)
    addi a1, a0, 1
    lb   a2, 4(gp)
    add  a3, a2, a2
    lbu  a2, 5(gp)
    add  a3, a3, a2
    lh   a2, 6(gp)
    add  a3, a3, a2
    lhu  a2, 6(gp)
    sw   a2, 8(gp)
    lw   a4, 8(gp)
    beq  a4, a2, 1f
    li   a5, 99
1:  la   t1, 2f
    sw   t1, 12(gp)
    lw   t2, 12(gp)
    jalr ra, 0(t2)
2:  lw   a0, 0(gp)
    nop
    add  a1, a0, a0             /* from WB */
    sb   a0, 16(gp)
    sh   a0, 18(gp)
    lw   a2, 16(gp)
    /* ---- branches: both outcomes of each, signed/unsigned edges */
    li   s2, -1
    li   s3, 1
    li   s4, 0x80000000
    li   a6, 0
    .irp br, beq, bne, blt, bge, bltu, bgeu
    \br  s2, s3, 3f
    addi a6, a6, 1
3:  \br  s3, s2, 4f
    addi a6, a6, 2
4:  \br  s4, s4, 5f
    addi a6, a6, 4
5:  \br  s4, s3, 6f
    addi a6, a6, 8
6:
    .endr
    /* ---- compressed control flow (c.j, c.jal, c.jr, c.jalr, c.beqz, c.bnez) */
    li   a5, 0
    c.beqz a5, 7f
    addi a6, a6, 16
7:  c.bnez a5, 8f
    c.jal 9f
8:  addi a6, a6, 32
    c.j  10f
9:  c.jr ra
10: la   t1, 11f
    c.jalr t1
    c.j  12f
11: c.mv a7, ra
    ret
12: c.li a0, -3
    c.lui a1, 0x1f
    c.addi a1, -7
    c.addi16sp sp, -32
    c.addi4spn a2, sp, 8
    c.swsp a0, 4(sp)
    c.lwsp a3, 4(sp)
    c.sw   a3, 0(a2)
    c.lw   a4, 0(a2)
    c.slli a4, 3
    c.srli a4, 1
    c.srai a4, 1
    c.andi a4, -5
    c.sub  a4, a3
    c.xor  a4, a3
    c.or   a4, a3
    c.and  a4, a3
    c.add  a4, a0
    c.addi16sp sp, 32
    /* ---- multiply: all four, edge operands */
    li   s6, 0x80000000
    li   s7, -1
    li   s8, 0x7fffffff
    li   s9, 3
    .irp op, mul, mulh, mulhsu, mulhu
    \op  a0, s6, s7
    \op  a1, s8, s8
    \op  a2, s7, s9
    \op  a3, s9, s7
    .endr
    /* ---- divide: zero divisor, overflow, signs, small/large quotients, forwarded
       operands (from MEM and WB), dependent and independent successors, back to back */
    .irp op, div, divu, rem, remu
    \op  a0, s6, s7             /* overflow for div/rem */
    \op  a1, s8, zero           /* by zero */
    \op  a2, s7, s9
    \op  a3, s9, s8             /* quotient 0 */
    \op  a4, s8, s9
    .endr
    li   t0, -1000
    li   t1, 7
    div  a0, t0, t1             /* t1 from MEM, t0 from WB */
    add  a1, a0, a0             /* dependent */
    lw   t2, 0(gp)
    remu a2, t2, t1             /* load-use into a divide */
    divu a3, s7, s3             /* 33 cycles, then another divide */
    divu a4, a3, t1
    addi a5, t0, 1              /* independent, still waits */
    /* ---- counters and CSRs */
    rdcycle s10
    rdinstret s11
    rdcycleh t3
    rdinstreth t4
    rdtime t5
    csrr t6, mcycle
    csrw mscratch, s10
    csrr a0, mscratch
    csrrs a1, mscratch, s3
    csrrc a2, mscratch, s3
    csrrwi a3, mscratch, 17
    csrrsi a4, mscratch, 8
    csrrci a5, mscratch, 1
    csrr a6, misa
    csrr a7, mstatus
    csrw mcycle, zero           /* counts on from 0 */
    csrr a0, mcycle
    csrw minstret, s9           /* the next instruction reads 3 */
    csrr a1, minstret
    csrwi mcountinhibit, 5      /* both frozen */
    csrr a2, mcycle
    nop
    csrr a3, mcycle
    csrr a4, minstret
    csrwi mcountinhibit, 0
    csrr a5, mcycle
    csrr a6, minstret
    csrw mcycleh, s3
    csrr a7, mcycleh
    li   t0, 0x20400002
    csrw mtvec, t0              /* mode 2: ignored */
    csrr t1, mtvec
    csrw mepc, s7
    csrr t2, mepc
    csrr t3, mhpmcounter3
    csrr t4, mvendorid
    csrw mie, s7
    csrr t5, mie
    csrsi mstatus, 8
    csrr t6, mstatus
    fence
    fence.i
    wfi
    /* ---- exceptions: the handler records mcause/mtval/mepc (traced) and skips the
       instruction; an instruction access fault returns to ra */
    li   s1, 0
    ecall
    .word 0x0000007f            /* illegal 32-bit */
    .half 0x0000                /* illegal 16-bit */
    csrr a0, 0x7c0              /* no such CSR */
    csrw cycle, zero            /* read-only CSR */
    lw   a0, 1(gp)              /* misaligned */
    sh   a0, 3(gp)
    lhu  a0, 1(gp)
    li   t0, 0x10000000
    lw   a0, 0(t0)              /* access faults */
    li   t0, 0x20400000
    sw   a0, 0(t0)
    lw   a1, 0(t0)              /* the ROM reads fine */
    ebreak                      /* a breakpoint, not semihosting */
    c.ebreak
    li   t6, 0x10000000
    jalr ra, 0(t6)              /* instruction access fault at the target */
    mv   a2, s1                 /* exceptions taken */
    rvlab_exit

handler:
    csrr s8, mcause
    csrr s9, mtval
    csrr s10, mepc
    addi s1, s1, 1
    li   s11, 1
    bne  s8, s11, 1f
    csrw mepc, ra
    mret
1:  lhu  s11, 0(s10)
    andi s11, s11, 3
    addi s10, s10, 2
    li   s7, 3
    bne  s11, s7, 2f
    addi s10, s10, 2
2:  csrw mepc, s10
    li   s7, -1
    mret

    .data
    .balign 4
data:
    .word 0x89abcdef, 0x8081f0ff, 0, 0, 0, 0, 0, 0

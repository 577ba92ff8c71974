/* Trap entry for the machine-mode tests: save what the handler reports, skip the
   faulting instruction (its length read from the instruction itself), mret. */
    .section .text.trap_entry
    .globl trap_entry
    .balign 64                      /* mtvec BASE must be 4-byte aligned; 64 suits vectored too */
trap_entry:
    j trap_common                   /* vector 0: exceptions (and in vectored mode, cause 0) */
    .rept 15
    j trap_vectored_interrupt       /* vectors 1..15: interrupts in vectored mode */
    .endr
trap_vectored_interrupt:
    csrw mscratch, t0
    la t0, trap_hit_vector
    sw t0, 0(t0)
    csrr t0, mscratch
    mret
trap_common:
    csrw mscratch, t0               /* free t0; the handler restores it from mscratch */
    la t0, trap_record
    sw t1, 16(t0)
    csrr t1, mcause
    sw t1, 0(t0)
    csrr t1, mepc
    sw t1, 4(t0)
    csrr t1, mtval
    sw t1, 8(t0)
    csrr t1, mstatus
    sw t1, 12(t0)
    lw t1, 20(t0)                   /* resume address chosen by the test; 0 = skip the instruction */
    bnez t1, 2f
    csrr t1, mepc
    lhu t1, 0(t1)                   /* low bits 11: a 32-bit instruction, else 16-bit */
    andi t1, t1, 3
    xori t1, t1, 3
    seqz t1, t1
    slli t1, t1, 1
    addi t1, t1, 2                  /* length 2 or 4 */
    sw t1, 20(t0)
    csrr t1, mepc
    lw t0, 20(t0)
    add t1, t1, t0
    la t0, trap_record
2:  csrw mepc, t1
    sw zero, 20(t0)
    lw t1, 24(t0)
    addi t1, t1, 1
    sw t1, 24(t0)
    lw t1, 16(t0)
    csrr t0, mscratch
    mret

    .section .bss.trap_record
    .globl trap_record, trap_hit_vector
    .balign 4
trap_record: .space 28             /* mcause, mepc, mtval, mstatus, saved t1, resume, count */
trap_hit_vector: .space 4

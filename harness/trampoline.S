/* rvlab_trampoline: called with the kernel's own arguments in a0-a7 and the
 * kernel's address in rvlab_call_target. Saves s0-s11/ra, loads canaries into
 * s0-s11, calls the kernel, records s0-s11 and sp as the kernel left them,
 * restores everything and returns the kernel's a0/a1. gp and tp are only
 * compared with their values before the call (C kernels may address via gp). */
    .section .data.rvlab_abi, "aw"
    .align 2
    .globl rvlab_abi_got, rvlab_abi_canary
rvlab_abi_got:    .space 15*4
rvlab_abi_canary:
    .word 0x5eed0000, 0x5eed1111, 0x5eed2222, 0x5eed3333, 0x5eed4444, 0x5eed5555
    .word 0x5eed6666, 0x5eed7777, 0x5eed8888, 0x5eed9999, 0x5eedaaaa, 0x5eedbbbb
    .word 0                      /* expected sp, filled in at each call */
    .word 0, 0                   /* expected gp, tp: their values before the call */
rvlab_saved_sp:   .word 0

    .text
    .globl rvlab_trampoline
    .type rvlab_trampoline, @function
    .align 2
rvlab_trampoline:
    addi sp, sp, -64
    sw ra, 52(sp)
    sw s0, 0(sp)
    sw s1, 4(sp)
    sw s2, 8(sp)
    sw s3, 12(sp)
    sw s4, 16(sp)
    sw s5, 20(sp)
    sw s6, 24(sp)
    sw s7, 28(sp)
    sw s8, 32(sp)
    sw s9, 36(sp)
    sw s10, 40(sp)
    sw s11, 44(sp)
    la t0, rvlab_saved_sp
    sw sp, 0(t0)
    la t0, rvlab_abi_canary
    sw sp, 48(t0)
    sw gp, 52(t0)
    sw tp, 56(t0)
    lw s0, 0(t0)
    lw s1, 4(t0)
    lw s2, 8(t0)
    lw s3, 12(t0)
    lw s4, 16(t0)
    lw s5, 20(t0)
    lw s6, 24(t0)
    lw s7, 28(t0)
    lw s8, 32(t0)
    lw s9, 36(t0)
    lw s10, 40(t0)
    lw s11, 44(t0)
    la t1, rvlab_call_target
    lw t1, 0(t1)
    jalr ra, 0(t1)               /* not t0: jalr ra, (x5) would also pop the return-address stack */
    la t0, rvlab_abi_got
    sw s0, 0(t0)
    sw s1, 4(t0)
    sw s2, 8(t0)
    sw s3, 12(t0)
    sw s4, 16(t0)
    sw s5, 20(t0)
    sw s6, 24(t0)
    sw s7, 28(t0)
    sw s8, 32(t0)
    sw s9, 36(t0)
    sw s10, 40(t0)
    sw s11, 44(t0)
    sw sp, 48(t0)
    sw gp, 52(t0)
    sw tp, 56(t0)
    la t0, rvlab_abi_canary        /* restore gp, tp in case the kernel changed them */
    lw gp, 52(t0)
    lw tp, 56(t0)
    la t0, rvlab_saved_sp
    lw sp, 0(t0)
    lw s0, 0(sp)
    lw s1, 4(sp)
    lw s2, 8(sp)
    lw s3, 12(sp)
    lw s4, 16(sp)
    lw s5, 20(sp)
    lw s6, 24(sp)
    lw s7, 28(sp)
    lw s8, 32(sp)
    lw s9, 36(sp)
    lw s10, 40(sp)
    lw s11, 44(sp)
    lw ra, 52(sp)
    addi sp, sp, 64
    ret
    .size rvlab_trampoline, .-rvlab_trampoline

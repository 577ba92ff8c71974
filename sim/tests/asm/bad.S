/* Programs that must stop rvsim with a clear error; one is selected with -DB_<NAME>. */
#include "rt.h"
    .section .text.start
    .globl _start
_start:
    li t0, 0x80000000
#if defined(B_ILLEGAL)
    .word 0xffffffff
#elif defined(B_MUL)
    mul a0, a0, a0
#elif defined(B_MISALIGNED_LOAD)
    lw a0, 2(t0)
#elif defined(B_MISALIGNED_STORE)
    sh a0, 1(t0)
#elif defined(B_UNMAPPED)
    li t1, 0x10000000
    lw a0, 0(t1)
#elif defined(B_DTIM_END)
    li t1, 0x80004000
    sw a0, 0(t1)
#elif defined(B_FLASH_STORE)
    la t1, _start
    sw a0, 0(t1)
#elif defined(B_LOOP)
1:  j 1b
#elif defined(B_JUMP_UNMAPPED)
    li t1, 0x40000000
    jr t1
#elif defined(B_ECALL)
    ecall
#elif defined(B_EBREAK)
    ebreak
#elif defined(B_HANDLER_FAULTS)
    /* a handler whose second instruction faults: without the loop check this never ends */
    la t1, 1f
    csrw mtvec, t1
    ecall
    .p2align 2
1:  nop
    .word 0xffffffff
#elif defined(B_HANDLER_EXITS)
    /* a handler like picolibc's crt0 fault handler: it gives up with exit status 3 */
    la t1, 1f
    csrw mtvec, t1
    .insn r 0x33, 5, 0x30, a0, a0, a1    /* ror a0, a0, a1: outside rv32imac */
    EXIT_OK
    .p2align 2
1:  li a1, 0x80000100
    li t1, 0x20026
    sw t1, 0(a1)
    li t1, 3
    sw t1, 4(a1)
    li a0, 0x20
    SEMIHOST_CALL
#elif defined(B_STACK_OVERFLOW)
    /* a function that pushes 16 bytes at a time, 257 times: sp goes from 0x80004000 to
       0x80002ff0, 16 bytes below stack_floor = 0x80003000; then exits 0 */
    .globl stack_floor
    .set stack_floor, 0x80003000
    li sp, 0x80004000
    li s0, 257
    call grow
    li a0, 0x18
    li a1, 0x20026
    SEMIHOST_CALL
    .globl grow
    .type grow, @function
grow:
1:  addi sp, sp, -16
    addi s0, s0, -1
    bnez s0, 1b
    ret
    .size grow, . - grow
#elif defined(B_EXIT125)
    /* SYS_EXIT_EXTENDED with status 125, rvsim's own error status */
    li a1, 0x80000100
    li t1, 0x20026
    sw t1, 0(a1)
    li t1, 125
    sw t1, 4(a1)
    li a0, 0x20
    SEMIHOST_CALL
#elif defined(B_EXIT7)
    /* SYS_EXIT_EXTENDED with status 7 */
    li a1, 0x80000100
    li t1, 0x20026
    sw t1, 0(a1)
    li t1, 7
    sw t1, 4(a1)
    li a0, 0x20
    SEMIHOST_CALL
#endif
    EXIT_OK

/* Constant-time checker test: code that must NOT raise an alarm with --secret key.
   Public loop counters and lengths, table-free arithmetic on secret data, spills, calls
   through a public function pointer, public division, byte-exact masking. */
#include "../asm/rt.h"
    .section .text.start
    .globl _start
_start:
    li sp, 0x80004000
    la s0, key
    la s3, out
    li s1, 16               /* public length */
    li s2, 0                /* public index */
    li a0, 0                /* accumulator (secret) */
1:  add t0, s0, s2
    lbu t1, 0(t0)           /* secret byte, public address */
    xor a0, a0, t1
    slli t2, a0, 7          /* rotate left 7 */
    srli t3, a0, 25
    or a0, t2, t3
    mul a0, a0, t1
    mulhu a1, a0, t1
    add a0, a0, a1
    sltu t4, a0, t1          /* secret compare result used arithmetically */
    sub t4, zero, t4
    and t5, t4, a0
    xor a0, a0, t5
    add t0, s3, s2
    sb a0, 0(t0)            /* secret value to public address */
    addi s2, s2, 1
    bltu s2, s1, 1b         /* public loop bound */
    /* spill and reload a secret */
    addi sp, sp, -16
    sw a0, 0(sp)
    lw a3, 0(sp)
    addi sp, sp, 16
    /* byte-exact taint: key2 = {public byte 0, secret bytes 1..3} at word granularity */
    la t0, mixed
    lw t1, 0(t0)
    andi t2, t1, 0xff       /* only the public byte */
    beqz t2, 2f
2:  srli t3, t1, 8          /* secret bytes only, then mask them off */
    slli t3, t3, 8
    andi t3, t3, 0xff
    bnez t3, 3f
3:  /* call through a public function pointer */
    la t0, func
    jalr ra, 0(t0)
    /* division with public operands */
    li t0, 100
    divu t1, t0, s1
    /* load with public address derived after a secret was overwritten */
    mv t2, a3
    li t2, 4
    add t2, t2, s3
    lbu t3, 0(t2)
    EXIT_OK
func:
    ret

    .data
    .globl key
    .type key, @object
key: .fill 16, 1, 0x5a
    .size key, 16
mixed: .word 0x12345600
out: .fill 16, 1, 0

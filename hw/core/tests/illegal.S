/* An illegal instruction (a MUL, outside RV32I): the core must stop with error. */
    .globl _start
_start:
    li   a0, 3
    .word 0x02a50533            # mul a0, a0, a0
    ebreak

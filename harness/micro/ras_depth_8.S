// micro: 8 nested calls and their returns, the chain entered from two call sites in turn (model: per chain, a mispredict when the outermost return is deeper than the RAS -- the BTB's last target is the other call site)
#include "micro.inc"
MICRO_HEAD(ras_depth_8, 2)
    .balign 64
micro_body:
    addi sp, sp, -16
    sw ra, 0(sp)
    jal f1
    jal f1
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
micro_empty:
    addi sp, sp, -16
    sw ra, 0(sp)
    .rept 88
    nop
    .endr
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f1:
    addi sp, sp, -16
    sw ra, 0(sp)
    jal f2
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f2:
    addi sp, sp, -16
    sw ra, 0(sp)
    jal f3
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f3:
    addi sp, sp, -16
    sw ra, 0(sp)
    jal f4
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f4:
    addi sp, sp, -16
    sw ra, 0(sp)
    jal f5
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f5:
    addi sp, sp, -16
    sw ra, 0(sp)
    jal f6
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f6:
    addi sp, sp, -16
    sw ra, 0(sp)
    jal f7
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f7:
    addi sp, sp, -16
    sw ra, 0(sp)
    jal f8
    lw ra, 0(sp)
    addi sp, sp, 16
    ret
f8:
    ret

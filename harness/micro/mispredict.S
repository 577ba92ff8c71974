// micro: a jalr whose target alternates, so the BTB's last target is always wrong (model: about the mispredict penalty per rep); empty: the same loop with a fixed target
#include "micro.inc"
MICRO_HEAD(mispredict, 16)
    .balign 64
micro_body:
    la a1, 1f
    la a4, 2f
    xor a4, a4, a1          # a1 ^= a4 toggles between the two targets
    j 0f
0:  li a3, 16
3:  jalr x0, 0(a1)
1:  xor a1, a1, a4
    j 4f
2:  xor a1, a1, a4
    j 4f
4:  addi a3, a3, -1
    bnez a3, 3b
    ret

micro_empty:                # the same loop at its own pcs, with a fixed target
    la a1, 5f
    li a4, 0
    li a3, 16
6:  jalr x0, 0(a1)
5:  xor a1, a1, a4
    j 8f
7:  xor a1, a1, a4
    j 8f
8:  addi a3, a3, -1
    bnez a3, 6b
    ret

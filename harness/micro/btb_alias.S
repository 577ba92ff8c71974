// micro: two jumps 80 bytes apart -- the same entry of a direct-mapped 40-entry BTB indexed by pc/2 -- in a loop (256 reps, so the loop branch's history warm-up is under 0.1 a rep; model: 0 per rep with a fully-associative BTB; a direct-mapped one mispredicts both, 2 x penalty)
#include "micro.inc"
MICRO_HEAD(btb_alias, 256)
    .balign 64
micro_body:
    li a3, 256
    j 1f
micro_empty:
    li a3, 256
    j 5f
    .balign 64
1:  j 2f                    # P
    .rept 19
    nop
    .endr
2:  j 3f                    # P + 80
3:  addi a3, a3, -1
    bnez a3, 1b
    ret
    .balign 64
5:  nop
    nop
    addi a3, a3, -1
    bnez a3, 5b
    ret

/* Constant-time checker test: long block bodies whose taint transfer the checker memoises
   (`Memo` in sim/src/ct.rs), in the cases where a memo must not be taken as it stands. Run with
   `secret:4` secret; each obs_* branch tests the mask of one loaded register:
   obs_x never secret, obs_y, obs_z and obs_p1 secret on 4 of the 8 trips; the load and the
   store at load_secret_addr and store_secret_addr have a secret address on every trip. (Labels
   local: a global one would start a function, and so a block.) */
#include "../asm/rt.h"
#define OBS(name, r) name: beqz r, 9f; 9:
#define PAD16 nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop
#define PAD PAD16; PAD16   /* makes a body long enough for a memo (ct.rs MEMO_MIN) */
    .section .text.start
    .globl _start
_start:
    la s0, secret
    lw s1, 0(s0)                /* secret */
    la s2, buf                  /* public: X at 0, Y 4, Z 8, P0 12, P1 16 */
    li s3, 8
    li s4, 0
loop:
    /* X public, Y secret on odd trips */
    sw zero, 0(s2)
    andi t0, s4, 1
    beqz t0, 1f
    sw s1, 4(s2)
    j b1
1:  sw zero, 4(s2)
    j b1
    /* the same register masks on every trip, but Y's mask differs from the memo's on every
       other one: after the store to X, the load of X must keep the mask it read before it */
b1: lw a0, 0(s2)
    sw s1, 0(s2)
    lw a2, 4(s2)
    PAD
    j o1
o1: OBS(obs_x, a0)
    OBS(obs_y, a2)
    /* Z secret on trips 2, 3, 6, 7, set here: b2 itself changes no shadow byte, but the
       shadow changed since its last run */
    andi t0, s4, 2
    beqz t0, 1f
    sw s1, 8(s2)
    j b2
1:  sw zero, 8(s2)
    j b2
b2: lw a4, 8(s2)
    and t2, s1, zero            /* 0, with a secret mask: an address the checker reports */
    add t2, t2, s2
load_secret_addr:
    lw t3, 20(t2)
store_secret_addr:
    sw zero, 24(t2)
    PAD
    j o2
o2: OBS(obs_z, a4)
    addi s4, s4, 1
    blt s4, s3, loop

    /* nothing else changes the shadow here: a secret to P0 on trips 0-3, to P1 from trip 4
       (the store at another address changes the shadow, so the load of P1 at the same
       address as before must look again) */
    li s4, 0
loop2:
    slti t0, s4, 4
    xori t0, t0, 1
    slli t0, t0, 2
    add a3, s2, t0
    sw s1, 12(a3)
    lw a1, 16(s2)
    PAD
    addi s4, s4, 1
    OBS(obs_p1, a1)
    blt s4, s3, loop2
    EXIT_OK

    .data
    .globl secret
secret: .word 0x44332211
buf:    .space 32

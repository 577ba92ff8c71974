/* Constant-time checker test: LR/SC and AMOs whose address is secret (issue 7), at global
   labels (the test reads their addresses from the symbol table). Run with --secret key.
   sim/README.md: an LR with a secret address is a load_address, an SC or AMO (a
   read-modify-write, or a conditional write) a store_address; one event per execution,
   whether the SC succeeds or fails. Atomics with a public address are not reported, but the
   data they move carries its taint. */
#include "../asm/rt.h"
    .section .text.start
    .globl _start
_start:
    li sp, 0x80004000
    la s0, key
    la s1, words
    lw t0, 0(s0)            /* secret word */
    andi t1, t0, 0x3c       /* secret word offset 0..60 */
    add t2, s1, t1          /* secret address inside words */
    li t3, 1
    li s2, 2                /* public loop counter: 2 iterations */
loop:
    .globl leak_amoadd
leak_amoadd:
    amoadd.w a0, t3, (t2)   /* store_address, 2 events */
    .globl leak_lr
leak_lr:
    lr.w a1, (t2)           /* load_address, 2 events */
    .globl leak_sc
leak_sc:
    sc.w a2, a1, (t2)       /* store_address, 2 events (succeeds) */
    addi s2, s2, -1
    bnez s2, loop           /* public: no violation */
    bnez a2, fail           /* the SC succeeded: public result, no violation */
    .globl leak_sc_failing
leak_sc_failing:
    sc.w a2, a1, (t2)       /* no reservation left: fails, still store_address (1 event) */
    beqz a2, fail

    /* public addresses: no violation */
    amoadd.w a0, t3, (s1)
    lr.w a1, (s1)
    sc.w a2, a1, (s1)
    /* secret data through public addresses: amoswap stores the secret word, amoor reads
       it back as its old value -> the branch on it is a leak */
    addi t4, s1, 4
    amoswap.w zero, t0, (t4)
    amoor.w a3, zero, (t4)
    .globl leak_amo_data
leak_amo_data:
    beqz a3, 1f
1:  EXIT_OK
fail:                       /* SYS_EXIT with ADP_Stopped_InternalError: exit status 1 */
    li a0, 0x18; li a1, 0x20024; SEMIHOST_CALL

    .data
    .balign 4
    .globl key
    .type key, @object
key: .word 0x11223344, 0
    .size key, 8
    .balign 64
words: .fill 16, 4, 0

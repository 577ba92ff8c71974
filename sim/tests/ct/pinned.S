/* Constant-time checker test: --secret regions are secret inputs: the program fills them
   after start-up (as the harness does with rvlab_fill) and they stay secret; after the
   program declassifies them (semihosting 0x101), storing public data makes them public. */
#include "../asm/rt.h"
    .section .text.start
    .globl _start
_start:
    li sp, 0x80004000
    la s0, key
    la a1, blk              /* RVLAB_SECRET(key, 4) on the pinned input keeps the pin */
    sw s0, 0(a1)
    li t2, 4
    sw t2, 4(a1)
    li a0, 0x100
    SEMIHOST_CALL
    li t0, 0x01020304       /* public value written into the secret input */
    sw t0, 0(s0)
    lw t1, 0(s0)
    .globl pinned_branch
pinned_branch:
    beqz t1, 1f             /* still secret: violation */
1:  la a1, blk              /* RVLAB_PUBLIC(key, 4) */
    li a0, 0x101
    SEMIHOST_CALL
    lw t1, 0(s0)
    .globl public_branch
public_branch:
    beqz t1, 2f             /* declassified: no violation */
2:  la a1, blk              /* RVLAB_SECRET(key, 4): run-time mark, not pinned */
    li a0, 0x100
    SEMIHOST_CALL
    lw t1, 0(s0)
    .globl marked_branch
marked_branch:
    beqz t1, 3f             /* secret again: violation */
3:  sw zero, 0(s0)          /* a public store overwrites a run-time (unpinned) secret */
    lw t1, 0(s0)
    .globl overwritten_branch
overwritten_branch:
    beqz t1, 4f             /* no violation */
4:  EXIT_OK

    .data
    .globl key
    .type key, @object
key: .word 0
    .size key, 4
blk: .word 0, 0

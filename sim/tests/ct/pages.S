/* Constant-time checker test: the shadow of memory is kept in 64 KiB pages made when a secret
   is first stored into them (flat map: RAM beyond the first page). Run with `word` (4 bytes) secret and
   --memory flat. The branch at each hit_* label must be reported, none at a miss_* label. */
#include "../asm/rt.h"
#define HIT(n)  .globl hit_##n;  hit_##n:  beqz t1, 9f; 9:
#define MISS(n) .globl miss_##n; miss_##n: beqz t1, 9f; 9:
    .section .text.start
    .globl _start
_start:
    la s0, word
    lw s1, 0(s0)                        /* secret */
    li s2, 0x80100000                   /* a page nothing has tainted */
    sw s1, 4(s2)                        /* not the first 4 bytes: the offset counts too */
    lw t1, 4(s2);           HIT(fresh_page_secret)
    lw t1, 8(s2);           MISS(fresh_page_neighbour)
    li s3, 0x80200000                   /* another one, written with public data only */
    sw s0, 0(s3)
    lw t1, 0(s3);           MISS(public_page)
    sh s1, 2(s3)                        /* a halfword of secret into it: bytes 2, 3 */
    lbu t1, 1(s3);          MISS(public_page_byte1)
    lbu t1, 3(s3);          HIT(public_page_byte3)
    sw zero, 4(s2)                      /* overwritten with public data */
    lw t1, 4(s2);           MISS(fresh_page_overwritten)
    EXIT_OK

    .data
    .globl word
word: .word 0x44332211

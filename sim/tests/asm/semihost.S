/* Semihosting calls the C library does not use; one is selected with -DS_<NAME>.
   Results are printed with SYS_WRITEC (puthex: 8 hex digits and a newline). */
#include "rt.h"
#define SYS_OPEN   0x01
#define SYS_WRITEC 0x03
#define SYS_WRITE  0x05
#define SYS_READ   0x06
#define SYS_CLOCK  0x10
#define SYS_TIME   0x11

    .section .text.start
    .globl _start
_start:
    li sp, 0x80004000
#if defined(S_WRITEC)
    /* every byte of msg (up to its NUL) with one WRITEC each */
    la s0, msg
1:  lbu t0, 0(s0)
    beqz t0, 2f
    li a0, SYS_WRITEC
    mv a1, s0
    SEMIHOST_CALL
    addi s0, s0, 1
    j 1b
2:
#elif defined(S_READ)
    /* open ":tt" for reading (mode 0) and for writing (mode 4); read 4, 16, 16 bytes from
       the console; echo each read's bytes, then print the three results (bytes NOT read) */
    la a1, open_r
    li a0, SYS_OPEN
    SEMIHOST_CALL
    mv s1, a0
    la a1, open_w
    li a0, SYS_OPEN
    SEMIHOST_CALL
    mv s2, a0
    li a2, 4
    call read_echo
    mv s3, a0
    li a2, 16
    call read_echo
    mv s4, a0
    li a2, 16
    call read_echo
    mv s5, a0
    mv a2, s3
    call puthex
    mv a2, s4
    call puthex
    mv a2, s5
    call puthex
#elif defined(S_CLOCK)
    /* CLOCK at the start, then after 500000 iterations of a dependent mul chain
       (3 instructions; 5 cycles per iteration on the E31 model, 3 on the ideal core) */
    li a0, SYS_CLOCK
    SEMIHOST_CALL
    mv s1, a0
    li t0, 500000
    li t1, 3
1:  mul t1, t1, t1
    addi t0, t0, -1
    bnez t0, 1b
    li a0, SYS_CLOCK
    SEMIHOST_CALL
    mv s2, a0
    mv a2, s1
    call puthex
    mv a2, s2
    call puthex
#elif defined(S_TIME)
    li a0, SYS_TIME
    SEMIHOST_CALL
    mv a2, a0
    call puthex
#elif defined(S_WRITE_BOUNDS)
    /* open ":tt" for writing, then SYS_WRITE of WRITE_LEN bytes from the start of the DTIM
       (16384 = all of it; more leaves the memory map) */
    la a1, open_w
    li a0, SYS_OPEN
    SEMIHOST_CALL
    la a1, blk
    sw a0, 0(a1)
    li t0, 0x80000000
    sw t0, 4(a1)
    li t0, WRITE_LEN
    sw t0, 8(a1)
    li a0, SYS_WRITE
    SEMIHOST_CALL
    mv a2, a0
    call puthex
#else
#error "select a program with -DS_<NAME>"
#endif
    EXIT_OK

/* print a2 as 8 lower-case hex digits and a newline with SYS_WRITEC */
puthex:
    li t1, 8
1:  srli t2, a2, 28
    slli a2, a2, 4
    addi t2, t2, 48
    li t3, 58
    blt t2, t3, 2f
    addi t2, t2, 39
2:  la a1, chr
    sb t2, 0(a1)
    li a0, SYS_WRITEC
    SEMIHOST_CALL
    addi t1, t1, -1
    bnez t1, 1b
    li t2, 10
    la a1, chr
    sb t2, 0(a1)
    li a0, SYS_WRITEC
    SEMIHOST_CALL
    ret

#if defined(S_READ)
/* read up to a2 bytes from handle s1 into buf, write what was read to handle s2;
   returns READ's result (the number of bytes not read) */
read_echo:
    la a1, blk
    sw s1, 0(a1)
    la t0, buf
    sw t0, 4(a1)
    sw a2, 8(a1)
    mv t1, a2
    li a0, SYS_READ
    SEMIHOST_CALL
    mv t2, a0
    la a1, blk
    sw s2, 0(a1)
    sub t1, t1, t2
    sw t1, 8(a1)
    li a0, SYS_WRITE
    SEMIHOST_CALL
    mv a0, t2
    ret
#endif

    .data
    .balign 4
tt:     .asciz ":tt"
    .balign 4
open_r: .word tt, 0, 3
open_w: .word tt, 4, 3
blk:    .word 0, 0, 0
buf:    .space 16
chr:    .byte 0
msg:    .ascii "Hello, WRITEC!\n\ttab, percent % and UTF-8 \303\251\n"
        .byte 0

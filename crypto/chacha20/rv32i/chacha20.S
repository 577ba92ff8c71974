/*
 * ChaCha20 stream cipher (RFC 8439) for RV32I, and (with CHACHA20_ZBKB defined)
 * for RV32I + Zbkb, where every rotation is one `rori`.
 *
 * void chacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
 *                   const uint8_t key[32], const uint8_t nonce[12], uint32_t counter);
 *
 * Any length; out/in may have any alignment (misaligned buffers take the byte path);
 * key and nonce are read byte by byte.  The 32-bit block counter wraps mod 2^32.
 *
 * Speed notes
 *  - The 16 state words live in registers for the whole block (s0-s11, a4-a7).
 *  - Only word 12 (the counter) changes from block to block, so the three column
 *    quarter-rounds of the first round that do not touch word 12 are computed once per
 *    call and their 12 result words are reloaded for every block ("pre" area).
 *  - Output: keystream + original state, xor input, store; loads are scheduled two
 *    instructions ahead of their use (E31 load-use latency 2).
 *
 * Stack frame (240 bytes):
 *    0.. 63  orig[16]   the block's input state (word 12 is kept in t3 instead)
 *   64..127  pre[16]    state after the first-round column QRs 1..3 (words 1-3,5-7,9-11,13-15)
 *  128..191  ks[64]     keystream for partial or misaligned blocks
 *  192..239  saved s0-s11
 */

#define X0  s0
#define X1  s1
#define X2  s2
#define X3  s3
#define X4  s4
#define X5  s5
#define X6  s6
#define X7  s7
#define X8  s8
#define X9  s9
#define X10 s10
#define X11 s11
#define X12 a4
#define X13 a5
#define X14 a6
#define X15 a7

#define OUT  a0
#define IN   a1
#define LEN  a2
#define CTR  t3
#define MISAL t5

#define FRAME 240
#define ORIG  0
#define PRE   64
#define KS    128
#define SAVE  192

.macro ROTL r, n
#ifdef CHACHA20_ZBKB
    rori    \r, \r, 32-\n
#else
    slli    t0, \r, \n
    srli    \r, \r, 32-\n
    or      \r, \r, t0
#endif
.endm

.macro QR a, b, c, d
    add     \a, \a, \b
    xor     \d, \d, \a
    ROTL    \d, 16
    add     \c, \c, \d
    xor     \b, \b, \c
    ROTL    \b, 12
    add     \a, \a, \b
    xor     \d, \d, \a
    ROTL    \d, 8
    add     \c, \c, \d
    xor     \b, \b, \c
    ROTL    \b, 7
.endm

/* rd = little-endian 32-bit word at off(base), any alignment (clobbers t0, t1, t2);
   the byte loads are issued first so that no shift waits for its load */
.macro LDU rd, base, off
    lbu     \rd, \off(\base)
    lbu     t0, \off+1(\base)
    lbu     t1, \off+2(\base)
    lbu     t2, \off+3(\base)
    slli    t0, t0, 8
    slli    t1, t1, 16
    slli    t2, t2, 24
    or      \rd, \rd, t0
    or      t1, t1, t2
    or      \rd, \rd, t1
.endm

/* full-block output word i: out[i] = in[i] ^ (x + orig[i]) */
.macro OUTW x, i
    lw      t2, ORIG+4*\i(sp)
    lw      t4, 4*\i(IN)
    add     \x, \x, t2
    xor     \x, \x, t4
    sw      \x, 4*\i(OUT)
.endm

/* keystream word i to ks[i] */
.macro KSW x, i
    lw      t2, ORIG+4*\i(sp)
    add     \x, \x, t2            /* tail path only: 1 load-use stall per word */
    sw      \x, KS+4*\i(sp)
.endm

    .text
    .globl  chacha20_xor
    .type   chacha20_xor, @function
    .p2align 2
chacha20_xor:
    beqz    a2, .Lret0
    addi    sp, sp, -FRAME
    sw      s0, SAVE+0(sp)
    sw      s1, SAVE+4(sp)
    sw      s2, SAVE+8(sp)
    sw      s3, SAVE+12(sp)
    sw      s4, SAVE+16(sp)
    sw      s5, SAVE+20(sp)
    sw      s6, SAVE+24(sp)
    sw      s7, SAVE+28(sp)
    sw      s8, SAVE+32(sp)
    sw      s9, SAVE+36(sp)
    sw      s10, SAVE+40(sp)
    sw      s11, SAVE+44(sp)

    mv      CTR, a5
    /* initial state: "expand 32-byte k", key, counter, nonce */
    li      X0, 0x61707865
    li      X1, 0x3320646e
    li      X2, 0x79622d32
    li      X3, 0x6b206574
    sw      X0, ORIG+0(sp)
    sw      X1, ORIG+4(sp)
    sw      X2, ORIG+8(sp)
    sw      X3, ORIG+12(sp)
    LDU     X4, a3, 0
    LDU     X5, a3, 4
    LDU     X6, a3, 8
    LDU     X7, a3, 12
    LDU     X8, a3, 16
    LDU     X9, a3, 20
    LDU     X10, a3, 24
    LDU     X11, a3, 28
    sw      X4, ORIG+16(sp)
    sw      X5, ORIG+20(sp)
    sw      X6, ORIG+24(sp)
    sw      X7, ORIG+28(sp)
    sw      X8, ORIG+32(sp)
    sw      X9, ORIG+36(sp)
    sw      X10, ORIG+40(sp)
    sw      X11, ORIG+44(sp)
    sw      CTR, ORIG+48(sp)
    LDU     X13, a4, 0          /* a4 (nonce pointer) is read before X12 = a4 is used */
    LDU     X14, a4, 4
    LDU     X15, a4, 8
    sw      X13, ORIG+52(sp)
    sw      X14, ORIG+56(sp)
    sw      X15, ORIG+60(sp)

    /* first-round column quarter-rounds that do not depend on the counter */
    QR      X1, X5, X9, X13
    QR      X2, X6, X10, X14
    QR      X3, X7, X11, X15
    sw      X1, PRE+4(sp)
    sw      X2, PRE+8(sp)
    sw      X3, PRE+12(sp)
    sw      X5, PRE+20(sp)
    sw      X6, PRE+24(sp)
    sw      X7, PRE+28(sp)
    sw      X9, PRE+36(sp)
    sw      X10, PRE+40(sp)
    sw      X11, PRE+44(sp)
    sw      X13, PRE+52(sp)
    sw      X14, PRE+56(sp)
    sw      X15, PRE+60(sp)

    or      MISAL, OUT, IN
    andi    MISAL, MISAL, 3

.Lblock:
    lw      X0, ORIG+0(sp)
    lw      X4, ORIG+16(sp)
    lw      X8, ORIG+32(sp)
    mv      X12, CTR
    lw      X1, PRE+4(sp)
    lw      X5, PRE+20(sp)
    lw      X9, PRE+36(sp)
    lw      X13, PRE+52(sp)
    lw      X2, PRE+8(sp)
    lw      X6, PRE+24(sp)
    lw      X10, PRE+40(sp)
    lw      X14, PRE+56(sp)
    lw      X3, PRE+12(sp)
    lw      X7, PRE+28(sp)
    lw      X11, PRE+44(sp)
    lw      X15, PRE+60(sp)
    /* rest of double round 1 */
    QR      X0, X4, X8, X12
    QR      X0, X5, X10, X15
    QR      X1, X6, X11, X12
    QR      X2, X7, X8, X13
    QR      X3, X4, X9, X14
    /* double rounds 2..10 */
    /* 3 loop iterations of 3 double rounds (trade-off: 0.28 cycles/byte of loop
       overhead fully unrolled vs. 3x the code; see NOTES.md) */
    li      t1, 3
.Ldround:
    .rept 3
    QR      X0, X4, X8, X12
    QR      X1, X5, X9, X13
    QR      X2, X6, X10, X14
    QR      X3, X7, X11, X15
    QR      X0, X5, X10, X15
    QR      X1, X6, X11, X12
    QR      X2, X7, X8, X13
    QR      X3, X4, X9, X14
    .endr
    addi    t1, t1, -1
    bnez    t1, .Ldround

    bnez    MISAL, .Lpartial
    li      t1, 64
    bltu    LEN, t1, .Lpartial

    OUTW    X0, 0
    OUTW    X1, 1
    OUTW    X2, 2
    OUTW    X3, 3
    OUTW    X4, 4
    OUTW    X5, 5
    OUTW    X6, 6
    OUTW    X7, 7
    OUTW    X8, 8
    OUTW    X9, 9
    OUTW    X10, 10
    OUTW    X11, 11
    lw      t4, 48(IN)
    add     X12, X12, CTR
    xor     X12, X12, t4
    sw      X12, 48(OUT)
    OUTW    X13, 13
    OUTW    X14, 14
    OUTW    X15, 15
    addi    OUT, OUT, 64
    addi    IN, IN, 64
    addi    LEN, LEN, -64
    addi    CTR, CTR, 1
    bnez    LEN, .Lblock
    j       .Ldone

.Lpartial:
    /* keystream block to ks[], then xor min(len, 64) bytes */
    KSW     X0, 0
    KSW     X1, 1
    KSW     X2, 2
    KSW     X3, 3
    KSW     X4, 4
    KSW     X5, 5
    KSW     X6, 6
    KSW     X7, 7
    KSW     X8, 8
    KSW     X9, 9
    KSW     X10, 10
    KSW     X11, 11
    add     X12, X12, CTR
    sw      X12, KS+48(sp)
    KSW     X13, 13
    KSW     X14, 14
    KSW     X15, 15
    li      t1, 64
    bgeu    LEN, t1, 2f
    mv      t1, LEN
2:  sub     LEN, LEN, t1
    addi    t6, sp, KS
3:  lbu     t2, 0(IN)
    lbu     t4, 0(t6)
    addi    IN, IN, 1
    addi    t6, t6, 1
    xor     t2, t2, t4
    sb      t2, 0(OUT)
    addi    OUT, OUT, 1
    addi    t1, t1, -1
    bnez    t1, 3b
    addi    CTR, CTR, 1
    bnez    LEN, .Lblock

.Ldone:
    lw      s0, SAVE+0(sp)
    lw      s1, SAVE+4(sp)
    lw      s2, SAVE+8(sp)
    lw      s3, SAVE+12(sp)
    lw      s4, SAVE+16(sp)
    lw      s5, SAVE+20(sp)
    lw      s6, SAVE+24(sp)
    lw      s7, SAVE+28(sp)
    lw      s8, SAVE+32(sp)
    lw      s9, SAVE+36(sp)
    lw      s10, SAVE+40(sp)
    lw      s11, SAVE+44(sp)
    addi    sp, sp, FRAME
.Lret0:
    ret
    .size   chacha20_xor, .-chacha20_xor

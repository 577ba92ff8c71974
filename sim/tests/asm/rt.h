/* Minimal runtime for the simulator's test programs (no C library). */
#define SEMIHOST_CALL \
    .option push; .option norvc; .balign 4; slli x0, x0, 0x1f; ebreak; srai x0, x0, 7; .option pop
/* SYS_EXIT with ADP_Stopped_ApplicationExit: exit status 0; results stay in s-registers */
#define EXIT_OK  li a0, 0x18; li a1, 0x20026; SEMIHOST_CALL

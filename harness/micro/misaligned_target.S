// micro: jumps whose target is a 32-bit instruction at a 2-mod-4 address (model: misaligned_fetch_penalty per rep); empty: the same instructions with 4-byte aligned targets
#include "micro.inc"
MICRO_HEAD(misaligned_target, 16)
    .balign 64
micro_body:
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    .option rvc
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 2 mod 4
    .option rvc
    c.nop
    .option norvc
    ret
    .balign 64
micro_empty:
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    .option rvc
    c.nop
    c.j 1f
    .option norvc
1:  xor t0, t0, t1          # 0 mod 4
    ret

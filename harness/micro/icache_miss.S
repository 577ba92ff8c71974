// micro: 64 KiB of straight-line code, four times the I-cache: nearly every 64-byte line misses (model: per line, 16 instructions + the miss penalty); calibrates icache.miss_penalty
#include "micro.inc"
MICRO_HEAD(icache_miss, 1024)
    .balign 64
micro_body:
    .rept 16384
    nop
    .endr
    ret
micro_empty:
    ret

# rotr32(x, n): x rotated right by n, with Zbkb's `ror` (assembled with --isa ..._zbkb);
# called by mix.c: the README's third `rvlab measure` example.
    .text
    .globl rotr32
rotr32:
    ror a0, a0, a1
    ret

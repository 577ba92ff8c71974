# The README's `rvlab measure` example ("Timing your own function"):
#   python3 -m rvlab measure examples/measure/sum.S --function sum_words --args buf:64 16
    .text
    .globl sum_words
sum_words:              # a0 = words, a1 = n > 0 -> a0 = their sum: 5 instructions a word + 3
    li t0, 0
1:  lw t1, 0(a0)
    add t0, t0, t1      # uses the word just loaded: one load-use stall per word on the E31
    addi a0, a0, 4
    addi a1, a1, -1
    bnez a1, 1b
    mv a0, t0
    ret

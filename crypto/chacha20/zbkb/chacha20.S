#define CHACHA20_ZBKB 1
#include "../rv32i/chacha20.S"

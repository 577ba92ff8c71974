/* The README's C + assembly `rvlab measure` example ("Timing your own function"):
 *   python3 -m rvlab measure examples/measure/mix.c examples/measure/ror.S --function mix \
 *       --args buf:256 64 --isa rv32imac_zbkb --annotate 2
 * mix(w, n): a running hash of n words, rotating with rotr32 of ror.S. */
#include <stdint.h>

uint32_t rotr32(uint32_t x, uint32_t n);

uint32_t mix(const uint32_t *w, uint32_t n)
{
    uint32_t h = 0x9e3779b9u;
    for (uint32_t i = 0; i < n; i++)
        h = rotr32(h ^ w[i], 5) * 0x01000193u;
    return h;
}

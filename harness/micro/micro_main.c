/* Driver of one microbenchmark (harness/micro/README.md): runs micro_body (the effect, `reps`
 * times) and micro_empty (the same frame without it) three times each, keeps the last timing
 * of each (warm I-cache and predictor, as the benchmarks) and prints both with the cycles per
 * repetition the core model predicts (MICRO_PREDICTED, x100; -1 when built without one). */
#include <stdint.h>
#include <stdio.h>

extern void micro_body(void);
extern void micro_empty(void);
extern const char micro_name[];
extern const uint32_t micro_reps;

#ifndef MICRO_PREDICTED
#define MICRO_PREDICTED -1
#endif
/* in .data, so the value rvlab writes in does not move any code */
volatile int32_t micro_predicted = MICRO_PREDICTED;

static inline uint32_t rdcycle(void) { uint32_t x; __asm__ volatile("rdcycle %0" : "=r"(x) :: "memory"); return x; }

static uint32_t timed(void (*f)(void))
{
    uint32_t t0 = rdcycle();
    f();
    return rdcycle() - t0;
}

int main(void)
{
    uint32_t body = 0, empty = 0;
    for (int i = 0; i < 3; i++) {
        body = timed(micro_body);
        empty = timed(micro_empty);
    }
    int32_t per100 = (int32_t)(body - empty) * 100 / (int32_t)micro_reps;
    printf("RVLAB_MICRO {\"effect\": \"%s\", \"reps\": %lu, \"body\": %lu, \"empty\": %lu, "
           "\"measured_x100\": %ld, \"predicted_x100\": %ld}\n",
           micro_name, (unsigned long)micro_reps, (unsigned long)body, (unsigned long)empty,
           (long)per100, (long)micro_predicted);
    return 0;
}

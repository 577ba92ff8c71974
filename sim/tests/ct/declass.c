/* Constant-time checker test: run-time marking and declassification (harness/rvlab_ct.h).
   Built with -DRVLAB_CT. Three uses of a byte as a loop trip count (in count_down):
   - leak_before(): branches on data marked secret at run time -> violation
   - after_public(): same data after RVLAB_PUBLIC -> no violation
   - leak_derived(): a value computed from the secret then stored; only the input buffer was
     declassified, so the derived copy stays secret -> violation */
#include <stdint.h>
#include <stdio.h>
#include "rvlab_ct.h"

static volatile uint8_t buf[16];
static volatile uint8_t derived[16];
volatile int sink;

/* a loop whose trip count is the byte: a branch on it whatever the compiler does */
__attribute__((noinline)) static int count_down(uint8_t n) { int s = 0; while (n--) sink = ++s; return s; }
__attribute__((noinline)) int leak_before(void) { return count_down(buf[3]); }
__attribute__((noinline)) int after_public(void) { return count_down(buf[3]); }
__attribute__((noinline)) int leak_derived(void) { return count_down(derived[3]); }

int main(void)
{
    for (int i = 0; i < 16; i++) buf[i] = (uint8_t)(i * 7 + 1);
    RVLAB_SECRET(buf, sizeof buf);
    for (int i = 0; i < 16; i++) derived[i] = buf[i] ^ 0x5a;
    sink = leak_before();
    RVLAB_PUBLIC(buf, sizeof buf);
    sink = after_public();
    sink = leak_derived();
    printf("declass done\n");
    return 3;
}

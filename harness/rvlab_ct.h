/* rvlab constant-time checker annotations (rvsim --secret, sim/src/ct.rs).
 *
 *   RVLAB_SECRET(ptr, len)  mark len bytes at ptr secret from now on
 *   RVLAB_PUBLIC(ptr, len)  mark them public again (declassify, e.g. a ciphertext written out)
 *
 * Only builds with -DRVLAB_CT emit anything: they issue the semihosting calls 0x100
 * (secret) / 0x101 (public) with a1 -> { uint32_t ptr; uint32_t len; }, which rvsim
 * understands (see sim/README.md). Such builds must run only on rvsim (QEMU aborts on
 * unknown semihosting calls). Without -DRVLAB_CT the macros evaluate their arguments and
 * do nothing, so ordinary builds run unchanged on every executor.
 */
#ifndef RVLAB_CT_H
#define RVLAB_CT_H
#include <stdint.h>
#include <stddef.h>

#define RVLAB_CT_SYS_SECRET 0x100u
#define RVLAB_CT_SYS_PUBLIC 0x101u

#ifdef RVLAB_CT
static inline void rvlab_ct_call(uint32_t op, const volatile void *p, size_t len)
{
    volatile uint32_t blk[2];
    blk[0] = (uint32_t)(uintptr_t)p;
    blk[1] = (uint32_t)len;
    register uint32_t a0 __asm__("a0") = op;
    register uint32_t a1 __asm__("a1") = (uint32_t)(uintptr_t)blk;
    __asm__ volatile(
        ".option push\n\t.option norvc\n\t"
        "slli zero, zero, 0x1f\n\tebreak\n\tsrai zero, zero, 7\n\t"
        ".option pop"
        : "+r"(a0) : "r"(a1) : "memory");
}
#define RVLAB_SECRET(ptr, len) rvlab_ct_call(RVLAB_CT_SYS_SECRET, (ptr), (len))
#define RVLAB_PUBLIC(ptr, len) rvlab_ct_call(RVLAB_CT_SYS_PUBLIC, (ptr), (len))
#else
#define RVLAB_SECRET(ptr, len) ((void)(ptr), (void)(len))
#define RVLAB_PUBLIC(ptr, len) ((void)(ptr), (void)(len))
#endif

#endif

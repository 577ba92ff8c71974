/* rvlab_offsets.h -- run a buffer-in, buffer-out call with its buffers at every byte alignment
 * (the stream ciphers' and hashes' test.c; one-block ciphers have rvlab_block.h).
 *
 * rvlab_offsets(c, field, in, in_len, out_len, call, ctx) copies in[0..in_len) into an input
 * buffer at byte offset io and calls call(ctx, out, in') with the output at byte offset oo, for
 * (io, oo) = (0,0) (1,1) (2,2) (3,3) (0,3) (1,2) (2,1) (3,0): every offset of each, equal and
 * different ones (a kernel that tests (in | out) & 3, or only bit 0 of it, is caught). After each
 * call it checks out[0..out_len) against the case's field `field`, that no byte around the
 * output changed (4 guard bytes before, RVLAB_OFFSETS_GUARD after) and that the input buffer is
 * untouched. The first failure is reported with both offsets and ends the run; 1 = all passed.
 * `call` is the test's adapter that makes the real RVLAB_CALL with the other arguments (it may
 * use ((uintptr_t)in & 3) to misalign further argument buffers the same way).
 *
 * Define RVLAB_OFFSETS_MAX (the largest in_len and out_len) before including this. Define
 * RVLAB_OFFSETS_TAKE_TURNS too for a test of many slow cases: each call then runs one pair, the
 * next call the next pair, so every pair still runs on an eighth of the cases at the cost of
 * one call per case. */
#ifndef RVLAB_OFFSETS_H
#define RVLAB_OFFSETS_H
#include <stdio.h>
#include <string.h>
#include "rvlab.h"

#ifndef RVLAB_OFFSETS_MAX
#error "define RVLAB_OFFSETS_MAX before including rvlab_offsets.h"
#endif
#define RVLAB_OFFSETS_GUARD 16
#define RVLAB_OFFSETS_FILL 0xa5u

typedef void rvlab_offsets_call(void *ctx, uint8_t *out, const uint8_t *in);

static uint8_t rvlab_offsets_in[3 + RVLAB_OFFSETS_MAX + 4] __attribute__((aligned(4)));
static uint8_t rvlab_offsets_out[4 + 3 + RVLAB_OFFSETS_MAX + RVLAB_OFFSETS_GUARD] __attribute__((aligned(4)));

/* first index of buf[0..size) outside [off, off + n) that no longer holds the fill, or -1 */
static int rvlab_offsets_stray(const uint8_t *buf, uint32_t size, uint32_t off, uint32_t n)
{
    for (uint32_t i = 0; i < size; i++)
        if ((i < off || i >= off + n) && buf[i] != RVLAB_OFFSETS_FILL) return (int)i;
    return -1;
}

static int rvlab_offsets(const rvlab_case *c, const char *field, const uint8_t *in, uint32_t in_len,
                         uint32_t out_len, rvlab_offsets_call *call, void *ctx)
{
    static const uint8_t pairs[8][2] = { {0, 0}, {1, 1}, {2, 2}, {3, 3}, {0, 3}, {1, 2}, {2, 1}, {3, 0} };
    if (in_len > RVLAB_OFFSETS_MAX || out_len > RVLAB_OFFSETS_MAX) {
        rvlab_fail(c, "bad case shape (in %lu, out %lu bytes; at most %d)", (unsigned long)in_len,
                   (unsigned long)out_len, RVLAB_OFFSETS_MAX);
        return 0;
    }
#ifdef RVLAB_OFFSETS_TAKE_TURNS
    static int turn;
    int first = turn++ % 8, end = first + 1;
#else
    int first = 0, end = 8;
#endif
    for (int p = first; p < end; p++) {
        uint32_t io = pairs[p][0], oo = 4 + pairs[p][1];
        memset(rvlab_offsets_in, RVLAB_OFFSETS_FILL, sizeof rvlab_offsets_in);
        memset(rvlab_offsets_out, RVLAB_OFFSETS_FILL, sizeof rvlab_offsets_out);
        memcpy(rvlab_offsets_in + io, in, in_len);
        call(ctx, rvlab_offsets_out + oo, rvlab_offsets_in + io);
        const char *what = 0;
        if (!rvlab_check(c, field, rvlab_offsets_out + oo, out_len)) what = "";
        else if (rvlab_offsets_stray(rvlab_offsets_out, sizeof rvlab_offsets_out, oo, out_len) >= 0)
            what = "wrote outside its output";
        else if (rvlab_offsets_stray(rvlab_offsets_in, sizeof rvlab_offsets_in, io, in_len) >= 0
                 || memcmp(rvlab_offsets_in + io, in, in_len) != 0)
            what = "changed its input buffer";
        if (what) {
            if (*what) rvlab_fail(c, "%s", what);
            printf("  (input at byte offset %lu, output at byte offset %lu)\n", (unsigned long)io,
                   (unsigned long)(oo - 4));
            return 0;
        }
    }
    return 1;
}

#endif

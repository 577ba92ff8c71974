/* rvlab harness runtime: case fields, checks, hex output, result lines. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "rvlab.h"

uint32_t rvlab_failures, rvlab_checks;
static uint32_t rvlab_digest = 2166136261u;       /* FNV-1a over every checked output */
static const rvlab_case *rvlab_failed_case;
uint32_t rvlab_failed_cases;

static void note_failure(const rvlab_case *c)
{
    rvlab_failures++;
    if (c != rvlab_failed_case) { rvlab_failed_case = c; rvlab_failed_cases++; }
}

void rvlab_print_hex(const void *p, uint32_t len)
{
    const uint8_t *b = p;
    static const char hx[] = "0123456789abcdef";
    char line[65];
    uint32_t n = 0;
    if (len == 0) { fputs("(empty)", stdout); return; }
    for (uint32_t i = 0; i < len; i++) {
        line[n++] = hx[b[i] >> 4];
        line[n++] = hx[b[i] & 15];
        if (n == 64) { line[n] = 0; fputs(line, stdout); n = 0; }
    }
    line[n] = 0;
    fputs(line, stdout);
}

rvlab_buf rvlab_field_get(const rvlab_case *c, const char *name, int required)
{
    rvlab_buf b = { 0, 0 };
    for (uint32_t i = 0; i < c->nfields; i++)
        if (strcmp(c->fields[i].name, name) == 0) {
            b.p = c->fields[i].p;
            b.len = c->fields[i].len;
            return b;
        }
    if (required)
        rvlab_fail(c, "field '%s' missing from the case (check vectors.py)", name);
    return b;
}

int rvlab_has_field(const rvlab_case *c, const char *name)
{
    for (uint32_t i = 0; i < c->nfields; i++)
        if (strcmp(c->fields[i].name, name) == 0) return 1;
    return 0;
}

uint32_t rvlab_field_u32(const rvlab_case *c, const char *name)
{
    rvlab_buf b = RVLAB_FIELD(c, name);
    uint32_t v = 0;
    if (b.len > 4) { rvlab_fail(c, "field '%s' longer than 4 bytes", name); return 0; }
    for (uint32_t i = 0; i < b.len; i++) v |= (uint32_t)b.p[i] << (8 * i);
    return v;
}

void rvlab_fail(const rvlab_case *c, const char *fmt, ...)
{
    va_list ap;
    note_failure(c);
    printf("FAIL %s: ", c ? c->name : "(no case)");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

int rvlab_check(const rvlab_case *c, const char *field, const void *got, uint32_t len)
{
    rvlab_buf exp = rvlab_field_get(c, field, 0);
    const uint8_t *g = got;
    rvlab_checks++;
    for (uint32_t i = 0; i < len; i++) rvlab_digest = (rvlab_digest ^ g[i]) * 16777619u;
    if (!exp.p && !rvlab_has_field(c, field)) {
        rvlab_fail(c, "expected field '%s' missing from the case (check vectors.py)", field);
        return 0;
    }
    if (exp.len == len && memcmp(exp.p, got, len) == 0) return 1;
    note_failure(c);
    printf("FAIL %s %s: got ", c->name, field);
    rvlab_print_hex(got, len);
    fputs(" expected ", stdout);
    rvlab_print_hex(exp.p, exp.len);
    if (exp.len != len) printf(" (length %lu, expected %lu)", (unsigned long)len, (unsigned long)exp.len);
    else {
        uint32_t i = 0;
        while (g[i] == exp.p[i]) i++;
        printf(" (first difference at byte %lu)", (unsigned long)i);
    }
    putchar('\n');
    return 0;
}

/* ---- calling-convention check (see trampoline.S) ---- */
void (*volatile rvlab_call_target)(void);
extern uint32_t rvlab_abi_got[15];         /* s0..s11, sp, gp, tp after the call */
extern uint32_t rvlab_abi_canary[15];      /* what they should be */
static const rvlab_case *rvlab_current;

void rvlab_call_check(const char *fn_name)
{
    static const char *const other[3] = { "sp", "gp", "tp" };
    for (int i = 0; i < 15; i++) {
        if (rvlab_abi_got[i] != rvlab_abi_canary[i]) {
            char reg[5] = "sp";
            if (i >= 12) { reg[0] = other[i - 12][0]; reg[1] = other[i - 12][1]; }
            if (i < 12) { reg[0] = 's'; if (i < 10) { reg[1] = '0' + i; reg[2] = 0; } else { reg[1] = '1'; reg[2] = '0' + i - 10; reg[3] = 0; } }
            note_failure(rvlab_current);
            printf("FAIL %s: calling convention: %s did not preserve %s (0x%08lx, expected 0x%08lx)\n",
                   rvlab_current ? rvlab_current->name : "(no case)", fn_name, reg,
                   (unsigned long)rvlab_abi_got[i], (unsigned long)rvlab_abi_canary[i]);
        }
    }
}

/* ---- test program main ---- */
int rvlab_test_main(void)
{
    for (uint32_t i = 0; i < rvlab_ncases; i++) {
        rvlab_current = &rvlab_cases[i];
        rvlab_test_case(&rvlab_cases[i]);
    }
    rvlab_current = 0;
    printf("RVLAB_TEST {\"cases\": %lu, \"checks\": %lu, \"failures\": %lu, \"failed_cases\": %lu, \"digest\": \"%08lx\"}\n",
           (unsigned long)rvlab_ncases, (unsigned long)rvlab_checks, (unsigned long)rvlab_failures,
           (unsigned long)rvlab_failed_cases, (unsigned long)rvlab_digest);
    if (rvlab_checks == 0) { puts("FAIL: no check was made (test.c compared nothing)"); return 1; }
    return rvlab_failures ? 1 : 0;
}

/* ---- speed / stack programs ---- */
uint32_t rvlab_overhead_cycles, rvlab_overhead_instret;

void rvlab_emit(const char *op, uint32_t input_bytes, uint32_t cycles, uint32_t instret,
                uint32_t stack_bytes, int is_stack, const char *k, uint32_t v)
{
    printf("RVLAB_RESULT {\"operation\": \"%s\", \"input_bytes\": %lu", op, (unsigned long)input_bytes);
    if (is_stack) printf(", \"stack_bytes\": %lu", (unsigned long)stack_bytes);
    else printf(", \"cycles\": %lu, \"instret\": %lu", (unsigned long)cycles, (unsigned long)instret);
    if (k) printf(", \"%s\": %lu", k, (unsigned long)v);
    puts("}");
}

uint32_t rvlab_stack_scan(uintptr_t lo, uintptr_t sp)
{
    const volatile uint32_t *w = (const volatile uint32_t *)lo;
    while ((uintptr_t)w < sp && *w == RVLAB_STACK_PATTERN) w++;
    return (uint32_t)(sp - (uintptr_t)w);
}

void rvlab_fill(void *p, uint32_t len, uint32_t seed)
{
    uint8_t *b = p;
    uint32_t x = seed ? seed : 0x9e3779b9u;
    for (uint32_t i = 0; i < len; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        b[i] = (uint8_t)(x >> 24);
    }
}

volatile uint32_t rvlab_bench_iters = 2;

int rvlab_speed_main(void)
{
    /* the empty measurement, taken like RVLAB_BENCH_KV takes a record: the same loop,
     * the last iteration's figures */
    uint32_t bc = 0, bi = 0;
    for (uint32_t k = 0; k < rvlab_bench_iters; k++) {
        uint32_t c0 = rvlab_rdcycle(), i0 = rvlab_rdinstret();
        uint32_t c1 = rvlab_rdcycle(), i1 = rvlab_rdinstret();
        bc = c1 - c0;
        bi = i1 - i0;
    }
    rvlab_overhead_cycles = bc;
    rvlab_overhead_instret = bi;
#ifndef RVLAB_STACK
    printf("RVLAB_OVERHEAD {\"cycles\": %lu, \"instret\": %lu}\n", (unsigned long)bc, (unsigned long)bi);
#endif
    rvlab_speed();
    return 0;
}

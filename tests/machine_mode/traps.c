/* Machine-mode trap tests: each check provokes one exception with our own handler
   installed (trap_vec.S) and compares mcause, mepc and mtval with the privileged
   specification. The program prints one line per check; the output is also compared
   between rvsim and QEMU. Exit status = number of failed checks. */
#include <stdint.h>
#include <stdio.h>

extern void trap_entry(void);
extern volatile uint32_t trap_record[7];   /* mcause mepc mtval mstatus t1 resume count */
extern volatile uint32_t trap_hit_vector;

#define CSRR(name) ({ uint32_t v_; __asm__ volatile("csrr %0, " #name : "=r"(v_)); v_; })
#define CSRW(name, v) __asm__ volatile("csrw " #name ", %0" :: "r"(v))

static int failures;

static void expect(const char *what, uint32_t got, uint32_t want)
{
    printf("%-34s %08lx %s\n", what, (unsigned long)got, got == want ? "ok" : "FAIL");
    if (got != want) {
        printf("  expected %08lx\n", (unsigned long)want);
        failures++;
    }
}

static void clear_record(void)
{
    for (int i = 0; i < 6; i++) trap_record[i] = 0;
}

/* The faulting instructions sit at known labels so mepc can be checked exactly. */
extern char illegal_at[], ecall_at[], ebreak_at[], lw_misaligned_at[], sw_misaligned_at[],
    lw_fault_at[], sw_fault_at[], csr_missing_at[], zbkb_at[], jump_fault_at[];

static void check_trap(const char *name, uint32_t cause, const char *pc, uint32_t tval)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s mcause", name);
    expect(buf, trap_record[0], cause);
    snprintf(buf, sizeof buf, "%s mepc", name);
    expect(buf, trap_record[1], (uint32_t)(uintptr_t)pc);
    snprintf(buf, sizeof buf, "%s mtval", name);
    expect(buf, trap_record[2], tval);
}

int main(void)
{
    uint32_t count0;
    CSRW(mtvec, (uint32_t)(uintptr_t)trap_entry);
    expect("mtvec direct reads back", CSRR(mtvec), (uint32_t)(uintptr_t)trap_entry);

    /* Illegal instruction: all-zero 32-bit word is reserved; mtval holds the bits or 0. */
    clear_record();
    __asm__ volatile(".globl illegal_at\nillegal_at: .word 0xffffffff" ::: "memory");
    check_trap("illegal", 2, illegal_at, 0xffffffff);

    /* ecall from M-mode: cause 11, mtval 0. */
    clear_record();
    __asm__ volatile(".globl ecall_at\necall_at: ecall" ::: "memory");
    check_trap("ecall", 11, ecall_at, 0);

    /* ebreak outside the semihosting sequence: cause 3. mtval may be 0 or the pc; rvsim
       writes 0, as QEMU does. */
    clear_record();
    __asm__ volatile(".option push\n.option norvc\n.globl ebreak_at\nebreak_at: ebreak\n.option pop" ::: "memory");
    check_trap("ebreak", 3, ebreak_at, 0);

    uint32_t tmp = 0;
#ifdef E31_MISALIGNED_TRAPS
    /* Misaligned load and store: causes 4 and 6, mtval = the address. The E31 traps on
       them; QEMU emulates them instead, so this part runs on rvsim only. */
    static volatile uint32_t words[4];
    uint32_t addr = (uint32_t)(uintptr_t)&words[1] + 1;
    clear_record();
    __asm__ volatile(".globl lw_misaligned_at\nlw_misaligned_at: lw %0, 0(%1)" : "=r"(tmp) : "r"(addr) : "memory");
    check_trap("lw misaligned", 4, lw_misaligned_at, addr);
    clear_record();
    __asm__ volatile(".globl sw_misaligned_at\nsw_misaligned_at: sw %0, 0(%1)" :: "r"(tmp), "r"(addr) : "memory");
    check_trap("sw misaligned", 6, sw_misaligned_at, addr);
#endif

#ifdef NO_RVC
    /* Without C, a jump to a 2-byte aligned target: cause 0, mepc = the jump, mtval = target. */
    extern char jump_misaligned_at[], after_misaligned_jump[];
    uint32_t odd_target = (uint32_t)(uintptr_t)after_misaligned_jump + 2;
    clear_record();
    trap_record[5] = (uint32_t)(uintptr_t)after_misaligned_jump;
    __asm__ volatile(".globl jump_misaligned_at, after_misaligned_jump\n"
                     "jump_misaligned_at: jalr x0, 0(%0)\n"
                     "after_misaligned_jump: nop\n nop" :: "r"(odd_target) : "memory");
    check_trap("jump misaligned", 0, jump_misaligned_at, odd_target);
#endif

    /* Access faults outside the memory map: causes 5 and 7. */
    uint32_t hole = 0xA0000000u;
    clear_record();
    __asm__ volatile(".globl lw_fault_at\nlw_fault_at: lw %0, 0(%1)" : "=r"(tmp) : "r"(hole) : "memory");
    check_trap("lw access fault", 5, lw_fault_at, hole);
    clear_record();
    __asm__ volatile(".globl sw_fault_at\nsw_fault_at: sw %0, 0(%1)" :: "r"(tmp), "r"(hole) : "memory");
    check_trap("sw access fault", 7, sw_fault_at, hole);

#ifdef E31_BOARD
    /* On the board map flash is read-only: a store to it is a store access fault. */
    extern char sw_flash_at[];
    uint32_t flash_word = (uint32_t)(uintptr_t)&main & ~3u;
    clear_record();
    __asm__ volatile(".globl sw_flash_at\nsw_flash_at: sw %0, 0(%1)" :: "r"(tmp), "r"(flash_word) : "memory");
    check_trap("sw to flash", 7, sw_flash_at, flash_word);
#endif

    /* Instruction access fault: jump into the hole, resume at the label after the call. */
    clear_record();
    trap_record[5] = (uint32_t)(uintptr_t)jump_fault_at;
    __asm__ volatile("jalr %0\n.globl jump_fault_at\njump_fault_at:" :: "r"(hole) : "ra", "memory");
    check_trap("fetch access fault", 1, (const char *)(uintptr_t)hole, hole);

    /* A CSR that does not exist (0x7c0, custom M read/write, not implemented): illegal. */
    clear_record();
    __asm__ volatile(".globl csr_missing_at\ncsr_missing_at: csrr %0, 0x7c0" : "=r"(tmp) :: "memory");
    check_trap("missing csr", 2, csr_missing_at, *(volatile uint32_t *)(uintptr_t)csr_missing_at);

    /* An instruction of an extension outside the ISA (Zbkb pack; the run has no Zbkb). */
    clear_record();
    __asm__ volatile(".globl zbkb_at\nzbkb_at: .insn r 0x33, 4, 4, %0, %0, %0" : "+r"(tmp) :: "memory");
    check_trap("zbkb outside isa", 2, zbkb_at, *(volatile uint32_t *)(uintptr_t)zbkb_at);

    /* mstatus: inside a trap MIE is 0 and MPIE holds the old MIE; mret restores MIE. */
    uint32_t mie_bit = 1u << 3, mpie_bit = 1u << 7;
    __asm__ volatile("csrs mstatus, %0" :: "r"(mie_bit));
    CSRW(mie, 0u);                               /* no interrupt sources enabled */
    clear_record();
    __asm__ volatile("ecall" ::: "memory");
    expect("mstatus.MIE in handler", trap_record[3] & mie_bit, 0);
    expect("mstatus.MPIE in handler", trap_record[3] & mpie_bit, mpie_bit);
    expect("mstatus.MPP in handler", (trap_record[3] >> 11) & 3, 3);
    expect("mstatus.MIE after mret", CSRR(mstatus) & mie_bit, mie_bit);
    expect("mstatus.MPIE after mret", CSRR(mstatus) & mpie_bit, mpie_bit);
    __asm__ volatile("csrc mstatus, %0" :: "r"(mie_bit));

    /* mtvec WARL: reserved modes 2 and 3 are not taken. */
    uint32_t base = (uint32_t)(uintptr_t)trap_entry;
    CSRW(mtvec, base | 2u);
    expect("mtvec mode 2 not stored", CSRR(mtvec) & 3u, 0);
    /* Vectored mode: exceptions still go to BASE. */
    CSRW(mtvec, base | 1u);
    expect("mtvec vectored reads back", CSRR(mtvec), base | 1u);
    count0 = trap_record[6];
    clear_record();
    __asm__ volatile("ecall" ::: "memory");
    expect("vectored: exception at BASE", trap_record[6] - count0, 1);
    expect("vectored: not an interrupt vector", trap_hit_vector, 0);
    expect("vectored: mcause", trap_record[0], 11);
    CSRW(mtvec, base);

    /* mscratch is a plain read/write register. */
    CSRW(mscratch, 0x5a5aa5a5u);
    expect("mscratch", CSRR(mscratch), 0x5a5aa5a5u);

    /* misa: MXL = 1 (32-bit), I and M and C set; a write does not break it. */
    uint32_t misa = CSRR(misa);
    expect("misa.MXL", misa >> 30, 1);
    expect("misa.I", (misa >> 8) & 1, 1);
    expect("misa.M", (misa >> 12) & 1, 1);
#ifdef NO_RVC
    expect("misa.C", (misa >> 2) & 1, 0);
#else
    expect("misa.C", (misa >> 2) & 1, 1);
#endif
    CSRW(misa, 0u);
    expect("misa.I after write of 0", (CSRR(misa) >> 8) & 1, 1);
    expect("mhartid", CSRR(mhartid), 0);

    /* mcountinhibit: with CY and IR set, mcycle and minstret stand still. */
    CSRW(mcountinhibit, 5u);
    uint32_t cy0 = CSRR(mcycle), ir0 = CSRR(minstret);
    for (volatile int k = 0; k < 10; k++) {}
    uint32_t cy1 = CSRR(mcycle), ir1 = CSRR(minstret);
    CSRW(mcountinhibit, 0u);
    expect("mcountinhibit stops mcycle", cy1 - cy0, 0);
    expect("mcountinhibit stops minstret", ir1 - ir0, 0);
    uint32_t ir2 = CSRR(minstret);
    expect("minstret runs again", CSRR(minstret) != ir2, 1);

    /* ecall round trip: many traps in a row return to the right place. */
    count0 = trap_record[6];
    for (int i = 0; i < 100; i++) __asm__ volatile("ecall" ::: "memory");
    expect("100 ecall round trips", trap_record[6] - count0, 100);

    printf("%d failures\n", failures);
    return failures;
}

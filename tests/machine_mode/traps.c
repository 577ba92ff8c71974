/* Machine-mode trap tests: each check provokes one exception with our own handler
   installed (trap_vec.S) and compares mcause, mepc and mtval with the privileged
   specification. The program prints one line per check; the output is also compared
   between rvsim and QEMU. Exit status = number of failed checks. */
#include <stdint.h>
#include <stdio.h>

extern void trap_entry(void);
int main(void);
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

/* The bits of the instruction at p as mtval holds them (16 bits for a compressed one),
   read as halfwords: with C an instruction may be only 2-byte aligned, and the E31
   variants trap on a misaligned lw. */
static uint32_t insn_bits(const char *p)
{
    uint32_t lo = *(volatile uint16_t *)(uintptr_t)p;
    if ((lo & 3) != 3) return lo;
    return lo | (uint32_t)*(volatile uint16_t *)(uintptr_t)(p + 2) << 16;
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

/* check_trap for an exception of which QEMU 7.2 reports mcause (QEMU_CAUSE) or mtval
   (QEMU_TVAL) differently from the specification: those are compared with the
   specification only, in the SPEC_ONLY build (rvsim); the rest also with QEMU. */
enum { QEMU_CAUSE = 1, QEMU_TVAL = 2 };

static void check_trap_qemu(const char *name, uint32_t cause, const char *pc, uint32_t tval, int qemu_differs)
{
    char buf[64];
#ifdef SPEC_ONLY
    qemu_differs = 0;
#endif
    if (!(qemu_differs & QEMU_CAUSE)) {
        snprintf(buf, sizeof buf, "%s mcause", name);
        expect(buf, trap_record[0], cause);
    }
    snprintf(buf, sizeof buf, "%s mepc", name);
    expect(buf, trap_record[1], (uint32_t)(uintptr_t)pc);
    if (!(qemu_differs & QEMU_TVAL)) {
        snprintf(buf, sizeof buf, "%s mtval", name);
        expect(buf, trap_record[2], tval);
    }
}

/* ---- CSR rules: read-only, missing, WARL (issue 8 audit) ---- */

/* A write to a read-only CSR raises illegal instruction with mtval = the instruction bits;
   an access that does not write (csrrs/csrrc with rs1 = x0, csrrsi/csrrci with uimm = 0)
   only reads it and does not trap. */
#define CSR_WRITE_TRAPS(csr) do {                                                        \
        extern char csr##_write_at[];                                                     \
        clear_record();                                                                   \
        __asm__ volatile(".globl " #csr "_write_at\n" #csr "_write_at: csrw " #csr ", %0" \
                         :: "r"(1u) : "memory");                                          \
        check_trap(#csr " write", 2, csr##_write_at, insn_bits(csr##_write_at));        \
    } while (0)

#define CSR_READS_DO_NOT_TRAP(csr) do {                                                  \
        uint32_t n0_ = trap_record[6], v_ = CSRR(csr), a_, b_, c_, d_;                   \
        __asm__ volatile("csrrs %0, " #csr ", x0\n csrrc %1, " #csr ", x0\n"              \
                         "csrrsi %2, " #csr ", 0\n csrrci %3, " #csr ", 0"                 \
                         : "=r"(a_), "=r"(b_), "=r"(c_), "=r"(d_) :: "memory");          \
        expect(#csr " csrs/csrc x0, uimm 0: no trap", trap_record[6] - n0_, 0);          \
        expect(#csr " they read the value", (a_ == v_) + (b_ == v_) + (c_ == v_) + (d_ == v_), 4); \
    } while (0)

static void check_csr_rules(void)
{
    /* mstatush (RV32): MBE/SBE 0 for a little-endian hart, nothing else without H. */
    expect("mstatush reads 0", CSRR(mstatush), 0);

    /* Machine information registers are read-only (privileged spec 2.1: 0xF11-0xF13 are
       MRO by their number). Their values differ by core (SiFive 0x489 on the E31 model,
       0 on QEMU's generic CPU), so only the access rules are printed. */
    CSR_WRITE_TRAPS(mvendorid);
    CSR_WRITE_TRAPS(marchid);
    CSR_WRITE_TRAPS(mimpid);
    CSR_WRITE_TRAPS(mhartid);
    CSR_READS_DO_NOT_TRAP(mvendorid);
    CSR_READS_DO_NOT_TRAP(marchid);
    CSR_READS_DO_NOT_TRAP(mimpid);
#ifdef E31_MISALIGNED_TRAPS
    /* the E31 model's JEDEC vendor id: SiFive, bank 10 (9 continuation codes), 0x09 */
    expect("mvendorid SiFive (E31)", CSRR(mvendorid), 9u << 7 | 0x09);
#endif

    /* A write to a CSR that does not exist (0x7c0, custom, not implemented) and a write to
       the read-only user counter cycle: illegal instruction, mtval = the instruction. */
    CSR_WRITE_TRAPS(cycle);
    {
        extern char csr_missing_write_at[];
        clear_record();
        __asm__ volatile(".globl csr_missing_write_at\ncsr_missing_write_at: csrw 0x7c0, %0" :: "r"(1u) : "memory");
        check_trap("missing csr write", 2, csr_missing_write_at, insn_bits(csr_missing_write_at));
    }

    /* mie WARL: MSIE, MTIE and MEIE (bits 3, 7, 11) are writable on every M-mode hart. */
    CSRW(mie, ~0u);
    uint32_t mie_all = CSRR(mie);
    CSRW(mie, 0u);
    expect("mie MSIE/MTIE/MEIE writable", mie_all & 0x888u, 0x888u);
    expect("mie written 0", CSRR(mie), 0);

    /* mtvec: a write of reserved mode 2 or 3 is ignored as a whole (the WARL choice of
       rvsim and of QEMU; the specification only forbids keeping the reserved mode). */
    uint32_t base = (uint32_t)(uintptr_t)trap_entry, other = base + 0x100;
    CSRW(mtvec, other | 2u);
    expect("mtvec mode 2 write ignored", CSRR(mtvec), base);
    CSRW(mtvec, other | 3u);
    expect("mtvec mode 3 write ignored", CSRR(mtvec), base);

    /* Counter high halves (RV32): mcycleh and minstreth are writable, cycleh/instreth
       read the same counters. The low half is cleared first so no carry can intervene. */
    CSRW(mcycle, 0u);
    CSRW(mcycleh, 0x1234u);
    expect("mcycleh written", CSRR(mcycleh), 0x1234u);
    expect("cycleh reads mcycleh", CSRR(cycleh), 0x1234u);
    CSRW(minstret, 0u);
    CSRW(minstreth, 0x5678u);
    expect("minstreth written", CSRR(minstreth), 0x5678u);
    expect("instreth reads minstreth", CSRR(instreth), 0x5678u);
    CSRW(mcycleh, 0u);
    CSRW(minstreth, 0u);

#ifdef SPEC_ONLY
    /* Checks where QEMU (-cpu rv32: S, U and H modes, and a platform timer) legitimately
       differs from a hart with M-mode only, or where QEMU 7.2 does not follow the
       specification: against the specification, on rvsim only. */

    /* mstatush: MBE/SBE are read-only 0 on a little-endian-only hart and there is no
       MPV/GVA without H (QEMU's rv32 has H: those two are writable there). */
    CSRW(mstatush, ~0u);
    expect("mstatush after writing ones", CSRR(mstatush), 0);
    /* mie: without S mode SSIE/STIE/SEIE are read-only 0, without Sscofpmf LCOFIE too
       (QEMU's rv32 implements them): exactly MSIE, MTIE, MEIE. */
    expect("mie exactly MSIE/MTIE/MEIE", mie_all, 0x888u);
    /* mip: MSIP/MTIP/MEIP are read-only (set by the interrupt controller) and this hart
       has no interrupt source: 0, also after a write of ones (QEMU's virt board has a
       timer whose compare register resets to 0, and S-level bits that M-mode can set). */
    expect("mip reads 0", CSRR(mip), 0);
    CSRW(mip, ~0u);
    expect("mip after writing ones", CSRR(mip), 0);
    /* Zicsr: csrrs/csrrc with rs1 != x0 write the CSR even when the register holds 0, so
       on a read-only CSR they trap (QEMU 7.2 decides on the register's value instead). */
    {
        extern char mvendorid_set0_at[];
        clear_record();
        __asm__ volatile(".globl mvendorid_set0_at\nmvendorid_set0_at: csrs mvendorid, %0" :: "r"(0u) : "memory");
        check_trap("csrs mvendorid, (zero reg)", 2, mvendorid_set0_at, insn_bits(mvendorid_set0_at));
    }
    /* The counters are 64 bits wide: a carry out of the low half reaches the high half
       (QEMU 7.2 derives each half from the host clock separately). */
    CSRW(minstreth, 7u);
    CSRW(minstret, 0xffffff00u);
    for (volatile int k = 0; k < 100; k++) {}
    expect("minstret carries into minstreth", CSRR(minstreth), 8u);
    CSRW(mcycleh, 7u);
    CSRW(mcycle, 0xffffff00u);
    for (volatile int k = 0; k < 100; k++) {}
    expect("mcycle carries into mcycleh", CSRR(mcycleh), 8u);
    CSRW(mcycleh, 0u);
    CSRW(minstreth, 0u);
#endif
}

#ifdef NO_RVC
/* ---- Misaligned jal and branch targets without C (IALIGN = 32) ---- */
static void check_misaligned_jumps(void)
{
    /* jal to a 2-byte aligned target: cause 0, mepc = the jal, mtval = the target (the
       faulting address, privileged spec 3.1.16; QEMU 7.2 writes an earlier pc for jal and
       taken branches, not the target -- its jalr, checked above, is right), and
       the jal does not retire (its link register keeps its old value). */
    extern char jal_misaligned_at[], after_misaligned_jal[];
    uint32_t target = (uint32_t)(uintptr_t)after_misaligned_jal + 2;
    uint32_t link = 0x5a5a5a5au;
    clear_record();
    trap_record[5] = (uint32_t)(uintptr_t)after_misaligned_jal;
    __asm__ volatile(".globl jal_misaligned_at, after_misaligned_jal\n"
                     "jal_misaligned_at: jal %0, after_misaligned_jal + 2\n"
                     "after_misaligned_jal: nop\n nop" : "+r"(link) :: "memory");
    check_trap_qemu("jal misaligned", 0, jal_misaligned_at, target, QEMU_TVAL);
    expect("jal misaligned: rd not written", link, 0x5a5a5a5au);

    /* taken conditional branch to a 2-byte aligned target: the same */
    extern char beq_misaligned_at[], after_misaligned_beq[];
    target = (uint32_t)(uintptr_t)after_misaligned_beq + 2;
    clear_record();
    trap_record[5] = (uint32_t)(uintptr_t)after_misaligned_beq;
    __asm__ volatile(".globl beq_misaligned_at, after_misaligned_beq\n"
                     "beq_misaligned_at: beq %0, %0, after_misaligned_beq + 2\n"
                     "after_misaligned_beq: nop\n nop" :: "r"(1u) : "memory");
    check_trap_qemu("beq misaligned", 0, beq_misaligned_at, target, QEMU_TVAL);

    /* a branch that is not taken does not trap, whatever its target */
    uint32_t n0 = trap_record[6];
    __asm__ volatile("bne %0, %0, 1f + 2\n"
                     "1: nop\n nop" :: "r"(1u) : "memory");
    expect("bne not taken, misaligned target", trap_record[6] - n0, 0);
}
#endif

#ifdef __riscv_atomic
/* ---- LR/SC and AMOs: misaligned addresses and access faults (mtval = the address) ---- */

/* `insn rd, rs2, (rs1)` at a label must trap with `cause` at that label and mtval = addr,
   and must not write rd (qemu_differs: see check_trap_qemu). */
#define ATOMIC_TRAP(name, insn, addr, cause, qemu_differs) do {                   \
        extern char name##_at[];                                                           \
        uint32_t rd_ = 0x5a5a5a5au;                                                        \
        clear_record();                                                                    \
        __asm__ volatile(".globl " #name "_at\n" #name "_at: " insn " %0, %1, (%2)"       \
                         : "+r"(rd_) : "r"(1u), "r"(addr) : "memory");                    \
        check_trap_qemu(#name, cause, name##_at, addr, qemu_differs);              \
        expect(#name ": rd not written", rd_, 0x5a5a5a5au);                               \
    } while (0)
#define LR_TRAP(name, addr, cause) do {                                                  \
        extern char name##_at[];                                                           \
        uint32_t rd_ = 0x5a5a5a5au;                                                        \
        clear_record();                                                                    \
        __asm__ volatile(".globl " #name "_at\n" #name "_at: lr.w %0, (%1)"               \
                         : "+r"(rd_) : "r"(addr) : "memory");                             \
        check_trap(#name, cause, name##_at, addr);                                         \
        expect(#name ": rd not written", rd_, 0x5a5a5a5au);                               \
    } while (0)

static volatile uint32_t amo_words[4] __attribute__((aligned(16)));

static void check_atomics(void)
{
    uint32_t mis = (uint32_t)(uintptr_t)&amo_words[1] + 2, hole = 0xA0000000u, v, ok;
    amo_words[1] = amo_words[2] = 0x11111111u;

    /* LR is a load: misaligned -> cause 4, outside the memory map -> load access fault 5.
       The A extension requires natural alignment, so it traps even where plain loads are
       emulated (QEMU). */
    LR_TRAP(lr_misaligned, mis, 4);
    LR_TRAP(lr_fault, hole, 5);

    /* AMOs are store/AMO accesses (privileged spec 3.1.15): misaligned -> 6, access fault
       -> 7. QEMU 7.2 raises the load causes (4 and 5) for them: it performs the read half
       of the AMO first; mepc and mtval agree. */
    ATOMIC_TRAP(amoadd_misaligned, "amoadd.w", mis, 6, QEMU_CAUSE);
    ATOMIC_TRAP(amoswap_misaligned, "amoswap.w", mis, 6, QEMU_CAUSE);
    ATOMIC_TRAP(amoadd_fault, "amoadd.w", hole, 7, QEMU_CAUSE);
    ATOMIC_TRAP(amoor_fault, "amoor.w", hole, 7, QEMU_CAUSE);
    expect("faulting AMOs left memory alone", amo_words[1] == 0x11111111u && amo_words[2] == 0x11111111u, 1);

#ifdef SPEC_ONLY
    /* SC: "If the address is not naturally aligned, an address-misaligned exception or an
       access-fault exception will be generated" (Zalrsc) -- also for an SC that would fail
       -- and "no SC.W instruction shall retire unless it passes memory permission checks":
       an SC outside the memory map faults, reservation or not. QEMU 7.2 checks neither
       when the address is not the reserved one and writes 1 (failure) to rd instead. */
    __asm__ volatile("lr.w %0, (%1)" : "=r"(v) : "r"(&amo_words[1]) : "memory");
    ATOMIC_TRAP(sc_misaligned_reserved, "sc.w", mis, 6, 0);
    ATOMIC_TRAP(sc_misaligned, "sc.w", mis, 6, 0);
    ATOMIC_TRAP(sc_fault, "sc.w", hole, 7, 0);
    expect("faulting SCs left memory alone", amo_words[1] == 0x11111111u && amo_words[2] == 0x11111111u, 1);
#endif

    /* after the traps, an LR/SC pair on a good word works, a second SC fails (the first
       invalidated the reservation), and an AMO returns the old value and stores the sum */
    __asm__ volatile("lr.w %0, (%2)\n sc.w %1, %3, (%2)" : "=&r"(v), "=&r"(ok) : "r"(&amo_words[1]), "r"(0x22u) : "memory");
    expect("lr.w after the traps", v, 0x11111111u);
    expect("sc.w after the traps succeeds", ok, 0);
    __asm__ volatile("sc.w %0, %2, (%1)" : "=&r"(ok) : "r"(&amo_words[1]), "r"(0x33u) : "memory");
    expect("second sc.w fails", ok != 0, 1);
    __asm__ volatile("amoadd.w %0, %2, (%1)" : "=r"(v) : "r"(&amo_words[1]), "r"(5u) : "memory");
    expect("amoadd.w returns the old value", v, 0x22u);
    expect("amoadd.w stores the sum", amo_words[1], 0x27u);

#ifdef E31_BOARD
    /* flash is read-only on the board: an AMO there, an SC after a successful LR from
       there, and an SC there without a reservation are store/AMO access faults */
    uint32_t flash_word = (uint32_t)(uintptr_t)&main & ~3u;
    ATOMIC_TRAP(amoadd_flash, "amoadd.w", flash_word, 7, 0);
    __asm__ volatile("lr.w %0, (%1)" : "=r"(v) : "r"(flash_word) : "memory");
    ATOMIC_TRAP(sc_flash_reserved, "sc.w", flash_word, 7, 0);
    ATOMIC_TRAP(sc_flash, "sc.w", flash_word, 7, 0);
#endif
}
#endif

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
    check_trap("missing csr", 2, csr_missing_at, insn_bits(csr_missing_at));

    /* An instruction of an extension outside the ISA (Zbkb pack; the run has no Zbkb). */
    clear_record();
    __asm__ volatile(".globl zbkb_at\nzbkb_at: .insn r 0x33, 4, 4, %0, %0, %0" : "+r"(tmp) :: "memory");
    check_trap("zbkb outside isa", 2, zbkb_at, insn_bits(zbkb_at));

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

    check_csr_rules();
#ifdef NO_RVC
    check_misaligned_jumps();
#endif
#ifdef __riscv_atomic
    check_atomics();
#endif

    /* ecall round trip: many traps in a row return to the right place. */
    count0 = trap_record[6];
    for (int i = 0; i < 100; i++) __asm__ volatile("ecall" ::: "memory");
    expect("100 ecall round trips", trap_record[6] - count0, 100);

    printf("%d failures\n", failures);
    return failures;
}

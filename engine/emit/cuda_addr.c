/* cuda_addr.c -- the address registers of a role's weak accesses in the
 * one-GPU harness.  A weak load or store reads through an address
 * register of its own, the location's plus an opaque zero times the
 * access's index (x<idx> = a + z * (idx + 1), z = budget >> 31, which is
 * 0, as the program takes budgets of 1 to 2^30, but which ptxas cannot
 * know), so that ptxas cannot prove two weak accesses of a location use
 * one address and merge them.  With the location's register for both,
 * it replaced the second of two weak loads of x with the first across
 * an ld.acquire between them (rand-s224-44 on an H100, CUDA 13.0: one
 * LDG.E for both in the SASS, and histograms with outcomes the model
 * forbids; none with -Xptxas -O0:
 * tests/hw/observed/h100-2026-11-27-harness/weak-addr/); it may also
 * drop a weak store that a later one overwrites.  Strong accesses keep
 * the location's register: ptxas keeps them as written. */
#include "../program/ir.h"
#include "emit.h"

int wl__cuda_own_address(const wl_insn *in) {
  return (in->op == OP_LD || in->op == OP_ST) && in->sem == WL_SEM_WEAK;
}

void wl__cuda_put_own_addresses(wl_buf *b, const wl_thread *tt,
                                const int *argloc) {
  int i, n = 0;
  for (i = 0; i < tt->ninsns; i++)
    n += wl__cuda_own_address(&tt->insns[i]);
  if (n == 0)
    return;
  /* after the budget's register (RP "bud") is set */
  wl__buf_printf(b, "    \".reg .b64 " RP "x<%d>;\\n\\t\"\n"
                    "    \".reg .b64 " RP "z;\\n\\t\"\n"
                    "    \"cvt.u64.u32 " RP "z, " RP "bud;\\n\\t\"\n"
                    "    \"shr.u64 " RP "z, " RP "z, 31;\\n\\t\"\n",
                 tt->ninsns);
  for (i = 0; i < tt->ninsns; i++)
    if (wl__cuda_own_address(&tt->insns[i]))
      wl__buf_printf(b,
                     "    \"mad.lo.u64 " RP "x%d, " RP "z, %d, " RP
                     "a%d;\\n\\t\"\n",
                     i, i + 1, argloc[tt->insns[i].loc]);
}

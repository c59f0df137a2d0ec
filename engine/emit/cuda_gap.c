/* cuda_gap.c -- the one-GPU harness's stall inside a role (--gap G):
 * before one drawn instruction of the role (drawn per warp and launch,
 * harness_check.cu's role_gap) the thread waits a drawn number of SM
 * cycles in [0, G), reading %clock64 in a loop: no memory access and no
 * fence, so the test's program order and its accesses are as written.
 * A start delay (--delay) moves a whole role against the others; a
 * stall opens a window between two adjacent instructions of one role,
 * where SC states that need another role's instructions to land between
 * them (two back-to-back loads of one location reading different
 * stores, say) are otherwise almost never seen.  The role's inline-PTX
 * statement takes one more operand, the packed draw: the instruction's
 * index << 24 | the cycles (0: no stall). */
#include "../program/ir.h"
#include "emit.h"

void wl__cuda_put_gap_regs(wl_buf *b, int operand) {
  wl__buf_printf(b, "    \".reg .b32 " RP "gi;\\n\\t\"\n"
                    "    \".reg .b64 " RP "gc<3>;\\n\\t\"\n"
                    "    \".reg .b32 " RP "gp;\\n\\t\"\n"
                    "    \".reg .pred " RP "gq;\\n\\t\"\n"
                    "    \"shr.b32 " RP "gp, %%%d, 24;\\n\\t\"\n"
                    "    \"and.b32 " RP "gi, %%%d, 16777215;\\n\\t\"\n",
                 operand, operand);
}

void wl__cuda_put_gap(wl_buf *b, int i) {
  /* wl_rgp: the drawn instruction's index, wl_rgi: the cycles */
  wl__buf_printf(b, "    \"setp.ne.u32 " RP "gq, " RP "gp, %d;\\n\\t\"\n"
                    "    \"@" RP "gq bra " RP "GS%d;\\n\\t\"\n"
                    "    \"cvt.u64.u32 " RP "gc2, " RP "gi;\\n\\t\"\n"
                    "    \"mov.u64 " RP "gc0, %%%%clock64;\\n\\t\"\n"
                    "    \"" RP "GW%d:\\n\\t\"\n"
                    "    \"mov.u64 " RP "gc1, %%%%clock64;\\n\\t\"\n"
                    "    \"sub.u64 " RP "gc1, " RP "gc1, " RP "gc0;\\n\\t\"\n"
                    "    \"setp.lt.u64 " RP "gq, " RP "gc1, " RP
                    "gc2;\\n\\t\"\n"
                    "    \"@" RP "gq bra " RP "GW%d;\\n\\t\"\n"
                    "    \"" RP "GS%d:\\n\\t\"\n",
                 i, i, i, i, i);
}

/* The device function that runs role r of an instance (test_kernel's
 * dispatch); one GPU: role_N_gap when the draw stalls (gap != 0), else
 * role_N, the statement as it always was; role_len(r): the instructions
 * of role r, where the stall may go (1, never, for a role whose
 * statement has no room for the operand: inline asm takes 30). */
void wl__cuda_put_dispatch(wl_buf *b, const wl_litmus *t, const int *regoff,
                           const int *nostall, int two) {
  int th;
  if (!two) {
    wl__buf_puts(b, "/* --gap: the instructions of each role */\n"
                    "static __host__ __device__ int role_len(int r) {\n"
                    "  const int n[NROLES] = {");
    for (th = 0; th < t->nthreads; th++) /* 1: never stalls */
      wl__buf_printf(b, "%s%d", th ? ", " : "",
                     nostall[th] ? 1 : t->threads[th].ninsns);
    wl__buf_puts(b, "};\n  return n[r];\n}\n");
  }
  wl__buf_printf(b, "/* one role of one instance per thread (test_kernel) */\n"
                    "static __device__ __forceinline__ void dispatch(int role, "
                    "unsigned *const *loc,\n    int *regs, unsigned *hung, "
                    "int budget%s) {\n  switch (role) {\n",
                 two ? "" : ", unsigned gap");
  for (th = 0; th < t->nthreads; th++) {
    wl__buf_printf(b, "  case %d:\n", th);
    if (!two)
      wl__buf_printf(b, "    if (gap != 0)\n      role_%d_gap(loc, regs + %d, "
                        "hung, budget, gap);\n    else\n  ",
                     th, regoff[th]);
    wl__buf_printf(b, "    role_%d(loc, regs + %d, hung, budget);\n"
                      "    break;\n", th, regoff[th]);
  }
  wl__buf_puts(b, "  default:\n    break;\n  }\n}\n\n");
}

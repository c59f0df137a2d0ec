 *
 * The test's threads are on two GPUs (or a location lives on a GPU
 * without threads): this program needs two GPUs, CUDA devices 0 and 1
 * (the test's gpu 0 and gpu 1), with peer access (NVLink or PCIe).
 *
 * Build: nvcc -O3 -arch=sm_90 -o test test.cu   (sm_70 or later: the
 *        memory-model qualifiers of PTX 6.0 need Volta)
 * Run:   ./test [--blocks N] [--threads N] [--launches N] [--rounds N]
 *          [--stress N] [--stress-iters N] [--spacing N] [--seed S]
 *          [--budget N] [--no-shuffle] [--perms N] [--timeout-ms N]
 *          (./test --help lists them; --blocks=N works too)  The names
 *          are warplab cuda's, whose settings are the defaults; the short
 *          forms -b -t -n -R -s -i -w -r -B -p -T still work.
 * Prints the histogram of outcomes in the format of `warplab sample`,
 * after '#' lines naming the GPUs, the driver, the date and the harness
 * settings; `warplab compare OUTPUT TEST.litmus` puts it beside what the
 * PTX model allows.
 *
 * The harness: each GPU gets one launch per LAUNCHES that plays only the
 * roles (test threads) placed on it.  A launch has BLOCKS x (THREADS /
 * roles) slots; the GPU threads of a slot (one per role, on either GPU)
 * run ROUNDS instances one after another, each in fresh copies of the
 * locations, and hold each other to the rounds: before round r a role
 * waits until every other role of its slot has finished round r - 1
 * (a word per role and slot, stored with st.relaxed.sys after a
 * fence.sc.sys, in the memory of the first location's home GPU).  A role
 * that waits longer than TIMEOUT_MS gives up: its remaining instances
 * count as hung.  Every block must be resident at once (the program
 * checks).  Each location lives in its home GPU's memory (cudaMalloc on
 * that GPU; `x = 0 @ gpu 1`; default: thread P0's GPU) and the other GPU
 * reaches it through peer access.  Roles in the same CTA of the test
 * share a block in different warps; roles in different CTAs are in
 * different blocks, drawn anew for each of PERMS tables.  With SPACING >
 * 1 the STRESS_BLOCKS blocks of each GPU (launched first) load and store
 * the words between the instances' copies, else a scratch area.  A
 * backward branch spends one of BUDGET steps; a role that runs out ends,
 * and its instance counts as hung.  A role whose computed value leaves
 * 32 bits (the model's values are 64-bit) ends too, and its instance is
 * counted on the "Wide" line instead of in the histogram.  Outcomes are counted on GPU 0 in a
 * hash table of final states, reading GPU 1's memory through the peer
 * mapping after both launches end.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>


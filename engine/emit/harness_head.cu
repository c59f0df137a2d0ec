 *
 * Build: nvcc -O3 -arch=sm_90 -o test test.cu   (sm_70 or later: the
 *        memory-model qualifiers of PTX 6.0 need Volta)
 * Run:   ./test [--blocks N] [--threads N] [--launches N] [--stress N]
 *          [--stress-iters N] [--spacing N] [--seed S] [--budget N]
 *          [--no-shuffle] [--sm any|same|different] [--perms N]
 *          [--device D]      (./test --help lists them; --blocks=N works
 *          too)  The names are warplab cuda's, whose settings are the
 *          defaults; the short forms -b -t -n -s -i -w -r -B -S -p -d
 *          still work.
 * Prints the histogram of outcomes in the format of `warplab sample`,
 * after '#' lines naming the GPU, the driver, the date and the harness
 * settings; `warplab compare OUTPUT TEST.litmus` puts it beside what the
 * PTX model allows.
 *
 * The harness: every launch runs BLOCKS x (THREADS / roles) instances;
 * each thread of a test block plays one role (test thread) of one
 * instance.  Roles in the same CTA of the test share a block and sit in
 * different warps (their block is cut into one region of whole warps per
 * role where it can be); roles in different CTAs are in different
 * blocks.  Which block and which thread plays which role is drawn anew
 * for each of PERMS tables, used in turn by the launches.  Each global
 * location is an array with one word per instance, SPACING words apart;
 * with SPACING > 1 the STRESS_BLOCKS blocks (launched first) load and
 * store the other words of those cache lines, else a scratch area.  A
 * backward branch spends one of BUDGET steps; a role that runs out ends,
 * and its instance counts as hung.  A role whose computed value leaves
 * 32 bits (the model's values are 64-bit) ends too, and its instance is
 * counted on the "Wide" line instead of in the histogram.  Outcomes are counted on the GPU in a
 * hash table of final states.  CUDA puts blocks on SMs itself: with --sm
 * same (different) each block notes its SM (%smid) and only the
 * instances whose blocks all ran on one SM (on several) are counted; a
 * '#' line gives how many instances each class had.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>


/* ---------------------------------------------------------------- */
/* The tables the host draws and checks (--check-roles): which thread */
/* plays which role, and how long each role waits before it starts    */

/* --delay D: after the rendezvous each warp of a role waits a drawn
 * number of SM clock cycles in [0, D) before its statement, so that
 * the roles of an instance start at offsets from "together" to "one
 * role entirely first" (litmus7's per-instance start delays).  The draw
 * is per warp, not per lane: the lanes of a warp leave a divergent wait
 * together (they reconverge after it), so per-lane waits would all
 * last the longest lane's.  Half the warps draw from [0, D), half from
 * [0, D / 16): offsets of a few cycles (instruction by instruction
 * interleavings) are as likely as offsets of thousands.  The salt is
 * the launch's, from the seed: the same seed gives the same waits. */
static __host__ __device__ unsigned long long delay_salt(
    unsigned long long seed, int launch) {
  unsigned long long z = (seed + 0x9E3779B97F4A7C15ULL *
                                     (unsigned long long)(launch + 1));
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static __host__ __device__ unsigned role_delay(unsigned long long salt,
                                               unsigned block, unsigned warp,
                                               unsigned d) {
  unsigned long long z = salt ^ ((unsigned long long)block << 16 | warp);
  unsigned w;
  if (d == 0)
    return 0;
  z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
  z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
  z ^= z >> 33;
  w = (unsigned)((z >> 8) % d);
  return (z & 1) ? w / 16 : w;
}

/* Every role of every instance has exactly one thread in the table
 * (B blocks of S threads, m instances per instance block): 0, else the
 * first instance whose role is missing or doubled. */
static long check_roles(const int *tab, int B, int S, int m) {
  std::vector<unsigned char> seen((size_t)B * m * NROLES, 0);
  for (size_t k = 0; k < (size_t)B * S; k++)
    if (tab[k] >= 0 && seen[(size_t)tab[k]]++ != 0)
      return tab[k] / NROLES + 1;
  for (size_t k = 0; k < seen.size(); k++)
    if (seen[k] != 1)
      return (long)(k / NROLES) + 1;
  /* whole warps per role (m >= 32, or a warp per role with ONE_PER_CTA):
   * two roles of an instance in one block sit in different warps */
  if (ONE_PER_CTA || m >= 32) {
    std::vector<size_t> at((size_t)B * m * NROLES);
    for (size_t k = 0; k < (size_t)B * S; k++)
      if (tab[k] >= 0)
        at[(size_t)tab[k]] = k;
    for (size_t i = 0; i < (size_t)B * m; i++)
      for (int r = 0; r < NROLES; r++)
        for (int q = r + 1; q < NROLES; q++) {
          size_t a = at[i * NROLES + r], c = at[i * NROLES + q];
          if (a / S == c / S && a % S / 32 == c % S / 32)
            return (long)i + 1;
        }
  }
  return 0;
}

/* --delay D: the waits the roles of the instances of one launch draw
 * (blocks start at first_block; B blocks of S threads) fall in [0, D),
 * and they give each schedule a share: for each pair of roles, starts
 * less than D / 64 apart ("together"), and each role of the pair first
 * by D / 4 or more, in at least 5% of the instances each (where there
 * are 4096 pairs or more and D is 64 or more: a small table has few
 * warps, hence few draws).  0, else the first failure's text in why. */
static int check_delays(const int *tab, int B, int S, int first_block,
                        unsigned long long salt, int d, char *why,
                        size_t nwhy, double share[3]) {
  std::vector<long long> at((size_t)B * S, -1);
  long long n = 0, cnt[3] = {0, 0, 0};
  for (size_t k = 0; k < (size_t)B * S; k++)
    if (tab[k] >= 0) {
      unsigned w = role_delay(salt, (unsigned)(first_block + k / S),
                              (unsigned)(k % S / 32), (unsigned)d);
      if (w >= (unsigned)d) {
        snprintf(why, nwhy, "a wait of %u cycles, not below %d", w, d);
        return 1;
      }
      at[(size_t)tab[k]] = w;
    }
  for (size_t i = 0; i + NROLES <= at.size(); i += NROLES)
    for (int r = 0; r < NROLES; r++)
      for (int q = r + 1; q < NROLES; q++) {
        long long a = at[i + r], c = at[i + q];
        if (a < 0 || c < 0)
          continue;
        n++;
        cnt[0] += (a - c) * 64 < d && (c - a) * 64 < d;
        cnt[1] += (c - a) * 4 >= d;
        cnt[2] += (a - c) * 4 >= d;
      }
  for (int k = 0; k < 3; k++) {
    share[k] = n ? (double)cnt[k] / (double)n : 0;
    if (n >= 4096 && d >= 64 && cnt[k] * 20 < n) {
      snprintf(why, nwhy, "%s in %.1f%% of %lld pairs of roles (5%% or more "
               "wanted)", k == 0 ? "starts together" : k == 1 ?
               "the first role of a pair first" : "the second role first",
               100.0 * share[k], n);
      return 1;
    }
  }
  return 0;
}

/* --gap G: the stall of a warp of a role of len instructions: before
 * instruction 1..len-1, drawn, for a number of SM cycles in [0, G),
 * drawn, packed as the index << 24 | the cycles (cuda_gap.c reads it);
 * 0 (none) for a role of one instruction.  Drawn per warp, as the
 * start waits are, from the launch's salt. */
static __host__ __device__ unsigned role_gap(unsigned long long salt,
                                             unsigned block, unsigned warp,
                                             int len, unsigned g) {
  unsigned long long z = (salt ^ 0xD6E8FEB86659FD93ULL) ^
                         ((unsigned long long)block << 16 | warp);
  if (g == 0 || len < 2)
    return 0;
  z = (z ^ (z >> 32)) * 0xD6E8FEB86659FD93ULL;
  z = (z ^ (z >> 32)) * 0xD6E8FEB86659FD93ULL;
  z ^= z >> 32;
  return (unsigned)(1 + (z >> 40) % (unsigned)(len - 1)) << 24 |
         (unsigned)((z & 0xFFFFFFu) % g);
}

/* --gap G: each thread's stall is before an instruction of its role
 * (1..len-1) and under G cycles; with 4096 role threads or more and
 * G >= 64, every instruction 1..len-1 of every role is drawn for at
 * least a quarter of its fair share, and some stalls last G/2 or
 * more.  0, else what failed in why. */
static int check_gaps(const int *tab, int B, int S, int first_block,
                      unsigned long long salt, int g, char *why,
                      size_t nwhy) {
  std::vector<long long> cnt((size_t)NROLES * 256, 0), n(NROLES, 0);
  long long total = 0, long_ = 0;
  for (size_t k = 0; k < (size_t)B * S; k++) {
    int r;
    unsigned w, at;
    if (tab[k] < 0)
      continue;
    r = tab[k] % NROLES;
    w = role_gap(salt, (unsigned)(first_block + k / S),
                 (unsigned)(k % S / 32), role_len(r), (unsigned)g);
    at = w >> 24;
    if (role_len(r) >= 2 && (at < 1 || (int)at >= role_len(r) ||
                             (w & 0xFFFFFFu) >= (unsigned)g)) {
      snprintf(why, nwhy, "role %d: a stall before instruction %u of %d, "
               "%u cycles (G %d)", r, at, role_len(r), w & 0xFFFFFFu, g);
      return 1;
    }
    if (role_len(r) >= 2 && at < 256) {
      cnt[(size_t)r * 256 + at]++;
      n[r]++;
      total++;
      long_ += (w & 0xFFFFFFu) * 2 >= (unsigned)g;
    }
  }
  if (total < 4096 || g < 64)
    return 0;
  for (int r = 0; r < NROLES; r++)
    for (int i = 1; i < role_len(r) && i < 256; i++)
      if (cnt[(size_t)r * 256 + i] * 4 * (role_len(r) - 1) < n[r]) {
        snprintf(why, nwhy, "role %d: instruction %d drawn for %lld of %lld "
                 "threads", r, i, cnt[(size_t)r * 256 + i], n[r]);
        return 1;
      }
  if (long_ * 4 < total) {
    snprintf(why, nwhy, "stalls of G/2 cycles or more for %lld of %lld "
             "threads", long_, total);
    return 1;
  }
  return 0;
}


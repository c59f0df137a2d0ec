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


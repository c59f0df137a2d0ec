/* ---------------------------------------------------------------- */
/* The harness's host side: the tables, the options, the runs, --tune */

static unsigned long long rng;

static unsigned long long rnd(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545F4914F6CDD1DULL;
}

static void shuffle_ints(int *a, int n) {
  for (int i = n - 1; i > 0; i--) {
    int k = (int)(rnd() % (unsigned long long)(i + 1)), x = a[i];
    a[i] = a[k];
    a[k] = x;
  }
}

/* One table of roles: instance block ib's group g goes to block
 * blk[g * B + ib], a permutation of the blocks for each g, distinct
 * blocks for the groups of one ib; in its block, role r takes region r
 * (m threads) at a position drawn per region.  By default (sm == NULL)
 * blk[g * B + ib] = (pi[ib] + g * off) % B.  With --sm same, sm gives each
 * block's SM in a probe launch of the same shape: the blocks are cut
 * into runs of one SM each (a run with fewer blocks than NGROUPS joins
 * others), and the groups of an instance block are rotations within
 * one run, so that they share an SM where the scheduler puts the blocks
 * as it did in the probe (counting checks the SMs they really had). */
static void build_roles(int *tab, int *shinst, int *blk, int B, int S,
                        int m, int shuffle, int place, const unsigned *sm) {
  /* a region's threads: m, or with ONE_PER_CTA a warp per role, one of
   * its lanes (drawn) playing the role */
  int rs = ONE_PER_CTA ? S / NROLES : m;
  std::vector<int> pi(B), pos(rs), reg((size_t)B * NROLES);
  int off = 0;
  for (int k = 0; k < B * S; k++)
    tab[k] = -1;
  for (int k = 0; k < B * m; k++)
    shinst[k] = -1;
  for (int k = 0; k < B; k++)
    pi[k] = k;
  if (shuffle)
    shuffle_ints(pi.data(), B);
  if (sm == NULL) {
    if (NGROUPS > 1) {
      int maxoff = (B - 1) / (NGROUPS > 1 ? NGROUPS - 1 : 1);
      off = shuffle ? 1 + (int)(rnd() % (unsigned long long)maxoff) : 1;
    }
    for (int ib = 0; ib < B; ib++)
      for (int g = 0; g < NGROUPS; g++)
        blk[(size_t)g * B + ib] = (int)((pi[ib] + (long long)g * off) % B);
  } else {
    std::vector<std::vector<int> > runs;
    std::vector<int> small;
    std::vector<int> order(pi); /* blocks in drawn order, then by SM */
    std::stable_sort(order.begin(), order.end(),
                     [sm](int a, int b) { return sm[a] < sm[b]; });
    for (int k = 0; k < B;) {
      int e = k;
      while (e < B && sm[order[e]] == sm[order[k]])
        e++;
      if (e - k >= NGROUPS)
        runs.push_back(std::vector<int>(order.begin() + k,
                                        order.begin() + e));
      else
        small.insert(small.end(), order.begin() + k, order.begin() + e);
      k = e;
    }
    if (!small.empty()) {
      if ((int)small.size() >= NGROUPS || runs.empty())
        runs.push_back(small);
      else
        runs.back().insert(runs.back().end(), small.begin(), small.end());
    }
    int ib = 0;
    for (size_t q = 0; q < runs.size(); q++) {
      int k = (int)runs[q].size();
      int maxoff = NGROUPS > 1 ? (k - 1) / (NGROUPS - 1) : 1;
      off = shuffle && maxoff > 1 ? 1 + (int)(rnd() % (unsigned long long)
                                              maxoff)
                                  : 1;
      for (int i = 0; i < k; i++, ib++)
        for (int g = 0; g < NGROUPS; g++)
          blk[(size_t)g * B + ib] = runs[q][(i + g * off) % k];
    }
  }
  /* --place 1: which region (warps) of a block each role takes is drawn
   * per block (per block, not per instance block: a block holds roles of
   * several instance blocks when the test has several CTAs, and each
   * role index must keep a region of its own); else role r takes
   * region r */
  for (int k = 0; k < B; k++) {
    for (int r = 0; r < NROLES; r++)
      reg[(size_t)k * NROLES + r] = r;
    if (shuffle && place)
      shuffle_ints(&reg[(size_t)k * NROLES], NROLES);
  }
  for (int ib = 0; ib < B; ib++) {
    for (int r = 0; r < NROLES; r++) {
      int beta = blk[(size_t)role_group[r] * B + ib];
      for (int j = 0; j < rs; j++)
        pos[j] = j;
      if (shuffle)
        shuffle_ints(pos.data(), rs);
      for (int j = 0; j < m; j++) {
        int inst = ib * m + j;
        tab[(size_t)beta * S + reg[(size_t)beta * NROLES + r] * rs + pos[j]] =
            inst * NROLES + r;
        if (role_group[r] == SHGROUP)
          shinst[(size_t)beta * m + j] = inst;
      }
    }
  }
}

struct outcome {
  unsigned long long count;
  int vals[NVALS + 1];
};

static bool by_vals(const outcome &a, const outcome &b) {
  for (int k = 0; k < NVALS; k++)
    if (a.vals[k] != b.vals[k])
      return a.vals[k] < b.vals[k];
  return false;
}

static int is_sc(const int *v) {
  for (long s = 0; s < n_sc; s++) {
    int k;
    for (k = 0; k < NVALS; k++)
      if (sc_states[s][k] != (long long)v[k])
        break;
    if (k == NVALS)
      return 1;
  }
  return 0;
}

/* The options carry warplab cuda's names (--blocks N or --blocks=N);
 * the short forms of earlier programs (-b N) still work. */
static const char *prog = "test";

/* The value of option argv[*i] when it is lng or shrt, else NULL. */
static const char *opt_val(int argc, char **argv, int *i, const char *lng,
                           const char *shrt) {
  const char *a = argv[*i];
  size_t n = strlen(lng);
  if (strncmp(a, lng, n) == 0 && a[n] == '=')
    return a + n + 1;
  if (strcmp(a, lng) != 0 && (shrt == NULL || strcmp(a, shrt) != 0))
    return NULL;
  if (*i + 1 >= argc) {
    fprintf(stderr, "%s: %s needs a value (see --help)\n", prog, a);
    exit(2);
  }
  return argv[++*i];
}

static long opt_num(const char *opt, const char *v, long lo, long hi) {
  char *end;
  long x = strtol(v, &end, 10);
  if (end == v || *end != '\0' || x < lo || x > hi) {
    fprintf(stderr, "%s: %s takes %ld..%ld, not '%s'\n", prog, opt, lo, hi,
            v);
    exit(2);
  }
  return x;
}

/* The harness's settings: warplab cuda's (DEF_*), a --harness preset
 * (the presets[] table written by warplab cuda), then the options. */
struct settings {
  int blocks, threads, launches, nstress, stress_iters, spacing, budget;
  int shuffle, perms, sm, sync, sync_spins, pattern, lines, line_words;
  int pre_stress, place, harness, check_only, delay, gap;
  unsigned long long seed;
};

static void apply_preset(settings *s, int k) {
  const preset *q = &presets[k];
  s->harness = k;
  s->sync = q->sync;
  s->place = q->place;
  s->pre_stress = q->pre_stress;
  s->pattern = q->pattern;
  s->nstress = q->stress;
  s->stress_iters = q->stress_iters;
  s->lines = q->lines;
  s->line_words = q->line_words;
  s->delay = q->delay;
  s->gap = q->gap;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: %s [options]  (test %s)\n"
          "  --harness NAME    a preset of the settings below (plain: the\n"
          "                    harness of warplab 0.1; then sync, stress,\n"
          "                    parallel, delay; default %s), applied first\n"
          "  --blocks N        test blocks per launch (-b; default %d)\n"
          "  --threads N       threads per block (-t; %d)\n"
          "  --launches N      launches (-n; %d)\n"
          "  --stress N        extra blocks of memory stress (-s; %d)\n"
          "  --stress-iters N  accesses per stress thread (-i; %d)\n"
          "  --stress-pattern random|ss|sl|ls|ll\n"
          "                    stress accesses: random (over the scratch\n"
          "                    area, or the test's lines with --spacing\n"
          "                    above 1) or store/load pairs on stress\n"
          "                    lines (%s)\n"
          "  --stress-lines N  lines the patterns hit (%d)\n"
          "  --line-words N    words of a stress line (%d)\n"
          "  --pre-stress N    stress iterations of each test thread before\n"
          "                    its role (%d)\n"
          "  --sync 0|1        roles of an instance meet before they start\n"
          "                    (%d)\n"
          "  --sync-spins N    polls before a role gives up; its instance\n"
          "                    counts as unsynchronised (%d)\n"
          "  --place 0|1       1: which warps play each role is drawn per\n"
          "                    instance block (%d)\n"
          "  --delay D         each warp of a role waits a drawn number of\n"
          "                    SM cycles in [0, D) after the rendezvous (%d)\n"
          "  --gap G           each role stalls before one drawn instruction\n"
          "                    for a drawn number of SM cycles in [0, G) (%d)\n"
          "  --spacing N       words between instances' copies (-w; %d)\n"
          "  --seed S          seed of the thread-to-role tables (-r; %llu)\n"
          "  --budget N        backward branches per role (-B; %d)\n"
          "  --no-shuffle      roles in order, not drawn at random\n"
          "  --sm any|same|different\n"
          "                    count the instances by the SMs their blocks\n"
          "                    ran on (-S; %s)\n"
          "  --perms N         tables of roles (-p; 16)\n"
          "  --tune            short trials of every preset x spacing 1, 8 x\n"
          "                    threads; keeps the best by weak outcomes seen\n"
          "                    + SC coverage, prints it, then runs it (%s)\n"
          "  --tune-launches N launches per trial (4)\n"
          "  --check-roles     only check, on the host, that the tables of\n"
          "                    roles give each role of each instance one\n"
          "                    thread (no GPU needed)\n"
          "  --device D        the CUDA device (-d; 0)\n"
          "  --rounds N        accepted, unused: two-GPU programs only\n"
          "  --help            this text (-h)\n",
          prog, test_name, presets[DEF_HARNESS].name, DEF_BLOCKS,
          DEF_THREADS, DEF_LAUNCHES, DEF_STRESS, DEF_STRESS_ITERS,
          pat_word[DEF_PATTERN], DEF_LINES, DEF_LINE_WORDS, DEF_PRE_STRESS,
          DEF_SYNC, DEF_SYNC_SPINS, DEF_PLACE, DEF_DELAY, DEF_GAP,
          DEF_SPACING,
          (unsigned long long)DEF_SEED, DEF_BUDGET, sm_word[DEF_SM],
          DEF_TUNE ? "on" : "off");
}

/* What one run of the settings gave. */
struct result {
  std::vector<outcome> outs;
  unsigned long long misc[6], ninst;
  int resident;
  float ms;
};

/* Runs s; 0, or 2 when the test does not fit (message printed). */
static int run(const settings &s, int device, result *res) {
  int m = s.threads / NROLES, blocks = s.blocks, threads = s.threads;
  int nstress = s.nstress, perms = s.perms;
  params p;
  slot *dtab;
  unsigned long long *dmisc;
  int *droles, *dshinst, *dgrpblk;
  cudaEvent_t ev0, ev1;
  if (m >= 32)
    m -= m % 32; /* whole warps per role: roles in different warps */
  if (m < 1 || blocks < NGROUPS ||
      (long long)blocks * threads > 0x7FFFFFFFLL / NROLES) {
    fprintf(stderr, "%s: %d blocks of %d threads cannot hold the test\n",
            test_name, blocks, threads);
    return 2;
  }
#if ONE_PER_CTA
  /* a barrier test: the same instances a launch, one per block (a warp
   * per role), so that the block's barrier is the instance's */
  blocks *= m;
  threads = 32 * NROLES; /* a warp per role; the other lanes exit */
  m = 1;
  if (perms > 2)
    perms = 2; /* its tables are 32 times larger */
#endif
  rng = s.seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
  if (s.check_only) {
    /* --check-roles: the tables alone, on the host (no GPU needed) */
    std::vector<int> tab((size_t)blocks * threads), sh((size_t)blocks * m),
        gb((size_t)NGROUPS * blocks);
    for (int k = 0; k < perms; k++) {
      long bad;
      build_roles(tab.data(), sh.data(), gb.data(), blocks, threads, m,
                  s.shuffle, s.place, NULL);
      if ((bad = check_roles(tab.data(), blocks, threads, m)) != 0) {
        fprintf(stderr, "%s: table of roles %d: instance %ld does not have "
                "each role once, in warps of its own (a harness bug)\n",
                test_name, k, bad - 1);
        return 3;
      }
      if (s.delay > 0) {
        char why[160];
        double sh3[3];
        if (check_delays(tab.data(), blocks, threads, s.nstress,
                         delay_salt(s.seed, k), s.delay, why, sizeof why,
                         sh3) != 0) {
          fprintf(stderr, "%s: waits of launch %d: %s (a harness bug)\n",
                  test_name, k, why);
          return 3;
        }
        if (k == 0)
          printf("%s: waits of launch 0 (--delay %d): together %.1f%%, "
                 "first role first %.1f%%, second first %.1f%% of pairs\n",
                 test_name, s.delay, 100 * sh3[0], 100 * sh3[1],
                 100 * sh3[2]);
      }
      if (s.gap > 0) {
        char why[160];
        if (check_gaps(tab.data(), blocks, threads, s.nstress,
                       delay_salt(s.seed, k), s.gap, why, sizeof why) != 0) {
          fprintf(stderr, "%s: stalls of launch %d: %s (a harness bug)\n",
                  test_name, k, why);
          return 3;
        }
        if (k == 0)
          printf("%s: stalls of launch 0 (--gap %d): each instruction of "
                 "each role drawn\n", test_name, s.gap);
      }
    }
    printf("%s: %d tables of roles checked: each role of each of %llu "
           "instances once\n", test_name, perms,
           (unsigned long long)blocks * m);
    return 1;
  }
  CHECK(cudaSetDevice(device));
  memset(&p, 0, sizeof p);
  p.ninst = (unsigned long long)blocks * m;
  p.m = m;
  p.spacing = s.spacing;
  p.budget = s.budget;
  p.stress_blocks = nstress;
  p.stress_iters = s.stress_iters;
  p.scratch_words = 1 << 20;
  p.sm = s.sm;
  p.sync = s.sync;
  p.sync_spins = s.sync_spins;
  p.pattern = s.pattern;
  p.lines = s.lines;
  p.line_words = s.line_words;
  p.pre_stress = s.pre_stress;
  p.delay = s.delay;
  p.gap = s.gap;
  CHECK(cudaMalloc(&p.gmem, (size_t)NLOCS * p.ninst * s.spacing * 4 + 4));
  CHECK(cudaMalloc(&p.regs, (size_t)p.ninst * NREGS * 4 + 4));
  CHECK(cudaMalloc(&p.hung, (size_t)p.ninst * 4 + 4));
  CHECK(cudaMalloc(&p.arrive, (size_t)p.ninst * 4 + 4));
  CHECK(cudaMalloc(&p.shfinal, (size_t)NSHARED * p.ninst * 4 + 4));
  CHECK(cudaMalloc(&p.scratch, (size_t)p.scratch_words * 4));
  CHECK(cudaMemset(p.scratch, 0, (size_t)p.scratch_words * 4));
  CHECK(cudaMalloc(&dtab, sizeof(slot) * HSLOTS));
  CHECK(cudaMemset(dtab, 0, sizeof(slot) * HSLOTS));
  CHECK(cudaMalloc(&dmisc, sizeof res->misc));
  CHECK(cudaMemset(dmisc, 0, sizeof res->misc));
  CHECK(cudaMalloc(&p.blocksm, (size_t)(nstress + blocks) * 4));
  std::vector<unsigned> blocksm(nstress + blocks);
  if (s.sm == SM_SAME) {
    /* a probe launch of the test's shape: where the blocks go */
    p.probe = 1;
    test_kernel<<<nstress + blocks, threads,
                  (size_t)(NSHARED > 0 ? NSHARED : 1) * m * 4>>>(p);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(blocksm.data(), p.blocksm, blocksm.size() * 4,
                     cudaMemcpyDeviceToHost));
    p.probe = 0;
  }
  {
    std::vector<int> tab((size_t)perms * blocks * threads);
    std::vector<int> sh((size_t)perms * blocks * m);
    std::vector<int> gb((size_t)perms * NGROUPS * blocks);
    for (int k = 0; k < perms; k++)
      build_roles(&tab[(size_t)k * blocks * threads],
                  &sh[(size_t)k * blocks * m],
                  &gb[(size_t)k * NGROUPS * blocks], blocks, threads, m,
                  s.shuffle, s.place,
                  s.sm == SM_SAME ? blocksm.data() + nstress : NULL);
    for (int k = 0; k < perms; k++) {
      long bad = check_roles(&tab[(size_t)k * blocks * threads], blocks,
                             threads, m);
      if (bad != 0) {
        fprintf(stderr, "%s: table of roles %d: instance %ld does not have "
                "each role once (a harness bug)\n", test_name, k, bad - 1);
        exit(3);
      }
    }
    CHECK(cudaMalloc(&dgrpblk, gb.size() * sizeof(int)));
    CHECK(cudaMemcpy(dgrpblk, gb.data(), gb.size() * sizeof(int),
                     cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&droles, tab.size() * sizeof(int)));
    CHECK(cudaMalloc(&dshinst, sh.size() * sizeof(int)));
    CHECK(cudaMemcpy(droles, tab.data(), tab.size() * sizeof(int),
                     cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dshinst, sh.data(), sh.size() * sizeof(int),
                     cudaMemcpyHostToDevice));
  }
  CHECK(cudaEventCreate(&ev0));
  CHECK(cudaEventCreate(&ev1));
  CHECK(cudaEventRecord(ev0));
  for (int l = 0; l < s.launches; l++) {
    int k = l % perms;
    p.roles = droles + (size_t)k * blocks * threads;
    p.shinst = dshinst + (size_t)k * blocks * m;
    p.grpblk = dgrpblk + (size_t)k * NGROUPS * blocks;
    p.stress_base = rnd() >> 20;
    p.delay_salt = delay_salt(s.seed, l);
    reset_kernel<<<1024, 256>>>(p);
    test_kernel<<<nstress + blocks, threads,
                  (size_t)(NSHARED > 0 ? NSHARED : 1) * m * 4>>>(p);
    count_kernel<<<(unsigned)((p.ninst + 255) / 256), 256>>>(p, dtab,
                                                            dmisc);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(ev1));
  res->resident = 0;
  if (s.sm != SM_ANY)
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &res->resident, test_kernel, threads,
        (size_t)(NSHARED > 0 ? NSHARED : 1) * m * 4));
  CHECK(cudaEventSynchronize(ev1));
  CHECK(cudaEventElapsedTime(&res->ms, ev0, ev1));
  std::vector<slot> tab(HSLOTS);
  CHECK(cudaMemcpy(tab.data(), dtab, sizeof(slot) * HSLOTS,
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(res->misc, dmisc, sizeof res->misc,
                   cudaMemcpyDeviceToHost));
  res->outs.clear();
  for (int k = 0; k < HSLOTS; k++)
    if (tab[k].state == 2u) {
      outcome o;
      o.count = tab[k].count;
      memcpy(o.vals, tab[k].vals, sizeof o.vals);
      res->outs.push_back(o);
    }
  std::sort(res->outs.begin(), res->outs.end(), by_vals);
  res->ninst = p.ninst;
  cudaFree(p.gmem);
  cudaFree(p.regs);
  cudaFree(p.hung);
  cudaFree(p.arrive);
  cudaFree(p.shfinal);
  cudaFree(p.scratch);
  cudaFree(dtab);
  cudaFree(dmisc);
  cudaFree(p.blocksm);
  cudaFree(dgrpblk);
  cudaFree(droles);
  cudaFree(dshinst);
  cudaEventDestroy(ev0);
  cudaEventDestroy(ev1);
  return 0;
}

/* --tune's objective: distinct weak outcomes seen, plus the share of the
 * SC outcomes seen (0..1), so that weak outcomes count first and SC
 * coverage breaks ties (without the SC states, outcomes seen). */
static double score(const result &r, int *weak, int *sc) {
  *weak = *sc = 0;
  for (size_t k = 0; k < r.outs.size(); k++) {
    if (n_sc >= 0 && !is_sc(r.outs[k].vals))
      ++*weak;
    else
      ++*sc;
  }
  if (n_sc > 0)
    return *weak + (double)*sc / (double)n_sc;
  return (double)r.outs.size();
}

static void print_settings(FILE *f, const settings &s) {
  fprintf(f, "--harness %s --blocks %d --threads %d --stress %d "
             "--stress-iters %d --stress-pattern %s --stress-lines %d "
             "--line-words %d --pre-stress %d --sync %d --sync-spins %d "
             "--place %d --delay %d --gap %d --spacing %d",
          presets[s.harness].name, s.blocks, s.threads, s.nstress,
          s.stress_iters, pat_word[s.pattern], s.lines, s.line_words,
          s.pre_stress, s.sync, s.sync_spins, s.place, s.delay, s.gap,
          s.spacing);
}

/* --tune: a short trial of each candidate; s becomes the best. */
static int tune(settings *s, int device, int tl) {
  settings best = *s;
  double top = -1;
  int spacings[2] = {1, 8}, shapes[2][2] = {{s->blocks, s->threads},
                                            {s->blocks / 4, 1024}};
  if (shapes[1][0] < NGROUPS)
    shapes[1][0] = NGROUPS;
  for (int k = 0; presets[k].name != NULL; k++)
    for (int w = 0; w < 2; w++)
      for (int h = 0; h < 2; h++) {
        settings c = *s;
        result r;
        int weak, sc, rc;
        double v;
        apply_preset(&c, k);
        c.spacing = spacings[w];
        c.blocks = shapes[h][0];
        c.threads = shapes[h][1];
        c.launches = tl;
        if ((rc = run(c, device, &r)) != 0)
          return rc;
        v = score(r, &weak, &sc);
        printf("# tune: score %.3f (weak %d, sc %d of %ld, unsync %llu) ",
               v, weak, sc, n_sc, r.misc[5]);
        print_settings(stdout, c);
        printf("\n");
        if (v > top) {
          top = v;
          best = c;
        }
      }
  best.launches = s->launches;
  *s = best;
  printf("# tune: chosen (score %.3f): ", top);
  print_settings(stdout, best);
  printf("\n");
  return 0;
}

static int find_word(const char *const *words, int n, const char *v) {
  for (int k = 0; k < n; k++)
    if (words[k] != NULL && strcmp(words[k], v) == 0)
      return k;
  return -1;
}

int main(int argc, char **argv) {
  settings s;
  int device = 0, drv = 0, rtv = 0, tuning = DEF_TUNE, tl = 4, rc, npre;
  unsigned long long hung = 0, overflow = 0, pos = 0, neg = 0, wide = 0;
  cudaDeviceProp prop;
  result res;
  char date[64];
  time_t now = time(NULL);
  prog = argv[0];
  memset(&s, 0, sizeof s);
  s.blocks = DEF_BLOCKS;
  s.threads = DEF_THREADS;
  s.launches = DEF_LAUNCHES;
  s.budget = DEF_BUDGET;
  s.shuffle = DEF_SHUFFLE;
  s.perms = 16;
  s.sm = DEF_SM;
  s.seed = DEF_SEED;
  s.spacing = DEF_SPACING;
  s.sync_spins = DEF_SYNC_SPINS;
  s.harness = DEF_HARNESS;
  /* warplab cuda's settings: its preset with its changes */
  s.nstress = DEF_STRESS;
  s.stress_iters = DEF_STRESS_ITERS;
  s.sync = DEF_SYNC;
  s.place = DEF_PLACE;
  s.pre_stress = DEF_PRE_STRESS;
  s.pattern = DEF_PATTERN;
  s.lines = DEF_LINES;
  s.line_words = DEF_LINE_WORDS;
  s.delay = DEF_DELAY;
  s.gap = DEF_GAP;
  for (npre = 0; presets[npre].name != NULL; npre++)
    ;
  /* --harness first: the other options change its preset */
  for (int i = 1; i < argc; i++) {
    const char *v;
    if ((v = opt_val(argc, argv, &i, "--harness", NULL)) != NULL) {
      int k = -1;
      for (int q = 0; q < npre; q++)
        if (strcmp(presets[q].name, v) == 0)
          k = q;
      if (k < 0) {
        fprintf(stderr, "%s: --harness takes", prog);
        for (int q = 0; q < npre; q++)
          fprintf(stderr, "%s %s", q ? "," : "", presets[q].name);
        fprintf(stderr, ", not '%s'\n", v);
        return 2;
      }
      apply_preset(&s, k);
    }
  }
  for (int i = 1; i < argc; i++) {
    const char *v;
    if ((v = opt_val(argc, argv, &i, "--harness", NULL)) != NULL)
      continue;
    else if ((v = opt_val(argc, argv, &i, "--blocks", "-b")) != NULL)
      s.blocks = (int)opt_num("--blocks", v, 1, 1 << 20);
    else if ((v = opt_val(argc, argv, &i, "--threads", "-t")) != NULL)
      s.threads = (int)opt_num("--threads", v, 1, 1024);
    else if ((v = opt_val(argc, argv, &i, "--launches", "-n")) != NULL)
      s.launches = (int)opt_num("--launches", v, 1, 1 << 30);
    else if ((v = opt_val(argc, argv, &i, "--stress", "-s")) != NULL)
      s.nstress = (int)opt_num("--stress", v, 0, 1 << 16);
    else if ((v = opt_val(argc, argv, &i, "--stress-iters", "-i")) != NULL)
      s.stress_iters = (int)opt_num("--stress-iters", v, 0, 1 << 30);
    else if ((v = opt_val(argc, argv, &i, "--stress-lines", NULL)) != NULL)
      s.lines = (int)opt_num("--stress-lines", v, 1, 1 << 16);
    else if ((v = opt_val(argc, argv, &i, "--line-words", NULL)) != NULL)
      s.line_words = (int)opt_num("--line-words", v, 1, 1024);
    else if ((v = opt_val(argc, argv, &i, "--pre-stress", NULL)) != NULL)
      s.pre_stress = (int)opt_num("--pre-stress", v, 0, 1 << 20);
    else if ((v = opt_val(argc, argv, &i, "--sync", NULL)) != NULL)
      s.sync = (int)opt_num("--sync", v, 0, 1);
    else if ((v = opt_val(argc, argv, &i, "--sync-spins", NULL)) != NULL)
      s.sync_spins = (int)opt_num("--sync-spins", v, 1, 1 << 30);
    else if ((v = opt_val(argc, argv, &i, "--place", NULL)) != NULL)
      s.place = (int)opt_num("--place", v, 0, 1);
    else if ((v = opt_val(argc, argv, &i, "--delay", NULL)) != NULL)
      s.delay = (int)opt_num("--delay", v, 0, 1 << 20);
    else if ((v = opt_val(argc, argv, &i, "--gap", NULL)) != NULL)
      s.gap = (int)opt_num("--gap", v, 0, 1 << 20);
    else if ((v = opt_val(argc, argv, &i, "--tune-launches", NULL)) != NULL)
      tl = (int)opt_num("--tune-launches", v, 1, 1 << 20);
    else if ((v = opt_val(argc, argv, &i, "--stress-pattern", NULL)) !=
             NULL) {
      if ((s.pattern = find_word(pat_word, NPATS, v)) < 0) {
        fprintf(stderr, "%s: --stress-pattern takes random, ss, sl, ls or "
                "ll, not '%s'\n", prog, v);
        return 2;
      }
    } else if ((v = opt_val(argc, argv, &i, "--spacing", "-w")) != NULL)
      s.spacing = (int)opt_num("--spacing", v, 1, 1024);
    else if ((v = opt_val(argc, argv, &i, "--budget", "-B")) != NULL)
      s.budget = (int)opt_num("--budget", v, 1, 1 << 30);
    else if ((v = opt_val(argc, argv, &i, "--perms", "-p")) != NULL)
      s.perms = (int)opt_num("--perms", v, 1, 1024);
    else if ((v = opt_val(argc, argv, &i, "--device", "-d")) != NULL)
      device = (int)opt_num("--device", v, 0, 64);
    else if ((v = opt_val(argc, argv, &i, "--seed", "-r")) != NULL)
      s.seed = (unsigned long long)opt_num("--seed", v, 0, 2147483647);
    else if ((v = opt_val(argc, argv, &i, "--rounds", NULL)) != NULL)
      (void)opt_num("--rounds", v, 1, 1 << 20);
    else if (strcmp(argv[i], "--no-shuffle") == 0)
      s.shuffle = 0;
    else if (strcmp(argv[i], "--tune") == 0)
      tuning = 1;
    else if (strcmp(argv[i], "--check-roles") == 0)
      s.check_only = 1;
    else if ((v = opt_val(argc, argv, &i, "--sm", "-S")) != NULL) {
      if ((s.sm = find_word(sm_word, 3, v)) < 0) {
        fprintf(stderr, "%s: --sm takes any, same or different, not '%s'\n",
                prog, v);
        return 2;
      }
    } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "%s: unknown option '%s'\n", prog, argv[i]);
      usage(stderr);
      return 2;
    }
  }
  if (s.sm != SM_ANY && NGROUPS < 2) {
    fprintf(stderr, "%s: --sm %s: the test's threads are in one CTA, so "
            "every instance runs on one SM\n", test_name, sm_word[s.sm]);
    return 2;
  }
  if (s.check_only)
    return (rc = run(s, device, &res)) == 1 ? 0 : rc;
  CHECK(cudaSetDevice(device));
  CHECK(cudaGetDeviceProperties(&prop, device));
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rtv));
  if (tuning && (rc = tune(&s, device, tl)) != 0)
    return rc;
  if ((rc = run(s, device, &res)) != 0)
    return rc;
  hung = res.misc[0];
  overflow = res.misc[1];
  wide = res.misc[4];
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  printf("# warplab cuda: test %s (%s)\n", test_name, test_file);
  printf("# gpu: %s (sm_%d%d, %d SMs), CUDA driver API %d.%d, "
         "runtime %d.%d\n",
         prop.name, prop.major, prop.minor, prop.multiProcessorCount,
         drv / 1000, drv % 1000 / 10, rtv / 1000, rtv % 1000 / 10);
  printf("# date: %s\n", date);
  printf("# harness: blocks %d threads %d roles %d instances/launch %llu "
         "launches %d stress %d iters %d spacing %d shuffle %d perms %d "
         "seed %llu budget %d\n",
         s.blocks, s.threads, NROLES, res.ninst, s.launches, s.nstress,
         s.stress_iters, s.spacing, s.shuffle, s.perms, s.seed, s.budget);
  printf("# settings: ");
  print_settings(stdout, s);
  printf("\n");
  if (ONE_PER_CTA)
    printf("# barriers: one instance per CTA, %llu blocks of %d warps, one "
           "lane of each playing a role\n", res.ninst, NROLES);
  if (s.sync)
    printf("# sync: %llu instances unsynchronised (a role gave up waiting "
           "for the others; not counted)\n", res.misc[5]);
  if (s.sm != SM_ANY)
    printf("# sm: %s (counted: the instances whose CTAs' blocks ran on %s); "
           "instances on one SM %llu, on several SMs %llu; blocks a launch "
           "%d, resident at once at most %d\n",
           sm_word[s.sm], s.sm == SM_SAME ? "one SM" : "several SMs",
           res.misc[2], res.misc[3], s.nstress + s.blocks,
           res.resident * prop.multiProcessorCount);
  if (s.sm == SM_SAME)
    printf("# sm: the CTAs of an instance were put in blocks that a probe "
           "launch saw on one SM\n");
  std::vector<outcome> &outs = res.outs;
  printf("Test %s %s\nHistogram (%zu states)\n", test_name,
         COND_KIND == 0 ? "Allowed" : COND_KIND == 2 ? "Required"
                                                     : "Forbidden",
         outs.size());
  for (size_t k = 0; k < outs.size(); k++) {
    int sat = cond_holds(outs[k].vals);
    printf("%-10llu%s", outs[k].count, sat ? "*>" : ":>");
    for (int v = 0; v < NVALS; v++) {
      if (var_thread[v] >= 0)
        printf("%s%d:", v ? " " : "", var_thread[v]);
      else if (v)
        printf(" ");
      printf("%s=%d;", var_name[v], outs[k].vals[v]);
    }
    if (n_sc >= 0 && !is_sc(outs[k].vals))
      printf(" weak");
    printf("\n");
    if (sat)
      pos += outs[k].count;
    else
      neg += outs[k].count;
  }
  {
    int ok = COND_KIND == 0 ? pos > 0 : COND_KIND == 2 ? neg == 0 : pos == 0;
    printf("%s\nWitnesses\nPositive: %llu, Negative: %llu\n",
           ok ? "Ok" : "No", pos, neg);
    printf("Condition %s %s is %svalidated\n",
           COND_KIND == 0 ? "exists" : COND_KIND == 2 ? "forall" : "~exists",
           cond_text, ok ? "" : "NOT ");
    printf("Observation %s %s %llu %llu\n", test_name,
           pos == 0 ? "Never" : neg == 0 ? "Always" : "Sometimes", pos, neg);
    if (hung)
      printf("Hung %s %llu of %llu runs did not terminate\n", test_name,
             hung, (unsigned long long)s.launches * res.ninst);
    if (wide)
      printf("Wide %s %llu of %llu runs made a value outside 32 bits (not "
             "counted: the model's values are 64-bit)\n", test_name, wide,
             (unsigned long long)s.launches * res.ninst);
    if (overflow)
      printf("# %llu outcomes not counted: the table of states is full\n",
             overflow);
    printf("Time %s %.2f\n\n", test_name, res.ms / 1000.0);
  }
  return overflow ? 1 : 0;
}

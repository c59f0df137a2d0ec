/* main.c -- the warplab command: its help text (an overview, and each
 * command's own: `warplab CMD --help`, `warplab help CMD`) and the
 * dispatch to a command; each command has a file of its own (cmd.h
 * lists them).  man/warplab.1 says the same (tests/cli/man.sh checks
 * that every option here is there). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "lwarplab.h"
#include "ranks.h"

/* The overview: `warplab help`, `warplab --help`. */
static const char overview[] =
    "usage: warplab <command> [options] [args]\n"
    "       warplab <command> --help    that command's options, with an\n"
    "                                   example\n"
    "\n"
    "commands:\n"
    "  litmus [options] FILE...   every outcome the PTX memory model allows\n"
    "                             for .litmus tests, in herd7's format\n"
    "  sample [options] FILE...   run tests many times on the simulator: a\n"
    "                             histogram of outcomes, as litmus7 prints\n"
    "  gen [options]              write litmus tests: families from cycles\n"
    "                             of relations (diy7-style), random programs\n"
    "  cuda [options] FILE...     write a CUDA program that runs a test on\n"
    "                             an NVIDIA GPU (-o DIR: one per test)\n"
    "  compare HIST FILE...       a histogram (from cuda or sample) beside\n"
    "                             the outcomes the model allows\n"
    "  run SCRIPT.lua [ARGS...]   run a Lua script with the warplab module\n"
    "                             (litmus tests, explore, sample, kernels on\n"
    "                             a simulated GPU)\n"
    "  report [options] FILE...   one self-contained HTML page about tests\n"
    "                             and scripts\n"
    "  campaign [options] FILE... a campaign of .litmus files as a Slurm\n"
    "                             job array over shards, plus a merge job\n"
    "                             (or the same shards through GNU parallel\n"
    "                             or xargs -P)\n"
    "  merge [options] SHARD...   the outputs of litmus on shards of a file\n"
    "                             list, merged into one process's output\n"
    "  help [COMMAND]             this text, or a command's\n"
    "  version                    the version\n"
    "\n"
    "Options may come before, between or after the files; '--' ends the\n"
    "options; a file '-' is standard input.\n"
    "\n"
    "The manual: man warplab (man/warplab.1 in the sources).  The .litmus\n"
    "dialect is Dat3M's PTX dialect; README.md describes it and the Lua\n"
    "API.\n"
    "\n";

/* What every command's help ends with. */
static const char exit_status[] =
    "Exit status: 0 when every file ran, 1 when some file could not be\n"
    "read, parsed, explored or sampled (the reason goes to stderr as\n"
    "file:line:col: message), 2 on a usage error; for sample also 3\n"
    "when --timeout cut a file's runs short (and no file failed); for\n"
    "run and litmus --check-error 4 when a checker found something;\n"
    "130 after Ctrl-C (SIGINT) and 143 after SIGTERM, for every command:\n"
    "the work stops, what it found is printed marked Partial, and the\n"
    "files after the interrupted one are skipped.  compare exits with 4\n"
    "when an observed outcome is one the model forbids.  Output that\n"
    "cannot be written (stdout, -o, --graph) is status 1, with\n"
    "\"warplab: writing FILE: reason\".\n"
    ;

/* Each command's text, in pieces (C11 guarantees string literals of
 * 4095 characters only): its line of the overview with what it does,
 * then its options.  The first piece of litmus holds the one %d. */
static const char usage_litmus[] =
    "  litmus [options] FILE...   explore every outcome the PTX 6.0 memory\n"
    "                             model allows for each .litmus file and\n"
    "                             print it in herd7's format\n"
    "      --json                 print JSON instead (one array of results,\n"
    "                             with every final state and a witness\n"
    "                             execution per state)\n"
    "      --herd                 herd7's text exactly, for msort7 and\n"
    "                             mcompare7: a Hash= line, herd's\n"
    "                             Positive/Negative, no Race/Hang/Warning\n"
    "                             lines (those go to stderr)\n"
    "      --model FILE.cat       evaluate this cat model literally over\n"
    "                             every candidate execution (the second\n"
    "                             engine; a name without a folder that\n"
    "                             is no file here names a shipped model,\n"
    "                             .cat optional: ptx-v6.0, ptx-v6.0-isa,\n"
    "                             ptx-v7.5, found beside the program or\n"
    "                             in $WARPLAB_MODELS), e.g. ptx-v7.5 for\n"
    "                             the proxy tests; default: the built-in\n"
    "                             explorer of ptx-v6.0-isa.cat's axioms\n"
    "      --unroll N             take each backward branch at most N times\n"
    "                             (default %d; spin-loop iterations that\n"
    "                             change nothing are free); when the bound\n"
    "                             cuts an execution the verdict line reads\n"
    "                             'Loop Ok'/'Loop No' and a Warning line\n"
    "                             follows\n"
    "      --timeout SECONDS      give up on a file after this long (the\n"
    "                             file counts as failed; the rest go on)\n"
    "      --max-memory SIZE      stop a file's exploration when it holds\n"
    "                             more than SIZE (MiB, or with a K, M or G\n"
    "                             suffix): the states found so far are\n"
    "                             printed, marked partial, and the file\n"
    "                             counts as failed (default: three\n"
    "                             quarters of the machine's memory)\n"
    "      --count-executions     count every consistent execution (herd's\n"
    "                             Positive/Negative); by default the\n"
    "                             explorer finds each final state once, and\n"
    "                             the counts are counts of states\n"
    "      --full-states          tell final states apart by every register\n"
    "                             and location; by default (not with --json)\n"
    "                             only the observed variables (the\n"
    "                             condition's and 'locations') tell them\n"
    "                             apart, and executions that differ only\n"
    "                             elsewhere are not searched\n"
    "      -q, --quiet            print only 'NAME Ok|No' per file (not with\n"
    "                             --json or --herd)\n"
    ;
/* litmus's options, continued */
static const char usage_litmus2[] =
    "      --check-error          exit with status 4 when some file has a\n"
    "                             finding: a data race (two conflicting\n"
    "                             accesses not morally strong and not\n"
    "                             ordered by causality) or a hang (a spin\n"
    "                             loop that may never end, a barrier too\n"
    "                             few threads reach); each is printed as a\n"
    "                             'Race NAME: ...' / 'Hang NAME: ...' line\n"
    "                             after the states (\"race\" and \"hang\"\n"
    "                             in --json); a Race line ends with what\n"
    "                             would order the pair\n"
    "      --no-checks            skip the data-race and hang searches\n"
    "      --no-symmetry          search every thread, even interchangeable\n"
    "                             ones (same instructions, a placement that\n"
    "                             swapping them maps onto itself), which by\n"
    "                             default are searched once and each state\n"
    "                             found recorded with its images\n"
    "      --no-prefix            search combinations and prefixes whose\n"
    "                             every reachable state is known already\n"
    "                             (by default skipped)\n"
    "      --no-stutter           count spin-loop iterations that change\n"
    "                             nothing against --unroll (by default they\n"
    "                             end the trace: not a final state)\n"
    "      --no-thin-air-filter   search combinations whose reads only a\n"
    "                             cycle through their own values justifies\n"
    "                             (by default dropped before the search)\n"
    "      --no-commute           search every order of adjacent inert RMWs\n"
    "                             of a counter (relaxed, a thread's last\n"
    "                             event, unobserved, deciding branches on\n"
    "                             their value alike), which by default the\n"
    "                             reads-from search takes in one order\n"
    "                             (each of these reductions keeps the final\n"
    "                             states and verdict: the options are for\n"
    "                             checking them and measuring what they save)\n"
    "      --search auto|values|rf\n"
    "                             rf: the reads-from search, which chooses\n"
    "                             reads-from and coherence directly; used by\n"
    "                             default (auto) where it applies:\n"
    "                             instruction threads without backward\n"
    "                             branches (elsewhere rf is an error);\n"
    "                             values: the value search (each thread\n"
    "                             under guessed load values, then the\n"
    "                             traces' combinations), auto's choice\n"
    "                             elsewhere\n"
    "      --graph DIR            write the witness of every state as a\n"
    "                             graph, DIR/NAME.N.dot (and .svg when\n"
    "                             Graphviz's dot is installed), and, when\n"
    "                             the condition's outcome is forbidden,\n"
    "                             DIR/NAME.whynot.dot (.svg); a test\n"
    "                             whose NAME an earlier one of the run\n"
    "                             took gets NAME-2, NAME-3, ... (noted)\n"
    "      --why-not              when no state satisfies the condition,\n"
    "                             say which axiom of the model (--model,\n"
    "                             default ptx-v6.0-isa.cat) rules the\n"
    "                             outcome out, on the closest candidate\n"
    "                             execution (with --json: a \"whynot\"\n"
    "                             object in the test's result); exit 2\n"
    "                             when the model cannot be read, 1 when\n"
    "                             an explanation fails\n"
    ;
/* litmus's options, continued */
static const char usage_litmus3[] =
    "      -j, --jobs J           explore J files at a time on worker\n"
    "                             threads, largest first by a guess from\n"
    "                             each program (spin loops first; default:\n"
    "                             the number of CPUs, at most one per file);\n"
    "                             the output is the same for any J: files\n"
    "                             in the order given; --timeout and\n"
    "                             --max-memory hold for each file; one\n"
    "                             file with J > 1: its exploration split\n"
    "                             into units (prefixes of the search) on\n"
    "                             J workers, merged in order, the same\n"
    "                             states, witnesses and counts\n"
    "  A progress line is drawn on stderr (a terminal only): with one\n"
    "  job, when a file takes longer than a second; with several, the\n"
    "  files done.  Ctrl-C (SIGINT) or SIGTERM stops the explorations:\n"
    "  the files before the interrupted one are printed, it is marked\n"
    "  Partial, the rest are skipped.\n"
    ;
static const char usage_sample[] =
    "  sample [options] FILE...   run each .litmus file many times on the\n"
    "                             operational simulator and print the\n"
    "                             histogram of outcomes in litmus7's style\n"
    "                             (count, '*>' where the condition holds,\n"
    "                             'weak' for outcomes sequential\n"
    "                             consistency cannot give, the verdict)\n"
    "      --json                 print JSON instead (one array of\n"
    "                             histograms: every outcome with its\n"
    "                             values, count, condition and weak mark)\n"
    "      -n, --runs N           runs per file (default 100000)\n"
    "      --seed S               seed (default 1); the same seed gives the\n"
    "                             same histogram for any --jobs\n"
    "      --profile weak|h100    weak: weak outcomes frequent; h100: at\n"
    "                             rates like an H100's (default h100)\n"
    "      --harness NAME         the program the runs stand for, as\n"
    "                             warplab cuda's --harness: plain (the\n"
    "                             default: threads start together) or\n"
    "                             delay (each thread starts after drawn\n"
    "                             turns and stalls once); sync, stress,\n"
    "                             parallel run as plain\n"
    "      -j, --jobs J           worker threads (default: the number of\n"
    "                             CPUs; fewer, with a note, when the\n"
    "                             address space or the thread limit\n"
    "                             cannot hold J 8 MiB stacks)\n"
    "      --timeout SECONDS      stop a file's runs after this long and\n"
    "                             print the partial histogram\n"
    "      --max-steps N          scheduler steps before a run counts as\n"
    "                             hung (default 10000)\n"
    "      --no-exact             run every run step by step; by default\n"
    "                             each run's outcome is drawn from the\n"
    "                             test's exact law of outcomes (the same\n"
    "                             distribution, computed once), when the\n"
    "                             test has one (no spin loop, no Lua\n"
    "                             function threads, at most -n/64 states)\n"
    "                             A progress line is drawn on stderr when\n"
    "                             it is a terminal.  Ctrl-C (SIGINT) or\n"
    "                             SIGTERM stops the workers, prints the\n"
    "                             partial histogram marked Partial and\n"
    "                             exits with 130 (143)\n"
    ;
static const char usage_gen[] =
    "  gen [options]              write litmus tests (Dat3M's PTX dialect):\n"
    "                             families from cycles of relations\n"
    "                             (diy7-style) or random programs; to\n"
    "                             stdout, one after another with a blank\n"
    "                             line between, or one file per test\n"
    "      --cycle \"EDGES\"        one cycle, e.g. \"PodWW Rfe PodRR Fre\",\n"
    "                             under every annotation and placement\n"
    "      --family NAME|all      a classic shape (MP, SB, LB, S, R, 2+2W,\n"
    "                             WRC, RWC, WWC, IRIW, ISA2, W+RWC, 3.SB,\n"
    "                             3.LB, 3.2W, CoRR, CoRW, CoWR) or all\n"
    "      --edges \"LIST\"         every cycle of 3..--max-size N edges\n"
    "                             (default 4) from the vocabulary; edges:\n"
    "                             Pod/Pos+XY, Rfe Rfi Fre Fri Coe Coi,\n"
    "                             Rmw, DpDatadW, DpCtrldR|W, FenceSc|\n"
    "                             FenceAcqRel+Cta|Gpu|Sys+d|s+XY ('*' in a\n"
    "                             word: R and W)\n"
    "      --random               random programs: --threads N (2)\n"
    "                             --insns N (4) --locs N (2) --mix LIST\n"
    "                             (weak,relaxed,acqrel,atom,red,fence,dep,\n"
    "                             bar; default all)\n"
    "      --copies               interchangeable threads: 2 to 8\n"
    "                             byte-identical copies of one or two\n"
    "                             thread bodies of 1 to 3 RMWs (atom add,\n"
    "                             exch, cas, inc), loads, stores, red.add\n"
    "                             and fences over 1 or 2 locations, about\n"
    "                             12 instructions in all; in one CTA, a CTA\n"
    "                             or GPU each, or mixed; the condition on\n"
    "                             one copy's registers and/or the final\n"
    "                             values (--threads 2..8, --insns 1..3 per\n"
    "                             body, --locs 1..2: drawn when not given;\n"
    "                             --max-size N: at most N writes in all,\n"
    "                             1..8, default 4; --mix,\n"
    "                             --placements, --scopes as for --random)\n"
    "      --sample               draw cycles, annotations and placements\n"
    "                             at random instead of enumerating them\n"
    "      --annotations LIST     weak,rlx,ra,mix (default: all but mix;\n"
    "                             with --sample all)\n"
    "      --placements LIST      cta,gpu,sys,mix: threads in one CTA, one\n"
    "                             CTA each, one GPU each, drawn (default:\n"
    "                             all but mix; with --sample all)\n"
    "      --scopes LIST          cta,gpu,sys (default all)\n"
    "      --count N              at most N tests (default: the whole\n"
    "                             enumeration; 10 for --sample, --random)\n"
    "      --seed S               the seed (default 1): the same seed gives\n"
    "                             the same tests\n"
    "      -o DIR                 write DIR/NAME.litmus for each test\n"
    "                             (DIR is created)\n"
    "      --list                 print the names only\n"
    "      --explore              explore each test; print 'NAME Ok|No\n"
    "                             STATES' (--unroll N as for litmus)\n"
    "      --families             print the classic shapes' cycles\n"
    ;
static const char usage_cuda[] =
    "  cuda [options] FILE...     write a CUDA program that runs the test\n"
    "                             on an NVIDIA GPU (nvcc -arch=sm_70 or\n"
    "                             later): the test's instructions as\n"
    "                             inline PTX, many instances per launch,\n"
    "                             outcomes counted on the GPU and printed\n"
    "                             like sample's histogram; the program\n"
    "                             takes these settings again under the\n"
    "                             same names (./test --help); a\n"
    "                             test on GPUs 0 and 1 gets a two-GPU\n"
    "                             program (one launch per GPU, peer\n"
    "                             access, each location on its home GPU)\n"
    "      -o FILE.cu             write there (default: stdout): made\n"
    "                             whole first, a file replaced by rename,\n"
    "                             a device written as it is; with several\n"
    "                             files -o DIR (made if missing): one\n"
    "                             program per file, DIR/NAME.cu (NAME: the\n"
    "                             file's name without .litmus, stdin for\n"
    "                             '-'; NAME-2.cu when an earlier file had\n"
    "                             it, noted)\n"
    "      -j, --jobs J           several files: J at a time on worker\n"
    "                             threads (default: the number of CPUs);\n"
    "                             the programs are the same for any J\n"
    ;
/* cuda's options, continued */
static const char usage_cuda2[] =
    "      --blocks N             test blocks per launch (default 1024)\n"
    "      --threads N            threads per block (default 256)\n"
    "      --launches N           launches (default 200)\n"
    "      --stress N             extra blocks of memory stress (0)\n"
    "      --stress-iters N       accesses per stress thread (256)\n"
    "      --spacing N            words between instances' copies of a\n"
    "                             location (1); above 1 the stress hits\n"
    "                             the words between (the test's lines)\n"
    "      --seed S               seed of the thread-to-role tables (1)\n"
    "      --budget N             backward branches per thread before its\n"
    "                             instance counts as hung (10000)\n"
    "      --no-shuffle           roles in order, not drawn at random\n"
    "      --harness NAME         one GPU: a preset of the settings below,\n"
    "                             applied first (plain: the harness of\n"
    "                             warplab 0.1; sync: a rendezvous per\n"
    "                             instance and drawn warps; stress:\n"
    "                             sync with pre-stress; parallel: stress\n"
    "                             with stress blocks; delay, the default:\n"
    "                             sync with drawn start delays and\n"
    "                             stalls)\n"
    "      --delay D              after the rendezvous each warp of a role\n"
    "                             waits a drawn number of SM cycles in\n"
    "                             [0, D) (0: none)\n"
    "      --gap G                each role stalls before one drawn\n"
    "                             instruction for a drawn number of SM\n"
    "                             cycles in [0, G) (0: none)\n"
    "      --sync 0|1             the roles of an instance meet before\n"
    "                             they start\n"
    "      --sync-spins N         polls before a role gives up, its\n"
    "                             instance unsynchronised (20000)\n"
    "      --place 0|1            which warps play each role drawn per\n"
    "                             instance block\n"
    "      --stress-pattern random|ss|sl|ls|ll\n"
    "                             stress accesses: random (0.1's) or\n"
    "                             GPUHarbor's store/load pairs on lines\n"
    "      --stress-lines N       lines the patterns hit (64)\n"
    "      --line-words N         words of a stress line (32)\n"
    "      --pre-stress N         stress iterations of each test thread\n"
    "                             before its role\n"
    "      --tune                 the program first tries each preset x\n"
    "                             spacing 1, 8 x two shapes briefly and\n"
    "                             runs the best (weak outcomes seen + SC\n"
    "                             coverage); its --tune does the same\n"
    ;
/* cuda's options for two GPUs */
static const char usage_cuda3[] =
    "      --rounds N             two GPUs: instances each slot runs per\n"
    "                             launch, its threads in step (100)\n"
    "      --stream K             two GPUs, an MP test: the streaming\n"
    "                             program instead, each writer/reader\n"
    "                             pair running K rounds back to back\n"
    "      --sm any|same|different\n"
    "                             threads in several CTAs: count only the\n"
    "                             instances whose blocks ran on one SM\n"
    "                             (same) or on several (different), read\n"
    "                             from %smid (default any: all)\n"
    ;
static const char usage_compare[] =
    "  compare HIST FILE...       put a histogram (from a cuda program or\n"
    "                             sample) beside the outcomes the model\n"
    "                             allows for each FILE: observed outcomes\n"
    "                             the model forbids are flagged (exit\n"
    "                             status 4), allowed outcomes never seen\n"
    "                             are listed\n"
    "      --model FILE.cat       judge with this cat model (as litmus)\n"
    "      -j, --jobs J           explore J files at a time on worker\n"
    "                             threads (default: the number of CPUs);\n"
    "                             the output is the same for any J, in\n"
    "                             the files' order; Ctrl-C prints the\n"
    "                             files done (--summary: its line marked\n"
    "                             partial) and exits 130\n"
    "      --summary DIR          DIR holds histograms (any files; each\n"
    "                             test's found by its 'Test NAME' line);\n"
    "                             the FILEs are .litmus files or folders\n"
    "                             of them: one Coverage line per test and\n"
    "                             a Summary line (tests, SC coverage,\n"
    "                             weak coverage, forbidden observations)\n"
    "                             Coverage: of the allowed outcomes, those\n"
    "                             sequential consistency gives (SC) and\n"
    "                             the others (weak), observed / allowed\n"
    ;
static const char usage_run[] =
    "  run SCRIPT.lua [ARGS...]   run a Lua script with the warplab module\n"
    "                             preloaded (require \"warplab\"); arg and\n"
    "                             ... hold ARGS as in lua5.4; '-' reads the\n"
    "                             script from stdin.  An error prints\n"
    "                             'warplab: script.lua:LINE: message' and a\n"
    "                             traceback, and exits with status 1.\n"
    "                             Ctrl-C or SIGTERM raises the error\n"
    "                             'interrupted by SIGINT' (SIGTERM) in the\n"
    "                             script, which pcall can catch; uncaught,\n"
    "                             it exits with 130 (143).\n"
    "                             Scripts build litmus tests (wl.litmus),\n"
    "                             explore and sample them, and run kernels\n"
    "                             on a simulated GPU: wl.device{preset =\n"
    "                             \"sm_90\"|\"sm_80\"|\"sm_70\"|\"sm_35\"|\"toy\"|\n"
    "                             \"banks5\", ...}, dev:malloc/constant/\n"
    "                             malloc_managed, wl.kernel(fn), dev:launch\n"
    "                             (k, {grid=, block=, shared=}, ...) with\n"
    "                             per-line counters named as Nsight\n"
    "                             Compute names them (README.md)\n"
    "    options (before SCRIPT.lua):\n"
    "      --check[=LIST]         run the kernel checkers on every launch\n"
    "                             that sets no check option: races (data\n"
    "                             races by the PTX definition, warp-\n"
    "                             synchronous hazards), uninit (reads of\n"
    "                             memory never written), spin (weak loads\n"
    "                             polled in a loop); LIST like races,spin\n"
    "                             (default all); a summary of every\n"
    "                             finding follows the script's output\n"
    "      --check-error          exit with status 4 when a checker found\n"
    "                             something (for CI)\n"
    "      --json                 print the summary as one JSON object\n"
    "  -j, --jobs N               every launch that sets no jobs option\n"
    "                             runs its blocks in parts across N cores\n"
    "                             (dev:launch{jobs=}): the same memory,\n"
    "                             counters and findings for any N\n"
    ;
static const char usage_report[] =
    "  report [options] FILE...   one self-contained HTML page (no network\n"
    "                             needed) about .litmus files and .lua\n"
    "                             scripts (the tests they explore and the\n"
    "                             kernels they launch): allowed states,\n"
    "                             sampled histograms, witness graphs,\n"
    "                             why-not explanations, checker findings,\n"
    "                             per-line costs, bank heatmaps, occupancy\n"
    "      -o, --output FILE      the page (default report.html)\n"
    "      --runs N               sampled runs per test (default 1000; 0:\n"
    "                             no histograms)\n"
    "      --seed S               the sampling seed (default 1)\n"
    "      --graphs N             witness graphs per test (default 4)\n"
    "      --title TEXT           the page's title\n"
    "      --model FILE.cat       the model of the why-not explanations\n"
    "      -j, --jobs J           .litmus files only: J at a time, each in\n"
    "                             a Lua state of its own on a worker\n"
    "                             thread (default: the number of CPUs);\n"
    "                             the page is the same for any J (with a\n"
    "                             .lua script, the items run in order on\n"
    "                             one thread: a script may share state)\n"
    "    A file that fails, or a script that fails or calls os.exit(N),\n"
    "    is still shown in the page, and the exit status is 1.\n"
    ;

static const char usage_campaign[] =
    "  campaign [options] FILE... write the scripts of a campaign of\n"
    "                             .litmus files into a folder: the list cut\n"
    "                             into contiguous shards of about equal\n"
    "                             size, shard.sh K (warplab litmus on shard\n"
    "                             K), array.sbatch (a Slurm job array of the\n"
    "                             shards), merge.sbatch and merge.sh (warplab\n"
    "                             merge of the shards into merged.txt,\n"
    "                             .herd or .json: what one warplab litmus on\n"
    "                             the list prints), submit.sh (sbatch both,\n"
    "                             the merge after the array) and local.sh\n"
    "                             [JOBS] (the shards through GNU parallel or\n"
    "                             xargs -P, then the merge)\n"
    "      -o, --dir DIR          the folder (default campaign)\n"
    "      --shards N             how many shards (default 8, at most one\n"
    "                             per file)\n"
    "      --list FILE            more files, one path a line\n"
    "      --json, --herd         the shards' output (default: litmus's\n"
    "                             text)\n"
    "      --litmus-arg ARG       one more word for every shard's warplab\n"
    "                             litmus command line (repeat it for an\n"
    "                             option and its value)\n"
    "      --sbatch OPT           one more #SBATCH line for both jobs (a\n"
    "                             partition, a time limit)\n"
    "      --warplab PATH         the warplab the jobs run (default: this\n"
    "                             one)\n"
    "      --ranks N              submit.sh runs every file in one MPI job\n"
    "                             of N tasks instead (mpi.sbatch: mpirun\n"
    "                             warplab-mpi litmus, rank 0 writing the\n"
    "                             merged output; written in any case, for\n"
    "                             4 tasks without this option)\n"
    "      --warplab-mpi PATH     the warplab-mpi it runs (default: the\n"
    "                             warplab's path with -mpi)\n"
    "      --submit               run submit.sh now (sbatch)\n"
    ;
static const char usage_merge[] =
    "  merge [options] SHARD...   merge the outputs of warplab litmus run\n"
    "                             on consecutive shards of a file list,\n"
    "                             given in order, into the output one\n"
    "                             warplab litmus on the whole list prints:\n"
    "                             JSON arrays joined, text (litmus's own\n"
    "                             or herd's) concatenated; each\n"
    "                             shard is checked first (valid JSON, or\n"
    "                             'Test' blocks; one format), and a shard\n"
    "                             with a Partial result makes the exit\n"
    "                             status 1\n"
    "      -o, --output FILE      write the merged output there (default:\n"
    "                             stdout)\n"
    ;

/* One command's help: synopsis, text (up to three pieces), examples. */
typedef struct cmd_help {
  const char *name, *synopsis;
  const char *text[3];
  const char *example;
} cmd_help;

static const cmd_help helps[] = {
    {"litmus", "[options] FILE...",
     {usage_litmus, usage_litmus2, usage_litmus3},
     "  warplab litmus scripts/litmus/MP.litmus\n"
     "  warplab litmus -q scripts/litmus/*.litmus\n"
     "  warplab litmus --jobs 8 tests/*.litmus > all.txt\n"},
    {"sample", "[options] FILE...",
     {usage_sample, NULL, NULL},
     "  warplab sample -n 100000 --seed 2 scripts/litmus/SB.litmus\n"},
    {"gen", "[options]",
     {usage_gen, NULL, NULL},
     "  warplab gen --family MP --explore\n"
     "  warplab gen --random --count 20 -o generated/\n"},
    {"cuda", "[options] FILE...",
     {usage_cuda, usage_cuda2, usage_cuda3},
     "  warplab cuda -o mp.cu scripts/litmus/MP.litmus\n"
     "  nvcc -O3 -arch=sm_90 -o mp mp.cu && ./mp > mp.hist\n"
     "  warplab cuda --jobs 4 -o progs/ scripts/litmus/*.litmus\n"},
    {"compare", "[options] HIST FILE...",
     {usage_compare, NULL, NULL},
     "  warplab compare mp.hist scripts/litmus/MP.litmus\n"},
    {"run", "[options] SCRIPT.lua [ARGS...]",
     {usage_run, NULL, NULL},
     "  warplab run scripts/examples/04_release_acquire.lua\n"},
    {"report", "[options] FILE...",
     {usage_report, NULL, NULL},
     "  warplab report -o mp.html scripts/litmus/MP.litmus\n"},
    {"campaign", "[options] FILE...",
     {usage_campaign, NULL, NULL},
     "  warplab campaign --shards 64 --json --list tests.txt -o run1\n"
     "  sh run1/submit.sh    # or: sh run1/local.sh 8\n"},
    {"merge", "[options] SHARD...",
     {usage_merge, NULL, NULL},
     "  warplab merge -o all.json out/shard-0.json out/shard-1.json\n"},
};

void wll_print_usage(FILE *f) {
  fputs(overview, f);
  fputs(exit_status, f);
}

int wll_print_help(FILE *f, const char *cmd) {
  size_t i;
  int k;
  for (i = 0; i < sizeof helps / sizeof helps[0]; i++) {
    const cmd_help *h = &helps[i];
    if (strcmp(h->name, cmd) != 0)
      continue;
    fprintf(f, "usage: warplab %s %s\n\n", h->name, h->synopsis);
    for (k = 0; k < 3 && h->text[k] != NULL; k++) {
      if (h->text[k] == usage_litmus)
        fprintf(f, usage_litmus, WL_DEFAULT_UNROLL);
      else
        fputs(h->text[k], f);
    }
    fprintf(f, "\nexample%s:\n%s\n", strchr(h->example, '\n') <
                                           strrchr(h->example, '\n')
                                       ? "s"
                                       : "",
            h->example);
    fputs(exit_status, f);
    fprintf(f, "\nSee also: warplab help (the commands), man warplab.\n");
    return 0;
  }
  return -1;
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    wll_print_usage(stderr);
    return 2;
  }
  /* one signal policy for every command (lsignal.c): SIGINT and SIGTERM
   * end the work, which reports what it has */
  if (strcmp(argv[1], "litmus") == 0 || strcmp(argv[1], "sample") == 0 ||
      strcmp(argv[1], "run") == 0 || strcmp(argv[1], "gen") == 0 ||
      strcmp(argv[1], "report") == 0)
    wll_sig_enter();
  if (strcmp(argv[1], "litmus") == 0)
    return wll_cmd_litmus(argc - 1, argv + 1);
  if (strcmp(argv[1], "sample") == 0)
    return wll_cmd_sample(argc - 1, argv + 1);
  if (strcmp(argv[1], "run") == 0)
    return wll_cmd_run(argc, argv);
  if (strcmp(argv[1], "gen") == 0)
    return wll_cmd_gen(argc - 1, argv + 1);
  if (strcmp(argv[1], "report") == 0)
    return wll_cmd_report(argc - 1, argv + 1);
  if (strcmp(argv[1], "cuda") == 0)
    return wll_cmd_cuda(argc - 1, argv + 1);
  if (strcmp(argv[1], "compare") == 0)
    return wll_cmd_compare(argc - 1, argv + 1);
  if (strcmp(argv[1], "campaign") == 0)
    return wll_cmd_campaign(argc - 1, argv + 1);
  if (strcmp(argv[1], "merge") == 0)
    return wll_cmd_merge(argc - 1, argv + 1);
  if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
      strcmp(argv[1], "-h") == 0) {
    if (argc > 2 && strcmp(argv[1], "help") == 0) {
      /* warplab help CMD: that command's help */
      if (wll_print_help(stdout, argv[2]) == 0)
        return wll_stdout_done();
      fprintf(stderr, "warplab help: unknown command '%s'\n\n", argv[2]);
      wll_print_usage(stderr);
      return 2;
    }
    wll_print_usage(stdout);
    return wll_stdout_done();
  }
  if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
    printf("warplab %s\n", WL_VERSION);
    return wll_stdout_done();
  }
  fprintf(stderr, "warplab: unknown command '%s'\n\n", argv[1]);
  wll_print_usage(stderr);
  return 2;
}

/* Under MPI (warplab-mpi, ranks.h) sample, litmus, compare and report
 * split their work over the ranks; every other command runs on rank 0
 * alone, the other ranks leaving at once with status 0. */
int main(int argc, char **argv) {
  int rc;
  wll_ranks_init(&argc, &argv);
  if (wll_rank() != 0 &&
      !(argc >= 2 && (strcmp(argv[1], "sample") == 0 ||
                      strcmp(argv[1], "litmus") == 0 ||
                      strcmp(argv[1], "compare") == 0 ||
                      strcmp(argv[1], "report") == 0)))
    rc = 0;
  else
    rc = dispatch(argc, argv);
  wll_ranks_fini();
  return rc;
}

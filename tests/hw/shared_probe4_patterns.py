# shared_probe4_patterns.py -- prints the patterns of
# tests/hw/shared_wavefronts_pairs.tsv, one a line (NAME OP WIDTH MASK
# OFF0..OFF31), for tests/hw/shared_probe4.cu:
#   python3 shared_probe4_patterns.py | ncu --csv ... ./shared_probe4
# They test the bank rule's lane-pair packing (engine/perf/banks.c) on
# patterns it had not seen: 8- and 16-byte loads where every pair of
# active lanes (n, n^x) reads one address, for x = 1, 2, 3, 4, 8, 16
# ("h" rows), the same with one pair made to disagree ("b" rows),
# pairing n^1 in one half-warp and n^2 in the other ("mix"), plain
# random gathers ("rand"), packable loads of words 128 bytes apart (one
# bank group, "bank"), and stores that would pack if stores did.
# Fixed seed: the same list every time (Python 3.11 and 3.12 agree).
import random

R = random.Random(13)


def emit(name, op, width, lanes):
    mask = sum(1 << lane for lane in lanes)
    print(name, op, width, '%x' % mask,
          *[lanes.get(lane, 0) for lane in range(32)])


def pattern(name, op, width, x, broken, bank=False):
    """x: the pairing n^x to hold (0: none); broken: make one pair differ"""
    k = R.choice((2, 2, 3, 4, 6, 8))            # distinct words
    span = R.choice((4, 16, 64, 512))           # range, in elements
    if bank:
        pool = [128 * j for j in R.sample(range(64), k)]
    else:
        pool = [width * e for e in R.sample(range(max(span, k)), k)]
    density = R.choice((.25, .5, .8, 1))
    d = {l: R.choice(pool) for l in range(32) if R.random() < density}
    if len(d) < 2:
        d = {0: pool[0], 31: pool[1]}
    for lane in sorted(d):
        if x and lane ^ x in d and lane ^ x < lane:
            d[lane] = d[lane ^ x]
    if broken:
        pairs = [l for l in d if l ^ x in d and l < l ^ x] or [min(d)]
        lane = R.choice(pairs)
        d[lane ^ x] = d[lane]
        d[lane] = R.choice([p for p in pool if p != d[lane]])
    emit(name, op, width, d)


for w in (8, 16):
    for x in (1, 2, 3, 4, 8, 16):
        for i in range(7):
            pattern('ld%d_x%d_%s%d' % (w, x, 'hb'[i > 3], i), 'ld', w, x,
                    i > 3)
    for i in range(4):
        d = {}
        pool = [w * e for e in R.sample(range(16), 4)]
        for lane in range(32):
            if R.random() < .7:
                d[lane] = R.choice(pool)
        for lane in sorted(d):
            y = 1 if lane < 16 else 2
            if lane ^ y in d and lane ^ y < lane:
                d[lane] = d[lane ^ y]
        emit('ld%d_mix%d' % (w, i), 'ld', w, d)
    for i in range(8):
        pattern('ld%d_rand%d' % (w, i), 'ld', w, 0, False)
    for i in range(4):
        pattern('ld%d_bank%d' % (w, i), 'ld', w, R.choice((1, 2)), False,
                True)
    for x in (1, 2):
        for i in range(4):
            pattern('st%d_x%d_%d' % (w, x, i), 'st', w, x, False, i % 2)
    for i in range(4):
        pattern('st%d_rand%d' % (w, i), 'st', w, 0, False)

# shared_probe3_patterns.py -- prints the patterns of
# tests/hw/shared_wavefronts_phases.tsv, one a line (NAME WIDTH MASK
# OFF0..OFF31), for tests/hw/shared_probe3.cu:
#   python3 shared_probe3_patterns.py 1 | ncu ... ./shared_probe3   (batch 1)
#   python3 shared_probe3_patterns.py 2 | ncu ... ./shared_probe3   (batch 2)
import itertools
import random
import sys


def emit(name, width, lanes):
    mask, off = 0, [0] * 32
    for lane, addr in lanes.items():
        mask |= 1 << lane
        off[lane] = addr
    print(name, width, '%x' % mask, *off)


def batch1():
    rnd = random.Random(7)
    for j in range(1, 32):
        emit('two_0_%d_a0_8' % j, 8, {0: 0, j: 8})
    for j in range(1, 32):
        emit('two_0_%d_a0_16' % j, 8, {0: 0, j: 16})
    for j in range(16, 32):
        emit('two_5_%d_a0_8' % j, 8, {5: 0, j: 8})
    for k in range(1, 17):
        d = {i: 8 * i for i in range(k)}
        emit('distinct_first%d' % k, 8, d)
        e = dict(d)
        e[16] = 8 * k if k < 16 else 136
        emit('distinct_first%d_plus16new' % k, 8, e)
        e = dict(d)
        e[16] = 0
        emit('distinct_first%d_plus16old' % k, 8, e)
    for p in ((0, 8), (0, 16), (0, 64), (0, 120)):
        for k in (2, 3, 4, 6, 8, 10, 12, 14, 16, 20, 24, 32):
            emit('g2_%d_%d_k%d' % (p + (k,)), 8,
                 {l: rnd.choice(p) for l in rnd.sample(range(32), k)})
    for k in range(1, 5):
        d = {i: 8 * (i % k) for i in range(4)}
        emit('quad0_%d' % k, 8, d)
        d[16] = 0
        emit('quad0_%d_plus16' % k, 8, d)
    for j in range(1, 32):
        emit('w16two_0_%d_a0_16' % j, 16, {0: 0, j: 16})
    for j in range(1, 16):
        emit('w16two_0_%d_a0_32' % j, 16, {0: 0, j: 32})
    for k in range(1, 17):
        emit('w16distinct_first%d' % k, 16, {i: 16 * i for i in range(k)})
    for p in ((0, 16), (0, 32)):
        for k in (2, 3, 4, 5, 6, 8, 10, 12, 16):
            emit('w16g2h0_%d_%d_k%d' % (p + (k,)), 16,
                 {l: rnd.choice(p) for l in rnd.sample(range(16), k)})


def batch2():
    e = {7: 0, 18: 0, 20: 0, 28: 0, 30: 8, 31: 0}
    for r in range(3):
        emit('e_rep%d' % r, 8, e)
    for lane in e:
        d = dict(e)
        del d[lane]
        emit('e_minus%d' % lane, 8, d)
    h = {4: 0, 5: 0, 26: 8, 27: 0}
    for r in range(2):
        emit('h_rep%d' % r, 8, h)
    for p in range(0, 32, 2):
        emit('cross%d' % p, 8, {p: 8, p + 1: 0, (p + 16) % 32: 0})
        emit('nat%d' % p, 8, {p: 0, p + 1: 8, (p + 16) % 32: 0})
    for ls in itertools.combinations(range(4), 3):
        for vs in itertools.product((0, 8), repeat=3):
            if len(set(vs)) < 2:
                continue
            d = {l + 4: v for l, v in zip(ls, vs)}
            d[16] = 0
            emit('q3_%s_%s' % (''.join(map(str, ls)),
                               ''.join('%d' % (v // 8) for v in vs)), 8, d)


(batch1 if sys.argv[1:] == ['1'] else batch2)()

# bank_rule_fit.py -- how engine/perf/banks.c's rule for 8- and 16-byte
# shared-memory accesses was chosen: loads every measured row (Nsight
# Compute wavefronts and bank conflicts), prices it under a family of
# candidate rules, and picks the candidate with the fewest misfits on a
# random 70% of the rows, reporting its misfits on the other 30%.
#   python3 tests/hw/bank_rule_fit.py [SHARED_DIR]   (default ../shared)
# The family: a wide access (w = 8 or 16 bytes on 32 banks of 4 bytes) is
# cut into passes of P = 128 / w consecutive lanes; a pass costs the most
# distinct 4-byte words it asks of one bank, and its ideal is
# ceil(distinct words / 32).  A load "packs" (passes of 2P lanes) when,
# for one of the candidate pairings n^x, every pair of active lanes
# (n, n^x) reads one address.  Candidates vary: the set of pairings
# (any of n^1, n^2, n^3, n^4, n^8, n^16, up to three), whether stores pack
# too, and whether the test is made over the whole warp, over the two
# passes alone (for 16 bytes: each half-warp by itself), or in each quad
# of lanes with a pairing of its own (the two passes packing when every
# quad in them agrees).
import itertools
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(shared):
    files = [os.path.join(shared, 'hw/h100/shared_wavefronts.tsv')] + [
        os.path.join(HERE, 'shared_wavefronts_%s.tsv' % t)
        for t in ('more', 'gathers', 'phases', 'pairs')]
    rows = []
    for f in files:
        hdr = None
        for line in open(f):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            p = line.split('\t')
            if hdr is None:
                hdr = p
                continue
            d = dict(zip(hdr, p))
            rows.append(dict(table=os.path.basename(f), name=d['pattern'],
                             op=d['op'], w=int(d['width_bytes']),
                             mask=int(d.get('active', '0xffffffff'), 16),
                             wf=int(d['wavefronts']),
                             conf=int(d['conflicts']),
                             off=list(map(int, d['offsets'].split()))))
    return rows


def price(r, lanes):
    """(cost, ideal) of one pass over lanes"""
    words = set()
    for i in lanes:
        a = r['off'][i]
        words.update(range(a // 4, (a + r['w'] - 1) // 4 + 1))
    if not words:
        return 0, 0
    banks = {}
    for k in words:
        banks[k % 32] = banks.get(k % 32, 0) + 1
    return max(banks.values()), -(-len(words) // 32)


def agree(r, lanes, x):
    s = set(lanes)
    return all(r['off'][i] == r['off'][i ^ x] for i in lanes if i ^ x in s)


def rule(r, pairings=(1, 2), stores=False, scope='warp'):
    """(wavefronts, conflicts) of row r under one candidate"""
    lanes = [i for i in range(32) if r['mask'] >> i & 1]
    passes = [lanes]
    if r['w'] > 4:
        p, passes = 128 // r['w'], []
        for u in range(0, 32, 2 * p):  # a unit: two passes of p lanes
            unit = [i for i in lanes if u <= i < u + 2 * p]
            if scope == 'warp':
                tested = [lanes]
            elif scope == 'unit':
                tested = [unit]
            else:  # each quad of lanes with a pairing of its own
                tested = [[i for i in unit if i // 4 == q]
                          for q in range(u // 4, (u + 2 * p) // 4)]
            packs = (r['op'] == 'ld' or stores) and all(
                any(agree(r, t, x) for x in pairings) for t in tested)
            if packs:
                passes.append(unit)
            else:
                passes += [[i for i in unit if i < u + p],
                           [i for i in unit if i >= u + p]]
    costs = [price(r, ps) for ps in passes if ps]
    wf = sum(c for c, _ in costs)
    return wf, wf - sum(i for _, i in costs)


def misfits(rows, cand):
    return [r for r in rows if rule(r, **cand) != (r['wf'], r['conf'])]


def candidates():
    for k in range(4):
        for pairings in itertools.combinations((1, 2, 3, 4, 8, 16), k):
            for stores in (False, True):
                for scope in ('warp', 'unit', 'quad'):
                    yield dict(pairings=pairings, stores=stores, scope=scope)


def size(c):  # simpler first: fewer pairings, no store packing, warp-wide
    return (len(c['pairings']), c['stores'], c['scope'] != 'warp')


def main():
    shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        HERE, '../../../shared')
    rows = load(shared)
    cands = list(candidates())
    print('%d rows, %d candidate rules' % (len(rows), len(cands)))
    scored = sorted((len(misfits(rows, c)), size(c), str(c)) for c in cands)
    print('best candidates on all rows (misfits):')
    for s in scored[:8]:
        print('  %4d  %s' % (s[0], s[2]))
    rnd = random.Random(2026)
    held, total = 0, 0
    for split in range(5):
        idx = list(range(len(rows)))
        rnd.shuffle(idx)
        cut = int(0.7 * len(rows))
        train = [rows[i] for i in idx[:cut]]
        test = [rows[i] for i in idx[cut:]]
        best = min(cands, key=lambda c: (len(misfits(train, c)), size(c)))
        bad = len(misfits(test, best))
        held += len(test) - bad
        total += len(test)
        print('split %d: chose %s (train misfits %d), held-out %d/%d fit'
              % (split, best, len(misfits(train, best)), len(test) - bad,
                 len(test)))
    print('held-out accuracy %.4f' % (held / total))


if __name__ == '__main__':
    main()

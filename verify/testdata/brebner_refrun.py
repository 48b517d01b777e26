#!/usr/bin/env python3
"""Runs the Brebner reference model (brebner_refmodel.py, a verbatim copy of
the digest's 004_brebner_refmodel.py) on the graphs named on the command line
and prints, for every thesis table entry of those graphs (standard scheme,
h = 1), the model's mean, variance and maximum in the format of
verify/data/brebner_refmodel.csv, headed by the command that made them.

usage: python3 verify/testdata/brebner_refrun.py TRIALS SEED GRAPH...
GRAPH: ccc:S  se:N  dshuffle:D:N  wgrid-strict:N  wgrid-random:N
       grid-strict:N  grid-random:N  cube:N
Run from the module root; one process, pure Python (slow: minutes per
graph of a few thousand nodes at 1000 trials)."""
import csv, importlib.util, math, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('refmodel', os.path.join(HERE, 'brebner_refmodel.py'))
M = importlib.util.module_from_spec(spec)
spec.loader.exec_module(M)
TABLES = os.path.join(HERE, '..', 'data', 'brebner_tables.csv')


def graph(spec):
    """(model graph, tables' graph name, variant, d, n) for one GRAPH argument."""
    kind, *a = spec.split(':')
    a = [int(x) for x in a]
    if kind == 'ccc':
        return M.CCC(a[0]), 'CCC', '', 0, a[0]
    if kind == 'se':
        return M.ShuffleExchange(a[0]), 'shuffle-exchange', '', 0, a[0]
    if kind == 'dshuffle':
        return M.DShuffle(a[0], a[1]), 'd-shuffle', '', a[0], a[1]
    if kind == 'cube':
        return M.Cube(a[0]), 'cube', '', 0, a[0]
    if kind in ('wgrid-strict', 'wgrid-random', 'grid-strict', 'grid-random'):
        g, strategy = kind.split('-')
        name = 'wrapped grid' if g == 'wgrid' else 'grid'
        return M.Grid(a[0], g == 'wgrid', strategy), name, strategy, 0, a[0]
    raise SystemExit('brebner_refrun: unknown graph %r' % spec)


def degree(nodes, n):
    for d in range(2, nodes + 1):
        if d ** n == nodes:
            return d
    return 0


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    trials, seed = int(sys.argv[1]), int(sys.argv[2])
    with open(TABLES, newline='') as f:
        rows = list(csv.DictReader(f))
    out = csv.writer(sys.stdout, lineterminator='\n')
    print('# made by: %s verify/testdata/brebner_refrun.py %s' % (os.path.basename(sys.executable), ' '.join(sys.argv[1:])))
    for spec in sys.argv[3:]:
        g, name, variant, d, n = graph(spec)
        res = M.table_line(g, trials, seed=seed)
        for r in rows:
            if r['graph'] != name or r['variant'] != variant or r['h'] or int(r['n']) != n:
                continue
            if name == 'd-shuffle' and (int(r['d']) if r['d'] else degree(int(r['N']), n)) != d:
                continue
            m, v, mx = res[(r['phase'], r['measure'])]
            tm, tv = float(r['mean']), float(r['var'])
            z = (m - tm) / math.sqrt(tv / 500 + v / trials) if tv + v > 0 else 0.0
            out.writerow([r['table'], name, variant, d or '', n, r['N'], r['phase'], r['measure'],
                          r['mean'], r['var'], r['max'], '%.4f' % m, '%.4f' % v, mx, '%.2f' % z, trials])
        sys.stdout.flush()


if __name__ == '__main__':
    main()

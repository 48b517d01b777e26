#!/usr/bin/env python3
# Writes brebner_routes.txt: the routes of the reference model of digest 004
# (/work/shared/notes/seeds/004_brebner_refmodel.py, imported from the path
# given as the first argument) for the deterministic routings at small sizes,
# one line per pair: "graph src dst node node ...". TestReferenceRouteTable
# compares the built networks with it; CI does not run this script.
#   python3 brebner_routes.py /work/shared/notes/seeds > brebner_routes.txt
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("ref", sys.argv[1] + "/004_brebner_refmodel.py")
ref = importlib.util.module_from_spec(spec); spec.loader.exec_module(ref)
rng = random.Random(1)
graphs = [
    ("hypercube:d=4:ecube", ref.Cube(4, order='strict')),
    ("dshuffle:d=2:n=4:standard", ref.DShuffle(2, 4)),
    ("dshuffle:d=2:n=4:shortest", ref.DShuffle(2, 4, optimised=True)),
    ("dshuffle:d=3:n=2:standard", ref.DShuffle(3, 2)),
    ("dshuffle:d=3:n=2:shortest", ref.DShuffle(3, 2, optimised=True)),
    ("shuffle-exchange:n=4:standard", ref.ShuffleExchange(4)),
    ("ccc:n=3:standard", ref.CCC(3)),
    ("mesh:k=4:n=2:dor", ref.Grid(4)),
    ("torus:k=5:n=2:dor", ref.Grid(5, wrap=True)),
]
for name, g in graphs:
    for s in range(g.N):
        for t in range(g.N):
            print(name, s, t, s, *[v for _, v in g.route(s, t, rng)])

#!/bin/sh
# gen.sh rebuilds allocref.txt: BookSim2's own allocators (a built BookSim2
# tree, see verify/booksim/build.sh) driven by allocref.cpp with random
# request streams. switch/alloc_ref_test.go replays the file against
# flitsim's allocators. Usage: gen.sh [BOOKSIM_SRC] (default /opt/booksim2/src).
set -eu
src=${1:-/opt/booksim2/src}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objs=$(find "$src" -name '*.o' ! -name main.o)
g++ -O2 -I"$src" -I"$src/allocators" -I"$src/arbiters" -I"$src/routers" \
	-I"$src/networks" -I"$src/power" -o "$tmp/allocref" "$here/allocref.cpp" $objs
out="$here/allocref.txt"
: >"$out"
run() { "$tmp/allocref" "$@" >>"$out"; }
# kind inputs outputs iters cycles seed density maxpri
for k in islip wavefront separable_input_first separable_output_first; do
	run $k 5 5 1 150 1 0.3 0      # a mesh router's switch allocator
	run $k 10 10 2 150 2 0.15 0   # the 2-VC VC allocator's shape
	run $k 7 3 3 100 3 0.5 0      # more inputs than outputs
	run $k 3 7 3 100 4 0.5 0      # more outputs than inputs
	run $k 6 6 2 100 5 0.4 3      # priorities
	run $k 16 16 4 60 6 0.08 1   # sparse and larger
done
run islip 5 5 2 150 7 0.6 0
run islip 8 8 8 100 8 0.5 0
echo "wrote $out ($(wc -l <"$out") lines)"

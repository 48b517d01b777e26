// allocref drives BookSim2's own allocator classes (src/allocators) with a
// random request stream and prints every cycle's requests and grants, for
// switch/alloc_ref_test.go to replay against flitsim's allocators.
// Build and run: switch/testdata/booksim/gen.sh (needs a built BookSim2).
//
// usage: allocref KIND INPUTS OUTPUTS ITERS CYCLES SEED DENSITY MAXPRI
// KIND is BookSim's allocator name (islip, wavefront,
// separable_input_first, separable_output_first). Each cycle every
// (input, output) pair asks with probability DENSITY at a priority drawn
// from 0..MAXPRI, the requests added in a shuffled order.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>
#include <algorithm>

#include "booksim.hpp"
#include "allocator.hpp"
#include "islip.hpp"
#include "wavefront.hpp"
#include "separable_input_first.hpp"
#include "separable_output_first.hpp"

// Globals BookSim's main.cpp defines and the linked objects refer to.
class TrafficManager;
TrafficManager *trafficManager = NULL;
int GetSimTime() { return 0; }
class Stats;
Stats *GetStats(const std::string &) { return NULL; }
bool gPrintActivity;
int gK, gN, gC, gNodes;
bool gTrace;
ostream *gWatchOut;

int main(int argc, char **argv) {
  if (argc != 9) {
    fprintf(stderr, "usage: allocref KIND INPUTS OUTPUTS ITERS CYCLES SEED DENSITY MAXPRI\n");
    return 2;
  }
  string kind = argv[1];
  int in = atoi(argv[2]), out = atoi(argv[3]), iters = atoi(argv[4]);
  int cycles = atoi(argv[5]);
  unsigned seed = (unsigned)atoi(argv[6]);
  double density = atof(argv[7]);
  int maxpri = atoi(argv[8]);

  Allocator *a;
  if (kind == "islip") a = new iSLIP_Sparse(NULL, "a", in, out, iters);
  else if (kind == "wavefront") a = new Wavefront(NULL, "a", in, out);
  else if (kind == "separable_input_first") a = new SeparableInputFirstAllocator(NULL, "a", in, out, "round_robin");
  else if (kind == "separable_output_first") a = new SeparableOutputFirstAllocator(NULL, "a", in, out, "round_robin");
  else { fprintf(stderr, "allocref: unknown KIND %s\n", kind.c_str()); return 2; }

  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  printf("A %s %d %d %d\n", kind.c_str(), in, out, iters);
  std::vector<int> reqs;
  for (int c = 0; c < cycles; ++c) {
    a->Clear();
    reqs.clear();
    for (int i = 0; i < in; ++i)
      for (int o = 0; o < out; ++o)
        if (u(rng) < density) {
          reqs.push_back(i); reqs.push_back(o);
          reqs.push_back(maxpri ? (int)(rng() % (maxpri + 1)) : 0);
        }
    // shuffle the triples (Fisher-Yates with the same generator)
    int n = reqs.size() / 3;
    for (int k = n - 1; k > 0; --k) {
      int j = rng() % (k + 1);
      for (int t = 0; t < 3; ++t) std::swap(reqs[3 * k + t], reqs[3 * j + t]);
    }
    printf("R");
    for (int k = 0; k < n; ++k) {
      a->AddRequest(reqs[3 * k], reqs[3 * k + 1], 1, reqs[3 * k + 2], reqs[3 * k + 2]);
      printf(" %d %d %d", reqs[3 * k], reqs[3 * k + 1], reqs[3 * k + 2]);
    }
    printf("\n");
    a->Allocate();
    printf("G");
    for (int i = 0; i < in; ++i) printf(" %d", a->OutputAssigned(i));
    printf("\n");
  }
  delete a;
  return 0;
}

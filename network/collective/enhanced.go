package collective

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// Permutation routing on the enhanced cube E_d (Varvarigos 1992 §7.2,
// digest 000b §4.12): every node s sends one packet to π(s). In the first
// slot every packet crosses its origin's extra (random) link; from then on
// it crosses the hypercube dimensions where its node and destination
// differ, lowest first, greedily: each node sends, on each cube link, the
// first packet queued for it (FIFO), one per link per slot. This is
// Valiant's scheme with one phase; Corollary 1: for K > 2.5 some enhanced
// cube routes any M < 2^{−d}(2K/e)^{Kd} given permutations this way in
// fewer than (K+1)d/2 + 1 slots. task.scheme=cube routes the same
// permutation on the hypercube links alone (greedy dimension order), for
// comparison (bit reversal takes Θ(√N) there).

// MaxEnhancedD is the largest enhanced cube the permutation runs on.
const MaxEnhancedD = 16

func init() {
	registerFamily("enhanced-cube", &family{keys: map[string][]string{"permutation": {"task.perm", "task.scheme"}}, run: runEnhanced})
}

func runEnhanced(spec topology.Spec, task string, params map[string]string, seed uint64, o *Options) (*Result, error) {
	if spec.D > MaxEnhancedD {
		return nil, inputerr.New("topology.d", spec.D, "an integer from 1 to %d for an enhanced-cube permutation", MaxEnhancedD)
	}
	perm := params["task.perm"]
	if perm == "" {
		perm = "random"
	}
	if perm != "random" && perm != "bit-reversal" && perm != "transpose" {
		return nil, inputerr.New("task.perm", perm, "random (drawn from run.seed), bit-reversal or transpose")
	}
	scheme := params["task.scheme"]
	if scheme == "" {
		scheme = "valiant"
	}
	if scheme != "valiant" && scheme != "cube" {
		return nil, inputerr.New("task.scheme", scheme, "valiant (the extra link first, then the cube greedily) or cube (the cube links alone)")
	}
	return runNet(spec, task, seed, o, func(k *kernel.Kernel, g *Net, px *proxy, r *Result) (*checker, error) {
		d := spec.D
		r.D, r.Params = d, []string{"task.perm=" + perm, "task.scheme=" + scheme}
		pi := permutation(perm, d, seed)
		s := &enhancedPerm{d: d, n: g.N, valiant: scheme == "valiant", start: slices.Repeat([]int32{-1}, g.N), q: make([][]int32, g.N*d), ck: newChecker(g.N)}
		var far []int // the packets' origins, farthest (Hamming) first, for the lower bound
		for v, t := range pi {
			if t == v {
				continue // (a fixed point has nothing to send)
			}
			wi := k.EnqueueScheduled(g.Term[v], g.Term[t], uint64(v*g.N+t))
			s.ck.expect(t, v)
			if s.valiant {
				s.start[v] = wi
			} else {
				s.q[v*d+bits.TrailingZeros(uint(v^t))] = append(s.q[v*d+bits.TrailingZeros(uint(v^t))], wi)
			}
			far = append(far, v)
			r.Packets++
		}
		slices.SortStableFunc(far, func(a, b int) int { return bits.OnesCount(uint(b^pi[b])) - bits.OnesCount(uint(a^pi[a])) })
		lb := 0
		for _, v := range far[:min(len(far), 32)] {
			if s.valiant {
				lb = max(lb, distance(g, v, pi[v]))
			} else {
				lb = max(lb, bits.OnesCount(uint(v^pi[v])))
			}
		}
		px.SlotScheduler, px.limit = s, int64(4*g.N)
		r.Formula, r.FormulaText = nil, "none for one member"
		r.LowerBound = float64(lb)
		r.LowerText = "the longest shortest path (breadth-first on this member; Hamming on the cube links) among the 32 packets of largest Hamming distance"
		r.Reading = fmt.Sprintf("permutation %s; Corollary 1: for K > 2.5 some enhanced cube routes it in fewer than (K+1)d/2 + 1 slots (%g at K = 2.5)", perm, 1.75*float64(d)+1)
		if s.valiant {
			r.Reading += "; slot 0 over the origin's extra link, then the differing cube dimensions lowest first, FIFO per link (one-phase Valiant, §7.2)"
		} else {
			r.Reading += "; cube links only, the differing dimensions lowest first, FIFO per link (the hypercube's greedy routing)"
		}
		return s.ck, nil
	})
}

// permutation is π as a slice: random (a uniform permutation drawn from
// seed), bit-reversal, or transpose (the two halves of the label swapped).
func permutation(kind string, d int, seed uint64) []int {
	n := 1 << d
	switch kind {
	case "random":
		return rand.New(rand.NewPCG(seed, 0x7065726d)).Perm(n)
	case "bit-reversal":
		pi := make([]int, n)
		for v := range pi {
			pi[v] = int(bits.Reverse32(uint32(v)) >> (32 - d))
		}
		return pi
	}
	pi, h := make([]int, n), d/2
	for v := range pi {
		lo, hi := v&(1<<h-1), v>>h
		pi[v] = lo<<(d-h) | hi
	}
	return pi
}

// distance is the length of a shortest path from v to t on g's links
// (breadth-first).
func distance(g *Net, v, t int) int {
	dist := slices.Repeat([]int32{-1}, g.N)
	dist[v] = 0
	for frontier := []int{v}; len(frontier) > 0; {
		var next []int
		for _, u := range frontier {
			if u == t {
				return int(dist[u])
			}
			for _, w := range g.Nbr[u] {
				if w >= 0 && dist[w] < 0 {
					dist[w] = dist[u] + 1
					next = append(next, int(w))
				}
			}
		}
		frontier = next
	}
	return 0
}

// enhancedPerm is the FIFO greedy routing of the permutation.
type enhancedPerm struct {
	d, n    int
	valiant bool
	start   []int32   // per origin: its packet, queued for the extra link in slot 0 (valiant), or −1
	q       [][]int32 // node × dimension: packets waiting for that cube link, first come first
	ck      *checker
}

func (s *enhancedPerm) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	if slot == 0 && s.valiant {
		if wi := s.start[node]; wi >= 0 {
			out = append(out, kernel.SlotSend{Packet: wi, Port: int32(s.d)}) // (the extra link is port d)
		}
		return out
	}
	for j := 0; j < s.d; j++ {
		if h := &s.q[int(node)*s.d+j]; len(*h) > 0 {
			out = append(out, kernel.SlotSend{Packet: (*h)[0], Port: int32(j)})
			*h = (*h)[1:]
		}
	}
	return out
}

func (s *enhancedPerm) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	dst := int(w.Aux) % s.n
	if dst == int(node) {
		s.ck.got(int(node), int(w.Aux)/s.n, true)
		return false
	}
	j := bits.TrailingZeros(uint(int(node) ^ dst))
	s.q[int(node)*s.d+j] = append(s.q[int(node)*s.d+j], wi)
	return true
}

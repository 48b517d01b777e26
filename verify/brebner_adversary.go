package verify

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
)

// Brebner 1983 Theorem 2.3 (after Valiant; digest §4.3): single-phase
// random-order routing on the n-cube has partial permutations that put
// many packets through one edge. For the edge (u, v) = (0, 1) in dimension
// 0 and r ≤ (n−1)/2, the packets go from u ⊕ A to v ⊕ B for every r-subset
// A of the other dimensions, each A paired with a disjoint r-subset B; a
// route crosses (u, v) iff its random order is "all of A, then 0, then all
// of B", with probability (r!)²/(2r+1)!. With n = 16, r = 2: 105 packets,
// 3.5 expected through the edge; two-phase routing spreads them (≪ 1).
const (
	advN, advR = 16, 2
	advReps    = 300
)

func init() {
	count, p := adversaryExpected(advN, advR)
	sd := math.Sqrt(float64(count) * p * (1 - p) / advReps)
	Register(Claim{
		ID: "brebner-thm2.3-adversary-single-phase", Source: "Brebner 1983 (thesis), Theorem 2.3 (digest §4.3)",
		Claim:     fmt.Sprintf("16-cube, r = 2: %d packets, single-phase random-order routing: mean packets through edge (0,1)", count),
		Published: fmt.Sprintf("%.2f (= %d·(2!)²/5!)", float64(count)*p, count),
		Tolerance: fmt.Sprintf("within 4 SE (%.3f) over %d repetitions", 4*sd, advReps), Tier: TierFull,
		Measure: func() (string, bool, error) {
			m, err := adversaryMean(advN, advR, advReps, "off")
			return fmt.Sprintf("%.3f", m), math.Abs(m-float64(count)*p) <= 4*sd, err
		},
	})
	Register(Claim{
		ID: "brebner-thm2.3-adversary-two-phase", Source: "Brebner 1983 (thesis), Theorem 2.3 and §2.3 (digest §4.3)",
		Claim:     fmt.Sprintf("the same %d packets under Valiant's two-phase routing (valiant: merged): mean through edge (0,1)", count),
		Published: "≪ 1", Tolerance: "< 0.35 (a tenth of the single phase's)", Tier: TierFull,
		Measure: func() (string, bool, error) {
			// merged, not separate: the count depends on the paths only,
			// which a barrier does not change, and a barrier needs every
			// node's batch (traffic.mode: batch) where this is one partial
			// permutation emitted by hand.
			m, err := adversaryMean(advN, advR, advReps/3, "merged")
			return fmt.Sprintf("%.3f", m), m < 0.35, err
		},
	})
}

// adversaryExpected is the number of packets, C(n−1, r), and each one's
// probability of crossing the edge, (r!)²/(2r+1)!.
func adversaryExpected(n, r int) (int, float64) {
	count := 1
	for i := range r {
		count = count * (n - 1 - i) / (i + 1)
	}
	p := 1.0
	for i := 1; i <= r; i++ {
		p *= float64(i) * float64(i)
	}
	for i := 2; i <= 2*r+1; i++ {
		p /= float64(i)
	}
	return count, p
}

// adversaryPairs pairs every r-subset A of dimensions 1..n−1 (a bit mask)
// with a disjoint one B, all B distinct (a perfect matching of the
// disjointness graph, which is regular: Kuhn's augmenting paths).
func adversaryPairs(n, r int) [][2]uint32 {
	var sets []uint32
	for m := uint32(0); m < 1<<n; m += 2 { // (bit 0 is the edge's dimension)
		if bits.OnesCount32(m) == r {
			sets = append(sets, m)
		}
	}
	matchB := make([]int, len(sets)) // B index → A index, or −1
	for i := range matchB {
		matchB[i] = -1
	}
	var try func(a int, seen []bool) bool
	try = func(a int, seen []bool) bool {
		for b := range sets {
			if sets[a]&sets[b] != 0 || seen[b] {
				continue
			}
			seen[b] = true
			if matchB[b] < 0 || try(matchB[b], seen) {
				matchB[b] = a
				return true
			}
		}
		return false
	}
	for a := range sets {
		try(a, make([]bool, len(sets)))
	}
	var out [][2]uint32
	for b, a := range matchB {
		if a >= 0 {
			out = append(out, [2]uint32{sets[a], sets[b]})
		}
	}
	return out
}

// adversaryMean routes the adversary's packets reps times on the n-cube's
// packet router (one build; each repetition starts when the last has been
// delivered) and returns the mean number that crossed edge (0, 1).
func adversaryMean(n, r, reps int, valiant string) (float64, error) {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "hypercube", D: n}
	c.Switching, c.Routing, c.Valiant = "packet", "random-order", valiant
	c.Traffic.Flits = network.FlitRange{Min: 1, Max: 1}
	c.Traffic.Load, c.Run.Warmup, c.Run.Measure = 0, 0, 1
	net, err := network.Build(c)
	if err != nil {
		return 0, err
	}
	k := kernel.Of(net)
	edge := int32(-1)
	for ch := range k.Channels() {
		if k.ChannelConnected(ch) && k.ChannelName(ch) == "n0.out[d0]" {
			edge = ch
		}
	}
	if edge < 0 {
		return 0, fmt.Errorf("adversary: no channel n0.out[d0]")
	}
	pairs := adversaryPairs(n, r)
	if count, _ := adversaryExpected(n, r); len(pairs) != count {
		return 0, fmt.Errorf("adversary: %d pairs, want %d", len(pairs), count)
	}
	delivered := 0
	total := uint64(0)
	for range reps {
		before := k.ChannelFlits(edge)
		for _, p := range pairs {
			net.Emit(int(p[0]), int(p[1]|1), 1) // u ⊕ A → v ⊕ B with u = 0, v = 1
		}
		for !k.Idle() {
			step(k)
			if k.Now() > int64(reps)*int64(40*n) {
				return 0, fmt.Errorf("adversary: not delivered by cycle %d: %w", k.Now(), ErrShortfall)
			}
		}
		total += k.ChannelFlits(edge) - before
		delivered += len(pairs)
	}
	if v := k.Violations.Total(); v > 0 {
		return 0, fmt.Errorf("adversary: %d invariant violations in %d packets: %w", v, delivered, ErrShortfall)
	}
	return float64(total) / float64(reps), nil
}

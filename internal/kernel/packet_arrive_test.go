package kernel

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// arrivalsRef is the arrival-order rule written plainly: each queue's
// arrivals in a list of their own, built in list order; the a-th (a ≥ 1)
// draws j = IntN(a+1) and swaps places with the j-th.
func arrivalsRef(rng *rand.Rand, js []join) map[int32][]int32 {
	per := map[int32][]int32{}
	for _, j := range js {
		l := append(per[j.q], j.wi)
		if a := len(l) - 1; a > 0 {
			if x := rng.IntN(a + 1); x < a {
				l[x], l[a] = l[a], l[x]
			}
		}
		per[j.q] = l
	}
	return per
}

// TestOrderArrivalsIsTheRule: on random lists of joins (a few queues, so
// that most have several arrivals), orderArrivals leaves each queue's
// joins in the order the plainly written rule gives, keeps each join's
// place among the queues (only a queue's own places are exchanged), and
// draws as many numbers.
func TestOrderArrivalsIsTheRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := range 2000 {
		nq, n := 1+rng.IntN(6), rng.IntN(40)
		js := make([]join, n)
		for i := range js {
			js[i] = join{q: int32(rng.IntN(nq)), wi: int32(i)}
		}
		src, ref := rand.NewPCG(uint64(trial), 9), rand.NewPCG(uint64(trial), 9)
		k := &Kernel{src: src, rng: rand.New(src)}
		p := &packetRouter{pt: make([]portRec, nq)}
		got := slices.Clone(js)
		p.orderArrivals(k, got)
		want := arrivalsRef(rand.New(ref), js)
		per := map[int32][]int32{}
		for i, j := range got {
			if j.q != js[i].q {
				t.Fatalf("trial %d: place %d holds a join of queue %d, was queue %d", trial, i, j.q, js[i].q)
			}
			per[j.q] = append(per[j.q], j.wi)
		}
		for q, l := range want {
			if !slices.Equal(per[q], l) {
				t.Fatalf("trial %d: queue %d's arrivals %v, the rule gives %v", trial, q, per[q], l)
			}
		}
		if src.Uint64() != ref.Uint64() {
			t.Fatalf("trial %d: a different number of draws", trial)
		}
		if slices.ContainsFunc(p.extra, func(c int32) bool { return c != 0 }) {
			t.Fatalf("trial %d: counts left behind", trial)
		}
	}
}

// TestArrivalOrderUniform: three and four packets arriving at one queue
// (between arrivals at another) end in each of their 3! and 4! orders
// about equally often: each count within 5 % of its expectation, 4000
// (a binomial count's standard deviation is about 1.5 % of it; a fixed
// seed, so the test passes or fails the same every run).
func TestArrivalOrderUniform(t *testing.T) {
	k := &Kernel{rng: rand.New(rand.NewPCG(31, 32))}
	p := &packetRouter{pt: make([]portRec, 2)}
	for _, n := range []int{3, 4} {
		orders, batches := 1, 0
		for i := 2; i <= n; i++ {
			orders *= i
		}
		batches = 4000 * orders
		count := map[string]int{}
		for range batches {
			var js []join
			for i := range n {
				js = append(js, join{q: 0, wi: int32(i)}, join{q: 1, wi: int32(10 + i)})
			}
			p.orderArrivals(k, js)
			var key []byte
			for _, j := range js {
				if j.q == 0 {
					key = append(key, byte('0'+j.wi))
				}
			}
			count[string(key)]++
		}
		if len(count) != orders {
			t.Fatalf("%d arrivals: %d orders seen, want %d", n, len(count), orders)
		}
		for o, c := range count {
			if c < 3800 || c > 4200 {
				t.Errorf("%d arrivals: order %s %d times in %d, want about 4000", n, o, c, batches)
			}
		}
	}
}

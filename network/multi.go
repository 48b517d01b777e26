package network

import (
	"math"
	"math/rand/v2"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/traffic"
)

// Multiple reads and multiple writes on the packet router (Brebner 1983
// §2.6, digest §3.5 and §4.8–4.9; the router's side is
// kernel/packet_multi.go and kernel/packet_combine.go):
//
//	traffic.pattern: multi-read   traffic.h: h   traffic.fanout: K
//	traffic.pattern: multi-write  traffic.h: h   traffic.locations: L   traffic.combine: or
//
// Both are batches (traffic.mode: batch) of partial h-relations in the
// sense of §3.5: at most h operations start at any node, and no node is in
// more than h destination sets (a read's wildcard set; a write's location).
// With valiant, phase 1 is unchanged and every copy or merge happens in
// phase 2. The result's `multi` object gives the copies made, merges done,
// deliveries, completion time and the delivery check.

var combineOps = map[string]string{"": kernel.CombineOr, "or": kernel.CombineOr, "and": kernel.CombineAnd,
	"sum": kernel.CombineSum, "lowest": kernel.CombineLowest, "lowest-writer": kernel.CombineLowest,
	"random": kernel.CombineRandom, "random-winner": kernel.CombineRandom}

// checkMulti checks the multi keys (whatever the pattern, as the other
// packet-router keys) and the settings a multi pattern needs.
func checkMulti(c *Config, packet bool, batch bool, full, disc string) error {
	t := &c.Traffic
	if _, err := lookup(combineOps, "traffic.combine", t.Combine, "or, and, sum, lowest, random (aliases lowest-writer, random-winner)"); err != nil {
		return err
	}
	switch {
	case t.Fanout < 0 || t.Fanout > 1<<20:
		return inputerr.New("traffic.fanout", t.Fanout, "a power of two from 1 to N (a power of d on the d-shuffle: destinations per multi-read; 0: random wildcard sets)")
	case t.Locations < 0 || t.Locations > 1<<30:
		return inputerr.New("traffic.locations", t.Locations, "an integer from 1 to h·N (memory locations written; 0: 1)")
	}
	multi, write := traffic.IsMultiPattern(t.Pattern)
	if !multi {
		return nil
	}
	name := map[bool]string{false: "multi-read", true: "multi-write"}[write]
	switch {
	case !packet || !batch:
		return inputerr.New("traffic.pattern", t.Pattern, "a unicast pattern unless switching: packet and traffic.mode: batch (%s is a batch of the packet router)", name)
	case !write && !isShuffle(c) && !strings.EqualFold(strings.TrimSpace(c.Topology.Kind), "hypercube"):
		return inputerr.New("topology.kind", c.Topology.Kind, "hypercube, dshuffle with traffic.pattern: multi-read (wildcard destination sets over the address digits)")
	case full != "unbounded":
		return inputerr.New("queue.full", c.Queue.Full, "unbounded with traffic.pattern: %s", name)
	case !write && disc == "furthest-first":
		return inputerr.New("queue.discipline", c.Queue.Discipline, "fifo, random with traffic.pattern: multi-read (a copy's hops left depend on its set)")
	case len(t.Packets) > 0 || t.Trace != "":
		return inputerr.New("traffic.pattern", t.Pattern, "a unicast pattern when traffic.trace or traffic.packets is set")
	}
	return nil
}

func isShuffle(c *Config) bool {
	return strings.EqualFold(strings.TrimSpace(c.Topology.Kind), "dshuffle")
}

// multiOps draws the batch's operations for c on n terminals.
func multiOps(c *Config, n int, rng *rand.Rand) ([]kernel.MultiOp, error) {
	_, write := traffic.IsMultiPattern(c.Traffic.Pattern)
	h := max(1, c.Traffic.H)
	if write {
		return multiWrites(c, n, h, rng)
	}
	d := 2
	if isShuffle(c) {
		d = max(2, c.Topology.D)
	}
	if !isPowerOf(c.Traffic.Fanout, d) || c.Traffic.Fanout > n {
		return nil, inputerr.New("traffic.fanout", c.Traffic.Fanout, "a power of %d from 1 to %d (destinations per multi-read; 0: random wildcard sets)", d, n)
	}
	return multiReads(n, d, h, c.Traffic.Fanout, rng), nil
}

// isPowerOf reports whether f is 0 or a power of d.
func isPowerOf(f, d int) bool {
	for f > 1 && f%d == 0 {
		f /= d
	}
	return f <= 1
}

// multiReads is a partial multiple-read h-relation on n = d^digits nodes
// (the cube: d = 2): every node tries h reads, each to a random wildcard
// set over the address digits (fanout destinations: log_d fanout random
// digits are *; fanout 0: each digit a * with probability 1/2); a set that
// would put a node in more than h sets is drawn again, up to 8 times, then
// the read is left out (the relation is partial).
func multiReads(n, d, h, fanout int, rng *rand.Rand) []kernel.MultiOp {
	digits := 0
	for p := 1; p < n; p *= d {
		digits++
	}
	stars := 0
	for p := 1; p < fanout; p *= d {
		stars++
	}
	in := make([]int32, n)
	var ops []kernel.MultiOp
	for src := range n {
		for range h {
			for range 8 {
				var star uint32
				if fanout == 0 {
					star = uint32(rng.IntN(1 << digits))
				} else {
					for _, j := range rng.Perm(digits)[:stars] {
						star |= 1 << j
					}
				}
				val, w := 0, 1
				for j := range digits {
					if star>>j&1 == 0 {
						val += rng.IntN(d) * w
					}
					w *= d
				}
				o := kernel.MultiOp{Src: int32(src), Star: star, Val: uint32(val), Radix: int32(d)}
				if o.Members(func(t int32) bool { return in[t] < int32(h) }) {
					o.Members(func(t int32) bool { in[t]++; return true })
					ops = append(ops, o)
					break
				}
			}
		}
	}
	return ops
}

// multiWrites is a partial multiple-write h-relation: L locations, each at
// a random node holding fewer than h locations (memory addresses 0, 1, …
// there), and h writes per node, each to a random location; the values are
// random words (1 for sum, so the result counts the writes).
func multiWrites(c *Config, n, h int, rng *rand.Rand) ([]kernel.MultiOp, error) {
	l := max(1, c.Traffic.Locations)
	if l > h*n {
		return nil, inputerr.New("traffic.locations", c.Traffic.Locations, "an integer from 1 to %d (h·N: at most h locations per node)", h*n)
	}
	type loc struct{ dst, addr int32 }
	locs := make([]loc, l)
	held := make([]int32, n)
	for i := range locs {
		t := rng.IntN(n)
		for held[t] >= int32(h) {
			t = (t + 1) % n // (fewer than h·N locations: some node has room)
		}
		locs[i] = loc{int32(t), held[t]}
		held[t]++
	}
	sum := lookupOr(combineOps, c.Traffic.Combine) == kernel.CombineSum
	ops := make([]kernel.MultiOp, 0, n*h)
	for src := range n {
		for range h {
			x := locs[rng.IntN(l)]
			v := rng.Uint64()
			if sum {
				v = 1
			}
			ops = append(ops, kernel.MultiOp{Src: int32(src), Write: true, Dst: x.dst, Addr: x.addr, Value: v})
		}
	}
	return ops, nil
}

func lookupOr(m map[string]string, v string) string { return m[strings.ToLower(strings.TrimSpace(v))] }

// multiTraffic is a multi batch's workload: its operations start at cycle
// 0 (when the generator is first asked, after the statistics are set up).
func (n *Network) multiTraffic() error {
	c := &n.Cfg
	ops, err := multiOps(c, n.k.Topo.Terminals(), n.k.Rand())
	if err != nil {
		return err
	}
	n.gen = &multiGen{k: n.k, ops: ops, combine: lookupOr(combineOps, c.Traffic.Combine), shuffle: isShuffle(c)}
	n.start, n.end = 0, 1
	return nil
}

// multiGen starts the operations on the kernel when the run starts.
type multiGen struct {
	k       *kernel.Kernel
	ops     []kernel.MultiOp
	combine string
	shuffle bool // (the d-shuffle's digit splitting)
	done    bool
}

func (g *multiGen) NextAt(now int64) int64 {
	if g.done {
		return math.MaxInt64
	}
	return now
}

func (g *multiGen) Generate(int64, traffic.Emitter) {
	if !g.done {
		g.done = true
		if err := g.k.StartMulti(g.ops, g.combine, g.shuffle); err != nil {
			panic("multi batch: " + err.Error()) // (multiOps made them for this network)
		}
	}
}

// MultiStats is what a multi-read or multi-write batch measured (Result's
// multi; the kernel keeps it): the operations, the replicas reads made, the
// writes merged, the packets that landed, the reads' tree edges, the last
// landing, and the delivery check.
type MultiStats = kernel.MultiStats

// multiStats is the kernel's multi statistics, or nil.
func (n *Network) multiStats() *MultiStats {
	if s := n.k.MultiStats(); s != nil {
		m := *s // (a copy: the kernel's is reused by the next experiment)
		return &m
	}
	return nil
}

// MultiExperiments summarises the multi statistics of a batch's
// experiments: per experiment copies, merges, deliveries and completion
// time, and how many experiments failed the delivery check.
type MultiExperiments struct {
	Copies         Measure `json:"copies"`
	Merges         Measure `json:"merges"`
	Deliveries     Measure `json:"deliveries"`
	CompletionTime Measure `json:"completion_time"`
	Failed         int     `json:"failed"`
}

func summariseMulti(outs []outcome) *MultiExperiments {
	var cp, mg, dl, ct []int64
	e := &MultiExperiments{}
	for _, o := range outs {
		if o.multi == nil {
			continue
		}
		if !o.multi.OK {
			e.Failed++
		}
		cp, mg = append(cp, o.multi.Copies), append(mg, o.multi.Merges)
		dl, ct = append(dl, o.multi.Deliveries), append(ct, o.multi.CompletionTime)
	}
	if len(cp) == 0 {
		return nil
	}
	e.Copies, e.Merges, e.Deliveries, e.CompletionTime = measure(cp), measure(mg), measure(dl), measure(ct)
	return e
}

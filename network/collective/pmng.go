package collective

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// PMNG, the partial multinode gather (Varvarigos §3.1's task list, digest
// 000a §5: PE reversed): each of M active nodes receives a separate packet
// from every other node, no combining. It is run as the partial exchange
// time-reversed: PE (pe.go) on the same active set runs first on a second
// router and every transmission is recorded; a PE packet s → t crossing
// link u → v in slot τ of its T-slot run becomes the PMNG packet t → s
// crossing v → u in slot T−1−τ. One packet per link direction per slot
// holds because PE's does; store-and-forward holds because a PE packet
// leaves a node after it arrived, so the reversed packet arrives before it
// leaves. PMNG therefore takes exactly PE's time, with PE's complexity
// (§3.7's bound), which the run checks on the hardware.

// peHop is one recorded PE transmission: packet key crossed dimension Dim
// into To in Slot.
type peHop struct {
	Slot    int64
	To, Dim int32
	Key     int32
}

// peRecorder passes PE's schedule (as the router sees it) through and
// writes down every data transmission by key (active index · N + t).
type peRecorder struct {
	inner kernel.SlotScheduler
	pk    *kernel.ScheduledPackets
	c     *cube
	idx   []int32 // node → its active index, or −1
	hops  []peHop
}

func (r *peRecorder) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	return r.inner.Sends(slot, node, out)
}

func (r *peRecorder) Arrived(slot int64, node, inPort int32, pkt int32) bool {
	src, dst := r.c.node[r.pk.Src(pkt)], r.c.node[r.pk.Dst(pkt)]
	if a := r.idx[src]; a >= 0 && r.pk.Aux(pkt) < prefixTag {
		dim := r.c.dimIn[int(node)*r.c.d1+int(inPort)]
		r.hops = append(r.hops, peHop{Slot: slot, To: node, Dim: dim, Key: a*int32(r.c.n) + int32(dst)})
	}
	return r.inner.Arrived(slot, node, inPort, pkt)
}

// recordPE runs PE with task.m = m from seed on the d-cube and returns its
// transmissions, its length in slots, its active nodes and its result.
func recordPE(spec topology.Spec, m int, seed uint64) ([]peHop, []int, *Result, error) {
	var rec *peRecorder
	var act []int
	res, err := runOn(spec, "pe", seed, nil, func(k *kernel.Kernel, c *cube, ck *checker, px *proxy, r *Result) error {
		if err := setupPE(k, c, map[string]string{"task.m": fmt.Sprint(m)}, seed, ck, px, r); err != nil {
			return err
		}
		act = act[:0]
		for v, a := range activeSet(c.n, m, seed) {
			if a {
				act = append(act, v)
			}
		}
		if m == c.n { // (PE ran as a TE: every node, by label)
			act = seq(c.n)
		}
		rec = &peRecorder{pk: px.pk, c: c, idx: slices.Repeat([]int32{-1}, c.n)}
		for i, v := range act {
			rec.idx[v] = int32(i)
		}
		rec.inner = px.native
		if px.SlotScheduler != nil { // (a worm-view schedule: a proxy of its own fills the view)
			rec.inner = &proxy{SlotScheduler: px.SlotScheduler, pk: px.pk}
			px.SlotScheduler = nil
		}
		px.native = rec
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	if !res.Delivered {
		return nil, nil, nil, fmt.Errorf("pmng: the partial exchange it reverses was not delivered (missing %d)", res.Missing)
	}
	return rec.hops, act, res, nil
}

// pmngSched replays PE's recorded hops reversed: per node its sends by
// slot; per key the packet (one, never copied).
type pmngSched struct {
	c   *cube
	ev  [][]peHop // per node: sends (To is the sender here), by slot
	cur []int32
	wi  []int32 // per key: the packet
	// left is per key the sends still to make: a PE route may pass its
	// source again (phase 2 to a tree child, phase 3 back), so the
	// reversed packet is delivered at its gatherer only after its last hop.
	left []int32
	act  []int
	pk   *kernel.ScheduledPackets
	ck   *checker
}

func newPmngSched(c *cube, hops []peHop, T int64, act []int, ck *checker) *pmngSched {
	s := &pmngSched{c: c, ev: make([][]peHop, c.n), cur: make([]int32, c.n), act: act, ck: ck}
	s.left = make([]int32, len(act)*c.n)
	for _, h := range hops { // (the hop into To in slot τ: To sends it back in T−1−τ)
		s.left[h.Key]++
		s.ev[h.To] = append(s.ev[h.To], peHop{Slot: T - 1 - h.Slot, To: h.To, Dim: h.Dim, Key: h.Key})
	}
	for _, evs := range s.ev {
		slices.SortStableFunc(evs, func(a, b peHop) int { return int(a.Slot - b.Slot) })
	}
	return s
}

// load enqueues, for every active node s and every other node t, the
// packet t → s (key: s's active index · N + t, PE's key of s → t).
func (s *pmngSched) load(k *kernel.Kernel) {
	n := s.c.n
	s.wi = slices.Repeat([]int32{-1}, len(s.act)*n)
	for a, src := range s.act {
		for t := 0; t < n; t++ {
			if t != src {
				s.wi[a*n+t] = k.EnqueueScheduled(s.c.term[t], s.c.term[src], uint64(a*n+t))
				s.ck.expect(src, t)
			}
		}
	}
}

func (s *pmngSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	evs, i := s.ev[node], int(s.cur[node])
	for ; i < len(evs) && evs[i].Slot <= slot; i++ {
		if e := evs[i]; e.Slot == slot {
			out = append(out, kernel.SlotSend{Packet: s.wi[e.Key], Port: s.c.port[int(node)*s.c.d+int(e.Dim)]})
			s.left[e.Key]--
		}
	}
	s.cur[node] = int32(i)
	return out
}

func (s *pmngSched) Arrived(slot int64, node, inPort int32, pkt int32) bool {
	key := int(s.pk.Aux(pkt))
	if gatherer := s.act[key/s.c.n]; int(node) == gatherer && s.left[key] == 0 {
		s.ck.got(gatherer, key%s.c.n, true)
		return false
	}
	if s.left[key] == 0 { // (its route ended elsewhere: never, by construction)
		s.ck.got(int(node), key%s.c.n, false)
		return false
	}
	s.wi[key] = pkt
	return true
}

// setupPMNG loads the partial multinode gather of task.m active nodes
// (drawn from run.seed as pe's): PE on the same set recorded, reversed.
func setupPMNG(k *kernel.Kernel, c *cube, params map[string]string, seed uint64, ck *checker, px *proxy, r *Result) error {
	d, n := c.d, c.n
	m, err := intParam(params, "task.m", 1<<(d/2), 1, n)
	if err != nil {
		return err
	}
	r.Params = []string{fmt.Sprintf("task.m=%d", m)}
	hops, act, pe, err := recordPE(topology.Spec{Kind: "hypercube", D: d}, m, seed)
	if err != nil {
		return err
	}
	T := int64(pe.Slots)
	s := newPmngSched(c, hops, T, act, ck)
	s.pk = px.pk
	s.load(k)
	px.native, px.limit = s, T+1
	r.Packets = int64(m * (n - 1))
	f := pe.Slots
	r.Formula, r.FormulaText = &f, "T_PE: the partial exchange's slots on the same active set, measured on the router (PMNG is PE time-reversed, §3.1)"
	r.UpperBound, r.UpperText = pe.UpperBound, pe.UpperText+" (PE's bound on this active set; PMNG has PE's complexity)"
	var pairs [][2]int
	for _, g := range act {
		for t := 0; t < n; t++ {
			if t != g {
				pairs = append(pairs, [2]int{t, g})
			}
		}
	}
	r.LowerBound, r.LowerText = theorem1(c, pairs), "Theorem 1 for this active set: the busiest dimension's packet-hops / N, or the longest route"
	r.Reading = fmt.Sprintf("PE (§3.7 routes; %s) run first on a second router and recorded, %d transmissions; each PE hop u → v in slot τ replayed as v → u in slot T−1−τ (T = %d), the packet t → s for PE's s → t; no combining; ranks known in advance (t_p = 0)", peWhich(m, n), len(hops), T)
	return nil
}

// peWhich names the schedule pe runs for M of N nodes.
func peWhich(m, n int) string {
	if peAsTE(bits.Len(uint(n-1)), m) {
		return "⌈log₂M⌉ = d: the symmetric OCTR total exchange, active rows only"
	}
	return "non-wasting, earliest phase first"
}

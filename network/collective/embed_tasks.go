package collective

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/topology"
)

// pairSched routes given (source, destination) packets on the hypercube:
// each node is non-wasting and minimal — in every slot it takes its
// waiting packets by most hops left (then oldest, then lowest key) and
// gives each the lowest free dimension it still has to cross. It carries
// the guest graph's neighbour exchange (task sparse-embed).
type pairSched struct {
	c     *cube
	dst   []int32 // per key: the destination node
	queue [][]hent
	order []int // scratch: queue indices by priority
	used  []bool
	ck    *checker
	pk    *kernel.ScheduledPackets
}

func newPairSched(c *cube, ck *checker) *pairSched {
	return &pairSched{c: c, queue: make([][]hent, c.n), used: make([]bool, c.d), ck: ck}
}

// add enqueues a packet from node src to node dst.
func (s *pairSched) add(k *kernel.Kernel, src, dst int) {
	key := int32(len(s.dst))
	s.dst = append(s.dst, int32(dst))
	wi := enqueueTagged(k, s.c, src, dst, uint64(key))
	s.queue[src] = append(s.queue[src], hent{wi: wi, key: key})
	s.ck.expect(dst, src)
}

func (s *pairSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	v, q := int(node), s.queue[int(node)]
	s.order = s.order[:0]
	for i := range q {
		s.order = append(s.order, i)
	}
	left := func(i int) int { return bits.OnesCount(uint(v ^ int(s.dst[q[i].key]))) }
	slices.SortFunc(s.order, func(a, b int) int {
		if la, lb := left(a), left(b); la != lb {
			return lb - la
		}
		if q[a].at != q[b].at {
			return int(q[a].at - q[b].at)
		}
		return int(q[a].key - q[b].key)
	})
	clear(s.used)
	sent := false
	for _, i := range s.order {
		for w := v ^ int(s.dst[q[i].key]); w != 0; w &= w - 1 {
			if j := bits.TrailingZeros(uint(w)); !s.used[j] {
				s.used[j], sent = true, true
				out = append(out, kernel.SlotSend{Packet: q[i].wi, Port: s.c.port[v*s.c.d+j]})
				q[i].key = -1 - q[i].key
				break
			}
		}
	}
	if sent {
		s.queue[v] = dropSent(q)
	}
	return out
}

func (s *pairSched) Arrived(slot int64, node, inPort int32, wi int32) bool {
	key := int32(s.pk.Aux(wi))
	if int(s.dst[key]) == int(node) {
		s.ck.got(int(node), s.c.node[s.pk.Src(wi)], true)
		return false
	}
	s.queue[node] = append(s.queue[node], hent{wi: wi, key: key, at: slot + 1})
	return true
}

// setupSparseEmbed loads task sparse-embed: the guest graph relabelled by
// reverse Cuthill–McKee, embedded by Binary-Gray, its neighbour exchange
// (every vertex a packet to each neighbour) on the hardware. The same
// exchange with the shuffled labels stored at the node of their number
// runs alongside (Alternative).
func setupSparseEmbed(k *kernel.Kernel, c *cube, params map[string]string, seed uint64, ck *checker, px *proxy, r *Result) error {
	d := c.d
	kind := params["task.graph"]
	if kind == "" {
		kind = "grid"
	}
	deg, err := intParam(params, "task.degree", 2, 1, 16)
	if err != nil {
		return err
	}
	g, err := newGuest(kind, d, deg, seed)
	if err != nil {
		return err
	}
	r.Params = []string{"task.graph=" + kind}
	if kind == "random" {
		r.Params = append(r.Params, fmt.Sprintf("task.degree=%d", deg))
	}
	sigma := g.rcm()
	b0, b := g.halfBand(nil), g.halfBand(sigma)
	beta := bits.Len(uint(max(b, 1) - 1)) // (2^β ≥ b)
	lay := bandLayout{d: d, beta: beta, lo: d - beta}
	place := func(v int32) int { return lay.node(int(sigma[v])) }
	dil, pairs := embedPairs(g, place)
	s := newPairSched(c, ck)
	s.pk = px.pk
	for _, p := range pairs {
		s.add(k, p[0], p[1])
	}
	px.native, px.limit = s, int64(len(pairs))+int64(d)+1
	r.Packets = int64(len(pairs))
	f := float64(beta + 1)
	r.Formula, r.FormulaText = &f, "β + 1 ≈ log₂ B: §2.8's dilation bound for Binary-Gray on a band of half-width 2^β ≥ (B−1)/2 (a dilation, not slots; the measured dilation is in the schedule line)"
	r.LowerBound, r.LowerText = theorem1(c, pairs), "Theorem 1 for the exchange: the busiest dimension's packet-hops / N, or the dilation"
	bw := 2*b + 1
	r.Dilation, r.Bandwidth = &dil, &bw
	alt, dil0, err := sparseAlternative(d, g, seed)
	if err != nil {
		return err
	}
	r.Alternative = &alt
	r.AlternativeText = fmt.Sprintf("slots of the same exchange with the shuffled labels at the node of their number (bandwidth B = %d, dilation %d)", 2*b0+1, dil0)
	r.Reading = fmt.Sprintf("guest %s, %d edges; bandwidth B = %d as labelled, %d after reverse Cuthill–McKee ([Pis84]'s heuristics, §2.8); Binary-Gray with β = %d; measured dilation %d (claim ≤ β + 1 = %d); exchange: every vertex a packet to each neighbour, non-wasting minimal nodes (most hops left first)",
		g.name, len(pairs)/2, 2*b0+1, 2*b+1, beta, dil, beta+1)
	return nil
}

// embedPairs is the exchange's (source node, destination node) pairs and
// the dilation of the embedding place.
func embedPairs(g *guest, place func(int32) int) (dil int, pairs [][2]int) {
	for u, a := range g.adj {
		for _, v := range a {
			p, q := place(int32(u)), place(v)
			dil = max(dil, bits.OnesCount(uint(p^q)))
			pairs = append(pairs, [2]int{p, q})
		}
	}
	return dil, pairs
}

// sparseAlternative runs the exchange with vertex v at node v (no
// relabelling, no Gray code) on a router of its own.
func sparseAlternative(d int, g *guest, seed uint64) (float64, int, error) {
	var dil int
	res, err := runOn(topology.Spec{Kind: "hypercube", D: d}, "sparse-embed", seed, nil, func(k *kernel.Kernel, c *cube, ck *checker, px *proxy, r *Result) error {
		var pairs [][2]int
		dil, pairs = embedPairs(g, func(v int32) int { return int(v) })
		s := newPairSched(c, ck)
		s.pk = px.pk
		for _, p := range pairs {
			s.add(k, p[0], p[1])
		}
		px.native, px.limit = s, int64(len(pairs))+int64(d)+1
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	if !res.Delivered {
		return 0, 0, fmt.Errorf("sparse-embed: the exchange without relabelling was not delivered (missing %d)", res.Missing)
	}
	return res.Slots, dil, nil
}

// blockSched carries out the block-diagonal matrix's transposition: in
// block i (subcube (*^{l_i} x_i), its free dimensions the high l_i bits)
// a total exchange by the symmetric OCTR schedule of the l_i-cube (rows.go's
// row slots; every node applies its block's switching matrices).
type blockSched struct {
	c     *cube
	of    []int // node → its block's exponent l
	steps map[int][][]rowStep
	rowOf map[int][][]int32
	slot  [][]int32 // node → row → packet, or −1
	ck    *checker
	pk    *kernel.ScheduledPackets
}

func (s *blockSched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	l := s.of[node]
	st := s.steps[l]
	if slot >= int64(len(st)) {
		return out
	}
	for _, e := range st[slot] {
		if wi := s.slot[node][e.Row]; wi >= 0 {
			out = append(out, kernel.SlotSend{Packet: wi, Port: s.c.port[int(node)*s.c.d+s.c.d-l+int(e.Dim)]})
			s.slot[node][e.Row] = -1
		}
	}
	return out
}

func (s *blockSched) Arrived(slot int64, node, inPort int32, wi int32) bool {
	if s.c.node[s.pk.Dst(wi)] == int(node) {
		s.ck.got(int(node), s.c.node[s.pk.Src(wi)], true)
		return false
	}
	l := s.of[node]
	j := int(s.c.dimIn[int(node)*s.c.d1+int(inPort)]) - (s.c.d - l)
	s.slot[node][s.rowOf[l][slot][j]] = wi
	return true
}

// setupBlockDiagonal loads task block-diagonal: the blocks' subcubes from
// the prefix code, checked disjoint and covering, and the transposition of
// every block (a TE inside its subcube) at once.
func setupBlockDiagonal(k *kernel.Kernel, c *cube, params map[string]string, ck *checker, px *proxy, r *Result) error {
	d, n := c.d, c.n
	ls, err := blocksParam(params, d)
	if err != nil {
		return err
	}
	lens := make([]int, len(ls))
	var names []string
	for i, l := range ls {
		lens[i] = d - l
		names = append(names, fmt.Sprint(l))
	}
	r.Params = []string{"task.blocks=" + strings.Join(names, ",")}
	code := prefixCode(lens)
	s := &blockSched{c: c, of: make([]int, n), steps: map[int][][]rowStep{}, rowOf: map[int][][]int32{}, slot: make([][]int32, n), ck: ck, pk: px.pk}
	cover := make([]int, n)
	var subs []string
	for i, l := range ls {
		for hi := range 1 << l {
			v := hi<<lens[i] | code[i]
			cover[v]++
			s.of[v] = l
		}
		subs = append(subs, fmt.Sprintf("(*^%d %s)", l, bitString(code[i], lens[i])))
	}
	for v, x := range cover {
		if x != 1 {
			return fmt.Errorf("block-diagonal: node %d lies in %d of the subcubes (the prefix code is not prefix-free)", v, x)
		}
	}
	worst := 0
	for _, l := range ls {
		if _, ok := s.steps[l]; ok || l == 0 {
			continue
		}
		var tags []uint32
		for x := 1; x < 1<<l; x++ {
			tags = append(tags, uint32(x))
		}
		rs := newRowSched(&cube{d: l, n: 1 << l}, tags, ck) // (the l-cube's OCTR steps and rows, shared by the blocks of size 2^l)
		s.steps[l], s.rowOf[l] = rs.steps, rs.rowOf
		worst = max(worst, len(rs.steps))
	}
	var pairs [][2]int
	for v := range n {
		l := s.of[v]
		s.slot[v] = slices.Repeat([]int32{-1}, max(1<<l-1, 0))
		for x := 1; x < 1<<l; x++ {
			t := v ^ x<<(d-l)
			s.slot[v][x-1] = enqueueTagged(k, c, v, t, 0)
			ck.expect(t, v)
			pairs = append(pairs, [2]int{v, t})
		}
	}
	px.native, px.limit = s, int64(worst)+1
	r.Packets = 0
	for _, l := range ls {
		r.Packets += int64(1<<l) * int64(1<<l-1)
	}
	f := float64(worst)
	r.Formula, r.FormulaText = &f, "max_i 2^{l_i − 1}: every block's TE in its own subcube at once (§2.4's N/2 in the l_i-cube)"
	r.LowerBound, r.LowerText = theorem1(c, pairs), "Theorem 1 for the blocks' packets: the busiest dimension's packet-hops / N, or the longest route"
	r.Reading = fmt.Sprintf("%d blocks on subcubes %s: codewords x_i of d − l_i bits from Kraft's equality (canonical prefix code read from the last bit: as written, no x_i ends another, since (*^l x) fixes the last bits), checked disjoint and covering all %d nodes; each block transposed by the symmetric OCTR in its subcube", len(ls), strings.Join(subs, " "), n)
	return nil
}

// bitString writes x's n low bits, bit n−1 first (as the subcube notation
// (*^l x) writes the label's high bits first).
func bitString(x, n int) string {
	var b strings.Builder
	for i := n - 1; i >= 0; i-- {
		b.WriteByte(byte('0' + x>>i&1))
	}
	return b.String()
}

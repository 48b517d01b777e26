package collective

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// MaxPEPackets bounds a partial exchange's M(N−1) packets (each slot scans
// the packets queued at every node).
const MaxPEPackets = 1 << 16

// meshPESched is the partial exchange in a p×p array (§3.5, digest §5.10),
// Phase 2: the active nodes are split into R (r_i ≤ c_j: as few active
// nodes in the row as in the column) and C; R's packets go along the row
// first, then the column, C's the other way. A link gives priority to R's
// packets if it is horizontal and to C's if vertical, then to the packet
// that reached the node first (then the lower packet number); no link idles
// while a packet waits for it. The row and column sums (Phase 1, p·t_p)
// are taken as known (t_p = 0).
type meshPESched struct {
	g     *grid
	dst   []int32 // per key
	colF  []bool  // per key: C (vertical first)
	key   []int32 // per pool index
	since []int64 // per pool index: the slot it reached its node
	at    [][]int32
	ck    *checker
	best  [4]int32
}

func setupMeshPE(k *kernel.Kernel, g *grid, params map[string]string, seed uint64, px *proxy, r *Result) (*meshPESched, *checker, error) {
	if g.d != 2 || g.torus {
		return nil, nil, inputerr.New("topology.n", g.d, "2 for pe (a p×p array, §3.5)")
	}
	act, err := activeNodes(params, "task.sources", g.N, seed, 0x70652121)
	if err != nil {
		return nil, nil, err
	}
	if len(act)*(g.N-1) > MaxPEPackets {
		return nil, nil, inputerr.New("task.m", len(act), "at most %d for pe on %d nodes (M(N−1) ≤ %d packets)", MaxPEPackets/(g.N-1), g.N, MaxPEPackets)
	}
	m := len(act)
	r.Params = append(r.Params, fmt.Sprintf("task.m=%d", m))
	p, n := g.p, g.N
	rows, cols := make([]int, p), make([]int, p)
	for _, s := range act {
		rows[g.digit(s, 1)]++
		cols[g.digit(s, 0)]++
	}
	s := &meshPESched{g: g, at: make([][]int32, n)}
	s.ck = newCheckerCols(n, m*n)
	for i, a := range act {
		vertical := rows[g.digit(a, 1)] > cols[g.digit(a, 0)]
		for v := 0; v < n; v++ {
			if v == a {
				continue
			}
			key := i*n + v
			for len(s.dst) <= key {
				s.dst, s.colF = append(s.dst, -1), append(s.colF, false)
			}
			s.dst[key], s.colF[key] = int32(v), vertical
			wi := meshEnqueue(k, g, a, key)
			s.setKey(wi, key, 0)
			s.at[a] = append(s.at[a], wi)
			s.ck.expect(v, key)
		}
	}
	mm := int(math.Sqrt(float64(m)))
	for (mm+1)*(mm+1) <= m {
		mm++
	}
	u := float64(2*mm*(n-p) + 2*(p-1))
	px.SlotScheduler, px.limit = s, int64(u)+1
	r.Packets = int64(m * (n - 1))
	r.UpperBound, r.UpperText = &u, "2⌊M^{1/2}⌋(N − p) + 2(p − 1) (§3.5, t_p = 0)"
	r.LowerBound = float64(peLower(g, act))
	r.LowerText = "largest of: N−1 packets leave an active node, and M (or M−1) enter a node, over its links; the packets crossing any row or column cut over its p links (mN/4 is the worst placement's, §3.5)"
	r.Reading = fmt.Sprintf("§3.5 Phase 2: R (%d nodes, row first) and C (%d, column first); horizontal links serve R first, vertical links C first, then first come; work-conserving; active nodes from task.sources or drawn from run.seed; t_p = 0", m-countTrue(act, func(a int) bool { return rows[g.digit(a, 1)] > cols[g.digit(a, 0)] }), countTrue(act, func(a int) bool { return rows[g.digit(a, 1)] > cols[g.digit(a, 0)] }))
	return s, s.ck, nil
}

func countTrue(xs []int, f func(int) bool) int {
	n := 0
	for _, x := range xs {
		n += b2n(f(x))
	}
	return n
}

// peLower is a lower bound for this placement of the active nodes.
func peLower(g *grid, act []int) int {
	n, p, m := g.N, g.p, len(act)
	isAct := make([]bool, n)
	for _, a := range act {
		isAct[a] = true
	}
	deg := func(x int) int {
		d := 0
		for dim := 0; dim < 2; dim++ {
			for dir := 0; dir < 2; dir++ {
				d += b2n(g.port[g.pi(x, dim, dir)] >= 0)
			}
		}
		return d
	}
	lb := 0
	for x := 0; x < n; x++ {
		in := m - b2n(isAct[x])
		lb = max(lb, ceilDiv(in, deg(x)))
		if isAct[x] {
			lb = max(lb, ceilDiv(n-1, deg(x)))
		}
	}
	for dim := 0; dim < 2; dim++ {
		for cut := 1; cut < p; cut++ { // nodes with digit < cut on one side
			lo := 0
			for _, a := range act {
				lo += b2n(g.digit(a, dim) < cut)
			}
			lb = max(lb, ceilDiv(lo*(p-cut)*p, p), ceilDiv((m-lo)*cut*p, p))
		}
	}
	return lb
}

func (s *meshPESched) setKey(wi int32, key int, at int64) {
	for int(wi) >= len(s.key) {
		s.key, s.since = append(s.key, -1), append(s.since, 0)
	}
	s.key[wi], s.since[wi] = int32(key), at
}

// want is the (dimension, direction) packet key takes at node x.
func (s *meshPESched) want(x, key int) (dim, dir int) {
	t := int(s.dst[key])
	first := 0
	if s.colF[key] {
		first = 1
	}
	for _, dim := range [2]int{first, 1 - first} {
		if a, b := s.g.digit(x, dim), s.g.digit(t, dim); a != b {
			return dim, b2n(b > a)
		}
	}
	return -1, 0
}

// before reports whether packet a goes before packet b on a link of dim.
func (s *meshPESched) before(a, b int32, dim int) bool {
	ka, kb := int(s.key[a]), int(s.key[b])
	pa, pb := s.colF[ka] == (dim == 1), s.colF[kb] == (dim == 1)
	if pa != pb {
		return pa
	}
	if s.since[a] != s.since[b] {
		return s.since[a] < s.since[b]
	}
	return ka < kb
}

func (s *meshPESched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	x := int(node)
	s.best = [4]int32{-1, -1, -1, -1}
	for _, wi := range s.at[x] {
		dim, dir := s.want(x, int(s.key[wi]))
		if b := &s.best[2*dim+dir]; *b < 0 || s.before(wi, *b, dim) {
			*b = wi
		}
	}
	keep := s.at[x][:0]
	for _, wi := range s.at[x] {
		dim, dir := s.want(x, int(s.key[wi]))
		if s.best[2*dim+dir] == wi {
			out = append(out, kernel.SlotSend{Packet: wi, Port: s.g.port[s.g.pi(x, dim, dir)]})
			continue
		}
		keep = append(keep, wi)
	}
	s.at[x] = keep
	return out
}

func (s *meshPESched) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	key, x := int(w.Aux), int(node)
	s.setKey(wi, key, slot+1)
	if int(s.dst[key]) == x {
		s.ck.got(x, key, true)
		w.Dst = int32(s.g.Term[x])
		return false
	}
	s.at[x] = append(s.at[x], wi)
	return true
}

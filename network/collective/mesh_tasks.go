package collective

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
)

// setupGrid loads a mesh or torus task's packets and schedule and fills in
// the seed's figures.
func setupGrid(k *kernel.Kernel, g *grid, task string, params map[string]string, seed uint64, px *proxy, r *Result) (*meshSched, *checker, error) {
	switch {
	case task == "bcast" && g.d != 1:
		return nil, nil, inputerr.New("topology.n", g.d, "1 for bcast (Theorem 2: a linear array or ring)")
	case task == "bcast" || task == "mnb" && g.d == 1:
		return setupLine(k, g, task, params, px, r)
	case task == "packing" || task == "monotone":
		return setupRoute(k, g, task, params, seed, px, r)
	}
	act := make([]int, g.N)
	for i := range act {
		act[i] = i
	}
	if task == "pmnb" {
		var err error
		if act, err = activeNodes(params, "task.sources", g.N, seed, 0x706d6e62); err != nil {
			return nil, nil, err
		}
		r.Params = append(r.Params, fmt.Sprintf("task.m=%d", len(act)))
	}
	def := "a0"
	if task == "mnb" {
		def = "nosplit"
	}
	alg := strings.TrimSpace(params["task.algorithm"])
	if alg == "" {
		alg = def
	}
	if task == "mnb" && alg == "optimal" {
		ck, err := setupMNBOpt(k, g, px, r)
		return nil, ck, err
	}
	if alg != "a0" && alg != "split" && alg != "nosplit" {
		opt := ""
		if task == "mnb" {
			opt = ", optimal (the optimum: a searched tree, folded onto the array)"
		}
		return nil, nil, inputerr.New("task.algorithm", alg, "a0 (𝒜_0, one class), split (Theorem 6: d classes of mini-packets), nosplit (§3.4.2: classes r mod d)%s", opt)
	}
	r.Params = append(r.Params, "task.algorithm="+alg)
	tp := 0
	if task == "pmnb" {
		var err error
		if tp, err = intParam(params, "task.tp", 0, 0, meshMaxTp); err != nil {
			return nil, nil, err
		}
		if _, ok := params["task.tp"]; ok {
			r.Params = append(r.Params, fmt.Sprintf("task.tp=%d", tp))
		}
	}
	return setupPMNB(k, g, task, act, alg, tp, px, r)
}

// meshMaxTp bounds task.tp (time units per prefix hop).
const meshMaxTp = 64

// setupPMNB loads the mesh PMNB (§3.4, digest §5.7–5.9) of the active
// nodes act (sorted) by algorithm alg; task mnb is every node active.
func setupPMNB(k *kernel.Kernel, g *grid, task string, act []int, alg string, tp int, px *proxy, r *Result) (*meshSched, *checker, error) {
	m := newMeshPMNB(k, g, act, alg, tp)
	px.SlotScheduler, px.limit = m.sched, m.end+1
	if m.split > 1 {
		px.split = m.split
	}
	r.Packets = int64(len(m.sched.pk.origin))
	f := float64(m.end) / float64(m.split)
	r.Formula = &f
	r.FormulaText = fmt.Sprintf("the schedule's clock: prefix %s + packing d(p−1) + Σ_{l=1..d} R·⌈M'/p^{d−l+1}⌉ with R = %d, M' = %d (Lemma 1's subphase lengths, digest §5.7)", map[bool]string{true: "4d(p−1)t_p", false: "2d(p−1)t_p"}[alg == "nosplit"], m.round, m.mc)
	if m.split > 1 {
		r.FormulaText += fmt.Sprintf(", in units of 1/%d", m.split)
	}
	meshPMNBBounds(g, task, alg, act, m.split, tp, r)
	return m.sched, m.ck, nil
}

// meshPMNBShape gives algorithm alg's halves per packet (a torus sends
// both ways round each ring unless nosplit), ring kind and classes (a0
// has one; split and nosplit have one per dimension).
func meshPMNBShape(g *grid, alg string) (halves int, ring ringMode, classes int) {
	halves, ring, classes = 1, ringArray, 1
	if g.torus {
		halves, ring = 2, ringHalves
	}
	if alg != "a0" {
		classes = g.d
	}
	if alg == "nosplit" {
		halves, ring = 1, ringWhole
		if !g.torus {
			ring = ringArray
		}
	}
	return halves, ring, classes
}

// meshPMNBMembers gives each class's active nodes in that class's order:
// a0 and split rank every active node in each class; nosplit puts rank r
// in class r mod d, ranked among its class.
func meshPMNBMembers(g *grid, act []int, alg string, classes int) [][]int {
	var members [][]int
	for c := 0; c < classes; c++ {
		var mem []int
		for i, s := range act {
			if alg != "nosplit" || i%g.d == c {
				mem = append(mem, s)
			}
		}
		slices.SortFunc(mem, func(a, b int) int { return g.rotate(a, c) - g.rotate(b, c) })
		members = append(members, mem)
	}
	return members
}

// meshPMNBLens gives the broadcast subphase lengths R·⌈M'/p^{d−l+1}⌉
// (Lemma 1) for m active nodes, with the round R and the per-class M'.
func meshPMNBLens(g *grid, alg string, ring ringMode, m int) (lens []int64, round int64, mc int) {
	p, d := g.p, g.d
	mc = m
	if alg == "nosplit" {
		mc = ceilDiv(m, d)
	}
	round = int64(p - 1)
	if ring == ringWhole {
		round = int64(p / 2) // ⌈(p−1)/2⌉
	}
	for l := 1; l <= d; l++ {
		lens = append(lens, round*int64(ceilDiv(mc, g.pow[d-l+1])))
	}
	return lens, round, mc
}

// meshPMNBClasses adds each class's packing and broadcast phases from
// slot start and its packets (one per half) to sched; it returns the
// last class's end slot.
func meshPMNBClasses(g *grid, sched *meshSched, members [][]int, lens []int64, halves int, ring ringMode, start int64) int64 {
	pk := sched.pk
	var end int64
	for c := range members {
		cls := newMeshClass(g, c, halves, ring, pk, nil)
		end = cls.addBcast(lens, cls.addPhases(phasePack, span(0, g.d), start))
		sched.cls = append(sched.cls, cls)
		for rank, s := range members[c] {
			home := g.unrotate(rank, c)
			for h := 0; h < halves; h++ {
				pk.add(s, home, -1, home, c, h)
			}
		}
	}
	return end
}

// meshPMNBPlace enqueues every packet at its origin and expects it at
// every node but the origin, and at the origin too when packing moves it
// to another home (the broadcast starts from the home).
func meshPMNBPlace(k *kernel.Kernel, g *grid, sched *meshSched) *checker {
	pk := sched.pk
	ck := newCheckerCols(g.N, len(pk.origin))
	for key := range pk.origin {
		cls := sched.cls[pk.class[key]]
		cls.ck = ck
		cls.place(meshEnqueue(k, g, int(pk.origin[key]), key), key)
		for v := 0; v < g.N; v++ {
			if v != int(pk.origin[key]) || pk.home[key] != pk.origin[key] {
				ck.expect(v, key)
			}
		}
	}
	return ck
}

// meshPMNBBounds sets the seed's upper bound and a lower bound.
func meshPMNBBounds(g *grid, task, alg string, act []int, split int64, tp int, r *Result) {
	p, d, n := float64(g.p), float64(g.d), float64(g.N)
	m := float64(len(act))
	frac := (n - 1) / n
	var u float64
	var txt string
	switch {
	case alg == "a0" && g.torus:
		u, txt = m/2*frac+1.5*(p-1)*d, "(M/2)(N−1)/N + 1.5(p−1)d (Lemma 2, torus, t_p = 0)"
	case alg == "a0":
		u, txt = m*frac+2*(p-1)*d, "M(N−1)/N + 2(p−1)d (Lemma 2, array, t_p = 0)"
	case alg == "split" && g.torus:
		u, txt = m/(2*d)*frac+1.5*(p-1), "(M/(2d))(N−1)/N + 1.5(p−1) (Theorem 6, Eq. 3.9, t_p = 0)"
	case alg == "split":
		u, txt = m/d*frac+2*(p-1), "(M/d)(N−1)/N + 2(p−1) (Theorem 6, Eq. 3.10, t_p = 0)"
	case g.torus:
		h := float64(g.p / 2)
		u = float64(ceilDiv(len(act), g.d))/(p-1)*h*frac + (p-1)*d + d*h
		txt = "⌈M/d⌉(1/(p−1))⌈(p−1)/2⌉(N−1)/N + (p−1)d + d⌈(p−1)/2⌉ (Eq. 3.7, t_p = 0)"
	case task == "mnb":
		u, txt = float64(ceilDiv(g.N, g.d))*frac+2*(p-1)*d, "⌈N/d⌉(N−1)/N + 2(p−1)d (§3.4.2 MNB without splitting, γ = 1)"
	default:
		u, txt = float64(ceilDiv(len(act), g.d))+2*(p-1)*d-1, "⌈M/d⌉ + 2(p−1)d − 1 (Eq. 3.8, t_p = 0; Fig. 3.5's 3d(p−1) read as a typo, digest §9 item 12)"
	}
	if pre := float64(2*g.d*(g.p-1)) * float64(tp); tp > 0 {
		if alg == "nosplit" {
			pre *= 2
		}
		u += pre
		txt = strings.Replace(txt, "t_p = 0", fmt.Sprintf("t_p = %d: + %s", tp, map[bool]string{true: "4(p−1)d·t_p", false: "2d(p−1)·t_p"}[alg == "nosplit"]), 1)
	}
	r.UpperBound, r.UpperText = &u, txt
	links := 2 * g.d // in-links of the worst node (torus), d at the array's corner
	if !g.torus {
		links = g.d
	}
	lb := (m - 1) / float64(links)
	if split == 1 {
		lb = float64(ceilDiv(len(act)-1, links))
	}
	ecc := 0
	for _, s := range act {
		for v := 0; v < g.N; v++ {
			ecc = max(ecc, g.dist(s, v))
		}
	}
	lb = max(lb, float64(ecc)/float64(split))
	r.LowerBound = lb
	r.LowerText = fmt.Sprintf("max((M−1)/%s, eccentricity/split): M−1 packets enter node 0 over %d links (Eqs. 3.3–3.4), and a packet must reach the farthest node", map[bool]string{true: "(2d)", false: "d"}[g.torus], links)
	if task == "mnb" {
		meshMNBFormula(g, alg, r)
		return
	}
	prefix := "ranks known in advance (t_p = 0)"
	if tp > 0 {
		prefix = "ranks and M computed by the prefix tree's messages on the links, t_p per hop (task.tp), and checked against the ranks the packing uses"
	}
	r.Reading = fmt.Sprintf("%s; active nodes from task.sources or drawn from run.seed; %s; packing then broadcast subphases along dimensions d−1..0 by Theorem 2 pass-through", meshAlgText(g, alg), prefix)
}

func meshAlgText(g *grid, alg string) string {
	switch {
	case alg == "split" && g.torus:
		return "Theorem 6: d classes of mini-packets (class c by 𝒜_c, dimensions rotated by c), each halved for the two ring directions; one router slot per 1/(2d)"
	case alg == "split":
		return "Theorem 6: d classes of mini-packets (class c by 𝒜_c, dimensions rotated by c); one router slot per 1/d"
	case alg == "nosplit":
		return "§3.4.2: rank r in class r mod d, run by 𝒜_c; whole packets; subphase lengths aligned on ⌈M/d⌉"
	case g.torus:
		return "𝒜_0 single class, packets halved for the two ring directions (Lemma 2's (p−1)/2 per round); one router slot per 1/2"
	}
	return "𝒜_0 single class, no splitting"
}

// meshMNBFormula sets the MNB optimum of Theorem 1 (2-D) or §3.4 (torus).
func meshMNBFormula(g *grid, alg string, r *Result) {
	n := g.N
	var f float64
	switch {
	case g.d == 2 && g.torus && g.p%2 == 0:
		f, r.FormulaText = float64(n/4), "N/4 (optimal 2-D torus MNB, p even, [BeT89] quoted in §3.2)"
	case g.d == 2 && g.torus:
		f, r.FormulaText = float64((n-1)/4), "(N−1)/4 (optimal 2-D torus MNB, p odd, [BeT89] quoted in §3.2)"
	case g.d == 2:
		f, r.FormulaText = float64(n/2), "⌊N/2⌋ (Theorem 1: optimal 2-D array MNB)"
	case g.torus:
		f, r.FormulaText = float64(ceilDiv(n-1, 2*g.d)), "⌈(N−1)/(2d)⌉ (optimal d-D torus MNB, quoted in §3.4)"
	default:
		r.Formula, r.FormulaText = nil, ""
		r.Reading = "the seed gives no MNB optimum for this array: " + meshAlgText(g, alg)
		return
	}
	r.Formula = &f
	r.Reading = "the seed's own MNB, not the optimum (task.algorithm=optimal on a 2-D torus or array runs that): " + meshAlgText(g, alg) + ", every node active, ranks = labels (no prefix)"
}

// rotate is node x's label in class c's order: digit l is x's digit
// (l+c) mod d (𝒜_c uses dimension (l+c) mod d where 𝒜_0 uses l).
func (g *grid) rotate(x, c int) int {
	y := 0
	for l := 0; l < g.d; l++ {
		y += g.digit(x, (l+c)%g.d) * g.pow[l]
	}
	return y
}

// unrotate is the node whose class-c label is y.
func (g *grid) unrotate(y, c int) int {
	x := 0
	for l := 0; l < g.d; l++ {
		x += g.digit(y, l) * g.pow[(l+c)%g.d]
	}
	return x
}

func span(lo, hi int) []int {
	var out []int
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// packetCounts reads task.packets: one count for every node, or p counts.
func packetCounts(params map[string]string, p int) ([]int, error) {
	v, ok := params["task.packets"]
	out := make([]int, p)
	if !ok {
		for i := range out {
			out[i] = 1
		}
		return out, nil
	}
	bad := inputerr.New("task.packets", v, "one count from 0 to 64 for every node, or %d comma-separated counts (one per node), not all 0", p)
	f := strings.Split(strings.Trim(strings.TrimSpace(v), "[]"), ",")
	if len(f) != 1 && len(f) != p {
		return nil, bad
	}
	total := 0
	for i := range out {
		x, err := strconv.Atoi(strings.TrimSpace(f[min(i, len(f)-1)]))
		if err != nil || x < 0 || x > 64 {
			return nil, bad
		}
		out[i], total = x, total+x
	}
	if total == 0 {
		return nil, bad
	}
	return out, nil
}

// meshRanks is the prefix channel that computes the ranks the packing
// uses: a0 and split rank every active node in each class's order; nosplit
// first ranks them all (class = rank mod d), then each class among its own.
func meshRanks(g *grid, act []int, alg string, members [][]int, window int64) *meshPrefix {
	active := make([]bool, g.N)
	for _, a := range act {
		active[a] = true
	}
	insts := []int{len(members)}
	if alg == "nosplit" {
		insts = []int{1, g.d}
	}
	var pre *meshPrefix
	pre = newMeshPrefix(g, window, insts, 0, func(round, c, x int) bool {
		if round == 0 {
			return active[x]
		}
		return active[x] && int(pre.state(0, 0, x).rank)%g.d == c
	})
	pos := make([][]int, len(members)) // class → node → its rank, or −1
	for c, mem := range members {
		pos[c] = make([]int, g.N)
		for i := range pos[c] {
			pos[c][i] = -1
		}
		for i, x := range mem {
			pos[c][x] = i
		}
	}
	all := make([]int, g.N)
	for i, x := range act {
		all[x] = i
	}
	pre.want = func(r, c, x int) (int, int) {
		if alg == "nosplit" && r == 0 {
			if !active[x] {
				return -1, len(act)
			}
			return all[x], len(act)
		}
		return pos[c][x], len(members[c])
	}
	return pre
}

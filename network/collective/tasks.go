package collective

import (
	"fmt"
	"math/bits"

	"github.com/flitsim/flitsim/configs/inputerr"

	"github.com/flitsim/flitsim/internal/kernel"
)

// setup loads task's packets, sets its schedule and the seed's figures.
func setup(k *kernel.Kernel, c *cube, task string, params map[string]string, seed uint64, ck *checker, px *proxy, r *Result) error {
	switch task {
	case "te", "kl-exchange":
		return setupCubeExchange(k, c, task, params, ck, px, r)
	case "banded": // (hcube's tasks: banded*.go)
		return setupBanded(k, c, params, seed, ck, px, r)
	case "banded-multi":
		return setupBandedMulti(k, c, params, ck, px, r)
	case "pe":
		return setupPE(k, c, params, seed, ck, px, r)
	case "pmng": // (PE time-reversed: pmng.go)
		return setupPMNG(k, c, params, seed, ck, px, r)
	case "sparse-embed": // (§2.8, §2.9: embed.go, embed_tasks.go)
		return setupSparseEmbed(k, c, params, seed, ck, px, r)
	case "block-diagonal":
		return setupBlockDiagonal(k, c, params, ck, px, r)
	case "snb":
		return setupCubeSNB(k, c, params, ck, px, r)
	case "pmnb", "packing":
		return setupCubePmnb(k, c, task, params, seed, ck, px, r)
	case "wmnb":
		return setupCubeWMNB(k, c, params, ck, px, r)
	case "wte": // (the window TE, our reading: wte.go)
		return setupCubeWTE(k, c, params, ck, px, r)
	case "mnb": // (task.hardware=router; the lock-step hardware: mnb_lockstep.go)
		setupCubeMNB(k, c, ck, px, r)
		r.Params = []string{"task.hardware=router"}
	}
	return nil
}

// setupCubeExchange loads total exchange (te) or the K–L exchange: every
// node sends one packet to each offset whose weight lies in [K, L].
func setupCubeExchange(k *kernel.Kernel, c *cube, task string, params map[string]string, ck *checker, px *proxy, r *Result) error {
	n, d := c.n, c.d
	lo, hi := 1, d
	if task == "kl-exchange" {
		var err error
		if lo, hi, err = klRange(params, d, r); err != nil {
			return err
		}
	}
	if task == "te" {
		*ck = *newCheckerOthers(n)
	}
	var tags []uint32
	for x := 1; x < n; x++ {
		if w := bits.OnesCount(uint(x)); w >= lo && w <= hi {
			tags = append(tags, uint32(x))
		}
	}
	setupRows(k, c, tags, ck, px, r)
	f := klFormula(d, lo, hi)
	r.Formula = &f
	if task == "te" {
		r.FormulaText = "N/2 (TE by the OCTR, §2.4)"
	} else {
		r.FormulaText = "max(L, Σ_{i=K..L} C(d,i)·i/d) (§2.4)"
	}
	return nil
}

// klRange reads task.k and task.l (1 ≤ K ≤ L ≤ d) and records them.
func klRange(params map[string]string, d int, r *Result) (lo, hi int, err error) {
	if lo, err = intParam(params, "task.k", 1, 1, d); err != nil {
		return 0, 0, err
	}
	if hi, err = intParam(params, "task.l", d, 1, d); err != nil {
		return 0, 0, err
	}
	if hi < lo {
		return 0, 0, inputerr.New("task.l", hi, "an integer from task.k (%d) to %d", lo, d)
	}
	r.Params = []string{fmt.Sprintf("task.k=%d", lo), fmt.Sprintf("task.l=%d", hi)}
	return lo, hi, nil
}

// setupCubeSNB loads a single-node broadcast from task.root.
func setupCubeSNB(k *kernel.Kernel, c *cube, params map[string]string, ck *checker, px *proxy, r *Result) error {
	n, d := c.n, c.d
	root, err := intParam(params, "task.root", 0, 0, n-1)
	if err != nil {
		return err
	}
	r.Params = []string{fmt.Sprintf("task.root=%d", root)}
	s := newBcastSched(c, snbSteps(d), ck)
	s.load(k, []int{root})
	px.native, px.limit = s, int64(d)+1
	r.Packets = 1
	f := float64(d)
	r.Formula, r.FormulaText = &f, "d (SNB takes the diameter, §1.2)"
	r.LowerBound, r.LowerText = float64(d), "d: the diameter (and the holders at most double per slot)"
	r.Reading = "binomial tree: in slot t every holder sends over dimension t"
	return nil
}

// setupCubePmnb loads packing or a partial multinode broadcast of task.m
// packets: Algorithms I and III and the t_p channel (pmnb_setup.go),
// Algorithm II (task.algorithm=ii) or 𝒜_0 (setupCubeA0).
func setupCubePmnb(k *kernel.Kernel, c *cube, task string, params map[string]string, seed uint64, ck *checker, px *proxy, r *Result) error {
	m, err := intParam(params, "task.m", c.n/2, 1, c.n)
	if err != nil {
		return err
	}
	r.Params = []string{fmt.Sprintf("task.m=%d", m)}
	if task == "pmnb" { // (Algorithms I and III, and the t_p prefix channel: pmnb_setup.go)
		if done, err := setupPmnbAlgs(k, c, m, params, seed, ck, px, r); done {
			return err
		}
	}
	if alg := params["task.algorithm"]; task == "pmnb" && alg != "" && alg != "a0" {
		if alg != "ii" {
			return inputerr.New("task.algorithm", alg, "a0 (𝒜_0, no splitting), ii (Algorithm II, split into d mini-packets)")
		}
		return setupPmnbII(k, c, m, seed, ck, px, r)
	}
	setupCubeA0(k, c, task, m, seed, ck, px, r)
	return nil
}

// setupCubeA0 loads packing, or PMNB by 𝒜_0 (one class, no splitting),
// of m packets from active nodes drawn from seed.
func setupCubeA0(k *kernel.Kernel, c *cube, task string, m int, seed uint64, ck *checker, px *proxy, r *Result) {
	n, d := c.n, c.d
	s := newPmnbSched(c, m, task == "pmnb", seed, ck)
	s.load(k)
	f := float64(s.formula())
	px.native, px.limit = s, int64(f)+1
	px.after = func(r *Result) { r.MaxAtNode = s.maxHeld }
	r.Packets = int64(m)
	r.Formula = &f
	if task == "packing" {
		r.FormulaText = "d (packing: node-disjoint greedy paths in ascending dimensions, §3.6.1)"
		r.LowerBound, r.LowerText = 0, "none (a packet may already sit at its rank)"
		r.Reading = "active nodes drawn from run.seed; ranks known in advance"
		return
	}
	r.FormulaText = "d + Σ_{k=1..d} ⌈M/2^k⌉ (𝒜_0 exact with t_p = 0: packing d, broadcast Σ⌈M/2^k⌉; digest 000a §7.1 item 7, §7.3)"
	u := float64(m*(n-1))/float64(n) + float64(2*d)
	r.UpperBound, r.UpperText = &u, "M(N−1)/N + 2d (Lemma 5, t_p = 0)"
	r.LowerBound = float64(max(d, ceilDiv(m-1, d)))
	r.LowerText = "max(d, ⌈(M−1)/d⌉) (Eq. 3.11 without splitting)"
	r.Reading = "𝒜_0 single class, no splitting; active nodes drawn from run.seed; ranks known in advance (t_p = 0: the prefix phase is not modelled); broadcast subphases of ⌈M/2^{d−l+1}⌉ slots, FIFO"
}

// setupCubeWMNB loads the window MNB of §3.8: the 2^m nodes of a window
// each broadcast d mini-packets.
func setupCubeWMNB(k *kernel.Kernel, c *cube, params map[string]string, ck *checker, px *proxy, r *Result) error {
	n, d := c.n, c.d
	if d < 2 {
		return inputerr.New("topology.d", d, "at least 2 for wmnb (a window 1 ≤ m < d)")
	}
	m, err := intParam(params, "task.m", max(1, d/2), 1, d-1)
	if err != nil {
		return err
	}
	mm := 1 << m
	r.Params = []string{fmt.Sprintf("task.m=%d", m)}
	*ck = *newCheckerCols(n, mm*d)
	s := newWmnbSched(c, m, ck)
	s.load(k)
	px.native, px.limit, px.split = s, int64(mm)+2, int64(d)
	r.Packets = int64(mm * d)
	f := float64(mm+1) / float64(d)
	r.Formula, r.FormulaText = &f, "(M+1)/d: M+1 mini-slots (§3.8)"
	r.LowerBound, r.LowerText = float64(mm-1)/float64(d), "(M−1)/d (§3.8: a node of the window receives M−1 packets over d links)"
	r.Reading = "each packet split into d mini-packets (classes); the router runs one slot per mini-slot; packets counts mini-packets; deliveries are per (node, packet, class)"
	return nil
}

// setupCubeMNB loads the multinode broadcast: every node broadcasts one packet.
func setupCubeMNB(k *kernel.Kernel, c *cube, ck *checker, px *proxy, r *Result) {
	n, d := c.n, c.d
	steps := mnbSteps(d)
	*ck = *newCheckerOthers(n)
	s := newBcastSched(c, steps, ck)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	s.load(k, all)
	px.native, px.limit = s, int64(len(steps))+1
	describeMNB(r, n, d)
}

// describeMNB gives an MNB's figures and reading.
func describeMNB(r *Result, n, d int) {
	r.Packets = int64(n)
	f := float64(ceilDiv(n-1, d))
	r.Formula, r.FormulaText = &f, "⌈(N−1)/d⌉ (optimal MNB of [BOS91], quoted in §3.6)"
	u := float64(ceilDiv(n, d) + 2*d - 1)
	r.UpperBound, r.UpperText = &u, "⌈N/d⌉ + 2d − 1 (Algorithm III with M = N, §3.6.3)"
	r.LowerBound = float64(max(d, ceilDiv(n-1, d)))
	r.LowerText = "max(d, ⌈(N−1)/d⌉): the diameter; N−1 packets enter a node over d links"
	r.Reading = "the [BOS91] algorithm is not in the seed (digest 000a §10.6): a symmetric spanning-tree schedule, one tree edge per dimension per slot, grown by matching dimensions to new offsets"
}

// setupPmnbII loads Algorithm II (§3.6.2, Theorem 8): d classes of
// mini-packets, class c by 𝒜_c; one router slot per mini-slot.
func setupPmnbII(k *kernel.Kernel, c *cube, m int, seed uint64, ck *checker, px *proxy, r *Result) error {
	d, n := c.d, c.n
	r.Params = append(r.Params, "task.algorithm=ii")
	*ck = *newCheckerCols(n, n*d)
	p := &pmnbSplit{}
	for cl := 0; cl < d; cl++ {
		s := newPmnbClass(c, m, true, seed, ck, cl, d)
		s.load(k)
		p.cls = append(p.cls, s)
	}
	ms := p.cls[0].formula()
	px.native, px.limit, px.split = p, ms+1, int64(d)
	px.after = func(r *Result) {
		for _, s := range p.cls {
			r.MaxAtNode = max(r.MaxAtNode, s.maxHeld)
		}
	}
	r.Packets = int64(m * d)
	f := float64(ms) / float64(d)
	r.Formula, r.FormulaText = &f, "1 + (1/d)·Σ_{k=1..d} ⌈M/2^k⌉ (Algorithm II exact with t_p = 0: packing d and broadcast Σ⌈M/2^k⌉ mini-slots; digest 000a §5.11.2, §7.3)"
	u := float64(m)/float64(d)*float64(n-1)/float64(n) + 2
	r.UpperBound, r.UpperText = &u, "(M/d)(N−1)/N + 2 (Theorem 8, t_p = 0)"
	r.LowerBound, r.LowerText = float64(m-1)/float64(d), "(M−1)/d (Eq. 3.11)"
	r.Reading = "Algorithm II: each packet split into d mini-packets, class c by 𝒜_c on labels rotated by c; the router runs one slot per mini-slot; ranks known in advance (t_p = 0); packets counts mini-packets"
	return nil
}

// setupRows loads an isotropic task (rows tags at every node) and its
// symmetric OCTR schedule.
func setupRows(k *kernel.Kernel, c *cube, tags []uint32, ck *checker, px *proxy, r *Result) {
	setupRowsFrom(k, c, tags, nil, ck, px, r)
}

// setupRowsFrom is setupRows with only the nodes in from (nil: all)
// loading their rows.
func setupRowsFrom(k *kernel.Kernel, c *cube, tags []uint32, from []bool, ck *checker, px *proxy, r *Result) {
	s := newRowSched(c, tags, ck)
	s.stop, s.from = px.opts.stopped, from
	s.load(k, tags)
	px.native, px.limit = s, int64(len(s.steps))+1
	r.Packets = int64(c.n * len(tags))
	h, _ := critical(tags, c.d)
	r.LowerBound, r.LowerText = float64(h), "Theorem 1: critical sum of the task matrix (largest row or column sum)"
	r.Reading = "symmetric OCTR schedule: every node applies the same switching matrix to its row slots (digest 000a §4.3, §10.5)"
}

// klFormula is h = max(L, Σ_{i=K}^{L} C(d,i)·i/d) (digest 000a §4.6).
func klFormula(d, lo, hi int) float64 {
	sum := 0
	for i := lo; i <= hi; i++ {
		sum += binom(d-1, i-1) // C(d,i)·i/d
	}
	return float64(max(hi, sum))
}

func binom(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

package han

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// H on K-dimensional meshes (§4.6.1 for K = 3, §4.6.2; digest 002
// §3.9.1–3.9.2): on n^K processors (n = 2^p, K ≥ 3; K = 2 is Algorithm
// H), every stage has K move/smooth pairs. The pair for axis a (a = K−1
// … 0) moves every message whose destination lies in the other half of
// its region along axis a, ⌈S_a/2⌉ hops (contention-free: at most one
// message leaves a processor on a line and direction), and smooths the
// regions so halved.
//
// Smoothing an S_0×…×S_{K−1} region (Lemma 4.4 generalised): the region is
// counted in two halves along axis 0, the bottom in the mirrored frame (as
// in 2-D). Counting waves run along axis K−1, then K−2, …, 1 (both ends,
// S_a − 1 steps each: every processor learns the totals of the blocks
// before and after its own along that axis) and then along axis 0 down
// each half (⌈S_0/2⌉ − 1 steps): S_1 + … + S_{K−1} + S_0/2 − K integer
// steps. The distribution is a row movement along each axis K−1 … 1 and a
// column movement along axis 0. Row movement along axis a treats the
// region as a 2-D mesh whose rows are its lines along a in lexicographic
// order (the cube's (x,y,z) → (n·x + y, z), §4.6.1) and delivers the
// Final Configuration Property's counts; every processor computes its
// line's prefix, total and its own count before each movement from the
// counting data alone, by telescoping the FCP counts (fcp) through the
// movements already made. Column movement numbers the messages of each
// axis-0 line from the telescoped prefix, as in 2-D.

// The K-D variants' names (route --variant 3d|kd).
const (
	Variant3D = "3d"
	VariantKD = "kd"
)

// KDBound is the thesis's bound for H on n^K: Thm 4.7 for K = 3 (12.5n
// data + 9.5n integer steps), §4.6.2's {K + (3K² − 3K + 1)/2}n data +
// (3K² − 3K + 1)n/2 integer steps (total (3K² − 2K + 1)n) for any K;
// 3 buffers, 2 after a move.
func KDBound(n, K int) Bound {
	f, c := float64(n), float64(3*K*K-3*K+1)/2
	src := fmt.Sprintf("Han 1990 §4.6.2: H on K-D, K = %d: {K + (3K² − 3K + 1)/2}n data + (3K² − 3K + 1)n/2 integer steps, 3 buffers (Table 5.2 prints +1 for +½: digest §8 item 10)", K)
	if K == 3 {
		src = "Han 1990 Thm 4.7: H on n×n×n, 12.5n data + 9.5n integer steps, 3 buffers (2 after a move)"
	}
	return Bound{(float64(K) + c) * f, c * f, (float64(K) + 2*c) * f, 3, 2, src}
}

// KDSides says whether H runs on n^K, as a bad-input message ("" when it does).
func KDSides(n, K int) string {
	switch {
	case K < 3 || K > 8:
		return fmt.Sprintf("route.k=%d: the dimensions of a K-D mesh, from 3 to 8", K)
	case n < 2 || !Pow2(n) || pow(n, K) > 1<<22:
		return fmt.Sprintf("topology.k=%d: H on a %d-D mesh needs a side that is a power of two, from 2 to %d (at most 2^22 processors)", n, K, maxKDSide(K))
	}
	return ""
}

func maxKDSide(K int) int {
	n := 2
	for pow(2*n, K) <= 1<<22 {
		n *= 2
	}
	return n
}

func pow(n, K int) int {
	p := 1
	for range K {
		p *= n
	}
	return p
}

// RunKD routes a (partial) permutation of the n^K processors (index Σ
// x_a·n^{K−1−a}, the last axis fastest; dests[p]: one destination or none)
// with H on the K-D mesh, pools of buffers messages.
func RunKD(K, n, buffers int, dests [][]int32, schedule string, log io.Writer) (*Result, error) {
	name := AlgH + "-" + VariantKD
	if K == 3 {
		name = AlgH + "-" + Variant3D
	}
	return runKD(name, K, n, buffers, dests, schedule, log, KDBound(n, K), (*kd).run)
}

// runKD loads a K-D machine of side n and runs the stages (run) on it.
func runKD(name string, K, n, buffers int, dests [][]int32, schedule string, log io.Writer, b Bound, run func(*kd) error) (res *Result, err error) {
	if msg := KDSides(n, K); msg != "" {
		return nil, fmt.Errorf("%s", msg)
	}
	if schedule != Static && schedule != Actual {
		return nil, fmt.Errorf("schedule %q (allowed: static, actual)", schedule)
	}
	dims := make([]int, K)
	for a := range dims {
		dims[a] = n
	}
	m := NewMachineDims(dims, buffers)
	N := m.Processors()
	r := &router{m: m, schedule: schedule, stage: &Stage{}, bestN: make([]int32, N), bestS: make([]int32, N), bestStep: make([]int64, N)}
	for p, ds := range dests {
		switch {
		case len(ds) > 1:
			return nil, fmt.Errorf("processor %d: %d destinations: %s routes permutations (no restricted broadcasts, so far)", p, len(ds), name)
		case len(ds) == 0:
			continue
		}
		if _, err := m.Load(int32(p)); err != nil {
			return nil, err
		}
		r.dests = append(r.dests, ds)
	}
	if log != nil {
		flush := m.EventLog(log)
		defer func() {
			if ferr := flush(); err == nil && ferr != nil {
				res, err = nil, ferr
			}
		}()
	}
	r.res = &Result{Algorithm: name, Rows: n, Cols: N / n, Dims: dims, Schedule: schedule, Buffers: buffers, Messages: len(r.dests), Bound: b}
	if err := run(newKD(r, dims)); err != nil {
		return r.res, err
	}
	return r.finish(N / n)
}

// kd is H on a K-D machine: the regions (bands per axis) and what
// counting leaves at every processor, in its half's frame.
type kd struct {
	r     *router
	m     *Machine
	K     int
	bands [][]span // per axis
	band  [][]int32
	bef   [][]int32 // per axis: the messages in the blocks before the processor's along it
	blk   [][]int32 // per depth 0 … K: the processor's block's total (depth K: its own count)
	acc   [2][]int32
	send  [2][]int32 // row movement: messages still to send along the axis, frame − and +
	// per axis and processor (index): its coordinate in its band, its
	// frame coordinate (frame) and the band's size; per processor whether
	// it is in a bottom half (mirrored)
	at, fr, size [][]int32
	mir          []bool
	byAt         [][][]int32 // per axis and coordinate in the band: the processors there, in order
	b            int         // the most messages a processor holds when smoothing starts (2; Q: 2^K)
}

func newKD(r *router, dims []int) *kd {
	K, N := len(dims), r.m.Processors()
	k := &kd{r: r, m: r.m, K: K, b: 2, bands: make([][]span, K), band: make([][]int32, K), bef: make([][]int32, K), blk: make([][]int32, K+1)}
	for a := range K {
		k.bands[a], k.bef[a] = []span{{0, dims[a]}}, make([]int32, N)
	}
	for d := range K + 1 {
		k.blk[d] = make([]int32, N)
	}
	k.acc = [2][]int32{make([]int32, N), make([]int32, N)}
	k.at, k.fr, k.size, k.mir = make([][]int32, K), make([][]int32, K), make([][]int32, K), make([]bool, N)
	for a := range K {
		k.at[a], k.fr[a], k.size[a] = make([]int32, N), make([]int32, N), make([]int32, N)
	}
	k.send = [2][]int32{make([]int32, N), make([]int32, N)}
	return k
}

// run is the stages: K move/smooth pairs each, axis K−1 first.
func (k *kd) run() error {
	r := k.r
	for wide(k.bands[0]) {
		r.res.Stages = append(r.res.Stages, Stage{Side: widest(k.bands[0])})
		r.stage = &r.res.Stages[len(r.res.Stages)-1]
		for a := k.K - 1; a >= 0; a-- {
			if err := k.move(a); err != nil {
				return err
			}
			k.bands[a] = halve(k.bands[a])
			if err := k.smooth(); err != nil {
				return err
			}
		}
	}
	return nil
}

// local is processor p's band along axis a and its coordinate in it.
func (k *kd) local(p int32, a int) (span, int) {
	x := k.m.Coord(p, a)
	b := k.bands[a][k.band[a][x]]
	return b, x - b.start
}

// index computes every processor's place in its region (at, fr, size, mir).
func (k *kd) index() {
	m := k.m
	if k.byAt == nil {
		k.byAt = make([][][]int32, k.K)
	}
	for a := range k.K {
		k.band[a] = bandOf(k.bands[a], m.Dims[a])
		k.byAt[a] = k.byAt[a][:0]
		for range widest(k.bands[a]) {
			k.byAt[a] = append(k.byAt[a], nil)
		}
	}
	for p := range int32(m.Processors()) {
		for a := range k.K {
			b, i := k.local(p, a)
			k.at[a][p], k.size[a][p] = int32(i), int32(b.n)
			k.byAt[a][i] = append(k.byAt[a][i], p)
		}
		k.mir[p] = k.at[0][p] >= k.size[0][p]/2
		for a := range k.K {
			k.fr[a][p] = k.at[a][p]
			if k.mir[p] {
				k.fr[a][p] = k.size[a][p] - 1 - k.at[a][p]
			}
		}
	}
}

// regionName is the regions' sides, e.g. "8x8x4".
func (k *kd) regionName() string {
	var s []string
	for a := range k.K {
		s = append(s, fmt.Sprint(widest(k.bands[a])))
	}
	return strings.Join(s, "x")
}

// PermutationsKD lists the permutations PermutationKD makes.
var PermutationsKD = []string{"random", "rot180", "transpose"}

// PermutationKD is a permutation of the n^K processors (index Σ
// x_a·n^{K−1−a}): random (from seed), rot180 (every coordinate x → n−1−x:
// each message to the opposite corner's side, the longest moves), or
// transpose (the coordinates reversed, (x_0, …, x_{K−1}) → (x_{K−1}, …, x_0)).
func PermutationKD(name string, n, K int, seed uint64) ([]int32, error) {
	N := pow(n, K)
	out := make([]int32, N)
	switch name {
	case "random":
		for i, d := range rand.New(rand.NewPCG(seed, uint64(N))).Perm(N) {
			out[i] = int32(d)
		}
	case "rot180":
		for p := range out {
			out[p] = int32(N - 1 - p)
		}
	case "transpose":
		for p := range out {
			d, x := 0, p
			for range K {
				d, x = d*n+x%n, x/n
			}
			out[p] = int32(d)
		}
	default:
		return nil, fmt.Errorf("permutation %q on a %d-D mesh (allowed: %s, file:F)", name, K, strings.Join(PermutationsKD, ", "))
	}
	return out, nil
}

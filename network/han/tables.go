package han

import (
	"fmt"
	"math"
	"slices"
)

// Tables 5.1 and 5.2 of the thesis (digest 002 §5.2), each row with the
// worst case the machine measured beside its formula, and the Tier C lower
// bounds (§3.4, Fig. 3.10) beside what the machine did.

// TableRow is one row of Table 5.1 or 5.2, or a lower bound.
type TableRow struct {
	Table      string `json:"table"` // "5.1", "5.2" or "lower bound"
	Variant    string `json:"variant"`
	Formula    string `json:"formula"`
	Buffers    string `json:"buffers"`
	Conditions string `json:"conditions"`
	Built      bool   `json:"built"` // false: the variant is not built yet; nothing measured
	Mesh       string `json:"mesh,omitempty"`
	Inputs     int    `json:"inputs,omitempty"` // inputs routed (actual schedule)
	// The worst measured over the inputs (actual schedule), the static
	// schedule's lengths, and the formula at this mesh.
	Data          int64   `json:"data_steps"`
	Integer       int64   `json:"integer_steps"`
	StaticData    int64   `json:"static_data_steps"`
	StaticInteger int64   `json:"static_integer_steps"`
	MaxBuffer     int     `json:"max_buffer"`
	BoundData     float64 `json:"bound_data_steps"`
	BoundInteger  float64 `json:"bound_integer_steps"`
	BoundBuffer   int     `json:"bound_max_buffer"`
	Lower         bool    `json:"lower"` // a lower bound: measured must not beat it
	// Against says which figure a lower bound checks: "static" (the
	// algorithm's guaranteed length, the worst case over all inputs) or
	// "measured" (the one input the bound is about).
	Against string `json:"against,omitempty"`
	// Deviations counts the routings' moves past the length the thesis
	// claims without proof (the k² move's (k−1)s; Result.Deviations).
	Deviations int  `json:"deviations,omitempty"`
	OK         bool `json:"ok"` // within the bound (or not below the lower bound)
}

// Tables builds the rows on an n×n mesh (n a power of two, 16 … 1024; the
// rectangles are 2n×n; four-strip H the largest power of 4 up to n). Every
// built row routes the same family of inputs.
// (From 16: the lower bounds are continuous, and on 8×8 the mesh's whole
// steps fall a fraction below them — 24 static data steps against 24.3.)
func Tables(n int) ([]TableRow, error) {
	if n < 16 || n > 1024 || n&(n-1) != 0 {
		return nil, fmt.Errorf("side %d (allowed: a power of two from 16 to 1024)", n)
	}
	f := float64(n)
	rows := []TableRow{
		{Table: "5.1", Variant: "Q", Formula: "4n t_M + 1.5n t_m", Buffers: "5", Conditions: "n×n, n = 2^p"},
		{Table: "5.1", Variant: "Q with k² partitions", Formula: "(5k+3)/4·n t_M + 1.5/(k−1)·n t_m", Buffers: "k²+2", Conditions: "n = k^p, 4 ≤ k ≤ √n; measured k = 4, n a power of 4, with Fig. 3.12's hot spot"},
		{Table: "5.1", Variant: "Q on K-D", Formula: "O(K 2^K n t_M)", Buffers: "2^K+1", Conditions: "n^K, K ≥ 3; measured K = 3 on (min(n, 16))³ against §3.6.2's solution, with the crowded move"},
		{Table: "5.1", Variant: "Q on arbitrary square", Formula: "≅ 4.3n t_M + 1.5n t_m", Buffers: "5", Conditions: "n ≠ 2^p; measured: the third mapping on n − 1 (its pool: OddNeed)"},
		{Table: "5.1", Variant: "Q on rectangle", Formula: "(1.75r + 2.2c) t_M + (0.5r + c) t_m", Buffers: "5", Conditions: "r = 2^s, c = 2^t, r > c"},
		{Table: "5.2", Variant: "H", Formula: "5.5n t_M + 3.5n t_m", Buffers: "3", Conditions: "n = 2^p"},
		{Table: "5.2", Variant: "H with k strips", Formula: "≤ 4.05n t_M + 1.5n t_m (k = 4), → 3.5n t_M + 0.5n t_m", Buffers: "k+1", Conditions: "k even, 4 ≤ k < n; measured k = 4, n a power of 4"},
		{Table: "5.2", Variant: "H on K-D", Formula: "(3K²/2 − K/2 + 1)n t_M + (3K²/2 − 3K/2 + 1)n t_m", Buffers: "3", Conditions: "K ≥ 3; measured K = 3 on (min(n, 16))³ against the derivation's +½ (Thm 4.7: 12.5n + 9.5n)"},
		{Table: "5.2", Variant: "H on arbitrary square", Formula: "≅ 5.5n t_M + 3.5n t_m", Buffers: "3", Conditions: "n ≠ 2^p; measured on n − 1"},
		{Table: "5.2", Variant: "H on rectangle", Formula: "(2.5r + 3c) t_M + (1.5r + 2c) t_m", Buffers: "3", Conditions: "r = 2^s, c = 2^t, r > c"},
		{Table: "lower bound", Variant: "Q data steps", Formula: "≥ 2n − 2 + (2 − √2/2)n ≈ 3.3n t_M", Buffers: "", Conditions: "§3.4: move then smooth, not overlapped", Lower: true},
		{Table: "lower bound", Variant: "Q smoothing of an n/2 quadrant", Formula: "≥ (1 − 1/(2√2))n ≈ 0.646n t_M", Buffers: "", Conditions: "Fig. 3.10: its triangle input", Lower: true},
	}
	built := map[string]func(*TableRow) error{
		"Q":                     func(t *TableRow) error { return measureRow(t, AlgQ, n, n) },
		"Q on rectangle":        func(t *TableRow) error { return measureRow(t, AlgQ, 2*n, n) },
		"H":                     func(t *TableRow) error { return measureRow(t, AlgH, n, n) },
		"H on rectangle":        func(t *TableRow) error { return measureRow(t, AlgH, 2*n, n) },
		"H with k strips":       func(t *TableRow) error { return measureVariant(t, FindVariant(VariantKStrip), n) },
		"Q with k² partitions":  func(t *TableRow) error { return measureVariant(t, FindVariant(VariantK2), n) },
		"H on arbitrary square": func(t *TableRow) error { return measureOdd(t, n-1) },
		"Q on arbitrary square": func(t *TableRow) error { return measureOddQ(t, n-1) },
		"H on K-D":              func(t *TableRow) error { return measureKD(t, AlgH, 3, min(n, 16)) },
		"Q on K-D":              func(t *TableRow) error { return measureKD(t, AlgQ, 3, min(n, 16)) },
		"Q data steps": func(t *TableRow) error {
			if err := measureRow(t, AlgQ, n, n); err != nil {
				return err
			}
			t.BoundData, t.BoundInteger = 2*f-2+(2-math.Sqrt2/2)*f, 0
			t.OK, t.Against = float64(t.StaticData) >= t.BoundData, "static"
			return nil
		},
		"Q smoothing of an n/2 quadrant": func(t *TableRow) error { return measureTriangle(t, n) },
	}
	for i := range rows {
		if m, ok := built[rows[i].Variant]; ok {
			rows[i].Built = true
			if err := m(&rows[i]); err != nil {
				return nil, err
			}
		}
	}
	return rows, nil
}

// tableInputs are the inputs a row routes on a rows×cols mesh: random
// permutations, the named ones that fit, and on squares the smoothing
// worst cases, Fig. 3.10's triangle and random restricted broadcasts.
func tableInputs(rows, cols int) ([][][]int32, error) {
	var in [][][]int32
	for _, name := range []string{"random", "rot180", "transpose", "bit-reversal", "shuffle"} {
		if name == "transpose" && rows != cols {
			continue
		}
		for seed := uint64(1); seed <= map[bool]uint64{true: 3, false: 1}[name == "random"]; seed++ {
			p, err := PermutationMesh(name, rows, cols, seed)
			if err != nil {
				return nil, err
			}
			in = append(in, Lists(p))
		}
	}
	if rows == cols {
		for _, p := range [][]int32{WorstRowInput(cols), WorstColumnInput(cols), TriangleInput(cols)} {
			in = append(in, Lists(p))
		}
		for seed := uint64(1); seed <= 2; seed++ {
			in = append(in, RandomBroadcast(cols, seed))
		}
	}
	return in, nil
}

// measureRow routes every table input with alg on rows×cols, actual
// schedule, and once static; the row's bound is ThesisBound's.
func measureRow(t *TableRow, alg string, rows, cols int) error {
	inputs, err := tableInputs(rows, cols)
	if err != nil {
		return err
	}
	return measure(t, alg, rows, cols, inputs, ThesisBound(alg, rows, cols), func(in [][]int32, sched string) (*Result, error) {
		return RunMesh(alg, rows, cols, Buffers(alg, cols), in, sched, nil)
	})
}

// measureVariant is measureRow for a variant with route.k = 4 on the
// largest power of 4 up to n (n or n/2), permutations only (k²: and Fig.
// 3.12's hot spot).
func measureVariant(t *TableRow, v *Variant, n int) error {
	const k = 4
	m := n
	if !powerOf(m, k) {
		m /= 2
	}
	inputs, err := tableInputs(m, m)
	if err != nil {
		return err
	}
	inputs = slices.DeleteFunc(inputs, func(in [][]int32) bool {
		return slices.ContainsFunc(in, func(ds []int32) bool { return len(ds) > 1 })
	})
	if v.Name == VariantK2 {
		inputs = append(inputs, Lists(K2HotSpot(m, k)))
	}
	return measure(t, v.Alg+"-"+v.Name, m, m, inputs, v.Bound(m, k), func(in [][]int32, sched string) (*Result, error) {
		return v.Run(m, k, v.Buffers(m, k), in, sched, nil)
	})
}

// measure routes the inputs with run (actual schedule, and the first
// static) and fills the row: the worst measured, the static schedule, the
// bound b and whether it held. Moves that outlast the length the thesis
// claims for them (Result.Deviations) are counted apart: the bound is
// the row's.
func measure(t *TableRow, name string, rows, cols int, inputs [][][]int32, b Bound, run func([][]int32, string) (*Result, error)) error {
	t.Mesh, t.Inputs = fmt.Sprintf("%d×%d", rows, cols), len(inputs)
	t.BoundData, t.BoundInteger, t.BoundBuffer = b.DataSteps, b.IntegerSteps, b.MaxBuffer
	deviations := 0
	for i, in := range inputs {
		for _, sched := range []string{Actual, Static} {
			if sched == Static && i > 0 {
				continue // (the static schedule's lengths do not depend on the input)
			}
			r, err := run(in, sched)
			if err != nil {
				return fmt.Errorf("%s on %s, input %d (%s schedule): %w", name, t.Mesh, i, sched, err)
			}
			if sched == Static {
				t.StaticData, t.StaticInteger = r.DataSteps, r.IntegerSteps
			} else {
				t.Data, t.Integer = max(t.Data, r.DataSteps), max(t.Integer, r.IntegerSteps)
			}
			t.MaxBuffer = max(t.MaxBuffer, r.MaxBuffer)
			deviations += len(r.Deviations)
		}
	}
	t.OK = float64(t.StaticData) <= t.BoundData && float64(t.StaticInteger) <= t.BoundInteger &&
		t.Data <= t.StaticData && t.Integer <= t.StaticInteger && t.MaxBuffer <= t.BoundBuffer
	if t.Deviations = deviations; deviations > 0 {
		t.Against = fmt.Sprintf("deviation: moves past the thesis's length: %d", deviations)
	}
	return nil
}

// oddPermutations is the odd rows' permutations of an n×n mesh: three
// random ones, rot180 and the transpose.
func oddPermutations(n int) ([][][]int32, error) {
	var inputs [][][]int32
	for _, name := range []string{"random", "random", "random", "rot180", "transpose"} {
		p, err := PermutationMesh(name, n, n, uint64(len(inputs)+1))
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, Lists(p))
	}
	return inputs, nil
}

// measureOdd is measureRow for H on an odd n×n mesh: the inputs that fit
// any side (three random permutations, rot180, the transpose, two random
// restricted broadcasts). The static schedule's data steps are measured
// against ≅ 5.5n: the row's ok holds them within 1.2 times it (docs/han.md).
func measureOdd(t *TableRow, n int) error {
	inputs, err := oddPermutations(n)
	if err != nil {
		return err
	}
	inputs = append(inputs, RandomBroadcast(n, 1), RandomBroadcast(n, 2))
	b := ThesisBound(AlgH, n, n)
	b.DataSteps *= 1.2
	err = measure(t, AlgH, n, n, inputs, b, func(in [][]int32, sched string) (*Result, error) {
		return RunMesh(AlgH, n, n, 3, in, sched, nil)
	})
	t.BoundData, t.Against = b.DataSteps/1.2, "data ≤ 1.2 × bound"
	return err
}

// measureOddQ is the "Q on arbitrary square" row with the third mapping
// (the row's) on an odd n×n mesh, on the pool it needs there (OddNeed):
// permutations only; the static data steps against 1.2 times ≅ 4.3n, as
// H's odd row.
func measureOddQ(t *TableRow, n int) error {
	inputs, err := oddPermutations(n)
	if err != nil {
		return err
	}
	v := FindVariant(VariantOdd3)
	b := v.Bound(n, 0)
	b.DataSteps *= 1.2
	b.MaxBuffer = v.Buffers(n, 0)
	err = measure(t, AlgQ+"-"+VariantOdd3, n, n, inputs, b, func(in [][]int32, sched string) (*Result, error) {
		return v.Run(n, 0, b.MaxBuffer, in, sched, nil)
	})
	t.BoundData = b.DataSteps / 1.2
	if t.Against == "" {
		t.Against = "data ≤ 1.2 × bound"
	}
	return err
}

// measureKD is the "H on K-D" and "Q on K-D" rows: alg on m^K with the
// K-D permutations (three random, rot180, the transpose; Q: and the
// crowded move), against §4.6.2's and §3.6.2's bounds.
func measureKD(t *TableRow, alg string, K, m int) error {
	var inputs [][][]int32
	for i, name := range []string{"random", "random", "random", "rot180", "transpose"} {
		p, err := PermutationKD(name, m, K, uint64(i+1))
		if err != nil {
			return err
		}
		inputs = append(inputs, Lists(p))
	}
	if alg == AlgQ { // (last: the static schedule is the first input's)
		inputs = append(inputs, Lists(QKDHotSpot(m, K)))
	}
	run, b := RunKD, KDBound(m, K)
	if alg == AlgQ {
		run, b = RunQKD, QKDBound(m, K)
	}
	err := measure(t, alg+"-kd", m, m, inputs, b, func(in [][]int32, sched string) (*Result, error) {
		return run(K, m, FindVariantFor(VariantKD, alg).Buffers(m, K), in, sched, nil)
	})
	t.Mesh = fmt.Sprintf("%d×%d×%d", m, m, m)
	return err
}

// measureTriangle routes Fig. 3.10's triangle input with Q (actual
// schedule) and measures its first stage's smoothing (row and column
// movement): no algorithm smooths it faster than (1 − 1/(2√2))n.
func measureTriangle(t *TableRow, n int) error {
	r, err := Run(AlgQ, n, Buffers(AlgQ, n), TriangleInput(n), Actual)
	if err != nil {
		return fmt.Errorf("Q on Fig. 3.10's triangle, %d×%d: %w", n, n, err)
	}
	t.Mesh, t.Inputs, t.MaxBuffer = fmt.Sprintf("%d×%d", n, n), 1, r.MaxBuffer
	for _, p := range r.Stages[0].Phases {
		if p.Phase == "row" || p.Phase == "column" {
			t.Data += p.Actual
			t.StaticData += p.Static
		}
	}
	t.BoundData = (1 - 1/(2*math.Sqrt2)) * float64(n)
	t.OK, t.Against = float64(t.Data) >= t.BoundData, "measured"
	return nil
}

// TriangleInput is Fig. 3.10's smoothing worst case on an n×n mesh (n ≥ 8,
// a power of two): n²/4 messages into quadrant II (q = n/2), four a
// processor, packed into its lower-left corner — the q²/4 positions
// nearest it, a right isosceles triangle of legs about q/√2. The four
// corresponding processors of each position send to it (destinations
// distinct, row-major in quadrant II).
func TriangleInput(n int) []int32 {
	q := n / 2
	pos := make([][2]int, 0, q*q)
	for r := range q {
		for c := range q {
			pos = append(pos, [2]int{r, c})
		}
	}
	dist := func(p [2]int) int { return q - 1 - p[0] + p[1] } // (from the lower-left corner)
	slices.SortStableFunc(pos, func(a, b [2]int) int { return dist(a) - dist(b) })
	return intoQuadrantII(n, func(add func(r, c int)) {
		for _, p := range pos[:q*q/4] {
			for _, o := range [][2]int{{0, 0}, {0, q}, {q, 0}, {q, q}} {
				add(p[0]+o[0], p[1]+o[1])
			}
		}
	})
}

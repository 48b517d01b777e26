package han

import "fmt"

// The baselines against Q and H on the thesis's bad inputs (issue 26:
// `flitsim route --compare`): greedy row-column routing needs n buffers
// when all messages of a row go to one column (digest 002 §4.3: the
// transpose gathers row i at processor (i, i)), farthest-first priority or
// not, while Q and H keep their constant pools (Thm 3.1, 4.1) on it and on
// the inputs that take Q's smoothing to its worst cases (adversary.go).

// CompareAlgorithms are the algorithms compared, baselines first.
var CompareAlgorithms = []string{AlgGreedy, AlgGreedyFF, AlgQ, AlgH}

// CompareInput is one of the bad inputs.
type CompareInput struct {
	Name string
	Dest func(n int) []int32
}

// CompareInputs are the bad inputs, for n ≥ 8 a power of two.
var CompareInputs = []CompareInput{
	{"transpose", func(n int) []int32 { p, _ := Permutation("transpose", n, 0); return p }},
	{"worst-row", WorstRowInput},
	{"worst-column", WorstColumnInput},
}

// ComparePoint is an algorithm's worst case on an n×n mesh over the bad
// inputs: the most messages a processor held, on which input, and the
// thesis's bound (greedy: n).
type ComparePoint struct {
	Algorithm string `json:"algorithm"`
	N         int    `json:"n"`
	MaxBuffer int    `json:"max_buffer"`
	Input     string `json:"input"` // the input that took it there (the first)
	Bound     int    `json:"bound"`
	Steps     int64  `json:"total_steps"` // on that input, static schedule
}

// CompareSides checks the sides of a comparison: powers of two from 8 to
// greedy's largest.
func CompareSides(sides []int) error {
	for _, n := range sides {
		if n < 8 || !Pow2(n) || n > MaxSide(AlgGreedy) {
			return fmt.Errorf("side %d (allowed: a power of two from 8 to %d: the bad inputs are built on quadrants of quadrants)", n, MaxSide(AlgGreedy))
		}
	}
	return nil
}

// Compare routes every bad input with every algorithm on every n×n mesh
// (static schedule, the pools each algorithm needs) and returns each
// algorithm's worst case per side, in the order of CompareAlgorithms then
// sides.
func Compare(sides []int) ([]ComparePoint, error) {
	if err := CompareSides(sides); err != nil {
		return nil, err
	}
	var out []ComparePoint
	for _, alg := range CompareAlgorithms {
		for _, n := range sides {
			pt := ComparePoint{Algorithm: alg, N: n, Bound: ThesisBound(alg, n, n).MaxBuffer}
			for _, in := range CompareInputs {
				r, err := Run(alg, n, Buffers(alg, n), in.Dest(n), Static)
				if err != nil {
					return nil, fmt.Errorf("%s on %s, %d×%d: %w", alg, in.Name, n, n, err)
				}
				if r.MaxBuffer > pt.MaxBuffer {
					pt.MaxBuffer, pt.Input, pt.Steps = r.MaxBuffer, in.Name, r.TotalSteps
				}
			}
			out = append(out, pt)
		}
	}
	return out, nil
}

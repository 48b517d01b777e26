package traffic

// Brebner's inputs (1983 §3.9, digest §3.2): the identity permutation his
// tables use (every packet returns to its source; with valiant it travels
// to a random node and back) and the shift i → (i + 117) mod N of his
// testability check (Table 3-94). (His "complement" is bit-complement.)
func init() {
	RegisterPattern(PatternSpec{Name: "identity", New: permutation(func(PatternArgs) (func(int) int, error) {
		return func(x int) int { return x }, nil
	}), Desc: "every packet to its own source (Brebner's input; with valiant it goes to a random node and back)"})
	RegisterPattern(PatternSpec{Name: "shift", New: permutation(func(a PatternArgs) (func(int) int, error) {
		n := a.Shape.N
		return func(x int) int { return (x + ShiftBy) % n }, nil
	}), Desc: "i → (i + 117) mod N (Brebner's third permutation, §3.9)"})
}

// ShiftBy is the shift pattern's offset (Brebner §3.9: i + 117 mod 256).
const ShiftBy = 117

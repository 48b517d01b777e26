package topology

import (
	"fmt"
	"strconv"
	"strings"
)

// Size limits enforced by Build.
const (
	// MaxTerminals is the largest number of terminals Build accepts.
	MaxTerminals = 1 << 20
	// MaxSwitches is the largest number of switches Build accepts.
	MaxSwitches = 1 << 24
	// MaxStages is the largest number of ESMIN stages Build accepts.
	MaxStages = 64
)

func itoa(i int) string { return strconv.Itoa(i) }

func joinInts(v []int) string {
	if len(v) == 0 {
		return "[]"
	}
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = itoa(x)
	}
	return strings.Join(s, ",")
}

// orderParam is the order parameter of a kind whose routing corrects
// dims(s) dimensions in turn.
func orderParam(dims func(Spec) int) Param {
	return Param{Key: "order", Default: "",
		Allowed: "a permutation of the dimensions 0..n−1 (e.g. 1,0 routes y before x), or empty for ascending order",
		Desc:    "the order in which dimension-order and e-cube routing correct dimensions",
		Check: func(s Spec) string {
			n := dims(s)
			if orderOK(s.Order, n) {
				return ""
			}
			return fmt.Sprintf("a permutation of the dimensions 0..%d, e.g. %s, or empty for ascending order", n-1, joinInts(identity(n)))
		}}
}

// orderOf is a checked order, or the identity when it is empty.
func orderOf(order []int, n int) []int {
	if len(order) == 0 {
		return identity(n)
	}
	return append([]int(nil), order...)
}

// orderOK reports whether order is empty or a permutation of 0..n−1.
func orderOK(order []int, n int) bool {
	if len(order) == 0 {
		return true
	}
	seen := make([]bool, n)
	ok := len(order) == n
	if ok {
		for _, x := range order {
			if x < 0 || x >= n || seen[x] {
				ok = false
				break
			}
			seen[x] = true
		}
	}
	return ok
}

func identity(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

// newSwitches allocates n switches of the given number of ports, sharing one
// backing array of Ends.
func newSwitches(n, ports int) []Switch {
	sw := make([]Switch, n)
	ends := make([]End, n*ports)
	for i := range sw {
		sw[i].Out = ends[i*ports : (i+1)*ports : (i+1)*ports]
	}
	return sw
}

// numberLabels labels switch i prefix+i ("n0", "n1", ...) with all the
// labels cut from one string: a million switches get no allocation each.
func numberLabels(sw []Switch, prefix string) {
	buf := make([]byte, 0, len(sw)*(len(prefix)+7))
	ends := make([]int, len(sw))
	for i := range sw {
		buf = strconv.AppendInt(append(buf, prefix...), int64(i), 10)
		ends[i] = len(buf)
	}
	all, start := string(buf), 0
	for i := range sw {
		sw[i].Label, start = all[start:ends[i]], ends[i]
	}
}

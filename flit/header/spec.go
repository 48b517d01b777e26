package header

import (
	"strconv"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
)

const specAllowed = "comma-separated nodes, ranges a:b and strided ranges a:b:s (a ≤ b, s ≥ 1), each node from 0 to %d, e.g. 1:12:1,32:50:2,90"

// ParseDests reads a destination set written like "1:12:1,32:50:2,90"
// (nodes 1–12, 32–50 step 2, and 90; a:b means step 1) over nodes 0..nodes−1.
// The result is ascending without duplicates. Errors are *Error with Field
// "dests", naming the offending item.
func ParseDests(spec string, nodes int) ([]int, error) {
	if nodes < 1 {
		return nil, inputerr.New("nodes", strconv.Itoa(nodes), "at least 1")
	}
	if strings.TrimSpace(spec) == "" {
		return nil, inputerr.New("dests", strconv.Quote(spec), specAllowed, nodes-1)
	}
	in := make([]bool, nodes)
	for _, item := range strings.Split(spec, ",") {
		fail := func(why string) error {
			return inputerr.New("dests", strconv.Quote(strings.TrimSpace(item))+" ("+why+")", specAllowed, nodes-1)
		}
		parts := strings.Split(strings.TrimSpace(item), ":")
		if len(parts) > 3 {
			return nil, fail("more than three fields")
		}
		v := make([]int, len(parts))
		for i, s := range parts {
			s = strings.TrimSpace(s)
			x, err := strconv.Atoi(s)
			if err != nil || s == "" || s[0] == '+' || s[0] == '-' {
				return nil, fail("not a non-negative integer: " + strconv.Quote(s))
			}
			if i < 2 && x >= nodes {
				return nil, fail("node " + s + " ≥ " + strconv.Itoa(nodes) + " nodes")
			}
			v[i] = x
		}
		a, b, step := v[0], v[0], 1
		if len(v) > 1 {
			b = v[1]
		}
		if len(v) > 2 {
			step = v[2]
		}
		if a > b {
			return nil, fail("begin after end")
		}
		if step < 1 {
			return nil, fail("stride below 1")
		}
		for x := a; x <= b; x += step {
			in[x] = true
			if x > b-step { // avoid overflow with huge strides
				break
			}
		}
	}
	var out []int
	for x, ok := range in {
		if ok {
			out = append(out, x)
		}
	}
	return out, nil
}

// FormatDests writes a destination set in the notation ParseDests reads,
// briefly: runs as a:b, progressions of three or more as a:b:s.
func FormatDests(dests []int) string {
	d, err := normDests(dests, 1<<62)
	if err != nil {
		return ""
	}
	var parts []string
	for _, r := range strideRuns(d) {
		switch n := (r.e-r.b)/r.s + 1; {
		case n == 1:
			parts = append(parts, strconv.Itoa(r.b))
		case r.s == 1:
			parts = append(parts, strconv.Itoa(r.b)+":"+strconv.Itoa(r.e))
		case n == 2:
			parts = append(parts, strconv.Itoa(r.b), strconv.Itoa(r.e))
		default:
			parts = append(parts, strconv.Itoa(r.b)+":"+strconv.Itoa(r.e)+":"+strconv.Itoa(r.s))
		}
	}
	return strings.Join(parts, ",")
}

package traffic

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// steps writes a schedule as "step: a→b c→d; step: ..." with each step's
// unicasts sorted, so tests compare step sets.
func steps(s []Send) string {
	by := map[int][]string{}
	last := 0
	for _, x := range s {
		by[x.Step] = append(by[x.Step], fmt.Sprintf("%d→%d", x.From, x.To))
		last = max(last, x.Step)
	}
	var out []string
	for i := 1; i <= last; i++ {
		u := by[i]
		slices.Sort(u)
		out = append(out, strings.Join(u, " "))
	}
	return strings.Join(out, "; ")
}

func others(n, src int) []int {
	var d []int
	for i := range n {
		if i != src {
			d = append(d, i)
		}
	}
	return d
}

// Fig 7.4: C-min from 100 in a 3-cube: 100→000; 100→110, 000→010;
// 100→101, 000→001, 110→111, 010→011.
func TestCMinFig74(t *testing.T) {
	got := steps(Schedule(CMin, 4, others(8, 4)))
	want := "4→0; 0→2 4→6; 0→1 2→3 4→5 6→7"
	if got != want {
		t.Fatalf("C-min from 100: %s, want %s", got, want)
	}
}

// Fig 8.7: U-min from 2 in an 8-node MIN: 2→4, 2→1, 2→3; 4→6, 4→5.
func TestUMinFig87(t *testing.T) {
	s := Schedule(UMin, 2, others(8, 2))
	var from2, from4 []int
	for _, x := range s {
		switch x.From {
		case 2:
			from2 = append(from2, x.To)
		case 4:
			from4 = append(from4, x.To)
		}
	}
	if !slices.Equal(from2, []int{4, 1, 3}) || !slices.Equal(from4, []int{6, 5}) {
		t.Fatalf("U-min from 2: node 2 sends to %v, node 4 to %v; want [4 1 3] and [6 5] (%v)", from2, from4, s)
	}
	if got, want := steps(s), "2→4; 2→1 4→6; 1→0 2→3 4→5 6→7"; got != want {
		t.Fatalf("U-min from 2: %s, want %s", got, want)
	}
}

// Fig 8.8: two multicasts in a 3-cube from 0 and 5.
func TestFig88(t *testing.T) {
	for _, c := range []struct {
		scheme Scheme
		src    int
		want   string
	}{
		// (a) U-min: 0→4 and 5→3, then 0→2, 4→6, 5→6, 3→1, then 6→7 twice.
		{UMin, 0, "0→4; 0→2 4→6; 0→1 2→3 4→5 6→7"},
		{UMin, 5, "5→3; 3→1 5→6; 1→0 3→2 5→4 6→7"},
		// (b) C-min: 0→4 and 5→1; 0→2, 4→6, 5→7, 1→3; 0→1, 2→3, 4→5,
		// 6→7, 5→4, 1→0, 7→6, 3→2.
		{CMin, 0, "0→4; 0→2 4→6; 0→1 2→3 4→5 6→7"},
		{CMin, 5, "5→1; 1→3 5→7; 1→0 3→2 5→4 7→6"},
	} {
		if got := steps(Schedule(c.scheme, c.src, others(8, c.src))); got != c.want {
			t.Errorf("%s from %d: %s, want %s", c.scheme, c.src, got, c.want)
		}
	}
	// U-min: node 6 receives from 4 and from 5 in step 2 and sends to 7
	// for both in step 3; C-min: every step of the two is node-disjoint.
	if got := contention(Schedule(UMin, 0, others(8, 0)), Schedule(UMin, 5, others(8, 5))); got != "step 2: node 6; step 3: node 6, node 7" {
		t.Errorf("U-min 0 and 5: contention %q", got)
	}
	if got := contention(Schedule(CMin, 0, others(8, 0)), Schedule(CMin, 5, others(8, 5))); got != "" {
		t.Errorf("C-min 0 and 5: contention %q, want none", got)
	}
}

// contention lists, per step, the nodes that send in both schedules or
// receive in both (a one-port node has one injection and one ejection
// channel: it can send one message and receive one per step).
func contention(a, b []Send) string {
	var out []string
	last := 0
	for _, x := range append(slices.Clone(a), b...) {
		last = max(last, x.Step)
	}
	for st := 1; st <= last; st++ {
		from, to := map[int]bool{}, map[int]bool{}
		for _, x := range a {
			if x.Step == st {
				from[x.From], to[x.To] = true, true
			}
		}
		var hit []int
		for _, x := range b {
			if x.Step != st {
				continue
			}
			if from[x.From] && !slices.Contains(hit, x.From) {
				hit = append(hit, x.From)
			}
			if to[x.To] && !slices.Contains(hit, x.To) {
				hit = append(hit, x.To)
			}
		}
		if len(hit) == 0 {
			continue
		}
		slices.Sort(hit)
		var s []string
		for _, v := range hit {
			s = append(s, fmt.Sprintf("node %d", v))
		}
		out = append(out, fmt.Sprintf("step %d: %s", st, strings.Join(s, ", ")))
	}
	return strings.Join(out, "; ")
}

// §8.3: two concurrent multicasts to a whole binary 3-cube block each other
// with probability p_u = 1 − 1/C(m,2) = 0.9643 under U-min (all source pairs
// but the two ends, 0 and 7) and p_c = (m−2)/(2(m−1)) = 0.4286 under C-min
// (no contention when one source is odd and the other even).
func TestBlockingProbabilities3Cube(t *testing.T) {
	for _, c := range []struct {
		scheme Scheme
		want   int // blocked pairs of 28
	}{{UMin, 27}, {CMin, 12}} {
		blocked := 0
		for s1 := 0; s1 < 8; s1++ {
			for s2 := s1 + 1; s2 < 8; s2++ {
				a, b := Schedule(c.scheme, s1, others(8, s1)), Schedule(c.scheme, s2, others(8, s2))
				hit := contention(a, b) != ""
				if hit {
					blocked++
				}
				if c.scheme == CMin && hit != (s1%2 == s2%2) {
					t.Errorf("C-min %d and %d: contention %v", s1, s2, hit)
				}
				if c.scheme == UMin && hit == (s1 == 0 && s2 == 7) {
					t.Errorf("U-min %d and %d: contention %v", s1, s2, hit)
				}
			}
		}
		if blocked != c.want {
			t.Errorf("%s: %d of 28 source pairs blocked (p = %.4f), want %d (p = %.4f)",
				c.scheme, blocked, float64(blocked)/28, c.want, float64(c.want)/28)
		}
	}
}

// Every schedule informs each destination exactly once, only from a node
// that already has the message, a node sending at most one and receiving
// at most one unicast per step (one port), in the
// minimum ⌈log2 m⌉ steps for C-min and U-min (m counting the source) and
// m − 1 steps for separate addressing.
func TestScheduleIsAnImplementation(t *testing.T) {
	for _, scheme := range []Scheme{Separate, UMin, CMin} {
		for m := 1; m <= 40; m++ {
			for _, src := range []int{0, m / 2, m - 1} {
				// A chain of m addresses spread over 0..3m.
				var chain []int
				for i := range m {
					chain = append(chain, 3*i+i%3)
				}
				s := chain[src]
				sched := Schedule(scheme, s, chain) // the source may be listed
				if err := checkImplementation(sched, s, chain); err != nil {
					t.Fatalf("%s m=%d src=%d: %v\n%v", scheme, m, s, err, sched)
				}
				last := 0
				if len(sched) > 0 {
					last = sched[len(sched)-1].Step
				}
				want := bits.Len(uint(m - 1)) // ⌈log2 m⌉
				if scheme == Separate {
					want = m - 1
				}
				if last != want {
					t.Fatalf("%s m=%d src=%d: %d steps, want %d", scheme, m, s, last, want)
				}
			}
		}
	}
}

func checkImplementation(sched []Send, src int, chain []int) error {
	have := map[int]int{src: 0} // node → step it has the message from
	busy := map[[3]int]bool{}   // (step, node, 0 sending / 1 receiving)
	prev := 0
	for _, x := range sched {
		if x.Step < prev {
			return fmt.Errorf("steps out of order at %v", x)
		}
		prev = x.Step
		if !slices.Contains(chain, x.To) || !slices.Contains(chain, x.From) {
			return fmt.Errorf("%v involves a node outside the group", x)
		}
		st, ok := have[x.From]
		if !ok || st >= x.Step {
			return fmt.Errorf("%v: sender has no message yet", x)
		}
		if _, dup := have[x.To]; dup {
			return fmt.Errorf("%v: receiver informed twice", x)
		}
		have[x.To] = x.Step
		for role, v := range []int{x.From, x.To} {
			if busy[[3]int{x.Step, v, role}] {
				return fmt.Errorf("%v: node %d in two unicasts of one step", x, v)
			}
			busy[[3]int{x.Step, v, role}] = true
		}
	}
	if len(have) != len(chain) {
		return fmt.Errorf("%d of %d nodes informed", len(have), len(chain))
	}
	return nil
}

func TestParseScheme(t *testing.T) {
	for in, want := range map[string]Scheme{"": Hardware, "HW": Hardware, "sa": Separate, "separate": Separate,
		"u-min": UMin, "umin": UMin, " C-min ": CMin} {
		if got, err := ParseScheme(in); err != nil || got != want {
			t.Errorf("ParseScheme(%q) = %v, %v", in, got, err)
		}
	}
	_, err := ParseScheme("tree")
	if err == nil || !strings.Contains(err.Error(), "multicast.scheme: tree is not allowed (allowed: hardware, separate, umin, cmin)") {
		t.Errorf("ParseScheme(tree): %v", err)
	}
}

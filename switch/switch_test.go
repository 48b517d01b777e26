package xbar

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestPortSet(t *testing.T) {
	s := Port(0) | Port(3) | Port(63)
	if !s.Has(3) || s.Has(2) || s.Count() != 3 || s.First() != 0 {
		t.Fatalf("portset %b", s)
	}
	var got []int
	for w := s; w != 0; {
		got = append(got, w.Next())
	}
	if len(got) != 3 || got[0] != 0 || got[1] != 3 || got[2] != 63 {
		t.Fatalf("walk = %v", got)
	}
	if PortSet(0).First() != -1 {
		t.Fatal("empty First")
	}
}

func TestParsePolicy(t *testing.T) {
	for _, n := range PolicyNames() {
		p, err := ParsePolicy(n)
		if err != nil || p.String() != n {
			t.Errorf("%s: %v %v", n, p, err)
		}
	}
	if _, err := ParsePolicy("lottery"); err == nil {
		t.Error("unknown policy accepted")
	}
}

// grants runs one arbitration and returns the winning buffers.
func grants(s *Switch, reqs ...Request) []int32 {
	var won []int32
	for _, r := range reqs {
		s.Post(r)
	}
	s.Arbitrate(func(r *Request, _ PortSet) { won = append(won, r.Buf) })
	return won
}

func TestArbitrationPolicies(t *testing.T) {
	a := Request{In: 2, Want: Port(1), Worm: 10, Age: 5, Src: 7, ID: 1, Buf: 100}
	b := Request{In: 0, Want: Port(1), Worm: 11, Age: 9, Src: 3, ID: 2, Buf: 101}
	cases := []struct {
		p    Policy
		want int32
	}{
		{Oldest, 100},         // a generated at 5, b at 9
		{UpperFirst, 101},     // b on input 0
		{SourcePriority, 101}, // b from source 3
		{RoundRobin, 101},     // pointer starts at input 0
	}
	for _, c := range cases {
		s := New(4, c.p)
		got := grants(&s, a, b)
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%v: granted %v, want [%d]", c.p, got, c.want)
		}
		// Order of posting must not matter.
		s2 := New(4, c.p)
		got2 := grants(&s2, b, a)
		if len(got2) != 1 || got2[0] != c.want {
			t.Errorf("%v reversed: granted %v, want [%d]", c.p, got2, c.want)
		}
	}
}

func TestRoundRobinRotates(t *testing.T) {
	s := New(3, RoundRobin)
	var order []int32
	for i := 0; i < 6; i++ {
		won := grants(&s,
			Request{In: 0, Want: Port(2), Worm: 0, Buf: 0, ID: 1},
			Request{In: 1, Want: Port(2), Worm: 1, Buf: 1, ID: 2},
			Request{In: 2, Want: Port(2), Worm: 2, Buf: 2, ID: 3})
		order = append(order, won...)
		s.Owner[2] = Free // the winner's tail left
	}
	want := []int32{0, 1, 2, 0, 1, 2}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("round robin order %v, want %v", order, want)
		}
	}
}

func TestHeldPortsAndAllOrNothing(t *testing.T) {
	s := New(4, UpperFirst)
	s.Owner[1] = 42
	// Wants 0 and 1; 1 is held, so nothing is granted and port 0 stays free.
	won := grants(&s, Request{In: 0, Want: Port(0) | Port(1), Worm: 5, Buf: 7})
	if len(won) != 0 || s.Owner[0] != Free {
		t.Fatalf("partial grant: won %v owners %v", won, s.Owner)
	}
	// A multicast request takes every port at once.
	won = grants(&s, Request{In: 3, Want: Port(0) | Port(2) | Port(3), Worm: 6, Buf: 8})
	if len(won) != 1 || s.Owner[0] != 6 || s.Owner[2] != 6 || s.Owner[3] != 6 {
		t.Fatalf("multicast grant: won %v owners %v", won, s.Owner)
	}
	// A request that loses one of its ports gets none.
	s = New(4, UpperFirst)
	won = grants(&s,
		Request{In: 0, Want: Port(1), Worm: 1, Buf: 1},
		Request{In: 2, Want: Port(1) | Port(3), Worm: 2, Buf: 2})
	if len(won) != 1 || won[0] != 1 || s.Owner[3] != Free {
		t.Fatalf("won %v owners %v", won, s.Owner)
	}
}

func TestGrabTakesWhatIsFree(t *testing.T) {
	s := New(4, Grab)
	s.Owner[1] = 42
	var got PortSet
	s.Post(Request{In: 0, Want: Port(0) | Port(1), Worm: 5, Buf: 7})
	s.Arbitrate(func(r *Request, g PortSet) { got = g })
	if got != Port(0) || s.Owner[0] != 5 {
		t.Fatalf("grab got %b owners %v", got, s.Owner)
	}
	// Two worms that both want ports 0 and 1 split them: each port favours
	// its straight-through input (Chiang's Fig 4.6 hazard).
	s = New(2, Grab)
	gots := map[int32]PortSet{}
	s.Post(Request{In: 0, Want: Port(0) | Port(1), Worm: 1, Buf: 1})
	s.Post(Request{In: 1, Want: Port(0) | Port(1), Worm: 2, Buf: 2})
	s.Arbitrate(func(r *Request, g PortSet) { gots[r.Buf] = g })
	if gots[1] != Port(0) || gots[2] != Port(1) {
		t.Fatalf("grab split %v", gots)
	}
}

func TestClockPriority(t *testing.T) {
	s := New(4, Clock)
	won := grants(&s,
		Request{In: 0, Want: Port(1), Worm: 1, Age: 9, Src: 0, Buf: 1},
		Request{In: 1, Want: Port(1), Worm: 2, Age: 4, Src: 7, Buf: 2},
		Request{In: 2, Want: Port(1), Worm: 3, Age: 4, Src: 3, Buf: 3})
	if len(won) != 1 || won[0] != 3 {
		t.Fatalf("clock granted %v, want the earliest start, then the lowest source", won)
	}
}

func TestEveryPolicyDescribed(t *testing.T) {
	for _, n := range PolicyNames() {
		p, _ := ParsePolicy(n)
		if p.Describe() == "" {
			t.Errorf("%s has no description", n)
		}
	}
}

// Single decides a lone request exactly as Arbitrate would (owners and the
// round-robin pointer), and leaves every other cycle to Arbitrate.
func TestSingleMatchesArbitrate(t *testing.T) {
	r := Request{In: 2, Want: Port(1), Worm: 10, Buf: 100}
	for _, p := range []Policy{RoundRobin, Oldest, UpperFirst, SourcePriority, Clock} {
		a, b := New(4, p), New(4, p)
		a.Post(r)
		won := grants(&b, r)
		got, ports := a.Single()
		if got == nil || got.Buf != 100 || ports != Port(1) || len(won) != 1 {
			t.Fatalf("%v: Single gave %v %b, Arbitrate %v", p, got, ports, won)
		}
		if a.Owner[1] != 10 || a.rrIn != b.rrIn || a.Pending() {
			t.Fatalf("%v: owners %v pointer %d pending %v, Arbitrate: %v %d", p, a.Owner, a.rrIn, a.Pending(), b.Owner, b.rrIn)
		}
		a.Post(r) // port 1 is now held: not grantable
		if got, _ := a.Single(); got != nil || !a.Pending() {
			t.Fatalf("%v: Single granted a held port", p)
		}
	}
	two := New(4, RoundRobin)
	two.Post(r)
	two.Post(Request{In: 0, Want: Port(2), Worm: 11, Buf: 101})
	if got, _ := two.Single(); got != nil {
		t.Fatal("Single decided two requests")
	}
	g := New(4, Grab)
	g.Post(r)
	if got, _ := g.Single(); got != nil {
		t.Fatal("Single decided under Grab")
	}
}

// Deciding one-port requests by rank (Rank, Award, Awarded) grants what
// Arbitrate grants and leaves the switch in the same state, under both
// ByInput policies.
func TestAwardMatchesArbitrate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 3000; trial++ {
		ports := 2 + rng.IntN(8)
		p := []Policy{RoundRobin, UpperFirst}[trial%2]
		if !p.ByInput() {
			t.Fatalf("%v is not ByInput", p)
		}
		a, b := New(ports, p), New(ports, p)
		a.rrIn = int32(rng.IntN(ports))
		b.rrIn = a.rrIn
		var reqs []Request
		for _, in := range rng.Perm(ports)[:1+rng.IntN(ports)] {
			reqs = append(reqs, Request{In: int32(in), Want: Port(rng.IntN(ports)), Worm: int32(100 + in), ID: uint64(rng.IntN(1000)), Buf: int32(in)})
		}
		want := map[int32]PortSet{}
		for _, r := range reqs {
			a.Post(r)
		}
		a.Arbitrate(func(r *Request, got PortSet) { want[r.Buf] = got })
		best := map[int]Request{} // port → first-ranked requester
		for _, r := range reqs {
			q := r.Want.First()
			if o, ok := best[q]; !ok || b.Rank(r.In) < b.Rank(o.In) {
				best[q] = r
			}
		}
		got := map[int32]PortSet{}
		last := int32(-1)
		for q, r := range best {
			b.Award(q, r.Worm)
			got[r.Buf] = Port(q)
			if last < 0 || b.Rank(r.In) > b.Rank(last) {
				last = r.In
			}
		}
		b.Awarded(last)
		if !maps.Equal(got, want) || a.rrIn != b.rrIn || !slices.Equal(a.Owner, b.Owner) {
			t.Fatalf("trial %d (%v): awarded %v, Arbitrate granted %v", trial, p, got, want)
		}
	}
}

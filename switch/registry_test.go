package xbar

import (
	"slices"
	"testing"
)

// testHighest is an arbiter added as a new file would add it, by a
// package-level variable: the highest-numbered input first.
var testHighest = RegisterArbiter(Arbiter{Name: "test-highest-port", Aliases: []string{"test-hp"},
	Desc:    "the highest-numbered input port (a test arbiter)",
	Compare: func(a, b *Request, _, _ int32) int { return int(b.In - a.In) }})

// TestRegisteredArbiter checks that an added arbiter follows the built-ins,
// is listed, parsed by name and alias, and ranks requests by its Compare.
func TestRegisteredArbiter(t *testing.T) {
	p := testHighest
	if p != Grab+1 || RoundRobin.String() != "round-robin" || Grab.String() != "grab" {
		t.Fatalf("added arbiter is policy %d; built-ins %v, %v", p, RoundRobin, Grab)
	}
	if !slices.Contains(PolicyNames(), "test-highest-port") || !slices.Contains(Policies(), p) {
		t.Fatalf("not listed: %v", PolicyNames())
	}
	for _, name := range []string{"test-highest-port", "TEST-HP"} {
		if q, err := ParsePolicy(name); err != nil || q != p {
			t.Errorf("ParsePolicy(%q) = %v, %v", name, q, err)
		}
	}
	if p.String() != "test-highest-port" || p.Describe() == "" || p.ByInput() {
		t.Errorf("%v %q %v", p, p.Describe(), p.ByInput())
	}
	s := New(4, p)
	won := grants(&s,
		Request{In: 0, Want: Port(1), Buf: 10, ID: 1},
		Request{In: 3, Want: Port(1), Buf: 13, ID: 2},
		Request{In: 2, Want: Port(1), Buf: 12, ID: 3})
	if len(won) != 1 || won[0] != 13 {
		t.Errorf("won %v, want the request from input 3 (buffer 13)", won)
	}
}

// TestArbiterRegistry checks every registered arbiter: a unique name that
// parses back to it, a description, and a lone request granted.
func TestArbiterRegistry(t *testing.T) {
	as := Arbiters()
	if len(as) != len(Policies()) || len(as) < 6 {
		t.Fatalf("%d arbiters, %d policies", len(as), len(Policies()))
	}
	for i, a := range as {
		p := Policy(i)
		if q, err := ParsePolicy(a.Name); err != nil || q != p || a.Desc == "" {
			t.Errorf("%s: ParsePolicy = %v, %v; desc %q", a.Name, q, err, a.Desc)
		}
		for _, al := range a.Aliases {
			if q, _ := ParsePolicy(al); q != p {
				t.Errorf("alias %s of %s parses to %v", al, a.Name, q)
			}
		}
		s := New(2, p)
		if won := grants(&s, Request{In: 1, Want: Port(0), Buf: 7, ID: 1}); len(won) != 1 || won[0] != 7 {
			t.Errorf("%s: a lone request not granted: %v", a.Name, won)
		}
	}
}

package header

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// portStrings maps each enabled port to its header in String form.
func portStrings(out []PortHeader) map[int]string {
	m := map[int]string{}
	for _, o := range out {
		m[o.Port] = o.Header.String()
	}
	return m
}

// The generic 4-port router of Chiang Ch. 2 (digest §6.1): 16 nodes, port i
// reaches nodes 4i…4i+3.
func TestRouterExamples(t *testing.T) {
	r := Router{Reach: [][]int{span(0, 3), span(4, 7), span(8, 11), span(12, 15)}}
	o := Options{Nodes: 16, FlitBits: 4, EOH: true}
	for _, c := range []struct {
		name    string
		s       Scheme
		d       []int
		o       Options
		want    map[int]string
		enabled map[int]int // port → input flit that enabled it (nil: not checked)
	}{
		// Port 1 is enabled by the 3rd address, port 3 by the 5th; port 2
		// never; the EOH goes to ports 0, 1 and 3.
		{"Fig 2.6 all-destination", AllDestination, []int{2, 3, 5, 7, 15}, o,
			map[int]string{0: "2 3 E", 1: "5 7 E", 3: "15 E"}, map[int]int{0: 0, 1: 2, 3: 4}},
		{"Fig 2.8 buffered bit string", BitStringBuffered, []int{2, 3, 5, 7, 15}, o,
			map[int]string{0: "0011", 1: "0101", 3: "0001"}, map[int]int{0: 3, 1: 3, 3: 3}},
		{"Fig 2.9 hierarchical bit string", BitStringHier, []int{2, 3, 5, 7, 15}, Options{Nodes: 16, FlitBits: 4, K: 4},
			map[int]string{0: "0011", 1: "0101", 3: "0001"}, map[int]int{0: 0, 1: 0, 3: 0}},
		{"Fig 2.11 region broadcast", RegionBroadcast, []int{2, 3, 4, 5, 7, 8}, o,
			map[int]string{0: "2:3 E", 1: "4:5 7:7 E", 2: "8:8 E"}, map[int]int{0: 1, 1: 1, 2: 3}},
		{"Fig 2.12 region stride", RegionStride, []int{1, 3, 5, 6, 7, 8, 9, 10}, o,
			map[int]string{0: "1:3:2 E", 1: "5:5:2 6:7:1 E", 2: "8:10:1 E"}, nil},
		{"Fig 2.13 region mask", RegionMask, span(0, 5), o,
			map[int]string{0: "0000:0011:0011 E", 1: "0100:0101:0001 E"}, nil},
		{"Fig 2.15 region bit string", RegionBitString, []int{2, 3, 5, 7}, o,
			map[int]string{0: "2:3:11 E", 1: "5:7:101 E"}, nil},
		// Counter form: the router writes each port's own region count.
		{"Fig 2.11 with a counter", RegionBroadcast, []int{2, 3, 4, 5, 7, 8}, Options{Nodes: 16, FlitBits: 4},
			map[int]string{0: "1; 2:3", 1: "2; 4:5 7:7", 2: "1; 8:8"}, nil},
	} {
		h := mustEncode(t, c.s, c.d, c.o)
		out, err := r.Decode(h)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := portStrings(out); !maps.Equal(got, c.want) {
			t.Errorf("%s: input %s: got %v, want %v", c.name, h, got, c.want)
		}
		for _, o := range out {
			if c.enabled != nil && o.EnabledAt != c.enabled[o.Port] {
				t.Errorf("%s: port %d enabled at flit %d, want %d", c.name, o.Port, o.EnabledAt, c.enabled[o.Port])
			}
		}
	}
}

// A router with scattered, partly overlapping reach sets: every reachable
// destination goes out through exactly one port (the lowest that reaches
// it), and nothing else does.
func TestRouterPartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 1500 {
		nodes := 1 << (2 + rng.IntN(7))
		k := 2 + rng.IntN(6)
		r := Router{Reach: make([][]int, k)}
		owner := make([]int, nodes)
		for x := range nodes {
			owner[x] = -1
			for j := range k {
				if rng.IntN(k+1) == 0 {
					r.Reach[j] = append(r.Reach[j], x)
					if owner[x] < 0 {
						owner[x] = j
					}
				}
			}
		}
		schemes := []Scheme{AllDestination, PseudoAllDestination, RegionBroadcast, RegionStride, RegionMask, RegionBitString, BitStringBuffered}
		s := schemes[rng.IntN(len(schemes))]
		d := randomSet(rng, nodes)
		o := Options{Nodes: nodes, FlitBits: addrBits(nodes) + rng.IntN(4), EOH: rng.IntN(2) == 0, MaskAnyRun: rng.IntN(2) == 0}
		h := mustEncode(t, s, d, o)
		if s == BitStringBuffered {
			// The router reads the string over its domain, not all nodes.
			var dom []int
			for x := range nodes {
				if owner[x] >= 0 {
					dom = append(dom, x)
				}
			}
			var bits []bool
			dd, _ := h.Destinations()
			for _, x := range dom {
				bits = append(bits, slices.Contains(dd, x))
			}
			h = h.clone()
			h.Flits = packBits(bits, h.FlitBits)
		}
		out, err := r.Decode(h)
		if err != nil {
			t.Fatalf("trial %d: %s: %v", trial, h, err)
		}
		got := map[int]int{} // node → port
		for _, ph := range out {
			var mem []int
			if s == BitStringBuffered {
				p, _ := ph.Header.parse()
				for i, x := range r.Reach[ph.Port] {
					if p.bits[i] {
						mem = append(mem, x)
					}
				}
			} else {
				mem, err = ph.Header.Destinations()
				if err != nil {
					t.Fatal(err)
				}
			}
			if len(mem) == 0 {
				t.Fatalf("trial %d: port %d enabled with nothing", trial, ph.Port)
			}
			for _, x := range mem {
				if _, dup := got[x]; dup {
					t.Fatalf("trial %d: %s: node %d sent twice", trial, h, x)
				}
				got[x] = ph.Port
			}
		}
		want := map[int]int{}
		for _, x := range d {
			if owner[x] >= 0 {
				want[x] = owner[x]
			}
		}
		if !maps.Equal(got, want) {
			t.Fatalf("trial %d: %s %s: ports %v, want %v", trial, s, h, got, want)
		}
	}
}

func ExampleRouter_Decode() {
	// Chiang Fig 2.11: a 4-port router, port i reaching nodes 4i..4i+3.
	r := Router{Reach: [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}}}
	h, _ := Encode(RegionBroadcast, []int{2, 3, 4, 5, 7, 8}, Options{Nodes: 16, FlitBits: 4, EOH: true})
	out, _ := r.Decode(h)
	fmt.Println("in:", h)
	for _, o := range out {
		fmt.Printf("port %d: %s\n", o.Port, o.Header)
	}
	// Output:
	// in: 2:5 7:8 E
	// port 0: 2:3 E
	// port 1: 4:5 7:7 E
	// port 2: 8:8 E
}

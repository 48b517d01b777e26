package kernel_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/flit/header"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
)

// decodedEncodings are the headers the switches decode, as the config names
// them (multicast.encoding).
var decodedEncodings = []string{"bit-string", "hierarchical-bit-string", "region-broadcast",
	"region-stride", "region-mask", "region-bit-string"}

// minConfig is an empty k-ary n-stage cube MIN of Chiang's switch (one
// one-flit buffer per output port, clock priority).
func minConfig(k, n int) network.Config { return kindConfig("cube", k, n) }

// kindConfig is minConfig on a MIN of another kind.
func kindConfig(kind string, k, n int) network.Config {
	c := zeroLoadConfig(network.TopologyConfig{Kind: kind, K: k, N: n}, "wormhole", bufCase{out: 1}, 1, 0, 1)
	c.Arbiter = "clock"
	return c
}

// castOne sends one multicast from src to dests with data flits on the
// empty network n and runs it to the end. It returns the terminals that
// received the tail, every terminal that received any flit, the worm's
// header length and its latency (generation to the last tail).
func castOne(t *testing.T, n *network.Network, src int, dests []int, data int, cast flit.Cast, enc kernel.Encoding) (tails, any []int, hdr int32, lat int64) {
	t.Helper()
	k := kernel.Of(n)
	var wid uint64
	k.Hooks.Ejected = func(w *flit.Worm, term int32, f flit.Flit, _ int64) {
		if w.ID != wid {
			return
		}
		if !slices.Contains(any, int(term)) {
			any = append(any, int(term))
		}
		if f.IsTail() {
			tails = append(tails, int(term))
		}
	}
	k.Hooks.Delivered = func(w *flit.Worm, cycle int64) {
		if w.ID == wid {
			hdr, lat = w.Hdr, cycle-w.GenCycle
		}
	}
	wi, err := k.EnqueueMulticast(src, dests, data, cast, enc)
	if err != nil {
		t.Fatal(err)
	}
	wid = k.Pool.Worms[wi].ID
	for range 100000 {
		if lat > 0 {
			break
		}
		n.Cycle()
	}
	if lat == 0 {
		t.Fatalf("multicast from %d to %v not delivered", src, dests)
	}
	slices.Sort(tails)
	slices.Sort(any)
	return tails, any, hdr, lat
}

// TestDecodedHeadersDeliverExactly: on cube MINs of 2×2 and 4×4 switches
// (and the omega, baseline and butterfly MINs), every switch-decoded header
// delivers a random destination set of every size to exactly its members,
// by both kinds of tree worm, and no flit reaches another terminal.
func TestDecodedHeadersDeliverExactly(t *testing.T) {
	for _, net := range []struct {
		kind string
		k, n int
	}{{"cube", 2, 4}, {"cube", 4, 2}, {"cube", 2, 6}, {"omega", 2, 4}, {"baseline", 2, 4}, {"butterfly", 2, 4}, {"butterfly", 4, 2}} {
		c := kindConfig(net.kind, net.k, net.n)
		n := mustBuild(t, c)
		nt := kernel.Of(n).Topo.Terminals()
		rng := rand.New(rand.NewPCG(uint64(nt), 3))
		for _, name := range decodedEncodings {
			enc, err := kernel.ParseEncoding(name)
			if err != nil {
				t.Fatal(err)
			}
			sizes := nt
			if testing.Short() {
				sizes = min(nt, 16)
			}
			for m := 1; m <= sizes; m++ {
				dests := rng.Perm(nt)[:m]
				slices.Sort(dests)
				cast := []flit.Cast{flit.Tree, flit.SyncTree}[m%2]
				tails, any, _, _ := castOne(t, n, rng.IntN(nt), dests, 1+rng.IntN(8), cast, enc)
				if !slices.Equal(tails, dests) || !slices.Equal(any, dests) {
					t.Fatalf("%d-node %d×%d %s, %s, %s worm to %v: tails at %v, flits at %v", nt, net.k, net.k, net.kind, name, cast, dests, tails, any)
				}
			}
		}
	}
}

// TestHeaderLengthSetsLatency sends Table 3.1's three destination sets
// from node 0 over the empty 256-node cube MIN of 2×2 switches (8-bit flits,
// the table's parameters) with 64 data flits. The worm carries the header
// the encoder gives (Table 3.1's flit counts; the region bit string by the
// §4.1 formula, the row the digest finds underivable), and the latency is
// the all-destination run's minus its header plus this header, plus the
// decoding waits the cycle rule predicts: none where the flit that decides a
// port is the branch's first (all-destination, hierarchical bit string: its
// enable bits come first), k^i/8 − 1 flits at stage i for the buffered bit
// string (read whole before it is cut in halves), and one region's fields
// (2, or 3 with a stride or mask) at each of the 8 stages for pattern 3's
// single region. Every other case pays at least its header.
func TestHeaderLengthSetsLatency(t *testing.T) {
	table := map[string][3]int32{ // Table 3.1 (digest §5.2), verbatim
		"ad": {49, 19, 49}, "bit-string": {32, 32, 32}, "hierarchical-bit-string": {64, 64, 64},
		"region-broadcast": {45, 37, 3}, "region-stride": {13, 28, 4}, "region-mask": {40, 43, 4},
		"region-bit-string": {18, 16, 9}, // the formula's; the table prints 19 / 14 / 8
	}
	bsWait := int64(15 + 7 + 3 + 1) // Σ_i (⌈2^i/8⌉ − 1)
	o := header.Table31Options()
	for _, cast := range []flit.Cast{flit.Tree, flit.SyncTree} {
		for p := 1; p <= 3; p++ {
			d, err := header.ParseDests(header.Table31Patterns[p-1], o.Nodes)
			if err != nil {
				t.Fatal(err)
			}
			lat := map[string]int64{}
			for _, name := range append([]string{"ad"}, decodedEncodings...) {
				enc, _ := kernel.ParseEncoding(name)
				_, _, hdr, l := castOne(t, mustBuild(t, minConfig(2, 8)), 0, d, 64, cast, enc)
				if want := table[name][p-1]; hdr != want {
					t.Errorf("pattern %d, %s: header of %d flits, Table 3.1 %d", p, name, hdr, want)
				}
				lat[name] = l - int64(hdr)
			}
			base := lat["ad"]
			want := map[string]int64{"hierarchical-bit-string": base, "bit-string": base + bsWait}
			if p == 3 {
				want["region-broadcast"], want["region-stride"], want["region-mask"] = base+16, base+24, base+24
			}
			for name, l := range lat {
				if w, ok := want[name]; ok && l != w {
					t.Errorf("%s worm, pattern %d, %s: latency − header %d, want %d", cast, p, name, l, w)
				}
				if l < base {
					t.Errorf("%s worm, pattern %d, %s: latency − header %d, below all-destination's %d", cast, p, name, l, base)
				}
			}
		}
	}
}

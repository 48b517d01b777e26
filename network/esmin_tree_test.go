package network_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/esmintree"
)

// TestESMINTreesSimulated runs one-flit multicast worms on random ESMINs
// with multicast.tree lb, fb, rm and rb, and checks that the channels that
// carried a flit are those of the tree esmintree builds (the tree
// `flitsim multicast-tree` prints): exactly LB's and FB's, and for RM and RB
// one of the trees their random draws give. An RB draw that blocks must be
// dropped at the source and counted (blocked_multicasts), the run going on.
func TestESMINTreesSimulated(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 6))
	blocked, rbNotLB := 0, 0
	for trial := range 40 {
		dims, src, dests := esmintree.RandomCase(rng)
		net, err := esmintree.New(dims)
		if err != nil {
			t.Fatal(err)
		}
		for _, alg := range []esmintree.Alg{esmintree.LB, esmintree.FB, esmintree.RM, esmintree.RB} {
			got, err := simulatedTree(dims, alg, uint64(trial+1), src, dests)
			if err != nil {
				if alg == esmintree.RB && errors.Is(err, errBlocked) {
					blocked++
					continue
				}
				t.Fatalf("dims %v %v %d→%v: %v", dims, alg, src, dests, err)
			}
			found := false
			if alg == esmintree.RB {
				if got != treeKey(net, src, net.Build(esmintree.LB, 0, src, dests)) {
					rbNotLB++
				}
				// Every tag assignment is an RB tree.
				err = net.Assignments(src, dests, 1<<16, func(_ []uint64, tr esmintree.Tree) {
					found = found || !tr.Blocked && treeKey(net, src, tr) == got
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			draws := uint64(1) // LB, FB: one tree
			if alg == esmintree.RM {
				draws = 2048 // far more than the ≤ 3·3·2 stage choices
			}
			for aux := range draws {
				tr := net.Build(alg, aux, src, dests)
				found = found || !tr.Blocked && treeKey(net, src, tr) == got
			}
			if !found {
				t.Errorf("dims %v %v %d→%v: simulated channels %s are no tree of the algorithm (LB/FB: %s)",
					dims, alg, src, dests, got, treeKey(net, src, net.Build(alg, 0, src, dests)))
			}
		}
	}
	if rbNotLB == 0 {
		t.Errorf("every simulated RB tree was LB's: RB's random ports are untested")
	}
	if blocked == 0 {
		t.Errorf("no RB draw blocked in 40 cases: the refusal is untested")
	}
}

// simulatedTree runs a one-flit multicast and returns the channels that
// carried it, sorted and joined.
func simulatedTree(dims []int, alg esmintree.Alg, seed uint64, src int, dests []int) (string, error) {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "esmin", Dims: dims}
	c.Multicast.Tree = alg.String()
	c.Buffers = network.BufferConfig{Output: 1}
	c.Run.Channels, c.Run.Seed = true, seed
	ds := make([]string, len(dests))
	for i, d := range dests {
		ds[i] = fmt.Sprint(d)
	}
	c.Traffic.Packets = []string{fmt.Sprintf("0,%d,%s,1", src, strings.Join(ds, " "))}
	n, err := network.Build(c)
	if err != nil {
		return "", err
	}
	r, err := n.RunAkita()
	if err != nil {
		return "", err
	}
	switch b := r.BlockedMulticasts; {
	case (alg == esmintree.RB) != (b != nil):
		return "", fmt.Errorf("blocked_multicasts %v with multicast.tree %v", b, alg)
	case b != nil && *b == 1:
		// Dropped before injection: nothing entered the network.
		if r.InjectedPackets != 0 || r.Status != "ok" || used(r) != "" {
			return "", fmt.Errorf("a blocked multicast: injected %d, status %s, channels %q", r.InjectedPackets, r.Status, used(r))
		}
		return "", errBlocked
	case r.MeasuredDelivered != 1:
		return "", fmt.Errorf("%d packets delivered", r.MeasuredDelivered)
	}
	return used(r), nil
}

// errBlocked: the multicast's tree blocked and it was dropped.
var errBlocked = errors.New("blocked")

// used lists the channels that carried a flit, sorted and joined.
func used(r *network.Result) string {
	var names []string
	for _, ch := range r.Channels {
		if ch.Flits > 0 {
			names = append(names, ch.Channel)
		}
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

// treeKey names tr's channels as the simulator does: the source's injection
// link and output port p of switch "s{g},{row}" (position i = h−1−g).
func treeKey(net *esmintree.Net, src int, tr esmintree.Tree) string {
	h := net.Stages()
	set := map[string]bool{fmt.Sprintf("terminal %d injection", src): true}
	for _, ports := range tr.Paths {
		x := src
		for i := range h {
			p := int(ports[i] - '0')
			o := x&^1 | p
			set[fmt.Sprintf("s%d,%d.out[%d]", h-1-i, o>>1, p)] = true
			x = net.Next(i, x, p)
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, " ")
}

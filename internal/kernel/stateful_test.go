package kernel_test

import (
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// recTwoPhase is two-phase routing (to an intermediate terminal drawn at the
// source, then to the destination, each by the kind's default routing) that
// records every RouteHead call the kernel makes, by worm serial.
type recTwoPhase struct {
	base topology.Router
	t    *topology.Topology
	hops map[uint64][]topology.Hop
	mids map[uint64]int
	bad  []string // state not zero at a worm's first switch
}

var lastRec *recTwoPhase // the router the last Build made (tests run serially)

func init() {
	topology.RegisterRouting("mesh", topology.Routing{Name: "test-two-phase-rec",
		Desc: "two-phase routing that records its calls (a test)",
		New: func(t *topology.Topology, s topology.Spec) (topology.Router, error) {
			k, _ := topology.Kind(t.Kind)
			base, err := k.Routings[0].New(t, s)
			lastRec = &recTwoPhase{base: base, t: t, hops: map[uint64][]topology.Hop{}, mids: map[uint64]int{}}
			return lastRec, err
		}})
}

func (r *recTwoPhase) Name() string { return "test-two-phase-rec" }

func (r *recTwoPhase) Init(w *flit.Worm, rng *rand.Rand) {
	w.Aux = uint64(rng.IntN(r.t.Terminals()))
}

func (r *recTwoPhase) Route(sw, in int, w *flit.Worm) xbar.PortSet {
	panic("the kernel must route a stateful router's unicast heads by RouteHead")
}

func (r *recTwoPhase) RouteHead(sw, in int, w *flit.Worm, st *flit.RouteState) xbar.PortSet {
	if _, seen := r.hops[w.ID]; !seen && *st != (flit.RouteState{}) {
		r.bad = append(r.bad, fmt.Sprintf("worm %d starts in state %+v", w.ID, *st))
	}
	ps := r.base.Route(sw, in, w)
	if st.Phase == 0 {
		mid := *w
		mid.Dst = int32(w.Aux)
		if ps = r.base.Route(sw, in, &mid); r.t.Switches[sw].Out[ps.First()].ToTerminal() {
			st.Phase = 1
			ps = r.base.Route(sw, in, w)
		}
	}
	r.hops[w.ID] = append(r.hops[w.ID], topology.Hop{Switch: sw, Label: r.t.Switches[sw].Label, In: in, Out: ps.First()})
	r.mids[w.ID] = int(w.Aux)
	return ps
}

// TestKernelRoutesStatefulHeads runs packets under a stateful routing
// function on a 4×4 mesh, for each buffer arrangement, and checks the path
// the kernel routed each head along, switch by switch, against the
// two-phase route through the intermediate node the packet drew.
func TestKernelRoutesStatefulHeads(t *testing.T) {
	plain, err := topology.Build(topology.Spec{Kind: "mesh", K: 4, N: 2})
	if err != nil {
		t.Fatal(err)
	}
	path := func(src, dst int) []topology.Hop {
		hops, err := topology.Trace(plain, &flit.Worm{Src: int32(src), Dst: int32(dst)})
		if err != nil {
			t.Fatal(err)
		}
		return hops
	}
	for _, b := range bufCases {
		c := network.Default()
		c.Topology = network.TopologyConfig{Kind: "mesh", K: 4, N: 2}
		c.Routing = "test-two-phase-rec"
		c.Buffers = network.BufferConfig{Input: b.in, Output: b.out}
		c.Run.Workers = 1
		c.Traffic.Packets = nil
		for i := range 40 {
			c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("%d,%d,%d,3", i*40, i%16, (i*7+3)%16))
		}
		n, err := network.Build(c)
		if err != nil {
			t.Fatal(err)
		}
		rec := lastRec
		r, err := n.RunPlain()
		if err != nil {
			t.Fatal(err)
		}
		if r.DeliveredPackets != 40 || len(rec.hops) != 40 {
			t.Fatalf("%s: delivered %d, routed %d worms", b.name, r.DeliveredPackets, len(rec.hops))
		}
		if len(rec.bad) > 0 {
			t.Fatalf("%s: %v", b.name, rec.bad)
		}
		detours := 0
		for id, got := range rec.hops {
			i := int(id - 1) // serials count from 1 in trace order
			src, dst, mid := i%16, (i*7+3)%16, rec.mids[id]
			first, second := path(src, mid), path(mid, dst)
			turn := first[len(first)-1]
			turn.Out = second[0].Out
			want := append(append(first[:len(first)-1], turn), second[1:]...)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: worm %d %d→%d via %d:\n got %v\nwant %v", b.name, id, src, dst, mid, got, want)
			}
			if len(got) > len(path(src, dst)) {
				detours++
			}
		}
		if detours == 0 {
			t.Errorf("%s: no packet went out of its way", b.name)
		}
	}
}

// TestPacketRouterStatefulHeads: the packet-switched router routes by a
// stateful routing function too, asking it once per switch on the path,
// with routes carried from the source or decided hop by hop (also with
// backpressure, which decides a hop when the packet asks for the next
// queue); both give the two-phase paths, the same moves, and deliver
// every packet.
func TestPacketRouterStatefulHeads(t *testing.T) {
	var moves []string
	for _, q := range []network.QueueConfig{{Routes: "source"}, {Routes: "hop"}, {Routes: "hop", Full: "backpressure"}, {Routes: "source", Full: "backpressure"}} {
		c := packetConfig(network.TopologyConfig{Kind: "mesh", K: 4, N: 2}, q, 0)
		c.Routing, c.Buffers.Output = "test-two-phase-rec", 3 // (deep enough not to deadlock)
		for i := range 60 {
			c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("%d,%d,%d,1", i/4, i%16, (i*7+3)%16))
		}
		n, err := network.Build(c)
		if err != nil {
			t.Fatal(err)
		}
		rec := lastRec
		m := &moveLog{perLink: map[[2]int64]int{}, ids: map[uint64]int{}, k: kernel.Of(n), dirs: map[string]int{}}
		kernel.Of(n).SetTracer(m)
		r, err := n.RunPlain()
		if err != nil {
			t.Fatal(err)
		}
		if r.DeliveredPackets != 60 || len(rec.hops) != 60 || len(rec.bad) > 0 || r.Violations.Total() != 0 {
			t.Fatalf("%+v: delivered %d, routed %d, %v, violations %+v", q, r.DeliveredPackets, len(rec.hops), rec.bad, r.Violations)
		}
		for id, got := range rec.hops {
			hops := 0
			for _, h := range got {
				if h.Out != 4 { // (port 4: local, the ejection)
					hops++
				}
			}
			if len(got) != hops+1 || float64(hops) > r.Latency.Max {
				t.Fatalf("%+v: worm %d asked the router %d times for %d hops", q, id, len(got), hops)
			}
		}
		moves = append(moves, strings.Join(m.moves, " "))
	}
	if moves[0] != moves[1] || moves[2] != moves[3] {
		t.Fatal("source and hop routes differ")
	}
}

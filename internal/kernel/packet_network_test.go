package kernel_test

import (
	"encoding/json"
	"fmt"
	"github.com/flitsim/flitsim/internal/kernel"
	"runtime"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"
)

func packetConfig(t network.TopologyConfig, q network.QueueConfig, load float64) network.Config {
	c := network.Default()
	c.Topology, c.Switching, c.Queue = t, "packet", q
	c.Traffic.Flits = network.FlitRange{Min: 1, Max: 1}
	c.Traffic.Load = load
	c.Run = network.RunConfig{Warmup: 100, Measure: 600, Drain: 20000, Seed: 5, DeadlockCheck: 64, StallLimit: 1000}
	return c
}

// moveLog records every packet move a tracer sees, and the cycles in
// which a link carried two packets.
type moveLog struct {
	moves    []string
	perLink  map[[2]int64]int
	overused int
	ids      map[uint64]int
	k        *kernel.Kernel
	dirs     map[string]int // moves by the port name of their channel, e.g. x+
}

func (m *moveLog) Granted(int64, int32, int32, int32, xbar.PortSet) {}
func (m *moveLog) Blocked(int64, flit.Flit, int32, network.Wait, int32, int32) {
}
func (m *moveLog) EndCycle(int64) {}
func (m *moveLog) Move(cycle int64, f flit.Flit, from, to, ch int32, ready int64) {
	m.moves = append(m.moves, fmt.Sprintf("%d:%d:%d>%d", cycle, m.k.Pool.Worms[f.Worm].ID, from, to))
	if ch >= 0 {
		name := m.k.ChannelName(ch)
		m.dirs[name[strings.LastIndex(name, "[")+1:len(name)-1]]++
		if m.perLink[[2]int64{cycle, int64(ch)}]++; m.perLink[[2]int64{cycle, int64(ch)}] > 1 {
			m.overused++
		}
	}
}
func (m *moveLog) Delivered(_ int64, w *flit.Worm, _, _ int32) { m.ids[w.ID]++ }

func tracedRun(t *testing.T, c network.Config) (*moveLog, *network.Result) {
	t.Helper()
	n, err := network.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	m := &moveLog{perLink: map[[2]int64]int{}, ids: map[uint64]int{}, k: kernel.Of(n), dirs: map[string]int{}}
	kernel.Of(n).SetTracer(m)
	r, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	return m, r
}

var packetTopologies = []network.TopologyConfig{
	{Kind: "hypercube", D: 4},
	{Kind: "mesh", K: 4, N: 2},
	{Kind: "torus", K: 5, N: 2},
	{Kind: "omega", K: 2, N: 3},
}

// TestPacketSourceRoutesEqualHopRoutes: routes carried from the source and
// routes decided hop by hop give the same moves, cycle by cycle, on every
// topology, discipline and queue arrangement; and every packet is
// delivered once, no link carries two packets in a cycle, nothing is lost.
func TestPacketSourceRoutesEqualHopRoutes(t *testing.T) {
	routing := map[string]string{"hypercube": "ecube-random"}
	for _, tc := range packetTopologies {
		for _, q := range []network.QueueConfig{
			{}, {Discipline: "furthest-first"}, {Discipline: "random", ArrivalOrder: "scan"},
			{Shared: true}, {Full: "backpressure"},
		} {
			t.Run(fmt.Sprintf("%s/%+v", tc.Kind, q), func(t *testing.T) {
				c := packetConfig(tc, q, 0.4)
				c.Routing = routing[tc.Kind]
				c.Buffers.Output = 2
				logs := [2]*moveLog{}
				var res [2]string
				for i, mode := range []string{"source", "hop"} {
					c.Queue.Routes = mode
					m, r := tracedRun(t, c)
					if r.Violations.Total() != 0 || m.overused != 0 || r.Deadlock != nil || r.Stall != nil || r.Incomplete {
						t.Fatalf("%s routes: violations %+v, %d links used twice, deadlock %v, stall %v, incomplete %v",
							mode, r.Violations, m.overused, r.Deadlock, r.Stall, r.Incomplete)
					}
					for id, n := range m.ids {
						if n != 1 {
							t.Fatalf("packet %d delivered %d times", id, n)
						}
					}
					if int64(len(m.ids)) != r.DeliveredPackets || r.DeliveredPackets+int64(m.k.InFlight())+m.k.Backlog() != r.InjectedPackets {
						t.Fatalf("injected %d, delivered %d (%d seen), in flight %d, backlog %d",
							r.InjectedPackets, r.DeliveredPackets, len(m.ids), m.k.InFlight(), m.k.Backlog())
					}
					r.Config.Queue.Routes = ""
					b, _ := json.Marshal(r)
					logs[i], res[i] = m, string(b)
				}
				if len(logs[0].moves) < 100 || strings.Join(logs[0].moves, " ") != strings.Join(logs[1].moves, " ") || res[0] != res[1] {
					t.Fatalf("source and hop routes differ (%d and %d moves)", len(logs[0].moves), len(logs[1].moves))
				}
			})
		}
	}
}

// TestPacketZeroLoadLatency: a lone packet takes one cycle per link
// (store-and-forward, one-cycle hops, ejection at once): latency = hops.
func TestPacketZeroLoadLatency(t *testing.T) {
	for _, tc := range packetTopologies {
		c := packetConfig(tc, network.QueueConfig{}, 0)
		for _, pair := range [][2]int{{0, 5}, {3, 3}, {1, 6}} {
			c.Traffic.Packets = []string{fmt.Sprintf("0,%d,%d,1", pair[0], pair[1])}
			r, err := network.Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Deliveries) != 1 || r.Deliveries[0].Latency != int64(r.Hops) {
				t.Fatalf("%s %v: deliveries %+v, hops %v", tc.Kind, pair, r.Deliveries, r.Hops)
			}
		}
	}
}

// TestPacketBackpressureDeadlock: on a ring of bounded queues a batch that
// fills every queue with packets going the same way round deadlocks, and
// the run says so; with unbounded queues the same batch completes.
func TestPacketBackpressureDeadlock(t *testing.T) {
	c := packetConfig(network.TopologyConfig{Kind: "torus", K: 6, N: 1}, network.QueueConfig{Full: "backpressure"}, 0)
	c.Buffers.Output = 1
	c.Traffic.Mode, c.Traffic.H, c.Traffic.Pattern = "batch", 3, "tornado"
	r, err := network.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	if r.Deadlock == nil || len(r.Deadlock.Worms) < 2 || r.Experiments.Incomplete != 1 {
		t.Fatalf("deadlock %+v, experiments %+v", r.Deadlock, r.Experiments)
	}
	c.Queue.Full = ""
	if r, err = network.Run(c); err != nil || r.Deadlock != nil || r.Experiments.Incomplete != 0 || r.DeliveredPackets != 18 {
		t.Fatalf("unbounded: %v, deadlock %+v, delivered %d", err, r.Deadlock, r.DeliveredPackets)
	}
}

// TestPacketExperimentsDeterministic: a batch's experiments give the same
// summary on one core as on all of them, and differ with the seed.
func TestPacketExperimentsDeterministic(t *testing.T) {
	c := packetConfig(network.TopologyConfig{Kind: "hypercube", D: 5}, network.QueueConfig{}, 0)
	c.Traffic.Mode, c.Traffic.H, c.Traffic.Pattern, c.Run.Experiments = "batch", 2, "random-permutation", 64
	c.Routing = "ecube-random"
	out := func(procs int, seed uint64) string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c.Run.Seed = seed
		r, err := network.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		e := r.Experiments
		if e.Count != 64 || e.Incomplete != 0 || e.Violations.Total() != 0 || e.Phase1 != nil || e.Total.CompletionTime.Mean < 5 {
			t.Fatalf("experiments %+v", e)
		}
		b, _ := json.Marshal(r)
		return string(b)
	}
	one := out(1, 9)
	if all := out(4, 9); all != one {
		t.Fatalf("one core and four differ:\n%s\n%s", one, all)
	}
	if out(2, 10) == one {
		t.Fatal("another seed gave the same experiments")
	}
}

// TestPacketLongRoutes: routes longer than a packet record holds (a
// 39-hop tornado on an 80-node ring) take the same moves from the source
// as hop by hop, and every packet arrives.
func TestPacketLongRoutes(t *testing.T) {
	c := packetConfig(network.TopologyConfig{Kind: "torus", K: 80, N: 1}, network.QueueConfig{}, 0)
	c.Traffic.Mode, c.Traffic.Pattern = "batch", "tornado"
	var moves [2]string
	for i, mode := range []string{"source", "hop"} {
		c.Queue.Routes = mode
		m, r := tracedRun(t, c)
		if r.DeliveredPackets != 80 || r.Hops != 39 || r.Violations.Total() != 0 {
			t.Fatalf("%s: delivered %d, hops %v, violations %+v", mode, r.DeliveredPackets, r.Hops, r.Violations)
		}
		moves[i] = strings.Join(m.moves, " ")
	}
	if moves[0] != moves[1] {
		t.Fatal("source and hop routes differ")
	}
}

// TestPacketTorusTies: on a ring of even side a packet half a ring away
// goes either way under the packet router by default (topology.tie random,
// drawn per packet: both directions occur, source and hop routes agree),
// or always + with topology.tie plus.
func TestPacketTorusTies(t *testing.T) {
	for _, tie := range []string{"", "plus"} {
		c := packetConfig(network.TopologyConfig{Kind: "torus", K: 6, N: 1, Tie: tie}, network.QueueConfig{}, 0)
		for i := range 40 {
			c.Traffic.Packets = append(c.Traffic.Packets, fmt.Sprintf("%d,%d,%d,1", i, i%6, (i%6+3)%6))
		}
		m, _ := tracedRun(t, c)
		c.Queue.Routes = "hop"
		h, _ := tracedRun(t, c)
		plus, minus := m.dirs["x+"], m.dirs["x-"]
		if strings.Join(m.moves, " ") != strings.Join(h.moves, " ") {
			t.Fatalf("tie %q: source and hop routes differ", tie)
		}
		if tie == "plus" && minus != 0 || tie == "" && (plus < 10 || minus < 10) {
			t.Fatalf("tie %q: %d moves +, %d moves −", tie, plus, minus)
		}
	}
}

package kernel_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"
)

// TestFastPathMatchesGeneral runs every small topology and buffer
// arrangement three times in lockstep: with the general path only (whose
// flow is the movement rule, rule.go), with the fast path, and with the
// fast path on two lanes (two threads) wherever the network can be cut,
// switching now and then to one lane and back, as the automatic mode does,
// and deciding flow as in a large network (flowLarge). It requires the
// same moves in every cycle (the same buffers; the fast path lists them in
// another order) and the same result. Some runs add multicast worms of
// every kind on top of the unicast traffic, so the kernel switches between
// the paths mid-worm. Every arbiter (xbar.PolicyNames) and every switching
// mode (xbar.ModeNames) runs; the fast path must run in wormhole cycles and
// in no others.
func TestFastPathMatchesGeneral(t *testing.T) {
	policies := xbar.PolicyNames()
	type run struct {
		name  string
		c     network.Config
		mixed bool
	}
	var runs []run
	used := map[string]bool{}
	i := 0
	add := func(tc topoCase, mode string, b bufCase, mixed bool) {
		i++
		flits := 6
		if mode != xbar.Wormhole.String() {
			// Cut-through and store-and-forward buffers hold a whole packet.
			b.in, b.out = min(b.in, 1)*flits, min(b.out, 1)*flits
		}
		c := zeroLoadConfig(tc.t, mode, b, 1+i%2, i%3/2, 4)
		reuse := i%5 != 0
		c.Switch.Reuse = &reuse
		c.Arbiter = policies[i%len(policies)]
		used[c.Arbiter] = true
		c.Traffic.Flits = network.FlitRange{Min: 1, Max: flits}
		c.Traffic.Load = 0.25 + 0.1*float64(i%3)
		c.Run = network.RunConfig{Warmup: 100, Measure: 800, Drain: 20000, Seed: uint64(i), DeadlockCheck: 64, StallLimit: 5000}
		name := fmt.Sprintf("%s/%s/%s/lat%d/delay%d/%s/mixed=%v", tc.name, mode, b.name, c.Link.Latency, c.Switch.Delay, c.Arbiter, mixed)
		runs = append(runs, run{name, c, mixed})
	}
	topos := smallTopologies()
	for _, tc := range topos {
		for _, b := range bufCases {
			for _, mixed := range []bool{false, true} {
				add(tc, xbar.Wormhole.String(), b, mixed)
			}
		}
	}
	// The other modes on a few topologies: the fast path does not apply,
	// and the general path's runs must agree with themselves.
	for j, mode := range xbar.ModeNames() {
		if mode == xbar.Wormhole.String() {
			continue
		}
		for bi, b := range bufCases {
			add(topos[(j*len(bufCases)+bi)%len(topos)], mode, b, bi%2 == 1)
		}
	}
	if len(used) != len(policies) {
		t.Fatalf("the runs use arbiters %v of %v", used, policies)
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) { lockstep(t, r.c, r.mixed) })
	}
}

func lockstep(t *testing.T, c network.Config, mixed bool) {
	c.Run.Workers = 1
	fast := mustBuild(t, c)
	slow := mustBuild(t, c)
	kernel.Of(slow).ForceGeneral()
	c.Run.Workers = 2
	par := mustBuild(t, c)
	if wormhole := c.Switching == xbar.Wormhole.String(); wormhole != (kernel.Of(par).Workers() == 2) {
		t.Fatalf("switching %s: %d lanes (two for wormhole, the fast path's case)", c.Switching, kernel.Of(par).Workers())
	}
	kernel.Of(par).SetLargeAt(0) // the two lanes decide flow as in a large network
	if c.Run.Seed%2 == 0 {
		// One lane decides as in a large network too, on every other run
		// (flowLarge leaves most of its memo unwritten: the deadlock
		// check, run every 64 cycles and when nothing moves, reads it).
		kernel.Of(fast).SetLargeAt(0)
	}
	casts := []flit.Cast{flit.Tree, flit.SyncTree, flit.Path}
	rng := rand.New(rand.NewPCG(c.Run.Seed, 7))
	nt := kernel.Of(fast).Topo.Terminals()
	fastCycles := 0
	for !fast.Done() {
		if mixed && rng.IntN(60) == 0 {
			src := rng.IntN(nt)
			dests := []int{rng.IntN(nt), rng.IntN(nt), rng.IntN(nt)}
			cast := casts[rng.IntN(len(casts))]
			flits := 1 + rng.IntN(5)
			_, e1 := kernel.Of(fast).EnqueueMulticast(src, dests, flits, cast, network.SingleFlit)
			_, e2 := kernel.Of(slow).EnqueueMulticast(src, dests, flits, cast, network.SingleFlit)
			_, e3 := kernel.Of(par).EnqueueMulticast(src, dests, flits, cast, network.SingleFlit)
			if (e1 == nil) != (e2 == nil) || (e1 == nil) != (e3 == nil) {
				t.Fatalf("enqueue: %v vs %v vs %v", e1, e2, e3)
			}
		}
		if kernel.Of(fast).FastOK() {
			fastCycles++
		}
		if rng.IntN(16) == 0 && kernel.Of(par).HasPair() {
			kernel.Of(par).UseLanes(kernel.Of(par).Workers() == 1)
		}
		now := kernel.Of(fast).Now()
		fast.Cycle()
		slow.Cycle()
		par.Cycle()
		if !sameMoves(kernel.Of(fast).LastMoves(), kernel.Of(slow).Moves()) {
			t.Fatalf("cycle %d: fast path moved %v, general path %v", now, kernel.Of(fast).Moves(), kernel.Of(slow).Moves())
		}
		if pm := kernel.Of(par).Unaligned(kernel.Of(par).LastMoves()); !sameMoves(kernel.Of(fast).LastMoves(), pm) {
			t.Fatalf("cycle %d: fast path moved %v, on two lanes %v", now, kernel.Of(fast).LastMoves(), pm)
		}
		if slow.Done() != fast.Done() || par.Done() != fast.Done() {
			t.Fatalf("cycle %d: one run ended before the other", now)
		}
	}
	if wormhole := c.Switching == xbar.Wormhole.String(); wormhole != (fastCycles > 0) {
		t.Fatalf("switching %s: the fast path ran %d cycles", c.Switching, fastCycles)
	}
	for _, k := range []*kernel.Kernel{kernel.Of(fast), kernel.Of(par)} {
		checkSinkRecords(t, k, nt)
	}
	res := func(n *network.Network) string {
		r := n.Result()
		r.Config.Run.Workers = 0
		b, _ := json.Marshal(r)
		return string(b)
	}
	if a, b := res(fast), res(slow); a != b {
		t.Fatalf("results differ:\nfast    %s\ngeneral %s", a, b)
	}
	if a, b := res(fast), res(par); a != b {
		t.Fatalf("results differ:\none lane  %s\ntwo lanes %s", a, b)
	}
	if kernel.Of(fast).Violations.Total() != 0 {
		t.Fatalf("violations %+v", kernel.Of(fast).Violations)
	}
}

// checkSinkRecords: flow reads a terminal's room from its record past the
// buffers: one per terminal, with room, never filled.
func checkSinkRecords(t *testing.T, k *kernel.Kernel, nt int) {
	t.Helper()
	held, room := k.SinkRoom()
	if len(held) != nt {
		t.Fatalf("%d records past %d buffers for %d terminals", len(held), k.Buffers(), nt)
	}
	for i := range held {
		if held[i] != 0 || room[i] == 0 {
			t.Fatalf("terminal %d's record holds %d flits, room %d", i, held[i], room[i])
		}
	}
}

// TestAutoWorkers: with run.workers 0 the tuner times one lane against two
// and switches between them (here with short windows), and the run still
// moves the same flits in every cycle as on one lane.
func TestAutoWorkers(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: automatic mode uses one lane")
	}
	c := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3)
	c.Run.Workers = 1
	one := mustBuild(t, c)
	c.Run.Workers = 0
	auto := mustBuild(t, c)
	if !kernel.Of(auto).HasTuner() {
		t.Fatal("no tuner for an 8×8 mesh with run.workers 0")
	}
	kernel.Of(auto).Tune(func(tu *kernel.TunerKnobs) { tu.Window, tu.Period, tu.MaxPeriod = 8, 16, 64 })
	used := [3]int{}
	for range 3000 {
		one.Cycle()
		auto.Cycle()
		used[kernel.Of(auto).Workers()]++
		if am := kernel.Of(auto).Unaligned(kernel.Of(auto).LastMoves()); !sameMoves(kernel.Of(one).Moves(), am) {
			t.Fatalf("cycle %d: one lane moved %v, automatic %v", kernel.Of(one).Now(), kernel.Of(one).Moves(), am)
		}
	}
	if used[1] == 0 || used[2] == 0 {
		t.Fatalf("cycles on one lane %d, on two %d: the tuner did not try both", used[1], used[2])
	}
	if kernel.Of(one).FlitHops != kernel.Of(auto).FlitHops || kernel.Of(one).Violations.Total() != 0 {
		t.Fatalf("flit-hops %d vs %d, violations %+v", kernel.Of(one).FlitHops, kernel.Of(auto).FlitHops, kernel.Of(one).Violations)
	}
}

// TestTunerWatchesSpeed: between trials the tuner times the running
// arrangement, and when it slows down (here two lanes turning five times
// slower, on a clock that counts a set time per cycle) it tries again at
// once rather than at the next periodic trial, and moves to one lane; the
// change of choice brings the trials back to short intervals, so when two
// lanes turn fast again it returns to them soon.
func TestTunerWatchesSpeed(t *testing.T) {
	n, elapsed := clockedTuner(t)
	kernel.Of(n).Tune(func(tu *kernel.TunerKnobs) {
		tu.Window, tu.First, tu.Period, tu.MaxPeriod, tu.Watch = 16, 64, 64, 1<<30, 128
	})
	cost := [3]time.Duration{0, 2 * time.Microsecond, time.Microsecond} // by workers
	for i := range 3000 {
		n.Cycle()
		*elapsed += cost[kernel.Of(n).Workers()]
		switch i {
		case 1400:
			if kernel.Of(n).Workers() != 2 {
				t.Fatal("the tuner did not pick the faster two lanes")
			}
			cost[2] = 5 * cost[1] // the cores drift apart
		case 1800:
			if kernel.Of(n).Workers() != 1 {
				t.Fatalf("400 cycles after two lanes turned 5× slower the tuner still runs %d", kernel.Of(n).Workers())
			}
			cost[2] = cost[1] / 2 // and back
		}
	}
	if kernel.Of(n).Workers() != 2 {
		t.Fatal("1200 cycles after two lanes turned fast again the tuner still runs one")
	}
}

// clockedTuner builds the 8×8 mesh in automatic mode with a tuner whose
// clock reads *elapsed, which the test advances by what it says a cycle
// costs. (It skips the test on one processor: automatic mode then keeps one
// lane.)
func clockedTuner(t *testing.T) (*network.Network, *time.Duration) {
	t.Helper()
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: automatic mode uses one lane")
	}
	c := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3)
	c.Run.Workers = 0
	n := mustBuild(t, c)
	elapsed := new(time.Duration)
	kernel.Of(n).Tune(func(tu *kernel.TunerKnobs) { tu.Clock = func() time.Time { return time.Unix(0, 0).Add(*elapsed) } })
	return n, elapsed
}

// TestTunerEndsClearTrialsEarly: a trial whose first stretch on two lanes
// runs more than 1.5 times as long as its first on one ends there, for one
// lane, and mid-stretch once it has (two lanes 100 times slower, as with
// the other core busy: after its untimed first cycle and one more); a
// closer contest runs all its stretches.
func TestTunerEndsClearTrialsEarly(t *testing.T) {
	for _, tc := range []struct {
		slower  time.Duration // a two-lane cycle's time, one lane's being 10 µs
		twoRuns int           // cycles the first trial runs on two lanes
	}{{16 * time.Microsecond, 8}, {14 * time.Microsecond, 32}, {time.Millisecond, 2}} {
		n, elapsed := clockedTuner(t)
		kernel.Of(n).Tune(func(tu *kernel.TunerKnobs) {
			tu.Window, tu.First, tu.Period, tu.MaxPeriod, tu.Watch = 64, 1<<20, 1<<20, 1<<30, 1<<20 // stretches of 8 cycles
		})
		cost := [3]time.Duration{0, 10 * time.Microsecond, tc.slower}
		two, i := 0, 0
		for ; i < 100 && (i == 0 || kernel.Of(n).InTrial()); i++ {
			n.Cycle()
			*elapsed += cost[kernel.Of(n).Workers()]
			two += kernel.Of(n).Workers() - 1
		}
		if two != tc.twoRuns || kernel.Of(n).Workers() != 1 {
			t.Errorf("two lanes %v a cycle against one's 10 µs: the trial ran %d cycles on two lanes (want %d) and chose %d", tc.slower, two, tc.twoRuns, kernel.Of(n).Workers())
		}
	}
}

// TestLanesAlignedCut: a two-lane kernel starts its second lane on a bitset
// word of its own, behind a gap of ids that are no buffers (depth 0, never
// holding a flit), and is otherwise laid out as the one-lane kernel: the
// same buffers, in the same order, with the same switches and ports.
func TestLanesAlignedCut(t *testing.T) {
	gaps := 0
	for _, tc := range smallTopologies() {
		c := zeroLoadConfig(tc.t, "wormhole", bufCases[0], 1, 0, 4)
		c.Traffic.Load = 0.3
		c.Run = network.RunConfig{Warmup: 0, Measure: 500, Drain: 20000, Seed: 3, DeadlockCheck: 64, Workers: 1}
		one := mustBuild(t, c)
		c.Run.Workers = 2
		two := mustBuild(t, c)
		k := kernel.Of(two)
		if k.Workers() != 2 {
			continue // (not cut: nothing to align)
		}
		gapAt, gapLen, cutAt := k.Gap()
		if gapLen > 0 {
			gaps++
		}
		if cutAt%64 != 0 || cutAt != gapAt+gapLen {
			t.Fatalf("%s: cut %d, gap %d+%d", tc.name, cutAt, gapAt, gapLen)
		}
		for b := range kernel.Of(one).Buffers() {
			sw, port, out, src, depth := kernel.Of(one).BufferInfo(b)
			id := b
			if b >= gapAt {
				id += gapLen
			}
			sw2, port2, out2, src2, depth2 := k.BufferInfo(id)
			if sw != sw2 || port != port2 || out != out2 || src != src2 || depth != depth2 || depth == 0 {
				t.Fatalf("%s: buffer %d (%d on two lanes) differs", tc.name, b, id)
			}
		}
		for !two.Done() {
			two.Cycle()
			for b := gapAt; b < cutAt; b++ {
				if _, _, _, _, d := k.BufferInfo(b); d != 0 || k.Occupancy(b) != 0 || k.IsActive(b) {
					t.Fatalf("%s: gap id %d holds a flit or has depth %d", tc.name, b, d)
				}
			}
		}
	}
	if gaps == 0 {
		t.Fatal("no network was cut behind a gap")
	}
}

// TestListRunsSameOnTwoLanes: a run of listed packets (whose result lists
// each delivery, so settle reads the worm records rather than the lanes'
// copies) and a software-multicast run (whose driver sees each delivery)
// give the same result on one lane and on two.
func TestListRunsSameOnTwoLanes(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor")
	}
	listed := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 400 {
		listed.Traffic.Packets = append(listed.Traffic.Packets,
			fmt.Sprintf("%d,%d,%d,%d", i/2, rng.IntN(64), rng.IntN(64), 1+rng.IntN(6)))
	}
	listed.Run = network.RunConfig{Measure: 1, Drain: 20000, Seed: 1, DeadlockCheck: 256}
	soft := benchConfig(network.TopologyConfig{Kind: "hypercube", D: 8}, 0.1)
	soft.Traffic.Pattern, soft.Multicast.Scheme = "cluster", "umin"
	soft.Run = network.RunConfig{Warmup: 200, Measure: 2000, Drain: 20000, Seed: 2, DeadlockCheck: 256}
	for _, c := range []network.Config{listed, soft} {
		var out [2]string
		for i, w := range []int{1, 2} {
			c.Run.Workers = w
			n := mustBuild(t, c)
			if w == 2 && !kernel.Of(n).HasPair() {
				t.Fatal("the network was not cut in two lanes")
			}
			r, err := n.RunPlain()
			if err != nil {
				t.Fatal(err)
			}
			r.Config.Run.Workers = 0
			b, _ := json.Marshal(r)
			out[i] = string(b)
		}
		if out[0] != out[1] {
			t.Fatalf("%s: results differ:\none lane  %s\ntwo lanes %s", c.Topology.Kind, out[0], out[1])
		}
	}
}

// TestHooksSeeOneOrder: the Ejected and Delivered hooks see the same
// flits and packets in the same order whether a network runs on one lane or
// two (the lanes sink flits at once, but settle delivers in buffer order).
func TestHooksSeeOneOrder(t *testing.T) {
	type event struct {
		id        uint64
		term, seq int32
		cycle     int64
	}
	run := func(workers int, ejected bool) []event {
		c := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3)
		c.Run.Workers = workers
		n := mustBuild(t, c)
		var log []event
		if ejected {
			kernel.Of(n).Hooks.Ejected = func(w *flit.Worm, term int32, f flit.Flit, cycle int64) {
				log = append(log, event{w.ID, term, f.Seq, cycle})
			}
		}
		kernel.Of(n).Hooks.Delivered = func(w *flit.Worm, cycle int64) {
			log = append(log, event{w.ID, w.Dst, -1, cycle})
		}
		for range 2000 {
			n.Cycle()
		}
		return log
	}
	for _, ejected := range []bool{false, true} {
		one, two := run(1, ejected), run(2, ejected)
		if len(one) < 1000 || !slices.Equal(one, two) {
			t.Fatalf("Ejected hook %v: %d events on one lane, %d on two, or a different order", ejected, len(one), len(two))
		}
	}
}

// TestCrewSequenceWraps: the phase numbers the two threads exchange wrap
// after 2^30 phases; a run crossing the wrap goes on.
func TestCrewSequenceWraps(t *testing.T) {
	c := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3)
	c.Run.Workers = 2
	n := mustBuild(t, c)
	n.Cycle()
	kernel.Of(n).SetCrewSeq(kernel.SeqMask - 4)
	done := make(chan struct{})
	go func() {
		for range 10 {
			n.Cycle()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the kernel waits forever for its helper after the phase numbers wrap")
	}
	if kernel.Of(n).CrewSeq() >= kernel.SeqMask-4 {
		t.Fatalf("seq %d did not wrap", kernel.Of(n).CrewSeq())
	}
}

// TestCrewStopsWithItsNetwork: the second thread of a two-lane network ends
// once the network is garbage, so building many networks leaks nothing.
func TestCrewStopsWithItsNetwork(t *testing.T) {
	base := runtime.NumGoroutine()
	for range 3 {
		c := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3)
		c.Run.Workers = 2
		n := mustBuild(t, c)
		if kernel.Of(n).Workers() != 2 {
			t.Fatal("the 8×8 mesh was not cut in two lanes")
		}
		for range 100 {
			n.Cycle()
		}
	}
	for i := 0; i < 200 && runtime.NumGoroutine() > base; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > base {
		t.Fatalf("%d goroutines left running (%d before)", g, base)
	}
}

// sameMoves reports whether two cycles moved the flits of the same buffers.
// (The fast path lists the moves into terminals last, and the buffers that
// waited for a full destination's answer last of the others; the order of
// moves changes nothing but the order of ejections, which it keeps, as the
// identical results show.)
// mustBuild builds c, failing the test on an error.
func mustBuild(t testing.TB, c network.Config) *network.Network {
	t.Helper()
	n, err := network.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func sameMoves(a, b []int32) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// TestPresamplingKeepsRun: on two lanes the main thread draws the next
// cycle's traffic while it waits for the helper (presample.go); the run is
// the one-lane run, draw for draw, with routers that draw per packet too,
// and when something else draws from the kernel's source between cycles
// (then the draws are dropped).
func TestPresamplingKeepsRun(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor")
	}
	run := network.RunConfig{Warmup: 200, Measure: 2000, Drain: 20000, Seed: 3, DeadlockCheck: 256}
	mesh := benchConfig(network.TopologyConfig{Kind: "mesh", K: 8, N: 2}, 0.3)
	cube := benchConfig(network.TopologyConfig{Kind: "hypercube", D: 7}, 0.3)
	cube.Routing = "ecube-random" // Init draws a start dimension per packet
	esmin := benchConfig(network.TopologyConfig{Kind: "esmin", K: 2, N: 6, Dims: network.IntList{1, 2, 3, 4, 5, 1, 0}, Path: "random"}, 0.2)
	esmin.Buffers = network.BufferConfig{Output: 1}
	for _, c := range []network.Config{mesh, cube, esmin} {
		c.Run = run
		for _, foreign := range []bool{false, true} {
			var out [2]string
			for i, w := range []int{1, 2} {
				c.Run.Workers = w
				n := mustBuild(t, c)
				for !n.Done() {
					n.Cycle()
					if foreign && kernel.Of(n).Now()%5 == 0 {
						kernel.Of(n).Rand().Uint64()
					}
				}
				if w == 2 {
					switch used, dropped, ok := kernel.Of(n).Presampled(); {
					case !ok || !kernel.Of(n).HasPair():
						t.Fatalf("%s: no presampling on two lanes", c.Topology.Kind)
					case used == 0, foreign && dropped < used/10:
						t.Fatalf("%s foreign=%v: %d cycles from draws made ahead, %d dropped", c.Topology.Kind, foreign, used, dropped)
					}
				}
				r := n.Result()
				r.Config.Run.Workers = 0
				b, _ := json.Marshal(r)
				out[i] = string(b)
			}
			if out[0] != out[1] {
				t.Fatalf("%s foreign=%v: results differ:\none lane  %s\ntwo lanes %s", c.Topology.Kind, foreign, out[0], out[1])
			}
		}
	}
}

// TestTunerIgnoresSlowOneLane: running on one lane, a slowdown (the machine
// busy) starts no trial before the periodic one: a second thread would only
// be slower still.
func TestTunerIgnoresSlowOneLane(t *testing.T) {
	n, elapsed := clockedTuner(t)
	kernel.Of(n).Tune(func(tu *kernel.TunerKnobs) {
		tu.Window, tu.First, tu.Period, tu.MaxPeriod, tu.Watch = 16, 1<<20, 1<<20, 1<<30, 128
	})
	cost := [3]time.Duration{0, time.Microsecond, 2 * time.Microsecond} // two lanes slower
	two := 0
	for i := range 3000 {
		n.Cycle()
		*elapsed += cost[kernel.Of(n).Workers()]
		if i > 100 {
			two += kernel.Of(n).Workers() - 1
		}
		if i == 200 {
			// The machine turns busy: one lane is 5 times slower, two
			// lanes, handing over at scheduler slices, 250 times.
			cost[1], cost[2] = 5*time.Microsecond, 500*time.Microsecond
		}
	}
	if two != 0 {
		t.Errorf("one lane slowed down: %d cycles on two lanes before the periodic trial", two)
	}
}

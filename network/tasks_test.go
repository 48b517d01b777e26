package network

import (
	"math"
	"slices"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/traffic"
)

// taskConfig is fig5_1.yaml's experiment (Chiang §5.1), built in code.
func taskConfig(pattern, clusters string, size int, ratio float64) Config {
	c := Default()
	c.Topology = TopologyConfig{Kind: "cube", K: 4, N: 3}
	c.Buffers = BufferConfig{Input: 0, Output: 1}
	c.Arbiter = "clock"
	c.Multicast = MulticastConfig{Scheme: "hardware", Worm: "sync", Encoding: "single"}
	c.Traffic.Pattern, c.Traffic.Clusters, c.Traffic.ClusterSize, c.Traffic.Ratio = pattern, clusters, size, ratio
	c.Traffic.Flits = FlitRange{32, 96}
	c.Run.Warmup, c.Run.Measure, c.Run.Drain = 1000, 6000, 40000
	return c
}

// recTasks records the multicasts a task workload hands the network.
type recTasks struct {
	traffic.TaskWorkload
	e        traffic.MulticastEmitter
	sets     map[int][]int // node → its multicasts' source ∪ destinations
	inFlight map[int]int   // node → its task's multicasts in flight
	most     int
}

func (r *recTasks) Generate(now int64, e traffic.Emitter) {
	r.e = e.(traffic.MulticastEmitter)
	r.TaskWorkload.Generate(now, r)
}
func (r *recTasks) Emit(src, dst, flits int) { r.EmitMulticast(src, []int{dst}, flits) }
func (r *recTasks) EmitMulticast(src int, dsts []int, flits int) {
	set := slices.Sorted(slices.Values(append([]int{src}, dsts...)))
	for _, v := range set {
		if old, ok := r.sets[v]; ok && !slices.Equal(old, set) {
			panic("a node multicast to two different clusters")
		}
		r.sets[v] = set
	}
	r.inFlight[set[0]]++
	r.most = max(r.most, r.inFlight[set[0]])
	r.e.EmitMulticast(src, dsts, flits)
}

// On the simulated cube MIN every task multicasts only inside its cluster,
// the clusters are placed as traffic.clusters says, and a blocking task
// never has two multicasts in the network.
func TestTasksOnTheHardware(t *testing.T) {
	for _, pattern := range []string{traffic.BlockingMulticast, traffic.NonBlockingMulticast} {
		for _, clusters := range []string{"cube", "cube-minus-one", "random"} {
			n, err := Build(taskConfig(pattern, clusters, 8, 0.4))
			if err != nil {
				t.Fatal(err)
			}
			rec := &recTasks{TaskWorkload: n.gen.(traffic.TaskWorkload), sets: map[int][]int{}, inFlight: map[int]int{}}
			n.gen = rec
			n.k.Stats().OnDelivered(func(w *flit.Worm, arrive int64) {
				rec.inFlight[rec.sets[int(w.Src)][0]]--
				rec.Delivered(int(w.Src), arrive)
			})
			r, err := n.RunPlain()
			// (non-blocking random tasks saturate at R = 0.4: Fig 5.11)
			if err != nil || r.Status != StatusOK && !(r.Status == StatusSaturated && pattern == traffic.NonBlockingMulticast) {
				t.Fatalf("%s %s: %v %v", pattern, clusters, err, r.Status)
			}
			var sets [][]int
			for v := range 64 {
				if s := rec.sets[v]; len(s) != 8 || !slices.Contains(s, v) {
					t.Fatalf("%s %s: node %d's cluster %v", pattern, clusters, v, s)
				} else if s[0] == v {
					sets = append(sets, s)
				}
			}
			for _, s := range sets {
				per := map[int]int{} // cube → members in it
				for _, v := range s {
					per[v/8]++
				}
				most := 0
				for _, k := range per {
					most = max(most, k)
				}
				// (a random 8-set has 7 in one cube with probability ~1e-6)
				if want := map[string]int{"cube": 8, "cube-minus-one": 7}[clusters]; most != want && (want > 0 || most >= 7) {
					t.Errorf("%s %s: cluster %v has %d nodes in one base cube", pattern, clusters, s, most)
				}
			}
			if blocking := pattern == traffic.BlockingMulticast; blocking && rec.most != 1 || !blocking && rec.most < 2 {
				t.Errorf("%s %s: at most %d multicasts of a task in the network", pattern, clusters, rec.most)
			}
		}
	}
}

// A blocking task computes 1 − R of the time without contention: on cube
// tasks the system utilisation is 1 − R less the few cycles per message
// that the pipeline adds (Chiang: 69 % against the optimum 70 % at
// R = 0.3), and a blocking software multicast (U-min: three unicast steps
// in an 8-node task) leaves the tasks less time to compute.
func TestBlockingUtilisation(t *testing.T) {
	for _, ratio := range []float64{0.1, 0.3, 0.6} {
		r, err := Run(taskConfig(traffic.BlockingMulticast, "cube", 8, ratio))
		if err != nil || r.SystemUtilization == nil {
			t.Fatal(err, r.SystemUtilization)
		}
		// Per message: compute 64(1 − R)/R, communicate 64 + ~4 cycles.
		comp := 64 * (1 - ratio) / ratio
		lo, hi := comp/(comp+64+8), 1-ratio
		if u := *r.SystemUtilization; u < lo || u > hi || math.IsNaN(u) {
			t.Errorf("R = %g: utilisation %.4f, want %.4f to %.4f", ratio, u, lo, hi)
		}
	}
	c := taskConfig(traffic.BlockingMulticast, "cube", 8, 0.3)
	hw, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	c.Multicast.Scheme = "umin"
	sw, err := Run(c)
	if err != nil || sw.SystemUtilization == nil || sw.Status != StatusOK {
		t.Fatal(err, sw)
	}
	if *sw.SystemUtilization >= *hw.SystemUtilization-0.1 {
		t.Errorf("U-min utilisation %.3f, hardware %.3f: software should leave much less", *sw.SystemUtilization, *hw.SystemUtilization)
	}
}

// BenchmarkBlockingTasks: Fig 5.1's random placement at R = 0.5 (1000 +
// 6000 cycles, ~1000 multicasts to 7 nodes each), simulated cycles per
// second reported.
//
//	go test ./network -run '^$' -bench BlockingTasks
func BenchmarkBlockingTasks(b *testing.B) {
	c := taskConfig(traffic.BlockingMulticast, "random", 8, 0.5)
	var cycles int64
	for b.Loop() {
		r, err := Run(c)
		if err != nil {
			b.Fatal(err)
		}
		cycles += r.Cycles
	}
	b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
}

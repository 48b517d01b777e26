package trace

import (
	"github.com/flitsim/flitsim/internal/kernel"
	"os"
	"os/exec"
	"testing"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"
)

// smallMesh is a 4×4 wormhole mesh with uniform traffic, measured from cycle
// 0 (so the links' flit counters cover the whole run).
func smallMesh() network.Config {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "mesh", K: 4, N: 2}
	c.Traffic.Load = 0.25
	c.Traffic.Flits = network.FlitRange{Min: 2, Max: 5}
	c.Run = network.RunConfig{Warmup: 0, Measure: 200, Drain: 2000, Seed: 3, DeadlockCheck: 64}
	return c
}

// chiangMIN is a 16-node cube MIN with Chiang's one-flit output buffers and
// some multicasts (asynchronous replicating worms).
func chiangMIN() network.Config {
	c := network.Default()
	c.Topology = network.TopologyConfig{Kind: "cube", K: 2, N: 4}
	c.Buffers = network.BufferConfig{Output: 1}
	c.Traffic.Packets = []string{
		"0,2,0 4 8 12,6", "0,5,9,4", "3,7,1 2 3,5", "4,11,6,3", "10,1,15,8", "12,0,13 14,4", "20,9,1,2",
	}
	c.Run = network.RunConfig{Warmup: 0, Measure: 1, Drain: 2000, Seed: 1, DeadlockCheck: 64}
	return c
}

// run builds c, attaches the tracers and runs it to the end.
func runNet(t *testing.T, c network.Config, attach func(n *network.Network) []network.Tracer) (*network.Network, *network.Result) {
	t.Helper()
	n, err := network.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	kernel.Of(n).SetTracer(Multi(attach(n)))
	res, err := n.RunPlain()
	if err != nil {
		t.Fatal(err)
	}
	if v := kernel.Of(n).Violations.Total(); v != 0 {
		t.Fatalf("violations %+v", kernel.Of(n).Violations)
	}
	return n, res
}

// rec is one flit on a channel.
type rec struct {
	cycle  int64
	worm   uint64
	seq    int32
	kind   flit.Kind
	from   int32
	to     int32
	ready  int64
	sample bool
}

// recorder remembers every move per channel, and the occupancy of every
// buffer at the end of each cycle.
type recorder struct {
	k     *kernel.Kernel
	moves map[int32][]rec    // per channel, one per cycle (copies merged)
	all   []rec              // every move
	occ   map[int64][]int    // per cycle
	own   map[int64][]uint64 // per cycle: owner serial, 0 for none
	srcs  map[int64]map[int32]uint8
}

func newRecorder(k *kernel.Kernel) *recorder {
	return &recorder{k: k, moves: map[int32][]rec{}, occ: map[int64][]int{}, own: map[int64][]uint64{}}
}

func (r *recorder) Granted(int64, int32, int32, int32, xbar.PortSet) {}
func (r *recorder) Blocked(int64, flit.Flit, int32, network.Wait, int32, int32) {
}
func (r *recorder) Delivered(int64, *flit.Worm, int32, int32) {}

func (r *recorder) Move(cycle int64, f flit.Flit, from, to, ch int32, ready int64) {
	m := rec{cycle: cycle, worm: r.k.Pool.Worms[f.Worm].ID, seq: f.Seq, kind: f.Kind, from: from, to: to, ready: ready}
	r.all = append(r.all, m)
	if ch < 0 {
		return
	}
	l := r.moves[ch]
	if n := len(l); n > 0 && l[n-1].cycle == cycle {
		return
	}
	r.moves[ch] = append(l, m)
}

func (r *recorder) EndCycle(cycle int64) {
	o := make([]int, r.k.Buffers())
	w := make([]uint64, r.k.Buffers())
	for b := range o {
		o[b] = r.k.Occupancy(int32(b))
		if i := r.k.Owner(int32(b)); i >= 0 {
			w[b] = r.k.Pool.Worms[i].ID
		}
	}
	r.occ[cycle], r.own[cycle] = o, w
}

// gtkwaveTool returns the path of one of GTKWave's command-line tools. The
// tests that need one skip on a machine without Debian's gtkwave, and fail
// in CI (CI=true), where .ci/run installs it.
func gtkwaveTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing in CI (.ci/run installs Debian's gtkwave)", name)
		}
		t.Skipf("%s not installed (apt-get install gtkwave)", name)
	}
	return p
}

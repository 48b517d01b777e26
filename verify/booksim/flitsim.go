package booksim

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/flitsim/flitsim/configs"
	"github.com/flitsim/flitsim/network"
)

// Flitsim is flitsim's side of the comparison: the embedded default
// configuration with Sets applied (FlitsimSets of a runfile, then any
// overrides), run on one thread (run.workers: 1) like BookSim.
type Flitsim struct {
	Sets []string
}

// FlitsimFor is flitsim's side for a BookSim runfile.
func FlitsimFor(runfile string) (Flitsim, error) {
	opts, err := ReadRunfile(runfile)
	if err != nil {
		return Flitsim{}, err
	}
	sets, err := FlitsimSets(opts)
	if err != nil {
		return Flitsim{}, fmt.Errorf("%s: %v", runfile, err)
	}
	return Flitsim{Sets: sets}, nil
}

// FlitsimRun is one flitsim run in BookSim's vocabulary.
type FlitsimRun struct {
	Point
	NetworkLatency float64
	Cycles         int64
	CPU            time.Duration // CPU time of this process during the run
	Status         string
}

// CyclesPerSecond is simulated cycles per CPU second.
func (r FlitsimRun) CyclesPerSecond() float64 {
	if r.CPU <= 0 {
		return 0
	}
	return float64(r.Cycles) / r.CPU.Seconds()
}

// Run runs flitsim at an offered load (flits/node/cycle) and seed. A run
// counts as unstable, as BookSim's would, when it did not finish its
// measured packets: a deadlock, a stall, the backlog limit, or measured
// packets left undelivered (flitsim's saturated verdict by confidence
// interval alone is not instability: the latency rule judges those loads).
func (f Flitsim) Run(rate float64, seed int) (FlitsimRun, error) {
	sets := append(slices.Clone(f.Sets), "traffic.load="+strconv.FormatFloat(rate, 'g', -1, 64),
		"run.seed="+strconv.Itoa(seed), "run.workers=1")
	cfg, err := configs.Load("", sets)
	if err != nil {
		return FlitsimRun{}, err
	}
	t0 := cpuTime()
	r, err := network.Run(cfg)
	cpu := cpuTime() - t0
	if err != nil {
		return FlitsimRun{}, err
	}
	return FlitsimRun{
		Point: Point{Offered: rate, PacketLatency: r.Latency.Mean, Accepted: r.Throughput,
			Unstable: r.Deadlock != nil || r.Stall != nil || r.BacklogStop != nil || r.Incomplete},
		NetworkLatency: r.NetworkLatency.Mean, Cycles: r.Cycles, CPU: cpu, Status: r.Status,
	}, nil
}

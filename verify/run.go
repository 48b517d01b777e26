package verify

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/topology"

	"github.com/flitsim/flitsim/network"
)

// Test seams: the way claims run the simulator, so tests can make it fall
// short (deliver too little, or never go idle) without breaking the
// simulator itself.
var (
	// simulate runs one whole experiment (stopped by RunStop's flag).
	simulate = simulateStoppable
	// step advances a kernel that a claim drives cycle by cycle.
	step = (*kernel.Kernel).Step
)

// stopFlag is the stop flag of the claims running (RunStop), nil if none.
var stopFlag atomic.Pointer[atomic.Bool]

// ErrInterrupted is the error of a simulation stopped by RunStop's flag.
var ErrInterrupted = errors.New("interrupted")

// simulateStoppable is network.Run, stopped at the end of a cycle by
// RunStop's flag: a batch of experiments (Brebner's) then ends with its
// experiment running, within a cycle.
func simulateStoppable(c network.Config) (*network.Result, error) {
	n, err := network.Build(c)
	if err != nil {
		return nil, err
	}
	if stop := stopFlag.Load(); stop != nil {
		n.StopOn(stop)
	}
	r, err := n.RunAkita()
	if err == nil && r.Status == network.StatusInterrupted {
		return nil, ErrInterrupted
	}
	return r, err
}

// delivered checks that a run delivered every packet it measured and ended
// by itself: otherwise its figures come from part of the traffic (the
// rest stuck behind a deadlock, a stall or the drain limit), and the claim
// fails with ErrShortfall.
func delivered(what string, r *network.Result) error {
	switch {
	case r.Deadlock != nil:
		return fmt.Errorf("%s: deadlock at cycle %d: %w", what, r.Deadlock.Cycle, ErrShortfall)
	case r.Stall != nil:
		return fmt.Errorf("%s: stalled at cycle %d (no flit moved since cycle %d): %w", what, r.Stall.Cycle, r.Stall.Since, ErrShortfall)
	case r.Incomplete || r.MeasuredDelivered < r.MeasuredPackets:
		return fmt.Errorf("%s: %d of %d measured packets delivered by cycle %d: %w",
			what, r.MeasuredDelivered, r.MeasuredPackets, r.Cycles, ErrShortfall)
	case r.MeasuredPackets == 0 || r.Latency.Count == 0:
		return fmt.Errorf("%s: no packet measured: %w", what, ErrShortfall)
	case r.Violations.Total() > 0:
		return fmt.Errorf("%s: %d simulator invariant violations: %w", what, r.Violations.Total(), ErrShortfall)
	}
	return nil
}

// drain steps k until it is idle, at most limit cycles: a simulator that
// starves a packet would otherwise loop forever. want is the number of
// packets that must have been delivered when it is idle (got counts them);
// each, if not nil, runs after every cycle.
func drain(k *kernel.Kernel, limit int64, what string, got *int, want int, each func()) error {
	for i := int64(0); !k.Idle(); i++ {
		if i == limit {
			return fmt.Errorf("%s: network not idle after %d cycles, %d of %d packets delivered: %w",
				what, limit, *got, want, ErrShortfall)
		}
		if stop := stopFlag.Load(); stop != nil && stop.Load() {
			return fmt.Errorf("%s: %w", what, ErrInterrupted)
		}
		step(k)
		if each != nil {
			each()
		}
		if k.Deadlock != nil {
			return fmt.Errorf("%s: deadlock at cycle %d: %w", what, k.Deadlock.Cycle, ErrShortfall)
		}
	}
	if *got != want {
		return fmt.Errorf("%s: %d of %d packets delivered: %w", what, *got, want, ErrShortfall)
	}
	return nil
}

// runCollective is collective.Run, stopped at the end of a slot by
// RunStop's flag (ErrInterrupted).
func runCollective(spec topology.Spec, task string, params map[string]string, seed uint64) (*collective.Result, error) {
	r, err := collective.RunWith(spec, task, params, seed, collective.Options{Stop: stopFlag.Load()})
	return r, collectiveErr(err)
}

// runDynamic is collective.RunDynamic, stopped at the end of a period by
// RunStop's flag (ErrInterrupted).
func runDynamic(spec topology.Spec, params map[string]string, seed uint64) (*collective.DynResult, error) {
	r, err := collective.RunDynamicWith(spec, params, seed, collective.Options{Stop: stopFlag.Load()})
	return r, collectiveErr(err)
}

// collectiveErr marks a collective run's interrupt as ErrInterrupted.
func collectiveErr(err error) error {
	var in *collective.Interrupted
	if errors.As(err, &in) {
		return fmt.Errorf("%v: %w", err, ErrInterrupted)
	}
	return err
}

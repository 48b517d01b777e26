package main

import (
	"errors"
	"fmt"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/network/collective"
	"github.com/flitsim/flitsim/network/trace"
	"github.com/spf13/pflag"
)

// collectiveTraces are `flitsim collective`'s trace outputs: the run
// command's flags and writers (openTraces), attached to the scheduled
// packet router a task builds, before its packets are loaded.
type collectiveTraces struct {
	t        *traceFlags
	activity bool // run.router_activity: the VCD's switch signals
	outs     []traceOutput
	attached bool
}

// options are the collective run's options: the traces (when asked for)
// and the user's interrupt.
func (c *collectiveTraces) options() collective.Options {
	o := collective.Options{Stop: &stopRequested}
	if c.t.on() {
		o.Attach = c.attach
	}
	return o
}

// attach opens the trace files on k, the task's router.
func (c *collectiveTraces) attach(k *kernel.Kernel) (kernel.Tracer, error) {
	if c.attached { // (a task traces one run; a dynamic sweep is refused before)
		return nil, fmt.Errorf("collective: a second run asked for the trace files")
	}
	c.attached = true
	outs, tr, err := openTraces(k, c.t, c.activity)
	c.outs = outs
	return tr, err
}

// close completes the trace files after the run (run: its error). A run
// refused for its input (before its first slot) leaves no trace files; a
// trace that cannot be completed fails the command.
func (c *collectiveTraces) close(run error) error {
	outs := c.outs
	c.outs = nil
	var ie *inputerr.Error
	if errors.As(run, &ie) {
		for _, o := range outs { // (not the writers' Close: no GTKWave files)
			o.f.Abort()
		}
		return run
	}
	cerr := closeTraceOutputs(outs)
	if run != nil {
		return c.runError(run)
	}
	return cerr
}

// runError says what a collective run's error means for the command: an
// interrupt exits with status 130 once the traces are complete, and a
// trace the hardware cannot give names the trace flag.
func (c *collectiveTraces) runError(err error) error {
	var in *collective.Interrupted
	if errors.As(err, &in) {
		what := ""
		if c.t.on() {
			what = "; the traces are complete up to there"
		}
		return interruptedError("%v%s", err, what)
	}
	var un *collective.Untraced
	if errors.As(err, &un) {
		return fmt.Errorf("--%s: task.hardware=%s %s", c.t.first(), un.Hardware, un.Why)
	}
	return err
}

// checkCollective is check (the run command's) for a collective, whose
// nodes hold their packets in no queue order: the per-router timeline,
// which follows each buffer's front, does not apply.
func (t *traceFlags) checkCollective(fs *pflag.FlagSet) error {
	if err := t.check(fs); err != nil {
		return err
	}
	if m, _ := trace.ParseTracks(t.tracks); t.perfetto != "" && m == trace.TracksRouter {
		return inputerr.New("--trace-perfetto-tracks", t.tracks, "worm or link for a collective (a node sends the packets it holds in its schedule's order, not from a queue's front)")
	}
	return nil
}

// first is the first trace output flag given (without its dashes).
func (t *traceFlags) first() string {
	switch {
	case t.vcd != "":
		return "trace-vcd"
	case t.events != "":
		return "trace-events"
	}
	return "trace-perfetto"
}

package main

import (
	"fmt"
	"io"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/spf13/pflag"

	"github.com/flitsim/flitsim/internal/kernel"
	"github.com/flitsim/flitsim/internal/outfile"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/sweep"
	"github.com/flitsim/flitsim/network/trace"
)

// traceFlags are `flitsim run`'s cycle-trace outputs and their limits.
type traceFlags struct {
	vcd, events, perfetto string
	tracks                string
	window, only          string
}

func addTraceFlags(fs *pflag.FlagSet) *traceFlags {
	t := &traceFlags{}
	fs.StringVar(&t.vcd, "trace-vcd", "", "write a value change dump to `FILE.vcd`, and FILE.gtkw (GTKWave: gtkwave FILE.gtkw) with its filters")
	fs.StringVar(&t.events, "trace-events", "", "write every move, block, grant and delivery to `FILE.csv` or FILE.jsonl")
	fs.StringVar(&t.perfetto, "trace-perfetto", "", "write a timeline (Perfetto UI, chrome://tracing) to `FILE.json`")
	fs.StringVar(&t.tracks, "trace-perfetto-tracks", "worm", "timeline tracks: one per `worm`, per router (its buffers) or per link")
	fs.SetAnnotation("trace-perfetto-tracks", valuesAnnotation, trace.TrackModes)
	fs.StringVar(&t.window, "trace-window", "", "trace only cycles `A:B` (A ≤ cycle < B; A: or :B for open ends)")
	fs.StringVar(&t.only, "trace-only", "", "trace only the switches and terminals whose labels match a comma list of globs `PATTERN` (e.g. s1,*,t3 or r(0,*))")
	return t
}

func (t *traceFlags) on() bool { return t.vcd != "" || t.events != "" || t.perfetto != "" }

// check validates the flags before anything runs (whether their files
// clash with other files is checked with the command's other files, see
// register).
func (t *traceFlags) check(fs *pflag.FlagSet) error {
	if t.perfetto == "" && fs.Changed("trace-perfetto-tracks") {
		return fmt.Errorf("--trace-perfetto-tracks: needs --trace-perfetto")
	}
	if _, err := trace.ParseTracks(t.tracks); err != nil {
		return err
	}
	if !t.on() {
		for _, f := range []string{"trace-window", "trace-only"} {
			if fs.Changed(f) {
				return fmt.Errorf("--%s: needs --trace-vcd, --trace-events or --trace-perfetto", f)
			}
		}
		return nil
	}
	if t.window != "" {
		if _, err := trace.ParseWindow(t.window); err != nil {
			return err
		}
	}
	if t.events != "" {
		if _, err := trace.EventFormatOf(t.events); err != nil {
			return err
		}
	}
	return nil
}

// runTraced attaches the requested trace writers to the built network n
// and runs it like `flitsim run` does (Akita's engine, a progress bar on a
// terminal). The traces are closed (completed and flushed) even when the run fails.
func runTraced(n *network.Network, t *traceFlags) (res *network.Result, err error) {
	c := n.Cfg
	startRun(n)
	var outs []traceOutput
	defer func() {
		// A trace file that cannot be completed fails the run.
		if cerr := closeTraceOutputs(outs); cerr != nil && err == nil {
			res, err = nil, cerr
		}
	}()
	k := kernel.Of(n)
	outs, tr, err := openTraces(k, t, c.Run.RouterActivity)
	if err != nil {
		return nil, err
	}
	n.SetTracer(tr)
	p := newProgress("simulating (tracing)", sweep.Expected(c), "cycles")
	if p == nil {
		return n.RunAkitaHooked()
	}
	defer p.finish()
	return n.RunAkitaHooked(&cycleHook{k: k, p: p, next: sweep.ObserveEvery})
}

// openTraces creates the trace files t asks for, with their writers on
// kernel k (activity: run.router_activity's switch signals in the VCD),
// and returns them with the tracer that feeds them all. The outputs, also
// those opened before an error, are the caller's to close
// (closeTraceOutputs). Every command with trace flags calls it.
func openTraces(k *kernel.Kernel, t *traceFlags, activity bool) ([]traceOutput, network.Tracer, error) {
	o := trace.Options{Only: t.only, Activity: activity}
	if t.window != "" {
		var err error
		if o.Window, err = trace.ParseWindow(t.window); err != nil {
			return nil, nil, err
		}
	}
	outs, err := openTraceOutputs(k, t, o)
	if err != nil {
		return outs, nil, err
	}
	if len(outs) == 1 {
		return outs, outs[0].w, nil
	}
	m := make(trace.Multi, len(outs))
	for i, o := range outs {
		m[i] = o.w
	}
	return outs, m, nil
}

// traceOutput is one trace file being written: the flag that asked for it,
// its writer and the file under it.
type traceOutput struct {
	flag string
	w    trace.Writer
	f    *outfile.File
}

// openTraceOutputs creates the trace files t asks for and their writers on
// kernel k. On an error it returns the outputs opened so far with it, for the
// caller to close.
func openTraceOutputs(k *kernel.Kernel, t *traceFlags, o trace.Options) ([]traceOutput, error) {
	var outs []traceOutput
	for _, w := range []struct {
		flag, name string
		mk         func(w io.Writer) (trace.Writer, error)
	}{
		{"trace-vcd", t.vcd, func(w io.Writer) (trace.Writer, error) {
			if trace.IsSlotted(k) {
				return trace.NewSlottedVCD(w, k, o)
			}
			v, err := trace.NewVCD(w, k, o)
			return &vcdWithSave{v, t.vcd}, err
		}},
		{"trace-events", t.events, func(w io.Writer) (trace.Writer, error) {
			ft, err := trace.EventFormatOf(t.events)
			if err != nil {
				return nil, err
			}
			if trace.IsSlotted(k) {
				return trace.NewSlottedEvents(w, k, ft, o)
			}
			return trace.NewEvents(w, k, ft, o)
		}},
		{"trace-perfetto", t.perfetto, func(w io.Writer) (trace.Writer, error) {
			mode, err := trace.ParseTracks(t.tracks)
			if err != nil {
				return nil, err
			}
			if trace.IsSlotted(k) {
				return trace.NewSlottedTimeline(w, k, mode, o)
			}
			return trace.NewTimeline(w, k, mode, o)
		}},
	} {
		if w.name == "" {
			continue
		}
		out, err := openTraceOutput(w.flag, w.name, w.mk)
		if err != nil {
			return outs, err
		}
		outs = append(outs, out)
	}
	return outs, nil
}

// openTraceOutput starts file name (written whole when closed, see
// outfile) and the writer mk makes on it; when mk fails the file is
// dropped.
func openTraceOutput(flag, name string, mk func(w io.Writer) (trace.Writer, error)) (traceOutput, error) {
	f, err := outfile.Create(name)
	if err != nil {
		return traceOutput{}, fmt.Errorf("--%s: %v", flag, err)
	}
	w, err := mk(f)
	if err != nil {
		f.Abort()
		return traceOutput{}, err
	}
	return traceOutput{flag, w, f}, nil
}

// closeTraceOutputs completes every writer and puts its file in place, and
// returns the first error, naming the flag and the file. A trace that
// cannot be completed is dropped: its file keeps what it held before.
func closeTraceOutputs(outs []traceOutput) error {
	var first error
	for _, o := range outs {
		cerr := o.w.Close()
		if cerr != nil {
			o.f.Abort()
		} else {
			cerr = o.f.Commit()
		}
		if cerr != nil && first == nil {
			first = fmt.Errorf("--%s: %s: %v", o.flag, o.f.Name(), cerr)
		}
	}
	return first
}

// cycleHook moves a progress bar as the engine advances.
type cycleHook struct {
	k    *kernel.Kernel
	p    *progress
	next int64
}

func (h *cycleHook) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosAfterEvent {
		return
	}
	if now := h.k.Now(); now >= h.next {
		h.next = now + sweep.ObserveEvery
		h.p.set(now)
	}
}

// vcdWithSave writes the GTKWave save file and translate filters beside the
// dump when the dump is complete.
type vcdWithSave struct {
	*trace.VCD
	path string
}

func (v *vcdWithSave) Close() error {
	if err := v.VCD.Close(); err != nil {
		return err
	}
	_, err := v.SaveFiles(v.path)
	return err
}

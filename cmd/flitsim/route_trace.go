package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/flitsim/flitsim/internal/outfile"
	"github.com/flitsim/flitsim/network/han"
	"github.com/flitsim/flitsim/network/trace"
	"github.com/spf13/pflag"
)

// routeTraces are `flitsim route`'s trace files, named as run's flags are:
// the event log (CSV, han.EventLogHeader), a VCD and a Perfetto timeline
// of the lock-step mesh (network/trace's lock-step writers).
type routeTraces struct{ events, vcd, perfetto string }

func addRouteTraceFlags(fs *pflag.FlagSet) *routeTraces {
	t := &routeTraces{}
	fs.StringVar(&t.events, "trace-events", "", "write every step's messages to `F.csv` (step, kind, stage, phase, sender, receiver, message, value, pool)")
	fs.StringVar(&t.vcd, "trace-vcd", "", "write a value change dump to `F.vcd`: every processor's pool and every message's place, step by step, phases marked")
	fs.StringVar(&t.perfetto, "trace-perfetto", "", "write a timeline (Perfetto UI, chrome://tracing) to `F.json`: phases, pools, a track per message")
	return t
}

// register adds the trace files to the command's outputs.
func (t *routeTraces) register(s *outfile.Set) {
	s.Output("--trace-events", t.events)
	s.Output("--trace-vcd", t.vcd)
	s.Output("--trace-perfetto", t.perfetto)
}

// routeLogged runs route with the traces t asks for, kept when the machine
// refused a step (they show the steps up to it). A refused step exits 3
// on pools smaller than the algorithm needs (small), else 70: the
// built-in algorithm is wrong.
func routeLogged(t *routeTraces, small bool, route func(io.Writer) (*han.Result, error)) (*han.Result, error) {
	var files []*outfile.File
	var flags []string
	tr := &han.Trace{}
	for _, o := range []struct {
		flag, path string
		add        func(io.Writer)
	}{
		{"--trace-events", t.events, func(w io.Writer) { tr.Events = w }},
		{"--trace-vcd", t.vcd, func(w io.Writer) { tr.Observers = append(tr.Observers, trace.NewLockstepVCD(w)) }},
		{"--trace-perfetto", t.perfetto, func(w io.Writer) { tr.Observers = append(tr.Observers, trace.NewLockstepTimeline(w)) }},
	} {
		if o.path == "" {
			continue
		}
		f, err := outfile.Create(o.path)
		if err != nil {
			for _, f := range files {
				f.Abort()
			}
			return nil, fmt.Errorf("%s: %v", o.flag, err)
		}
		files, flags = append(files, f), append(flags, o.flag)
		o.add(f)
	}
	var log io.Writer
	if len(files) > 0 {
		log = tr
	}
	r, err := route(log)
	for i, f := range files {
		if cerr := f.Commit(); err == nil && cerr != nil {
			return nil, fmt.Errorf("%s: %v", flags[i], cerr)
		}
	}
	var ref *han.Refusal
	switch {
	case errors.As(err, &ref) && small:
		return nil, &exitError{exitDeadlock, err}
	case err != nil:
		return nil, &exitError{exitInternal, err}
	}
	return r, nil
}

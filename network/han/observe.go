package han

import (
	"errors"
	"io"
)

// Observers follow a routing step by step: the trace writers (network/trace's
// VCD and timeline) see the machine itself after every committed step, not
// the CSV event log's text. A routing is given them as its log writer, a
// *Trace, so that the runners keep one log parameter.

// Observer is told about a routing's machine: Start once, loaded, before the
// first step; Step after every step the machine commits (data: moves, with
// a copy's new id in New; integer: sends); Close after the last.
type Observer interface {
	Start(m *Machine)
	Step(m *Machine, kind string, moves []Move, sends []IntSend)
	Close() error
}

// Trace is a routing's log with observers: Events (nil: none) gets the CSV
// event log (EventLogHeader), every observer the steps. It is an
// io.Writer only to pass where the runners take their log.
type Trace struct {
	Events    io.Writer
	Observers []Observer
}

// Write writes to the CSV event log.
func (t *Trace) Write(b []byte) (int, error) {
	if t.Events == nil {
		return 0, errors.New("han: a Trace without an event log written to")
	}
	return t.Events.Write(b)
}

// attach makes m report its steps to t's event log and observers; the
// returned function completes them all (the first error).
func (m *Machine) attach(t *Trace) (flush func() error) {
	var logs []func(string, []Move, []IntSend)
	var flushes []func() error
	if t.Events != nil {
		flushes = append(flushes, m.csvLog(t.Events))
		logs = append(logs, m.Log)
	}
	for _, o := range t.Observers {
		o.Start(m)
		logs = append(logs, func(kind string, moves []Move, sends []IntSend) { o.Step(m, kind, moves, sends) })
		flushes = append(flushes, o.Close)
	}
	m.Log = func(kind string, moves []Move, sends []IntSend) {
		for _, l := range logs {
			l(kind, moves, sends)
		}
	}
	return func() error {
		var first error
		for _, f := range flushes {
			if err := f(); first == nil {
				first = err
			}
		}
		return first
	}
}

// Steps is the number of steps executed, data and integer: the last
// step's number.
func (m *Machine) Steps() int64 { return int64(m.steps) }

// Phase is the phase running: its stage (region side), its name
// (PhaseNames) and the number of its first step.
func (m *Machine) Phase() (stage int, name string, first int64) {
	return m.side, m.phase, int64(m.phaseSteps) + 1
}

// PhaseNames are the phases' names, in the order traces number them from 1
// (0: before the first phase).
var PhaseNames = []string{"move", "count", "row", "column", "deliver"}

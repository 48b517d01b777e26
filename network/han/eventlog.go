package han

import (
	"bufio"
	"fmt"
	"io"
)

// EventLogHeader is the event log's CSV header: one line per message a step
// carries (a data message, or a counting wave's integer).
const EventLogHeader = "step,kind,stage,phase,row,col,dir,to_row,to_col,message,copy,value,held\n"

// EventLog makes m write its steps to w as CSV (EventLogHeader): the step
// (data and integer steps numbered together, from 1), its kind, the stage
// (region side) and phase, the sender, the direction and receiver, the
// message (a copy's new id, with copy 1), an integer's value, and how many
// messages the receiver holds after the step. The returned function
// flushes w. A *Trace w also (or only) gets its observers attached.
func (m *Machine) EventLog(w io.Writer) (flush func() error) {
	if t, ok := w.(*Trace); ok {
		return m.attach(t)
	}
	return m.csvLog(w)
}

func (m *Machine) csvLog(w io.Writer) (flush func() error) {
	b := bufio.NewWriter(w)
	b.WriteString(EventLogHeader)
	m.Log = func(kind string, moves []Move, sends []IntSend) {
		for _, mv := range moves {
			to, id, cp := m.Neighbour(mv.From, mv.Dir), mv.Msg, 0
			if mv.Copy {
				id, cp = mv.New, 1
			}
			m.logLine(b, kind, mv.From, mv.Dir, to)
			fmt.Fprintf(b, "%d,%d,,%d\n", id, cp, m.cnt[to])
		}
		for _, s := range sends {
			to := m.Neighbour(s.From, s.Dir)
			m.logLine(b, kind, s.From, s.Dir, to)
			fmt.Fprintf(b, ",,%d,%d\n", s.Value, m.cnt[to])
		}
	}
	return b.Flush
}

func (m *Machine) logLine(b *bufio.Writer, kind string, from int32, d Dir, to int32) {
	c := int32(m.Cols)
	fmt.Fprintf(b, "%d,%s,%d,%s,%d,%d,%s,%d,%d,", m.steps, kind, m.side, m.phase, from/c, from%c, d, to/c, to%c)
}

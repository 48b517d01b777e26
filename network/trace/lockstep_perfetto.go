package trace

import (
	"io"
	"strconv"

	"github.com/flitsim/flitsim/network/han"
)

// LockstepTimeline writes a routing on Han's lock-step mesh as a Perfetto
// (Chrome trace-event JSON) timeline, 1 µs per machine step: step s is the
// interval [s−1, s). Process 0 "mesh" has a thread "phases" with a span per
// phase ("stage S: NAME", args stage, phase, kind, steps); process 1
// "pools" a counter track per processor ("(R,C)": the messages its pool
// holds); process 2 "messages" a thread per message (copies as they are
// made) whose spans "(R,C)" tile its life: held at processor (R, C), up to
// the end of the step that carries it away (the last one to one step past
// the routing's end).
type LockstepTimeline struct {
	jsonStream
	cols       int
	at         []int32 // per message: its processor
	since      []int64 // and the time it arrived there
	held       []int32 // per processor: the counter value written
	phase      string
	stage      int
	first      int64 // the open phase's first step (0: none)
	last, ints int64 // the last step, and the integer steps of the open phase
}

// NewLockstepTimeline writes the timeline to w (buffered; Close ends the
// document and flushes).
func NewLockstepTimeline(w io.Writer) *LockstepTimeline {
	t := &LockstepTimeline{jsonStream: newJSONStream(w)}
	t.bw.WriteString(`{"otherData":{"time_unit":"1 us = 1 machine step"},"traceEvents":[`)
	return t
}

// Start names the tracks and writes the loaded pools.
func (t *LockstepTimeline) Start(m *han.Machine) {
	t.cols = m.Cols
	for pid, name := range []string{"mesh", "pools", "messages"} {
		t.meta("process_name", int64(pid), -1, `"name":"`+name+`"`)
		t.meta("process_sort_index", int64(pid), -1, `"sort_index":`+strconv.Itoa(pid))
	}
	t.meta("thread_name", 0, 0, `"name":"phases"`)
	t.held = make([]int32, m.Processors())
	for p := range t.held {
		t.held[p] = -1
		t.count(m, int32(p))
	}
	for id := range int32(m.Messages()) {
		t.born(id, m.Loc(id), 0, "")
	}
}

func (t *LockstepTimeline) meta(what string, pid, tid int64, args string) {
	t.close(appendMeta(t.open(), what, pid, tid, args))
}

// place is processor p as "(R,C)".
func (t *LockstepTimeline) place(p int32) string {
	return "(" + strconv.Itoa(int(p)/t.cols) + "," + strconv.Itoa(int(p)%t.cols) + ")"
}

// born starts message id's thread at processor p at time ts.
func (t *LockstepTimeline) born(id, p int32, ts int64, note string) {
	t.at, t.since = append(t.at, p), append(t.since, ts)
	tid := int64(id) + 1
	t.meta("thread_name", 2, tid, `"name":"message `+strconv.Itoa(int(id))+note+`"`)
	t.meta("thread_sort_index", 2, tid, `"sort_index":`+strconv.FormatInt(tid, 10))
}

// count writes processor p's pool if it changed.
func (t *LockstepTimeline) count(m *han.Machine, p int32) {
	h := int32(m.Len(p))
	if h == t.held[p] {
		return
	}
	t.held[p] = h
	b := append(t.open(), `{"name":"`+t.place(p)+`","ph":"C","pid":1,"ts":`...)
	b = strconv.AppendInt(b, t.last, 10) // (the pool after step s: time s)
	b = append(b, `,"args":{"held":`...)
	b = strconv.AppendInt(b, int64(h), 10)
	t.close(append(b, "}}"...))
}

// span writes a complete event on (pid, tid) over [from, to) with args.
func (t *LockstepTimeline) span(name string, pid, tid, from, to int64, args string) {
	b := append(t.open(), `{"name":"`+name+`","ph":"X","pid":`...)
	b = strconv.AppendInt(b, pid, 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, tid, 10)
	b = append(b, `,"ts":`...)
	b = strconv.AppendInt(b, from, 10)
	b = append(b, `,"dur":`...)
	b = strconv.AppendInt(b, to-from, 10)
	t.close(append(b, `,"args":{`+args+`}}`...))
}

// Step writes the step's moves and pools, and the phase it ends.
func (t *LockstepTimeline) Step(m *han.Machine, kind string, moves []han.Move, sends []han.IntSend) {
	stage, name, first := m.Phase()
	if first != t.first {
		t.endPhase()
		t.first, t.stage, t.phase, t.ints = first, stage, name, 0
	}
	t.last = m.Steps()
	if kind == "integer" {
		t.ints++
	}
	for _, mv := range moves {
		to := m.Neighbour(mv.From, mv.Dir)
		if mv.Copy {
			t.born(mv.New, to, t.last, " (copy of "+strconv.Itoa(int(mv.Msg))+")")
		} else {
			t.moved(mv.Msg, to)
		}
		t.count(m, mv.From)
		t.count(m, to)
	}
}

// moved ends message id's span where it was and starts one at p.
func (t *LockstepTimeline) moved(id, p int32) {
	was := t.at[id]
	t.span(t.place(was), 2, int64(id)+1, t.since[id], t.last, t.posArgs(was))
	t.at[id], t.since[id] = p, t.last
}

func (t *LockstepTimeline) posArgs(p int32) string {
	return `"row":` + strconv.Itoa(int(p)/t.cols) + `,"col":` + strconv.Itoa(int(p)%t.cols)
}

// endPhase writes the open phase's span, [first − 1, last).
func (t *LockstepTimeline) endPhase() {
	if t.first == 0 {
		return
	}
	kind := "data"
	if t.ints > 0 {
		kind = "integer"
	}
	steps := t.last - t.first + 1
	t.span("stage "+strconv.Itoa(t.stage)+": "+t.phase, 0, 0, t.first-1, t.last,
		`"stage":`+strconv.Itoa(t.stage)+`,"phase":"`+t.phase+`","kind":"`+kind+`","steps":`+strconv.FormatInt(steps, 10))
}

// Close writes the open spans and ends the document.
func (t *LockstepTimeline) Close() error {
	t.endPhase()
	t.last++
	for id, p := range t.at {
		t.span(t.place(p), 2, int64(id)+1, t.since[id], t.last, t.posArgs(p))
	}
	t.bw.WriteString("\n]}\n")
	return t.bw.Flush()
}

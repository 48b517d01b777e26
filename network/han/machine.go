// Package han is Han's lock-step mesh computer (T. Han, "A New Class of
// Recursive Routing Algorithms on Mesh-connected Computers", UNC TR90-044,
// 1990; digest 002) and the move-and-smooth algorithms Q and H that run on it.
//
// Step semantics (digest §2.1–2.2), enforced by Machine:
//   - every processor has a pool of Buffers message buffers, unordered for the
//     algorithms; the machine keeps arrival order (a step's arrivals in the
//     order the step lists its moves) so that "which message" is
//     reproducible (digest §8 item 26: FIFO);
//   - one parallel step is a data step (t_M: data messages) or an integer step
//     (t_m: the counting waves' small integers); the two are counted apart;
//   - in one step each link direction (a processor's north, east, south or west
//     out-channel) carries at most one message, a processor may use all four;
//   - every move of a step is evaluated on the state at the step's start and
//     the step is committed as a whole: a message received in step t can be
//     forwarded in step t+1, and a buffer emptied in step t may take an arrival
//     of the same step;
//   - a message may go out on several links as copies (a restricted
//     broadcast's), and on at most one without being copied;
//   - a step that puts two messages on one link direction, sends a message the
//     sender does not hold (or twice), uses a link the mesh lacks, or leaves a
//     pool holding more than Buffers messages is refused: it moves nothing and
//     the Refusal names the step, the processor and the messages.
//
// Occupancy is measured at step boundaries, after all receptions (digest §2.1:
// "five messages: one that did not move and four transients").
package han

import (
	"fmt"
	"slices"
	"strings"
)

// Dir is an out-channel of a processor.
type Dir uint8

// The four link directions of a 2-D mesh processor.
const (
	North Dir = iota
	East
	South
	West
)

var dirNames = [4]string{"north", "east", "south", "west"}

func (d Dir) String() string {
	if d < 4 {
		return dirNames[d]
	}
	return fmt.Sprintf("axis %d %s", d/2, [2]string{"minus", "plus"}[d%2])
}

// AxisDir is the link direction along axis a of a K-D mesh: axis 0 is a
// 2-D mesh's rows (north −, south +), axis 1 its columns (west −, east
// +); axis a ≥ 2 has directions 2a (−) and 2a + 1 (+).
func AxisDir(a int, plus bool) Dir {
	switch {
	case a == 0 && plus:
		return South
	case a == 0:
		return North
	case a == 1 && plus:
		return East
	case a == 1:
		return West
	}
	return Dir(2*a + b2i(plus))
}

// Move sends message Msg from processor From over its link Dir. With Copy
// the sender keeps Msg and the receiver gets a copy, a new message whose id
// Data writes into New (copying costs nothing inside a processor, §3.5).
type Move struct {
	From int32
	Dir  Dir
	Msg  int32
	Copy bool
	New  int32
}

// IntSend sends an integer message Value from processor From over its link Dir.
type IntSend struct {
	From  int32
	Dir   Dir
	Value int64
}

// Refusal is a step the machine refused: it moved nothing.
type Refusal struct {
	Step     int64  // the machine's step (data and integer steps together), from 1
	Kind     string // "data" or "integer"
	Row, Col int    // the processor
	Coords   []int  // (a K-D mesh, K ≥ 3: the processor's coordinates, axis 0 first)
	Problem  string
	Messages []int32 // the messages involved (data steps)
	Buffers  int
}

func (r *Refusal) Error() string {
	at := fmt.Sprintf("(%d,%d)", r.Row, r.Col)
	if r.Coords != nil {
		at = strings.Trim(strings.Join(strings.Fields(fmt.Sprint(r.Coords)), ","), "[]")
		at = "(" + at + ")"
	}
	s := fmt.Sprintf("lock-step mesh refused %s step %d at processor %s: %s", r.Kind, r.Step, at, r.Problem)
	if len(r.Messages) > 0 {
		ids := make([]string, len(r.Messages))
		for i, m := range r.Messages {
			ids[i] = fmt.Sprint(m)
		}
		s += " (messages " + strings.Join(ids, ", ") + ")"
	}
	return s
}

// Machine is an R×C lock-step mesh, by default the thesis's distributed
// model without wraparound (§1.3.3). With SIMD it is the ILLIAC model
// (§1.4.1): every processor that sends in a step sends in the same
// direction, as the controller's one instruction says; a step that sends
// in two is refused. With Wrap every row's and column's ends are linked
// (the ILLIAC variation with wrap-around connections, a torus).
type Machine struct {
	Rows, Cols, Buffers int
	// Dims, on a K-D mesh (K ≥ 3), are its sides, axis 0 first; processor
	// p = Σ x_a·stride[a], the last axis fastest (a 2-D mesh: rows, columns).
	// Rows is then Dims[0] and Cols the product of the others.
	Dims, stride []int
	nd           int // link directions a processor has: 2K
	SIMD, Wrap   bool
	slots        []int32 // processor p's pool: slots[p·Buffers:][:cnt[p]], in arrival order
	cnt          []int32 // per processor: messages held
	loc          []int32 // per message: the processor holding it
	steps        uint32  // steps executed, data and integer
	DataSteps    int64   // data steps executed
	IntegerSteps int64   // integer steps executed
	maxHeld      int     // the most messages a processor held at a step boundary
	phaseHeld    int     // the same since the last PhaseStart

	link    []linkUse   // per processor×nd+dir: the last data step that used it and what it carried
	ilink   []uint32    // per link (intLink's order): the last integer step that used it
	msgStep []uint32    // per message: the last step that sent it
	to      []int32     // per move of the step: its receiver
	delta   []stepDelta // per processor: occupancy change of a step
	inbox   []IntSend   // integer deliveries of the last step (From is the receiver)

	phaseSteps uint32 // steps executed when the phase started
	side       int    // the stage and phase running (PhaseStart)
	phase      string
	// Log, when set, is given every step the machine carries out (data:
	// moves; integer: sends), after its commit.
	Log func(kind string, moves []Move, sends []IntSend)
}

// linkUse is a link direction's last step and the message it carried
// then (−1: an integer); stepDelta a processor's occupancy change d in step
// at. Each pair is read together, so they share a cache line.
type (
	linkUse struct {
		step uint32
		msg  int32
	}
	stepDelta struct {
		at uint32
		d  int32
	}
)

// NewMachine is an empty rows×cols mesh with the given pool size.
func NewMachine(rows, cols, buffers int) *Machine {
	n := rows * cols
	return &Machine{
		Rows: rows, Cols: cols, Buffers: buffers, nd: 4,
		slots: make([]int32, n*buffers),
		cnt:   make([]int32, n),
		link:  make([]linkUse, 4*n),
		ilink: make([]uint32, 4*n),
		delta: make([]stepDelta, n),
	}
}

// NewMachineDims is an empty K-D mesh of sides dims (axis 0 first) with
// the given pool size; two sides make NewMachine's mesh.
func NewMachineDims(dims []int, buffers int) *Machine {
	n := 1
	for _, d := range dims {
		n *= d
	}
	m := NewMachine(dims[0], n/dims[0], buffers)
	if len(dims) <= 2 {
		return m
	}
	m.Dims, m.stride, m.nd = slices.Clone(dims), make([]int, len(dims)), 2*len(dims)
	st := 1
	for a := len(dims) - 1; a >= 0; a-- {
		m.stride[a], st = st, st*dims[a]
	}
	m.link, m.ilink = make([]linkUse, m.nd*n), make([]uint32, m.nd*n)
	return m
}

// Coord is processor p's coordinate along axis a (a K-D mesh).
func (m *Machine) Coord(p int32, a int) int { return int(p) / m.stride[a] % m.Dims[a] }

// Load places a new message at processor p and returns its id.
func (m *Machine) Load(p int32) (int32, error) {
	if int(m.cnt[p]) >= m.Buffers {
		return 0, &Refusal{Kind: "load", Row: int(p) / m.Cols, Col: int(p) % m.Cols, Problem: "pool full", Buffers: m.Buffers}
	}
	id := int32(len(m.loc))
	m.loc = append(m.loc, p)
	m.msgStep = append(m.msgStep, 0)
	m.slots[int(p)*m.Buffers+int(m.cnt[p])] = id
	m.cnt[p]++
	m.held(int(m.cnt[p]))
	return id, nil
}

// Pool is the messages processor p holds (not to be modified).
func (m *Machine) Pool(p int32) []int32 {
	i := int(p) * m.Buffers
	return m.slots[i : i+int(m.cnt[p])]
}

// Len is the number of messages processor p holds.
func (m *Machine) Len(p int32) int { return int(m.cnt[p]) }

// Processors is the number of processors.
func (m *Machine) Processors() int { return len(m.cnt) }

// Loc is the processor holding message id.
func (m *Machine) Loc(id int32) int32 { return m.loc[id] }

// Messages is the number of messages loaded.
func (m *Machine) Messages() int { return len(m.loc) }

// MaxHeld is the most messages any processor held at any step boundary.
func (m *Machine) MaxHeld() int { return m.maxHeld }

func (m *Machine) held(n int) {
	m.maxHeld = max(m.maxHeld, n)
	m.phaseHeld = max(m.phaseHeld, n)
}

// PhaseStart starts a phase of stage side (for the event log): PhaseHeld
// counts from the occupancy now.
func (m *Machine) PhaseStart(side int, phase string) {
	m.phaseHeld, m.phaseSteps = m.Held(), m.steps
	m.side, m.phase = side, phase
}

// PhaseSteps is the steps executed since PhaseStart, data and integer.
func (m *Machine) PhaseSteps() int64 { return int64(m.steps - m.phaseSteps) }

// PhaseHeld is the most messages any processor held at a step boundary
// since PhaseStart.
func (m *Machine) PhaseHeld() int { return m.phaseHeld }

// Held is the most messages any processor holds now.
func (m *Machine) Held() int {
	h := int32(0)
	for _, c := range m.cnt {
		h = max(h, c)
	}
	return int(h)
}

// Neighbour is p's neighbour over d, or −1 where the mesh has no link.
func (m *Machine) Neighbour(p int32, d Dir) int32 {
	if int(d) >= m.nd {
		return -1
	}
	if m.Dims != nil {
		return m.neighbourKD(p, d)
	}
	if !m.Wrap { // (the step loop's case: one division at most)
		cols := int32(m.Cols)
		switch d {
		case North:
			if p >= cols {
				return p - cols
			}
		case South:
			if p+cols < int32(len(m.cnt)) {
				return p + cols
			}
		case East:
			if (p+1)%cols != 0 {
				return p + 1
			}
		case West:
			if p%cols != 0 {
				return p - 1
			}
		}
		return -1
	}
	r, c := int(p)/m.Cols, int(p)%m.Cols
	switch d {
	case North:
		r--
	case South:
		r++
	case East:
		c++
	case West:
		c--
	}
	if m.Wrap {
		r, c = (r+m.Rows)%m.Rows, (c+m.Cols)%m.Cols
	}
	if r < 0 || r >= m.Rows || c < 0 || c >= m.Cols {
		return -1
	}
	return int32(r*m.Cols + c)
}

// neighbourKD is Neighbour on a K-D mesh (no wraparound).
func (m *Machine) neighbourKD(p int32, d Dir) int32 {
	a, plus := int(d)/2, d%2 == 1
	switch d {
	case North, South:
		a, plus = 0, d == South
	case East, West:
		a, plus = 1, d == East
	}
	if a >= len(m.Dims) {
		return -1
	}
	x := m.Coord(p, a)
	switch {
	case plus && x+1 < m.Dims[a]:
		return p + int32(m.stride[a])
	case !plus && x > 0:
		return p - int32(m.stride[a])
	}
	return -1
}

func (m *Machine) refuse(kind string, p int32, problem string, msgs ...int32) *Refusal {
	r := &Refusal{Step: int64(m.steps), Kind: kind, Row: int(p) / m.Cols, Col: int(p) % m.Cols, Problem: problem, Messages: msgs, Buffers: m.Buffers}
	if m.Dims != nil {
		for a := range m.Dims {
			r.Coords = append(r.Coords, m.Coord(p, a))
		}
	}
	return r
}

// intLink is link (p, d)'s index in ilink: on a 2-D mesh the north and
// south links row by row, the east and west links column by column, as a
// counting step's row waves send from one column of every row (row by row
// they would touch a page a row at 1024²).
func (m *Machine) intLink(p int32, d Dir) int {
	if m.Dims != nil || d >= 4 {
		return int(p)*m.nd + int(d)
	}
	if d == North || d == South {
		return int(p)*2 + int(d>>1)
	}
	r, c := int(p)/m.Cols, int(p)%m.Cols
	return 2*len(m.cnt) + (c*m.Rows+r)*2 + int(d>>1)
}

// checkLink claims link (p, d) for the step, or says why it cannot be.
func (m *Machine) checkLink(kind string, p int32, d Dir, msg int32) (int32, *Refusal) {
	to := m.Neighbour(p, d)
	if to < 0 {
		return -1, m.refuse(kind, p, "no "+d.String()+" link", msg)
	}
	if kind == "integer" {
		l := m.intLink(p, d)
		if m.ilink[l] == m.steps {
			return -1, m.refuse(kind, p, "two integer messages on its "+d.String()+" link")
		}
		m.ilink[l] = m.steps
		return to, nil
	}
	l := int(p)*m.nd + int(d)
	if m.link[l].step == m.steps {
		return -1, m.refuse(kind, p, "two messages on its "+d.String()+" link", m.link[l].msg, msg)
	}
	m.link[l] = linkUse{m.steps, msg}
	return to, nil
}

// Data runs one data step: evaluated on the state at the step's start,
// committed together, or refused (nothing moves).
func (m *Machine) Data(moves []Move) error {
	m.steps++
	if err := m.evaluate(moves); err != nil {
		return err
	}
	m.commit(moves)
	return nil
}

// dataColumns runs a data step whose moves send, north or south, messages
// their senders hold, each once and at most one a link direction — column
// movement's steps, by construction — checking only what such a step can
// break: the mesh's ends and the pools. It does nothing and returns false
// when one would break (Data then refuses the step and words why), on the
// ILLIAC model, with wraparound or on a K-D machine, or with a step log.
func (m *Machine) dataColumns(moves []Move) bool {
	if m.SIMD || m.Wrap || m.Dims != nil || m.Log != nil {
		return false
	}
	m.steps++ // (the step's stamp for bump; taken back if the step is not done here)
	m.to = slices.Grow(m.to[:0], len(moves))
	cols, ok := int32(m.Cols), true
	for _, mv := range moves {
		to := mv.From + cols
		if mv.Dir == North {
			to = mv.From - cols
		}
		if mv.Copy || mv.Dir != North && mv.Dir != South || to < 0 || to >= int32(len(m.cnt)) {
			ok = false
			break
		}
		m.to = append(m.to, to)
		m.bump(mv.From, -1)
		m.bump(to, 1)
	}
	for _, q := range m.to {
		ok = ok && int(m.cnt[q])+int(m.delta[q].d) <= m.Buffers
	}
	if !ok {
		for i := range m.to { // (Data stamps the step afresh)
			m.delta[moves[i].From].at, m.delta[m.to[i]].at = 0, 0
		}
		m.steps--
		return false
	}
	m.commit(moves)
	return true
}

// commit carries out a step evaluated into m.to: the senders drop what
// they sent, then the arrivals come in the moves' order.
func (m *Machine) commit(moves []Move) {
	m.DataSteps++
	for _, mv := range moves {
		if mv.Copy {
			continue
		}
		pool := m.Pool(mv.From)
		i := slices.Index(pool, mv.Msg)
		for ; i < len(pool)-1; i++ { // (a few buffers: no memmove call)
			pool[i] = pool[i+1]
		}
		m.cnt[mv.From]--
	}
	for i := range moves {
		mv, to := &moves[i], m.to[i]
		id := mv.Msg
		if mv.Copy {
			id = int32(len(m.loc))
			m.loc = append(m.loc, to)
			m.msgStep = append(m.msgStep, 0)
			mv.New = id
		}
		m.slots[int(to)*m.Buffers+int(m.cnt[to])] = id
		m.cnt[to]++
		m.loc[id] = to
		m.held(int(m.cnt[to]))
	}
	if m.Log != nil {
		m.Log("data", moves, nil)
	}
}

func (m *Machine) evaluate(moves []Move) error {
	m.to = m.to[:0]
	for _, mv := range moves {
		p := mv.From
		if m.SIMD && mv.Dir != moves[0].Dir {
			return m.refuse("data", p, "ILLIAC: sends "+mv.Dir.String()+" in a step whose instruction sends "+moves[0].Dir.String(), mv.Msg)
		}
		if mv.Msg < 0 || int(mv.Msg) >= len(m.loc) || m.loc[mv.Msg] != p {
			return m.refuse("data", p, "sends a message it does not hold", mv.Msg)
		}
		if !mv.Copy {
			if m.msgStep[mv.Msg] == m.steps {
				return m.refuse("data", p, "sends one message on two links without copying it", mv.Msg)
			}
			m.msgStep[mv.Msg] = m.steps
		}
		to, l := m.Neighbour(p, mv.Dir), int(p)*m.nd+int(mv.Dir)
		if to < 0 || m.link[l].step == m.steps { // (checkLink inlined on the way through)
			_, r := m.checkLink("data", p, mv.Dir, mv.Msg)
			return r
		}
		m.link[l] = linkUse{m.steps, mv.Msg}
		m.to = append(m.to, to)
		if !mv.Copy {
			m.bump(p, -1)
		}
		m.bump(to, 1)
	}
	for _, q := range m.to { // (only a receiver's pool can grow)
		if int(m.cnt[q])+int(m.delta[q].d) > m.Buffers {
			return m.poolRefusal(moves)
		}
	}
	return nil
}

// bump adds d to processor q's occupancy change in this step.
func (m *Machine) bump(q int32, d int32) {
	x := &m.delta[q]
	if x.at != m.steps {
		x.at, x.d = m.steps, 0
	}
	x.d += d
}

// poolRefusal refuses a step that overfills a pool: the first processor,
// in the order the moves first name them (sender, then receiver), whose
// pool would hold more than Buffers; it lists what it holds and receives.
func (m *Machine) poolRefusal(moves []Move) *Refusal {
	for i, mv := range moves {
		for _, q := range [2]int32{mv.From, m.to[i]} {
			if n := int(m.cnt[q]) + int(m.delta[q].d); n > m.Buffers && m.delta[q].at == m.steps {
				in := slices.Clone(m.Pool(q))
				for k, mv := range moves {
					if m.to[k] == q {
						in = append(in, mv.Msg)
					}
				}
				return m.refuse("data", q, fmt.Sprintf("its pool of %d buffers would hold %d", m.Buffers, n), in...)
			}
		}
	}
	return m.refuse("data", moves[0].From, "a pool overfilled") // (not reached: evaluate found one)
}

// Integer runs one integer step; the deliveries are returned (From is the
// receiver, Dir the direction the value travelled), valid until the next call.
func (m *Machine) Integer(sends []IntSend) ([]IntSend, error) {
	m.steps++
	m.inbox = m.inbox[:0]
	for _, s := range sends {
		if m.SIMD && s.Dir != sends[0].Dir {
			return nil, m.refuse("integer", s.From, "ILLIAC: sends "+s.Dir.String()+" in a step whose instruction sends "+sends[0].Dir.String())
		}
		to, l := m.Neighbour(s.From, s.Dir), m.intLink(s.From, s.Dir)
		if to < 0 || m.ilink[l] == m.steps { // (checkLink inlined on the way through)
			_, r := m.checkLink("integer", s.From, s.Dir, -1)
			return nil, r
		}
		m.ilink[l] = m.steps
		m.inbox = append(m.inbox, IntSend{From: to, Dir: s.Dir, Value: s.Value})
	}
	m.IntegerSteps++
	if m.Log != nil {
		m.Log("integer", nil, sends)
	}
	return m.inbox, nil
}

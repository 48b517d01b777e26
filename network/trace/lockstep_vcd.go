package trace

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strconv"

	"github.com/flitsim/flitsim/network/han"
)

// Traces of Han's lock-step mesh (flitsim route): the machine is not a
// kernel network, so its writers observe the han.Machine itself
// (han.Observer) and are given to a routing in a han.Trace. One time unit
// is one machine step, data and integer steps numbered together from 1;
// time 0 is the loaded machine.

// LockstepVCD writes a value change dump of a routing. Signals, below
// scope mesh:
//
//   - kind (1 bit): 0 a data step, 1 an integer step (a counting wave);
//   - stage (16 bits): the region side of the stage running;
//   - phase (3 bits): its phase, 1 + its index in han.PhaseNames (1 move,
//     2 count, 3 row, 4 column, 5 deliver; 0 before the first);
//   - phase_start (1 bit): 1 in the first step of every phase;
//   - moved (32 bits): the messages (or integers) the step carried;
//   - p_R_C.held, per processor (R, C): the messages its pool holds after
//     the step;
//   - m<ID>.row and m<ID>.col, per message (copies of a restricted broadcast
//     included, in the order they are made): the processor holding it, x
//     until it exists.
type LockstepVCD struct {
	bw                      *bufio.Writer
	buf                     []byte
	cols                    int
	kind, stage, phase, pst string
	moved                   string
	held                    []string // per processor
	row, col                []string // per message slot
	at                      []int32  // per message slot: the processor written (−1 none)
	last                    []int32  // per processor: the held value written
	curStage, curPhase, cnt uint64
	curKind                 uint64
	pulse                   bool // phase_start's value
	step                    int64
	err                     error
}

// NewLockstepVCD writes the dump to w (buffered; Close flushes).
func NewLockstepVCD(w io.Writer) *LockstepVCD {
	return &LockstepVCD{bw: bufio.NewWriterSize(w, 1<<16)}
}

// Start declares the machine's signals and writes its loaded state: every
// processor's pool and every message's place at time 0. A restricted
// broadcast ends with at most one message a processor, so rows × cols
// message slots hold every copy.
func (v *LockstepVCD) Start(m *han.Machine) {
	n := m.Processors()
	v.cols = m.Cols
	d := &vcdHeader{path: []string{"mesh"}}
	d.h = []byte("$version flitsim $end\n$comment lock-step mesh (Han 1990): one time unit per machine step; see the flitsim trace package for the signals $end\n$timescale 1ns $end\n")
	d.h = append(d.h, "$scope module mesh $end\n"...)
	v.kind, v.stage, v.phase = d.wire(1, "kind"), d.wire(16, "stage"), d.wire(3, "phase")
	v.pst, v.moved = d.wire(1, "phase_start"), d.wire(32, "moved")
	hw := bits.Len(uint(m.Buffers))
	v.held, v.last = make([]string, n), make([]int32, n)
	for p := range n {
		d.scope(fmt.Sprintf("p_%d_%d", p/m.Cols, p%m.Cols))
		v.held[p] = d.wire(hw, "held")
		d.upscope()
	}
	slots := max(n, m.Messages())
	v.row, v.col, v.at = make([]string, slots), make([]string, slots), make([]int32, slots)
	rw, cw := max(1, bits.Len(uint(m.Rows-1))), max(1, bits.Len(uint(m.Cols-1)))
	for id := range slots {
		d.scope("m" + strconv.Itoa(id))
		v.row[id], v.col[id] = d.wire(rw, "row"), d.wire(cw, "col")
		d.upscope()
	}
	d.h = append(d.h, "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n"...)
	b := append(d.h, "0"+v.kind+"\n0"+v.pst+"\n"...)
	for _, id := range []string{v.stage, v.phase, v.moved} {
		b = append(b, "b0 "+id+"\n"...)
	}
	for p := range n {
		v.last[p] = int32(m.Len(int32(p)))
		b = vcdVec(b, uint64(v.last[p]), v.held[p])
	}
	for id := range slots {
		v.at[id] = -1
		if id < m.Messages() {
			v.at[id] = m.Loc(int32(id))
			b = vcdVec(vcdVec(b, uint64(int(v.at[id])/v.cols), v.row[id]), uint64(int(v.at[id])%v.cols), v.col[id])
		} else {
			b = append(b, "bx "+v.row[id]+"\nbx "+v.col[id]+"\n"...)
		}
	}
	v.bw.Write(append(b, "$end\n"...))
}

// place appends the changes of message id's row and column, now at
// processor p (a new copy's both).
func (v *LockstepVCD) place(b []byte, id, p int32) []byte {
	if int(id) >= len(v.row) {
		v.err = fmt.Errorf("trace: message %d past the %d declared", id, len(v.row))
		return b
	}
	was, c := v.at[id], int32(v.cols)
	v.at[id] = p
	if was < 0 || was/c != p/c {
		b = vcdVec(b, uint64(p/c), v.row[id])
	}
	if was < 0 || was%c != p%c {
		b = vcdVec(b, uint64(p%c), v.col[id])
	}
	return b
}

// vcdVec appends a vector value change.
func vcdVec(b []byte, x uint64, id string) []byte {
	b = appendBin(append(b, 'b'), x)
	b = append(b, ' ')
	b = append(b, id...)
	return append(b, '\n')
}

// Step writes the step's changes at its time.
func (v *LockstepVCD) Step(m *han.Machine, kind string, moves []han.Move, sends []han.IntSend) {
	v.step = m.Steps()
	b := append(v.buf[:0], '#')
	b = strconv.AppendInt(b, v.step, 10)
	b = append(b, '\n')
	stage, name, first := m.Phase()
	if start := first == v.step; start != v.pulse {
		v.pulse = start
		b = append(b, bit(start))
		b = append(b, v.pst+"\n"...)
	}
	b = v.set(b, &v.curStage, uint64(stage), v.stage)
	b = v.set(b, &v.curPhase, uint64(slices.Index(han.PhaseNames, name)+1), v.phase)
	k := uint64(0)
	if kind == "integer" {
		k = 1
	}
	if k != v.curKind {
		v.curKind = k
		b = append(b, byte('0'+k))
		b = append(b, v.kind+"\n"...)
	}
	b = v.set(b, &v.cnt, uint64(len(moves)+len(sends)), v.moved)
	for _, mv := range moves {
		id := mv.Msg
		if mv.Copy {
			id = mv.New
		}
		to := m.Neighbour(mv.From, mv.Dir)
		b = v.place(b, id, to)
		for _, p := range [2]int32{mv.From, to} {
			if h := int32(m.Len(p)); h != v.last[p] {
				v.last[p] = h
				b = vcdVec(b, uint64(h), v.held[p])
			}
		}
	}
	v.bw.Write(b)
	v.buf = b
}

// set appends a vector's change, if it changed.
func (v *LockstepVCD) set(b []byte, cur *uint64, x uint64, id string) []byte {
	if *cur == x {
		return b
	}
	*cur = x
	return vcdVec(b, x, id)
}

// Close ends the dump one step after the last and flushes.
func (v *LockstepVCD) Close() error {
	b := append(v.buf[:0], '#')
	b = strconv.AppendInt(b, v.step+1, 10)
	v.bw.Write(append(b, '\n'))
	if err := v.bw.Flush(); err != nil {
		return err
	}
	return v.err
}

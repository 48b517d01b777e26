package trace

import (
	"bufio"
	"github.com/flitsim/flitsim/internal/kernel"
	"io"
	"math/bits"
	"strconv"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	xbar "github.com/flitsim/flitsim/switch"
)

// Endpoint states in the VCD.
const (
	StateIdle      = 0
	StateAdvancing = 1
	StateBlocked   = 2
	StateDone      = 3
)

// vchan is one traced channel: its signal ids, what it carried in the
// cycle being collected (stamp = that cycle) and the values last written.
type vchan struct {
	idValid, idWorm, idKind, idSeq string

	path  string // scope, e.g. network.r_1_1.out_xp
	owner int32  // switch index, or -1-terminal for an injection link
	flits int64  // cycles it carried a flit (for the save file's busiest scopes)

	stamp int64
	worm  uint32
	seq   uint16
	kind  uint8

	valid bool // last written: valid = 1 with cWorm, cKind, cSeq
	cWorm uint32
	cSeq  uint16
	cKind uint8
}

// vbuf is one traced buffer.
type vbuf struct {
	b            int32
	idOcc, idOwn string
	path         string // scope
	width        int    // of occupancy
	sw           int32
	in           int64 // flits that entered it
	stamp        int64 // last cycle with an event at b
	occ          int32 // last written
	own          uint32
	ownX         bool
}

// vep is one traced endpoint (terminal).
type vep struct {
	idState, idWorm, idReason string
	path                      string // scope, e.g. network.t3
	term                      int32

	stamp  int64
	state  uint8
	reason uint8
	worm   uint32

	cState  uint8 // last written; the worm and reason are x when cState is idle, reason x unless blocked
	cReason uint8
	cWorm   uint32
}

// VCD writes a value change dump (see the package documentation).
type VCD struct {
	k        *kernel.Kernel
	f        *filter
	act      bool // per-switch activity signals
	l        *layout
	bw       *bufio.Writer
	buf      []byte
	from, to int64

	chIdx   []int32 // per kernel channel: index into chs, or -1
	chs     []vchan
	touched []int32 // channels that carried a flit in the cycle being collected
	live    []int32 // channels last written with valid = 1

	bufs     []vbuf
	bufIdx   []int32 // per kernel buffer: index into bufs, or -1
	bufTouch []int32 // buffers with an event in the cycle being collected

	srcEp  []int32 // per buffer: endpoint index of a traced source register, or -1
	eps    []vep
	epSeen []int32 // endpoints reported in the cycle being collected
	epLive []int32 // endpoints last written with a state other than idle

	sws   []vsw   // switches' activity signals (Options.Activity), see vcd_activity.go
	swIdx []int32 // per switch: index into sws, or -1 (nil: none)

	started bool
	prev    int64 // last cycle emitted
	force   bool  // write every value ($dumpvars)
	mark    int   // len(buf) right after the pending timestamp
}

// NewVCD writes a VCD of k's run to w (buffered; Close flushes). The header
// is written at once.
func NewVCD(w io.Writer, k *kernel.Kernel, o Options) (*VCD, error) {
	f, err := newFilter(k, o)
	if err != nil {
		return nil, err
	}
	v := &VCD{k: k, f: f, bw: bufio.NewWriterSize(w, 1<<16), from: f.win.From, to: f.win.end(), prev: -1}
	v.l = newLayout(k)
	v.act = o.Activity
	v.header(v.l)
	return v, nil
}

// vcdID is the n-th short identifier code (printable ASCII 33…126, bijective
// base 94, so every n gives a distinct code).
func vcdID(n int) string {
	var b [8]byte
	i := 0
	for {
		b[i] = byte(33 + n%94)
		i++
		n /= 94
		if n == 0 {
			break
		}
		n--
	}
	return string(b[:i])
}

// uniq hands out names unique within one scope.
type uniq map[string]int

func (u uniq) name(s string) string {
	n := u[s]
	u[s] = n + 1
	if n == 0 {
		return s
	}
	for {
		n++
		c := s + "_" + strconv.Itoa(n)
		if u[c] == 0 {
			u[c] = 1
			return c
		}
	}
}

// Scoped reports whether the trace leaves anything out (--trace-window,
// --trace-only): only then do packets' records wait for it.
func (v *VCD) Scoped() bool { return v.f.some }

// Traces reports whether an event in cycle at buffer b is written
// (kernel.TraceScope): the VCD shows the buffers and channels of the
// selected switches and terminals in the window, and nothing of a delivery.
// (A scheduled router's hop leaves by a channel of the switch whose buffer
// it leaves.)
func (v *VCD) Traces(cycle int64, b int32) bool {
	return b >= 0 && b < v.f.nb && v.f.buf[b] && v.f.win.In(cycle)
}

// Granted is not shown in the VCD.
func (v *VCD) Granted(int64, int32, int32, int32, xbar.PortSet) {}

// Delivered is not shown in the VCD.
func (v *VCD) Delivered(int64, *flit.Worm, int32, int32) {}

// Move records a flit on its channel and a source register's progress.
func (v *VCD) Move(cycle int64, f flit.Flit, from, to, ch int32, ready int64) {
	if cycle < v.from || cycle >= v.to {
		return
	}
	v.touch(cycle, from)
	if to < int32(len(v.bufIdx)) {
		v.touch(cycle, to)
		if i := v.bufIdx[to]; i >= 0 {
			v.bufs[i].in++
		}
	}
	if ch >= 0 {
		if i := v.chIdx[ch]; i >= 0 {
			c := &v.chs[i]
			v.switched(c.owner)
			if c.stamp != cycle {
				c.stamp = cycle
				c.flits++
				v.touched = append(v.touched, i)
			}
			c.worm = uint32(v.k.Pool.Worms[f.Worm].ID)
			c.seq = uint16(f.Seq)
			c.kind = uint8(f.Kind)
		}
	}
	if e := v.sourceEvent(cycle, from, f); e != nil {
		e.state = StateAdvancing
		if f.Kind >= flit.Tail {
			e.state = StateDone
		}
	}
}

// sourceEvent notes an event of flit f at buffer b and, if b is a traced
// source register, returns its endpoint (seen this cycle, showing f's worm).
func (v *VCD) sourceEvent(cycle int64, b int32, f flit.Flit) *vep {
	i := v.srcEp[b]
	if i < 0 {
		return nil
	}
	e := &v.eps[i]
	if e.stamp != cycle {
		e.stamp = cycle
		v.epSeen = append(v.epSeen, i)
	}
	e.worm = uint32(v.k.Pool.Worms[f.Worm].ID)
	return e
}

// touch notes an event at buffer b: only such buffers can change in a cycle
// (a flit moves in or out, or a worm binds at its front flit, which then
// either moves or is reported blocked).
func (v *VCD) touch(cycle int64, b int32) {
	if i := v.bufIdx[b]; i >= 0 {
		if x := &v.bufs[i]; x.stamp != cycle {
			x.stamp = cycle
			v.bufTouch = append(v.bufTouch, i)
		}
	}
}

// Blocked records a buffer with a waiting flit, and a source register's
// state.
func (v *VCD) Blocked(cycle int64, f flit.Flit, b int32, reason network.Wait, who, at int32) {
	if cycle < v.from || cycle >= v.to {
		return
	}
	v.touch(cycle, b)
	if i := v.bufIdx[b]; i >= 0 && v.act {
		v.blockedAt(cycle, i, reason)
	}
	if e := v.sourceEvent(cycle, b, f); e != nil {
		e.state = StateBlocked
		e.reason = uint8(reason)
	}
}

// EndCycle writes the cycle's changes.
func (v *VCD) EndCycle(cycle int64) {
	if cycle < v.from || cycle >= v.to {
		return
	}
	if !v.started {
		v.started = true
		if cycle > v.from { // the cycles before were skipped: the network was empty
			v.dumpIdle(v.from)
		} else {
			v.time(cycle)
			v.buf = append(v.buf, "$dumpvars\n"...)
			v.force = true
		}
	} else if cycle > v.prev+1 {
		v.idle(v.prev + 1) // skipped cycles: nothing moves
	}
	if !v.force {
		v.time(cycle)
	}
	v.prev = cycle
	v.channels(cycle)
	v.buffers()
	v.endpoints(cycle)
	v.activity(cycle)
	if v.force {
		v.buf = append(v.buf, "$end\n"...)
		v.force = false
	}
	v.flush()
}

// time opens time step t; flush drops it again if nothing changed.
func (v *VCD) time(t int64) {
	v.buf = append(v.buf, '#')
	v.buf = strconv.AppendInt(v.buf, t, 10)
	v.buf = append(v.buf, '\n')
	v.mark = len(v.buf)
}

func (v *VCD) flush() {
	if len(v.buf) > v.mark {
		v.bw.Write(v.buf)
	}
	v.buf, v.mark = v.buf[:0], 0
}

func (v *VCD) scalar(val byte, id string) {
	v.buf = append(v.buf, val)
	v.buf = append(v.buf, id...)
	v.buf = append(v.buf, '\n')
}

// bin8 holds the eight binary digits of every byte.
var bin8 = func() (t [256][8]byte) {
	for v := range t {
		for i := 0; i < 8; i++ {
			t[v][i] = byte('0' + v>>(7-i)&1)
		}
	}
	return t
}()

// appendBin appends x in binary without leading zeros.
func appendBin(b []byte, x uint64) []byte {
	if x == 0 {
		return append(b, '0')
	}
	n := bits.Len64(x)
	r := (n-1)%8 + 1 // digits in the leading byte
	shift := n - r
	b = append(b, bin8[byte(x>>uint(shift))][8-r:]...)
	for shift > 0 {
		shift -= 8
		b = append(b, bin8[byte(x>>uint(shift))][:]...)
	}
	return b
}

func (v *VCD) vec(x uint64, id string) {
	b := appendBin(append(v.buf, 'b'), x)
	b = append(b, ' ')
	b = append(b, id...)
	v.buf = append(b, '\n')
}

func (v *VCD) vecX(id string) {
	v.buf = append(v.buf, "bx "...)
	v.buf = append(v.buf, id...)
	v.buf = append(v.buf, '\n')
}

// channels writes this cycle's flits and the channels that went idle.
func (v *VCD) channels(cycle int64) {
	for _, i := range v.live {
		if c := &v.chs[i]; c.stamp != cycle {
			v.idleChannel(c)
		}
	}
	for _, i := range v.touched {
		c := &v.chs[i]
		if !c.valid || v.force {
			v.scalar('1', c.idValid)
			c.valid = true
			v.vec(uint64(c.worm), c.idWorm)
			v.vec(uint64(c.kind), c.idKind)
			v.vec(uint64(c.seq), c.idSeq)
		} else {
			if c.worm != c.cWorm {
				v.vec(uint64(c.worm), c.idWorm)
			}
			if c.kind != c.cKind {
				v.vec(uint64(c.kind), c.idKind)
			}
			if c.seq != c.cSeq {
				v.vec(uint64(c.seq), c.idSeq)
			}
		}
		c.cWorm, c.cKind, c.cSeq = c.worm, c.kind, c.seq
	}
	if v.force { // every other channel is idle
		for i := range v.chs {
			if c := &v.chs[i]; c.stamp != cycle {
				c.valid = true
				v.idleChannel(c)
			}
		}
	}
	v.live, v.touched = append(v.live[:0], v.touched...), v.touched[:0]
}

func (v *VCD) idleChannel(c *vchan) {
	if !c.valid {
		return
	}
	c.valid = false
	v.scalar('0', c.idValid)
	v.vecX(c.idWorm)
	v.vecX(c.idKind)
	v.vecX(c.idSeq)
}

// buffers writes the occupancy and owner changes of the buffers with events
// (of all when forced).
func (v *VCD) buffers() {
	if v.force {
		v.bufTouch = v.bufTouch[:0]
		for i := range v.bufs {
			v.bufTouch = append(v.bufTouch, int32(i))
		}
	}
	k := v.k
	for _, i := range v.bufTouch {
		x := &v.bufs[i]
		occ := int32(k.Occupancy(x.b))
		if occ != x.occ || v.force {
			x.occ = occ
			v.vec(uint64(occ), x.idOcc)
		}
		if o := k.Owner(x.b); o < 0 {
			if !x.ownX || v.force {
				x.ownX = true
				v.vecX(x.idOwn)
			}
		} else if s := uint32(k.Pool.Worms[o].ID); x.ownX || s != x.own || v.force {
			x.ownX, x.own = false, s
			v.vec(uint64(s), x.idOwn)
		}
	}
	v.bufTouch = v.bufTouch[:0]
}

// endpoints writes the source registers' states.
func (v *VCD) endpoints(cycle int64) {
	for _, i := range v.epLive {
		if e := &v.eps[i]; e.stamp != cycle {
			v.idleEndpoint(e)
		}
	}
	for _, i := range v.epSeen {
		e := &v.eps[i]
		if e.state != e.cState || v.force {
			v.vec(uint64(e.state), e.idState)
		}
		if e.cState == StateIdle || e.worm != e.cWorm || v.force {
			v.vec(uint64(e.worm), e.idWorm)
		}
		switch {
		case e.state == StateBlocked && (e.cState != StateBlocked || e.reason != e.cReason || v.force):
			v.vec(uint64(e.reason), e.idReason)
		case e.state != StateBlocked && (e.cState == StateBlocked || v.force):
			v.vecX(e.idReason)
		}
		e.cState, e.cWorm, e.cReason = e.state, e.worm, e.reason
	}
	if v.force {
		for i := range v.eps {
			if e := &v.eps[i]; e.stamp != cycle {
				v.idleEndpoint(e)
			}
		}
	}
	v.epLive, v.epSeen = append(v.epLive[:0], v.epSeen...), v.epSeen[:0]
}

func (v *VCD) idleEndpoint(e *vep) {
	if e.cState == StateIdle && !v.force {
		return
	}
	v.vec(StateIdle, e.idState)
	v.vecX(e.idWorm)
	if e.cState == StateBlocked || v.force {
		v.vecX(e.idReason)
	}
	e.cState = StateIdle
}

// idle writes time t at which every channel and endpoint is idle (a cycle
// the simulator skipped, or the end of the trace).
func (v *VCD) idle(t int64) {
	v.time(t)
	for _, i := range v.live {
		v.idleChannel(&v.chs[i])
	}
	for _, i := range v.epLive {
		v.idleEndpoint(&v.eps[i])
	}
	v.live, v.epLive = v.live[:0], v.epLive[:0]
	v.idleActivity(false)
	v.flush()
}

// dumpIdle writes the initial values of an empty network at time t.
func (v *VCD) dumpIdle(t int64) {
	v.time(t)
	v.buf = append(v.buf, "$dumpvars\n"...)
	for i := range v.chs {
		c := &v.chs[i]
		c.valid = true
		v.idleChannel(c)
	}
	for i := range v.bufs {
		x := &v.bufs[i]
		x.occ, x.ownX = 0, true
		v.vec(0, x.idOcc)
		v.vecX(x.idOwn)
	}
	v.force = true
	for i := range v.eps {
		v.idleEndpoint(&v.eps[i])
	}
	v.force = false
	v.idleActivity(true)
	v.buf = append(v.buf, "$end\n"...)
	v.flush()
	v.prev = t
}

// Close ends the dump at the end of the run (or of the window) and flushes.
func (v *VCD) Close() error {
	end := min(v.k.Now(), v.to)
	last := v.prev
	if !v.started {
		v.started = true
		v.dumpIdle(v.from)
		last = v.from
	} else if end > v.prev+1 && (len(v.live) > 0 || len(v.epLive) > 0 || v.anyBlocked()) {
		v.idle(v.prev + 1)
		last = v.prev + 1
	}
	if end > last {
		v.time(end)
		v.bw.Write(v.buf)
		v.buf = v.buf[:0]
	}
	return v.bw.Flush()
}

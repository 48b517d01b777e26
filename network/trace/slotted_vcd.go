package trace

import (
	"bufio"
	"io"
	"math/bits"
	"strconv"

	"github.com/flitsim/flitsim/internal/kernel"
)

// SlottedVCD writes a value change dump of the slotted router, one time
// unit per slot. Under network, a scope per selected node (n5) with, per
// slot, the number of packets that entered, were delivered, and dropped
// (deflection schemes: deflected) there, a counter per event kind the
// scheme reports but crossed, waited and sent (pulses: 0 in a slot
// without; kernel.SlottedEventKinds); in
// it a scope per link (out_d2: the forward buffer of dimension 2 and its
// link, int_d2: the internal one) with valid, packet (the serial of the
// packet on the link in the slot, x when idle) and hops (links crossed,
// this one included; deflection schemes: deflections instead), and, for
// a buffered scheme (slotted.k ≥ 1), waiting: the buffer's FIFO length at
// the slot's end.
type SlottedVCD struct {
	slotQuiet
	s      *slotNames
	bw     *bufio.Writer
	buf    []byte
	sig    []slotSig
	link   []int32 // per node·2d + link: index of its valid signal (packet, hops follow), or −1
	wait   []int32 // per node·2d + link: its waiting signal, or −1
	node   []int32 // per node: its first counter signal (the others follow), or −1
	cnt    []int32 // per kernel.SlotKind: its counter's offset from a node's first, or −1
	touch  []int32 // signals set in the slot being collected
	pulsed []int32 // pulse signals set in the last slot written
	cycle  int64   // the slot being collected
	start  bool    // the first slot of the window has been written
	prev   int64   // last slot written
}

// slotSig is one wire: its code, the value being collected and the one
// last written (x: no value).
type slotSig struct {
	id       string
	width    int
	val, cur uint64
	x, curX  bool
	pulse    bool  // back to idle (0, or x for a link's packet and hops) in a slot without an event
	idleX    bool  // the idle value is x
	stamp    int64 // slot of the last set
}

// NewSlottedVCD writes a VCD of k's slotted router to w (buffered; Close
// flushes). The header is written at once.
func NewSlottedVCD(w io.Writer, k *kernel.Kernel, o Options) (*SlottedVCD, error) {
	s, err := newSlotNames(k, o)
	if err != nil {
		return nil, err
	}
	v := &SlottedVCD{s: s, bw: bufio.NewWriterSize(w, 1<<16), cycle: -1, prev: -1}
	v.header(k.SlottedEventKinds())
	return v, nil
}

func (v *SlottedVCD) header(kinds []kernel.SlotKind) {
	s := v.s
	v.cnt = fill32(len(kernel.SlotKindNames))
	var counted []kernel.SlotKind
	for _, kd := range kinds {
		if kd != kernel.SlotCrossed && kd != kernel.SlotWaited && kd != kernel.SlotSent {
			v.cnt[kd] = int32(len(counted))
			counted = append(counted, kd)
		}
	}
	v.link, v.wait, v.node = fill32(s.n*2*s.d), fill32(s.n*2*s.d), fill32(s.n)
	waitW := 0
	switch {
	case s.places == kernel.SlottedInf:
		waitW = 16
	case s.places > 0:
		waitW = bits.Len(uint(s.places))
	}
	d := &vcdHeader{path: []string{"network"}}
	d.h = []byte("$version flitsim $end\n$comment slotted router: one time unit per slot; see the flitsim trace package for the signals $end\n$timescale 1ns $end\n")
	d.h = append(d.h, "$scope module network $end\n"...)
	add := func(width int, name string, pulse, idleX bool) int32 {
		v.sig = append(v.sig, slotSig{id: d.wire(width, name), width: width, pulse: pulse, idleX: idleX, x: idleX, stamp: -1})
		return int32(len(v.sig) - 1)
	}
	for n := range s.n {
		if !s.sel[n] {
			continue
		}
		d.scope(s.node[n])
		v.node[n] = int32(len(v.sig))
		for _, kd := range counted {
			add(8, kd.String(), true, false)
		}
		for l := range 2 * s.d {
			if !s.hasLink(l) {
				continue
			}
			d.scope(s.leaf[n*2*s.d+l])
			v.link[n*2*s.d+l] = add(1, "valid", true, false)
			add(32, "packet", true, true)
			if s.defl {
				add(8, "deflections", true, true)
			} else {
				add(8, "hops", true, true)
			}
			if waitW > 0 {
				v.wait[n*2*s.d+l] = add(waitW, "waiting", false, false)
			}
			d.upscope()
		}
		d.upscope()
	}
	d.h = append(d.h, "$upscope $end\n$enddefinitions $end\n"...)
	v.bw.Write(d.h)
}

func fill32(n int) []int32 {
	a := make([]int32, n)
	for i := range a {
		a[i] = -1
	}
	return a
}

// set gives signal i value x in slot cycle; pulses are shown only in the
// window (a buffer's FIFO length is followed throughout, so that the
// window's first slot shows it).
func (v *SlottedVCD) set(i int32, x uint64) {
	g := &v.sig[i]
	g.val, g.x = x, false
	if g.stamp != v.cycle {
		g.stamp = v.cycle
		v.touch = append(v.touch, i)
	}
}

// Slot records one event.
func (v *SlottedVCD) Slot(cycle int64, e kernel.SlotEvent) {
	if !v.s.sel[e.Node] {
		return
	}
	v.cycle = cycle
	at := int(e.Node)*2*v.s.d + int(e.Link)
	if e.Link >= 0 && (e.Kind == kernel.SlotWaited || e.Kind == kernel.SlotSent) && v.wait[at] >= 0 {
		v.set(v.wait[at], uint64(e.Queue))
	}
	if !v.s.win.In(cycle) {
		return
	}
	switch e.Kind {
	case kernel.SlotCrossed:
		l := v.link[at]
		v.set(l, 1)
		v.set(l+1, uint64(e.Packet))
		h := e.Hops
		if v.s.defl {
			h = e.Defl
		}
		v.set(l+2, uint64(h))
	default:
		if c := v.cnt[e.Kind]; c >= 0 {
			v.count(e.Node, c)
		}
	}
}

// count adds one to counter c (an offset) of node n in this slot.
func (v *SlottedVCD) count(n int32, c int32) {
	i := v.node[n] + c
	g := &v.sig[i]
	x := uint64(1)
	if g.stamp == v.cycle {
		x = min(g.val+1, 255)
	}
	v.set(i, x)
}

// EndCycle writes the slot's changes: the signals set in it, and the
// pulses of the last slot written back to idle.
func (v *SlottedVCD) EndCycle(cycle int64) {
	v.cycle = cycle
	if !v.s.win.In(cycle) {
		v.touch = v.touch[:0]
		return
	}
	b := append(v.buf[:0], '#')
	b = strconv.AppendInt(b, cycle, 10)
	b = append(b, '\n')
	mark := len(b)
	force := !v.start
	if force {
		v.start = true
		b = append(b, "$dumpvars\n"...)
		for i := range v.sig {
			b = v.write(b, int32(i), cycle, true)
		}
		b = append(b, "$end\n"...)
	} else {
		for _, i := range v.pulsed {
			b = v.write(b, i, cycle, false)
		}
		for _, i := range v.touch {
			b = v.write(b, i, cycle, false)
		}
	}
	v.pulsed = v.pulsed[:0]
	for _, i := range v.touch {
		if v.sig[i].pulse {
			v.pulsed = append(v.pulsed, i)
		}
	}
	v.touch = v.touch[:0]
	if len(b) > mark {
		v.bw.Write(b)
	}
	v.buf, v.prev = b, cycle
}

// write appends signal i's value in slot cycle if it changed (or force):
// a pulse not set in the slot is idle.
func (v *SlottedVCD) write(b []byte, i int32, cycle int64, force bool) []byte {
	g := &v.sig[i]
	if g.pulse && g.stamp != cycle {
		g.val, g.x = 0, g.idleX
	}
	if !force && g.x == g.curX && (g.x || g.val == g.cur) {
		return b
	}
	g.cur, g.curX = g.val, g.x
	switch {
	case g.width == 1:
		b = append(b, byte('0'+g.val&1))
	case g.x:
		b = append(b, "bx "...)
	default:
		b = append(appendBin(append(b, 'b'), g.val), ' ')
	}
	b = append(b, g.id...)
	return append(b, '\n')
}

// Close ends the dump at the end of the run (or of the window) and flushes.
func (v *SlottedVCD) Close() error {
	if !v.start { // (the run ended before the window: its initial values)
		v.EndCycle(v.s.win.From)
		return v.bw.Flush()
	}
	b := append(v.buf[:0], '#')
	b = strconv.AppendInt(b, v.prev+1, 10)
	v.bw.Write(append(b, '\n'))
	return v.bw.Flush()
}

package kernel

import (
	"fmt"
	"strings"
)

// InFlight reports the number of flits held in switch buffers (source
// registers excluded).
func (k *Kernel) InFlight() int {
	if p, ok := k.stepper.(queueModel); ok {
		return p.inFlight()
	}
	if p, ok := k.stepper.(*publicModel); ok {
		return p.flitsInside()
	}
	n := 0
	for b := int32(0); b < k.nb; b++ {
		if k.bs[b].kind != kindSource {
			n += k.bs[b].Len()
		}
	}
	return n
}

// MaxOccupancy is the most flits any switch buffer held.
func (k *Kernel) MaxOccupancy() int { return int(k.maxOcc) }

// BufferName names buffer b for reports, e.g. "s1,2.out[1]".
func (k *Kernel) BufferName(b int32) string {
	switch k.bs[b].kind {
	case kindSource:
		return fmt.Sprintf("terminal %d source", k.bSw[b])
	case kindIn:
		return fmt.Sprintf("%s.in[%s]", k.Topo.Switches[k.bSw[b]].Label, k.portName(int(k.bPort[b])))
	case kindGap:
		return fmt.Sprintf("gap %d", b)
	}
	return fmt.Sprintf("%s.out[%s]", k.Topo.Switches[k.bSw[b]].Label, k.portName(int(k.bPort[b])))
}

// PortName names global port gp, e.g. "r(3,4).out[x+]".
func (k *Kernel) PortName(gp int32) string {
	s := k.switchOf(gp)
	return fmt.Sprintf("%s.out[%s]", k.Topo.Switches[s].Label, k.portName(int(gp-k.portBase[s])))
}

func (k *Kernel) portName(p int) string {
	if p < len(k.Topo.PortNames) {
		return k.Topo.PortNames[p]
	}
	return fmt.Sprint(p)
}

// Backlog is the number of generated flits still at their sources: waiting in
// the source queue or in the source register.
func (k *Kernel) Backlog() int64 {
	k.placeLater() // (as Step would first)
	var n int64
	for term := range k.queues {
		n += int64(k.bs[k.srcBuf[term]].Len())
		q := &k.queues[term]
		for i := 0; i < q.n; i++ {
			n += int64(k.Pool.Worms[q.buf[(q.head+i)%len(q.buf)]].Len)
		}
		n -= int64(k.issued[term])
	}
	return n
}

// Location is a buffer in the fabric: input or output buffer Port of Switch.
type Location struct {
	Switch int
	Port   int
	Output bool
	Label  string // the switch's label, e.g. "s2,0"
}

// Locate appends to out the switch buffers holding flit seq of worm wi
// (several for a replicated flit). Scenario tests and the verify suite use
// it to follow a header cycle by cycle.
func (k *Kernel) Locate(wi, seq int32, out []Location) []Location {
	for b := range k.activeBuffers() {
		x := &k.bs[b]
		if x.kind == kindSource {
			continue
		}
		for i := 0; i < x.Len(); i++ {
			if f := x.At(i); f.Worm == wi && f.Seq == seq {
				s := int(k.bSw[b])
				out = append(out, Location{Switch: s, Port: int(k.bPort[b]), Output: x.kind == kindOut, Label: k.Topo.Switches[s].Label})
			}
		}
	}
	return out
}

// DebugState describes every non-empty buffer (for debugging scenarios).
func (k *Kernel) DebugState() string {
	var sb strings.Builder
	for b := int32(0); b < k.nb; b++ {
		x := &k.bs[b]
		if x.Empty() {
			continue
		}
		fmt.Fprintf(&sb, "  %-22s", k.BufferName(b))
		for i := 0; i < x.Len(); i++ {
			f := x.At(i)
			fmt.Fprintf(&sb, " w%d.%d", k.Pool.Worms[f.Worm].ID, f.Seq)
		}
		fmt.Fprintf(&sb, "  bound w%d want %b mask %b rSw %d\n", x.worm, x.want, x.mask, x.rSw)
	}
	return sb.String()
}

// Moved is the number of flit moves in the last cycle.
func (k *Kernel) Moved() int { return k.nmoved }

// ResetChannels zeroes every channel's flit count (the measurement window
// starts).
func (k *Kernel) ResetChannels() {
	if p, ok := k.stepper.(*packetRouter); ok && !p.chansDirty {
		return // (zero: nothing has counted since they were zeroed)
	}
	chans := k.chans
	for i := range chans {
		chans[i].Reset()
	}
}

// ChannelFlits is the number of flits channel ch carried since the last
// ResetChannels.
func (k *Kernel) ChannelFlits(ch int32) uint64 { return k.chans[ch].Flits }

// ChannelSwitch is the switch whose output port channel ch leaves, or -1
// for a terminal's injection channel.
func (k *Kernel) ChannelSwitch(ch int32) int32 {
	if int(ch) >= len(k.Links) {
		return -1
	}
	return int32(k.switchOf(ch))
}

// ChannelTerminal is the terminal channel ch ejects to, or -1 when it
// leads to a switch (or is an injection channel or unwired).
func (k *Kernel) ChannelTerminal(ch int32) int32 {
	if int(ch) >= len(k.Links) {
		return -1
	}
	s := k.switchOf(ch)
	if e := k.Topo.Switches[s].Out[ch-k.portBase[s]]; e.ToTerminal() {
		return e.Terminal
	}
	return -1
}

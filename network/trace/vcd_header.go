package trace

import (
	"math/bits"
	"strconv"
	"strings"
)

// vcdHeader builds the VCD's declarations: nested scopes and the wires in
// them, each with the next short identifier code.
type vcdHeader struct {
	h    []byte
	path []string
	next int
}

func (d *vcdHeader) scope(name string) {
	d.h = append(d.h, "$scope module "...)
	d.h = append(d.h, name...)
	d.h = append(d.h, " $end\n"...)
	d.path = append(d.path, name)
}

func (d *vcdHeader) upscope() {
	d.h = append(d.h, "$upscope $end\n"...)
	d.path = d.path[:len(d.path)-1]
}

// here is the dotted path of the current scope.
func (d *vcdHeader) here() string { return strings.Join(d.path, ".") }

// wire declares a wire of width bits in the current scope and returns its
// identifier code.
func (d *vcdHeader) wire(width int, name string) string {
	c := vcdID(d.next)
	d.next++
	h := append(d.h, "$var wire "...)
	h = strconv.AppendInt(h, int64(width), 10)
	h = append(h, ' ')
	h = append(h, c...)
	h = append(h, ' ')
	h = append(h, name...)
	if width > 1 {
		h = append(h, " ["...)
		h = strconv.AppendInt(h, int64(width-1), 10)
		h = append(h, ":0]"...)
	}
	d.h = append(h, " $end\n"...)
	return c
}

// header declares every traced switch's buffers and channels and every
// traced terminal, and writes the declarations.
func (v *VCD) header(l *layout) {
	k := v.k
	v.chIdx = make([]int32, k.Channels())
	for i := range v.chIdx {
		v.chIdx[i] = -1
	}
	inBuf, outBuf, srcBuf := v.bufferSides(l)
	d := &vcdHeader{path: []string{"network"}}
	d.h = []byte("$version flitsim $end\n$comment one time unit per cycle; see the flitsim trace package for the signals $end\n$timescale 1ns $end\n")
	d.h = append(d.h, "$scope module network $end\n"...)
	l.scopes()
	for s := range k.Topo.Switches {
		if v.f.sw[s] {
			v.declareSwitch(d, l, s, inBuf, outBuf)
		}
	}
	for term := range srcBuf {
		if !v.f.term[term] {
			continue
		}
		d.scope(termScope(term))
		v.srcEp[srcBuf[term]] = int32(len(v.eps))
		v.eps = append(v.eps, vep{idState: d.wire(2, "state"), idWorm: d.wire(32, "worm"), idReason: d.wire(3, "reason"), stamp: -1,
			path: d.here(), term: int32(term)})
		d.scope("inj")
		v.declareChannel(d, l.nlinks+int32(term), -1-int32(term))
		d.upscope()
		d.upscope()
	}
	d.h = append(d.h, "$upscope $end\n$enddefinitions $end\n"...)
	v.bw.Write(d.h)
}

// bufferSides sorts the kernel's buffers by where they sit: the input and
// output buffer of each global port (or −1) and each terminal's source
// register.
func (v *VCD) bufferSides(l *layout) (inBuf, outBuf, srcBuf []int32) {
	k := v.k
	nb := k.Buffers()
	v.srcEp = make([]int32, nb)
	v.bufIdx = make([]int32, nb)
	inBuf = make([]int32, l.nlinks)
	outBuf = make([]int32, l.nlinks)
	for i := range inBuf {
		inBuf[i], outBuf[i] = -1, -1
	}
	srcBuf = make([]int32, k.Topo.Terminals())
	for b := int32(0); b < nb; b++ {
		v.srcEp[b], v.bufIdx[b] = -1, -1
		sw, port, out, src, depth := k.BufferInfo(b)
		switch {
		case depth == 0: // no buffer (an id left for alignment)
		case src:
			srcBuf[sw] = b
		case out:
			outBuf[l.portBase[sw]+port] = b
		default:
			inBuf[l.portBase[sw]+port] = b
		}
	}
	return inBuf, outBuf, srcBuf
}

// declareSwitch declares switch s's scope: its activity wires, its input
// buffers, then per output port its channel and output buffer.
func (v *VCD) declareSwitch(d *vcdHeader, l *layout, s int, inBuf, outBuf []int32) {
	k := v.k
	d.scope(l.swScope[s])
	if v.act {
		v.addSwitch(s, d.wire(32, "flits_switched"), d.wire(1, "blocked"))
	}
	outs := len(k.Topo.Switches[s].Out)
	for p := 0; p < outs; p++ {
		if b := inBuf[l.portBase[s]+int32(p)]; b >= 0 {
			d.scope(l.inScope[l.portBase[s]+int32(p)])
			v.declareBuffer(d, b)
			d.upscope()
		}
	}
	for p := 0; p < outs; p++ {
		gp := l.portBase[s] + int32(p)
		conn := k.ChannelConnected(gp)
		if !conn && outBuf[gp] < 0 {
			continue
		}
		d.scope(l.outScope[gp])
		if conn {
			v.declareChannel(d, gp, int32(s))
		}
		if b := outBuf[gp]; b >= 0 {
			v.declareBuffer(d, b)
		}
		d.upscope()
	}
	d.upscope()
}

func (v *VCD) declareChannel(d *vcdHeader, ch, owner int32) {
	v.chIdx[ch] = int32(len(v.chs))
	v.chs = append(v.chs, vchan{
		idValid: d.wire(1, "valid"), idWorm: d.wire(32, "worm"), idKind: d.wire(2, "kind"), idSeq: d.wire(16, "seq"),
		stamp: -1, path: d.here(), owner: owner,
	})
}

func (v *VCD) declareBuffer(d *vcdHeader, b int32) {
	sw, _, _, _, depth := v.k.BufferInfo(b)
	v.bufIdx[b] = int32(len(v.bufs))
	wd := max(1, bits.Len(uint(depth)))
	v.bufs = append(v.bufs, vbuf{b: b, idOcc: d.wire(wd, "occupancy"), idOwn: d.wire(32, "owner"), stamp: -1,
		path: d.here(), width: wd, sw: sw})
}

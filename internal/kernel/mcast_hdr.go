package kernel

import (
	"fmt"
	"slices"

	"github.com/flitsim/flitsim/flit/header"
	xbar "github.com/flitsim/flitsim/switch"
)

// Headers the switches decode (Chiang §3.4, digest §4.3): the bit strings
// and the four region schemes of Table 3.1. The header a source sends is the
// one flit/header encodes (the one definition of each format), with the
// region counter of the Delta-MIN form and flits as wide as an address
// (⌈log2 N⌉ bits, the thesis's f = A). Every switch of the tree decodes the
// header it receives with flit/header's MIN decoder, which gives each enabled
// output port its rewritten (trimmed) header and the input flit on which the
// port was decided.
//
// Cycle rule. A worm carries its header flits before its data. A switch
// entered by a header of L flits sends an enabled port p the decoder's
// header for p, L_p flits, in the last L_p header slots of the stream: the
// port takes the worm's flits from the one L − L_p flits after the input
// header's start, so a header spanning several flits still enables ports as
// it goes (as all-destination does), and each branch carries exactly its
// trimmed header downstream. A port is decided only once the switch has read
// the flit that decides it (a bit string is buffered whole; a region is read
// whole, §2.2.3): when that flit comes after the port's first slot, the
// flit at the front of the input waits the difference, in cycles, before it
// enters the port — the time to read the rest of the field.

// Decoded reports whether enc is a header the switches decode.
func (e Encoding) Decoded() bool { return e >= BitString }

// decodedScheme maps a decoded encoding to its flit/header scheme.
var decodedScheme = map[Encoding]header.Scheme{
	BitString:       header.BitStringBuffered,
	HierBitString:   header.BitStringHier,
	RegionBroadcast: header.RegionBroadcast,
	RegionStride:    header.RegionStride,
	RegionMask:      header.RegionMask,
	RegionBitString: header.RegionBitString,
}

// HeaderOptions are the encoder's parameters on this kernel's network, or an
// error when the network is not a Delta MIN.
func (k *Kernel) HeaderOptions() (header.Options, error) {
	if _, err := k.headerMIN(); err != nil {
		return header.Options{}, err
	}
	t := k.Topo
	return header.Options{Nodes: t.Terminals(), FlitBits: max(1, bitsFor(t.Terminals())), K: t.Radix, MIN: t.Kind}, nil
}

func bitsFor(n int) int {
	b := 0
	for 1<<b < n {
		b++
	}
	return b
}

func (k *Kernel) headerMIN() (*header.MIN, error) {
	if k.hdrMIN == nil {
		m, err := header.MINOn(k.Topo)
		if err != nil {
			return nil, err
		}
		k.hdrMIN = m
	}
	return k.hdrMIN, nil
}

// decodeTree builds worm wi's tree by decoding its enc header switch by
// switch from the source: the ports each switch enables, the flit each port
// starts at and the cycles its decision waits (see the cycle rule above).
// It sets the worm's header length; the destinations the switches deliver
// to must be exactly the worm's.
func (k *Kernel) decodeTree(wi int32, enc Encoding) error {
	m, err := k.headerMIN()
	if err != nil {
		return err
	}
	o, _ := k.HeaderOptions()
	w := &k.Pool.Worms[wi]
	mc := &k.mc[wi]
	ds := make([]int, len(mc.dests))
	for i, d := range mc.dests {
		ds[i] = int(d)
	}
	h, err := header.Encode(decodedScheme[enc], ds, o)
	if err != nil {
		return err
	}
	tr, err := m.Multicast(int(w.Src), h)
	if err != nil {
		return err
	}
	if !slices.Equal(tr.Delivered, ds) {
		return fmt.Errorf("%s header from %d delivers to %v, not %v", enc, w.Src, tr.Delivered, ds)
	}
	hdr := int32(h.Len())
	w.Hdr = hdr
	for _, v := range tr.Visits {
		e := k.treeEntryFor(mc, int32(v.Sw), int32(v.Port))
		in := int32(v.In.Len())
		for _, o := range v.Out {
			lp := min(int32(o.Header.Len()), in)
			e.want |= xbar.Port(o.Port)
			start := hdr - lp // this port's first slot, as a flit of the worm
			mc.en[e.en+int32(o.Port)] = start
			// The deciding flit, as a flit of the worm, after the port's first slot.
			mc.hold[e.en+int32(o.Port)] = max(0, hdr-in+int32(o.EnabledAt)-start)
		}
	}
	return nil
}

// decodeHold makes the flit at x's front wait while its switch reads the
// rest of the header field that decides the ports req it newly needs (once
// per port). It reports whether the flit now waits.
func (k *Kernel) decodeHold(x *bufState, now int64, req xbar.PortSet) bool {
	h := k.mc[x.worm].hold
	if len(h) == 0 {
		return false
	}
	h = h[x.ent:]
	var d int32
	for m := req; m != 0; {
		p := m.Next()
		d = max(d, h[p])
		h[p] = 0
	}
	if d == 0 {
		return false
	}
	x.Front().SetReady(now + int64(d))
	return true
}

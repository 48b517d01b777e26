package kernel

import "github.com/flitsim/flitsim/flit"

// Dropping queues (PacketSpec.Drop, queue.full: drop): a queue holds at
// most Capacity packets and a packet arriving over a link at a full queue
// is dropped (packet.go states when).

// Dropper is a Tracer that also logs dropped packets; the kernel asks its
// tracer for it (a tracer without it does not see drops).
type Dropper interface {
	// Dropped: packet f was dropped at cycle's end, refused by the full
	// queue behind buffer b.
	Dropped(cycle int64, f flit.Flit, b int32)
}

// drop takes packet wi, which found its next queue full, out of the
// network: counted (Stats' Dropped), traced, and its record released.
func (p *packetRouter) drop(k *Kernel, wi int32) {
	x := &p.ps[wi]
	if k.tr != nil {
		if d, ok := k.tr.(Dropper); ok {
			d.Dropped(k.now, flit.Flit{Worm: wi, Kind: flit.HeadTail, Hops: uint16(x.hops)}, p.pc[x.port].buf)
		}
	}
	p.outstand-- // (its leg ends here; a barrier waits for it no longer)
	w := &k.Pool.Worms[wi]
	if x.final >= 0 {
		w.Dst = x.final // (as a delivered packet: its final destination)
	}
	k.Dropped++
	if s := k.stats; s != nil {
		s.dropPk++
		if w.Measured {
			s.measuredDrop++
		}
	}
	k.Pool.Put(wi)
}

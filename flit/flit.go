// Package flit defines the unit of transfer (the flit), the packet or worm it
// belongs to, and the fixed-depth FIFO that holds flits inside switches.
//
// Flits are small values stored in preallocated rings, so moving one is a copy
// of 16 bytes and never allocates. Worm records are recycled through a pool.
package flit

// Kind tells where a flit sits in its worm.
type Kind uint8

const (
	// Body is any flit between the head and the tail.
	Body Kind = iota
	// Head carries the routing information and opens the path.
	Head
	// Tail releases the path behind it.
	Tail
	// HeadTail is the only flit of a one-flit packet.
	HeadTail
)

func (k Kind) String() string {
	switch k {
	case Head:
		return "head"
	case Tail:
		return "tail"
	case HeadTail:
		return "headtail"
	}
	return "body"
}

// KindOf derives the kind of flit seq in a worm of length n.
func KindOf(seq, n int32) Kind {
	// Head is bit 0 and Tail bit 1 (HeadTail both).
	var head, tail Kind
	if seq == 0 {
		head = 1
	}
	if seq == n-1 {
		tail = 1
	}
	return head | tail<<1
}

// Flit is one flow-control unit: 16 bytes, copied by value. Worm indexes the
// worm pool; Seq is the position in the worm (0 is the head); Kind repeats
// what Seq and the worm's length say, so that moving a flit never has to look
// at its worm. ReadyAt is the first cycle in which the flit may leave the
// buffer it sits in (it models link latency and the switch's routing delay),
// kept modulo 2^32: it is always within a few cycles of the present, so
// Ready compares it with wrap-around arithmetic.
type Flit struct {
	ReadyAt uint32
	Worm    int32
	Seq     int32
	Kind    Kind
	// Hops counts the switches a unicast head has crossed; the kernel copies
	// it into the worm when the head reaches its destination, so a hop
	// writes no shared worm record.
	Hops uint16
}

// Ready reports whether f may leave its buffer in cycle now.
func (f *Flit) Ready(now int64) bool { return int32(uint32(now)-f.ReadyAt) >= 0 }

// SetReady makes f leave no earlier than cycle at.
func (f *Flit) SetReady(at int64) { f.ReadyAt = uint32(at) }

// IsHead reports whether f opens its worm.
func (f *Flit) IsHead() bool { return f.Kind == Head || f.Kind == HeadTail }

// IsTail reports whether f closes its worm.
func (f *Flit) IsTail() bool { return f.Kind == Tail || f.Kind == HeadTail }

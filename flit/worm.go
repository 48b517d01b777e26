package flit

// Cast is how a packet reaches its destinations.
type Cast uint8

const (
	// Unicast goes to one destination.
	Unicast Cast = iota
	// Tree is hardware multicast by replicating switches with an
	// asynchronous multi-head worm: each branch advances on its own.
	Tree
	// SyncTree is hardware multicast with a synchronous multi-head worm:
	// the readiness of every branch is AND-reduced (wired-AND) and the whole
	// worm advances one flit or not at all.
	SyncTree
	// Path is path-based multicast: the worm visits its destinations in
	// order, each destination's interface keeping a copy of every flit and
	// passing it on toward the next.
	Path
)

var castNames = []string{"unicast", "async", "sync", "path"}

func (c Cast) String() string { return castNames[c] }

// Worm is a packet in flight: its addresses, length, routing state and the
// timestamps the statistics need. Wormhole switching calls a packet a worm
// because its flits stretch over several buffers.
type Worm struct {
	ID   uint64 // serial number, unique over a run (for reports and traces)
	Src  int32  // source terminal
	Dst  int32  // destination terminal (multicast: the current or first one)
	Len  int32  // flits, head and tail included (header flits included)
	Cast Cast   // unicast or a kind of multicast
	// Class is the message class (traffic.classes): a packet of class c
	// uses only the c-th disjoint set of virtual channels. (It fits in the
	// padding after Cast: the record stays 80 bytes.)
	Class uint8
	Dests int32 // number of destinations (1 for unicast)
	Done  int32 // destinations the tail has reached
	Hdr   int32 // header flits (address flits and EOH) before the data
	Recvd int32 // flits delivered at the destination
	Hops  int32 // switches the head has crossed (a unicast's: set when the head arrives)

	// Aux is routing state fixed when the packet is created (for example a
	// random start dimension or an extra-stage path choice); routers own it.
	Aux uint64

	GenCycle int64 // cycle the packet was generated (queued at the source)
	InjCycle int64 // cycle its head entered the network
	Measured bool  // generated inside the measurement window

	// Route is the state a routing function with per-packet state keeps
	// across hops (topology.StatefulRouter); zero when the worm is created.
	// (It fits in the padding after Measured: the record stays 80 bytes.)
	Route RouteState
}

// RouteState is per-packet routing state that changes as the head travels:
// the phase of a two-phase (Valiant) route, a count of deflections or
// misroutes. Its meaning belongs to the routing function that sets it.
type RouteState struct {
	Phase uint8
	_     uint8
	Count uint16
}

// Pool recycles worm records so that steady-state traffic allocates nothing.
// Indexes stay valid until Put.
type Pool struct {
	Worms  []Worm
	_      [64]byte // (see internal/kernel/speed.md)
	free   []int32
	serial uint64
	live   int
}

// Get returns the index of a zeroed worm with a fresh serial ID.
func (p *Pool) Get() int32 { return p.GetReserved(p.Reserve()) }

// Reserve hands out a fresh serial ID without a record: a packet that may
// get its record later (GetReserved) keeps the ID it would have had.
func (p *Pool) Reserve() uint64 {
	p.serial++
	return p.serial
}

// GetReserved returns the index of a zeroed worm with serial ID id, one
// Reserve handed out.
func (p *Pool) GetReserved(id uint64) int32 {
	var i int32
	if n := len(p.free); n > 0 {
		i = p.free[n-1]
		p.free = p.free[:n-1]
		p.Worms[i] = Worm{}
	} else {
		p.Worms = append(p.Worms, Worm{})
		i = int32(len(p.Worms) - 1)
	}
	p.Worms[i].ID = id
	p.live++
	return i
}

// Put returns worm i to the pool.
func (p *Pool) Put(i int32) {
	p.free = append(p.free, i)
	p.live--
}

// Live is the number of worms handed out and not yet returned.
func (p *Pool) Live() int { return p.live }

// Serial is the number of worms ever handed out.
func (p *Pool) Serial() uint64 { return p.serial }

package network

import (
	"math"

	"github.com/sarchlab/akita/v3/sim"
)

// Akita hosting: the whole network as one ticking component.

// Component hosts a Network in Akita: one ticking component whose Tick is
// one full two-phase cycle of the whole fabric.
type Component struct {
	*sim.TickingComponent
	Net      *Network
	waker    waker
	tickTime sim.VTimeInSec // time of the tick being run
	blocked  []*Endpoint    // endpoints whose port holds a reply the reply queue had no place for
}

// NewComponent wraps n as an Akita component ticking at 1 GHz (one tick per
// network cycle; the frequency only scales Akita's time axis).
func NewComponent(name string, engine sim.Engine, n *Network) *Component {
	c := &Component{Net: n}
	c.TickingComponent = sim.NewTickingComponent(name, engine, 1*sim.GHz, c)
	c.waker = waker{c}
	return c
}

// Tick advances the network one cycle. It returns false (the component
// sleeps) when the run is over, or when the network is empty and the next
// packet is due later, in which case a wake-up event is scheduled for then.
func (c *Component) Tick(now sim.VTimeInSec) bool {
	n := c.Net
	c.tickTime = now
	if n.Done() {
		return false
	}
	n.Cycle()
	c.unblock(now)
	if n.Done() {
		return false
	}
	if n.external && n.k.Idle() && n.nextDue(n.k.Now()) == math.MaxInt64 {
		return false // asleep until an endpoint hands over a packet
	}
	if next := n.skipIdle(); next >= 0 {
		at := sim.VTimeInSec(float64(next) / float64(c.Freq))
		c.Engine.Schedule(sim.NewEventBase(at, c.waker))
		return false
	}
	return true
}

// block notes that e's port holds a reply waiting for a place.
func (c *Component) block(e *Endpoint) {
	if !e.blocked {
		e.blocked = true
		c.blocked = append(c.blocked, e)
	}
}

// unblock offers the blocked endpoints' replies to their reply queues
// again, after a cycle that may have freed places.
func (c *Component) unblock(now sim.VTimeInSec) {
	if len(c.blocked) == 0 {
		return
	}
	eps := c.blocked
	c.blocked = nil
	for _, e := range eps {
		e.blocked = false
		e.pull(now, e.Port) // (this tick goes on: no TickNow)
	}
}

// Wake makes a sleeping network tick again now (endpoints call it when a
// packet is handed to the network).
func (c *Component) Wake(now sim.VTimeInSec) { c.TickLater(now) }

type waker struct{ c *Component }

func (w waker) Handle(e sim.Event) error {
	w.c.TickNow(e.Time())
	return nil
}

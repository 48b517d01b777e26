package kernel

// A Stepper is a switch model: how the switches of a network decide and
// make the moves of one cycle. The kernel around it keeps what every model
// shares: injection (source queues and registers, inject.go), ejection and
// statistics (eject.go, collect.go), deadlock reporting (deadlock.go),
// tracing (tracer.go) and, through package network, the run control and
// Akita hosting. A model's state lives in its stepper or in the kernel's
// buffers (layout.go); its methods are unexported because a model works on
// the kernel's internals, so a new one is a file of this package that
// registers itself in switchModels (see docs/extending.md, "Adding a switch model").
//
// Today's model is the flit crossbar, with two steppers: the general one
// (any switching, multicast, tracing) and the fast one, which takes the
// wormhole unicast cycles and leaves the others to the general one.
type Stepper interface {
	// step simulates cycle k.now: it places the packets generated for the
	// cycle (k.placeLater), routes, allocates and moves flits — into
	// buffers, or through k.arriveOne/k.eject into terminals — refills
	// the source registers it emptied (k.refill), runs the deadlock check
	// when asked (k.CheckDeadlock) or when no flit moved while some wait
	// (k.detect), reports to the tracer (k.tr) and advances k.now.
	step(k *Kernel)
	// moves reports whether the front flit of buffer b moves in the cycle
	// being stepped, once the stepper has decided its moves (the deadlock
	// detector and the tracer ask).
	moves(k *Kernel, b int32) bool
	// rule is the model's movement rule: whether b's front flit moves this
	// cycle and, if not, what it waits for, reported to h (see moveRule).
	// The deadlock detector turns the holds into wait-for edges, the tracer
	// reports the first.
	rule(k *Kernel, b int32, h *holds) bool
}

// A queueModel is a switch model that keeps its packets in queues of its
// own rather than in the kernel's flit buffers (the packet router): the
// kernel hands it every new packet (place, instead of the source queue and
// register) and asks it, for traces and reports, what the output buffer
// ids that name its queues hold.
type queueModel interface {
	place(k *Kernel, wi int32)
	occupancy(b int32) int // packets waiting for output buffer b's link
	owner(b int32) int32   // the packet it sends next, or −1
	depth() int            // a queue's capacity (MaxInt32: unbounded)
	inFlight() int         // packets in the network
}

// switchModels are the switch models by name (KernelSpec.Model; "" is the
// flit crossbar). A model's file adds itself here (in an init function), so
// adding one edits no other model.
var switchModels = map[string]func(k *Kernel) Stepper{
	"":              newFlitCrossbar,
	"flit-crossbar": newFlitCrossbar,
}

// newFlitCrossbar picks the flit crossbar's stepper: the fast one when the
// switching allows it (wormhole), else the general one.
func newFlitCrossbar(k *Kernel) Stepper {
	if k.fast {
		return fastStepper{}
	}
	return generalStepper{}
}

// Step simulates one cycle.
func (k *Kernel) Step() { k.stepper.step(k) }

// generalStepper is the flit crossbar's cycle in full generality: any
// switching mode, multicast worms of every kind, tracing. The phases run
// in order over the whole network (one lane): route (route.go), allocate
// (allocate.go), flow (flow.go, by the movement rule in rule.go), the
// synchronous worms' veto (mcast.go), the deadlock check, commit
// (commit.go) and the deliveries (eject.go).
type generalStepper struct{}

func (generalStepper) step(k *Kernel) {
	k.placeLater()
	k.route(&k.whole)
	k.allocate(&k.whole)
	k.flow()
	if k.syncLive > 0 {
		k.syncVeto()
	}
	if k.Deadlock == nil && (k.CheckDeadlock || len(k.moves) == 0 && k.AnyActive()) {
		k.Deadlock = k.detect()
	}
	if k.tr != nil {
		k.traceBlocked()
	}
	k.commit()
	k.settle(&k.whole)
	if k.tr != nil {
		k.tr.EndCycle(k.now)
	}
	k.now++
}

func (generalStepper) moves(k *Kernel, b int32) bool { return k.moving(b) }

func (generalStepper) rule(k *Kernel, b int32, h *holds) bool { return k.moveRule(b, &k.bs[b], h) }

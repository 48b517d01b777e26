// Package model is the public seam between a flitsim network and a switch
// model: the buffers, allocation and cycle rule of the switches. A model
// written against it — in this module (switch/iq, the input-queued
// virtual-channel router) or in a user's own — registers by name
// (Register) and runs, with `router.model: NAME`, on every topology, traffic
// pattern, statistic, trace, deadlock report and the Akita hosting, because
// the network around it (package internal/kernel, through a host adapter)
// keeps all of that: the model never imports an internal package.
//
// It is a sub-package of switch/ (package xbar) rather than part of it
// because it names the topology (network/topology), which itself imports
// xbar: the seam sits above both.
//
// # What the host gives and takes
//
// The host (Host) owns the terminals: packets are made by the traffic
// generator, wait in their source queue, and offer one flit at a time in
// the terminal's source register (Source). A model takes a flit from there
// (TakeSource) when its first switch has room for it; the flit crosses the
// injection link. A model moves a flit out of a switch with Send: the host
// counts the hop and the link's use, tells the tracer, and, when the port
// leads to a terminal, delivers the flit there (latency statistics, the
// Delivered hook, the packet's release). Where a flit goes after a link
// that leads to a switch is the model's business: it keeps its own buffers.
//
// A terminal may refuse a packet (traffic.reply_queue: its reply queue is
// full): a model asks Accept before a head takes anything at an ejection
// port, and injects the terminal's replies from a second register
// (ReplySource, TakeReply). A model that does so declares Info.Replies.
//
// # One cycle
//
// The host calls Step once a cycle, with Now the cycle being simulated; a
// model evaluates on the state registered at the end of the previous cycle
// and then commits, so that the outcome does not depend on the order in
// which it visits its switches (BookSim's evaluate/update; flitsim's
// evaluate/commit). Everything random draws from the model's own source,
// seeded from Params.Seed, so a seed fixes the run. After Step the host may
// ask Waits (a deadlock check, a trace): for every ready flit at the front
// of a buffer that did not move, what it waits for. The host turns the waits
// into a wait-for graph over packets and reports the largest set of
// packets none of which can move before another of the set does.
//
// A model must not allocate per packet on its hot path: keep typed slices
// indexed by port, buffer or packet (flit.Worm pool index).
package model

import (
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// Params is the configuration a model reads (the keys buffers.*, link.*,
// routing, router.*, vc.*, run.seed). A model refuses what it cannot do
// with an *inputerr.Error naming the key (configs/inputerr), so that the
// user sees one line and exit status 2.
type Params struct {
	InputDepth  int    // buffers.input: flits per input buffer (per virtual channel)
	OutputDepth int    // buffers.output: flits per output buffer
	VCs         int    // buffers.vcs: virtual channels per input (1 when absent)
	Classes     int    // traffic.classes: message classes on disjoint VC sets (flit.Worm.Class; 0 or 1: one)
	ReplyQueue  int    // traffic.reply_queue: places in a terminal's reply queue (0: none; Info.Replies)
	LinkLatency int    // link.latency: cycles a flit spends on a link (≥ 1)
	Routing     string // the routing key as given (its function is Topology().Router)
	Seed        uint64 // run.seed

	// The router.* keys (BookSim's names in parentheses).
	RoutingDelay int    // router.routing_delay (routing_delay)
	VCAllocDelay int    // router.vc_alloc_delay (vc_alloc_delay)
	SWAllocDelay int    // router.sw_alloc_delay (sw_alloc_delay)
	STFinalDelay int    // router.st_final_delay (st_final_delay)
	CreditDelay  int    // router.credit_delay (credit_delay)
	VCAllocator  string // router.vc_allocator (vc_allocator)
	SWAllocator  string // router.sw_allocator (sw_allocator)
	AllocIters   int    // router.alloc_iters (alloc_iters)
	VCRelease    string // vc.release: tail or tail-credit (wait_for_tail_credit)

	InputSpeedup  int // router.input_speedup (input_speedup): crossbar inputs per input port (0 is 1)
	OutputSpeedup int // router.output_speedup (output_speedup): crossbar outputs per output port (0 is 1)
}

// Host is the network as a model sees it. Its methods are cheap (no
// allocation); call them only from Step.
type Host interface {
	// Topology is the network's switches, wiring, terminals and routing
	// function (Topology().Router; Route calls it).
	Topology() *topology.Topology
	Params() Params
	// Now is the cycle being simulated.
	Now() int64
	// Packet is the record of packet p (a flit's Worm field): source,
	// destination, length, generation cycle.
	Packet(p int32) *flit.Worm
	// Route is the routing function's output ports for packet p's head at
	// switch sw, arrived on input port in (a stateful routing function
	// advances its per-packet state: call it once per switch a head visits).
	Route(sw, in int, p int32) xbar.PortSet
	// Source is terminal t's source register: the next flit of its front
	// packet, if one is ready in this cycle.
	Source(t int) (flit.Flit, bool)
	// TakeSource takes that flit: it crosses the injection link to input
	// port Topology().InPort[t] of switch InSwitch[t] in this cycle, and
	// the register refills from the next cycle.
	TakeSource(t int)
	// Send reports that flit f left switch sw, from input port in (−1:
	// a model that does not keep it), by
	// output port out in this cycle and reaches the link's far end at
	// cycle at. The host counts it (flit hops, the link's use, a head's
	// hop count in f) and traces it; if the port leads to a terminal it
	// delivers f there at cycle at. Otherwise the model puts f into its
	// own buffer at the far end (Topology().Switches[sw].Out[out]).
	Send(sw, in, out int, f *flit.Flit, at int64)
	// Occupancy reports that one of the model's buffers holds flits
	// flits; the host keeps the largest (max_buffer_occupancy). Call it
	// when a model's own maximum grows.
	Occupancy(flits int)

	// Terminals with reply queues (traffic.reply_queue, Params.ReplyQueue
	// > 0; a model that declares Info.Replies) may refuse a packet (a
	// request while the queue is full, or what an Akita endpoint's Accept
	// refuses), and send their replies from a register of their own.
	// Without them, Accept is always true (a model may skip it) and the
	// reply register always empty.

	// Accept asks terminal t to take packet p, whose head is bound for
	// its ejection port: true commits t to take every flit of p (a
	// request takes a place in t's reply queue; asking again for p is
	// true at no cost), and the model may then give the head its way
	// there. False: t refuses p now (its reply queue is full); the head
	// waits before the ejection port, asks again in a later cycle, and
	// the model reports the wait as WaitTerminal. Ask before the head
	// takes anything at the ejection port (iq: before it asks for an
	// ejection VC), so that a refused head holds nothing there.
	Accept(t int, p int32) bool
	// ReplySource and TakeReply are Source and TakeSource for terminal t's
	// reply register: the next flit of the front reply in its reply queue.
	// A model injects from both registers (a reply's place in the queue
	// frees when its tail is taken), at most one flit per terminal a cycle.
	ReplySource(t int) (flit.Flit, bool)
	TakeReply(t int)
}

// Offers is an optional addition to Host (a model finds it by a type
// assertion, and may ignore it): which terminals have a flit in their
// source register, so that a model need not ask Source of every terminal
// in every cycle (at low load most have nothing to send).
type Offers interface {
	// Offering is a bit set over terminals, bit t%64 of word t/64: clear,
	// terminal t's source register is empty (Source(t) says false); set,
	// it holds a flit, ready in this cycle or a later one (Source says
	// which). It is the host's own slice, the same in every call, kept
	// up to date as the host fills registers and TakeSource empties them:
	// read it in Step, never write it. Taking terminal t's flit changes
	// only t's bit. Reply registers (ReplySource) are not in it.
	Offering() []uint64
}

// Model is a switch model's state for one network.
type Model interface {
	// Step simulates cycle Host.Now().
	Step()
	// Waits calls report, after Step, for every flit at the front of a
	// buffer that is ready and did not move in the cycle, with what it
	// waits for. A wait that passes by itself (a lost arbitration, a credit
	// on its way back) may be left out; a lasting one (every virtual
	// channel it may take held by other packets, no credit while the
	// buffer downstream is full) must be reported.
	Waits(report func(Wait))
}

// Wait is one reason a flit does not move: packet For (or −1: nothing the
// host can name) holds what it needs.
type Wait struct {
	Flit        flit.Flit
	Sw, In, VC  int      // where the flit waits: switch, input port (or −1), virtual channel
	Kind        WaitKind // what it waits for
	For         int32    // the packet holding it, or −1
	AtSw, AtOut int      // where: the output port (switch, port) waited for
	AtVC        int      // and its virtual channel (or −1)
	// Source: the flit is still in terminal t's source or reply register
	// (t: the terminal whose injection link leads to input port In of
	// switch Sw; VC −1) and waits to enter that input: for an injection VC
	// (AtVC; AtOut −1), held by packet For (WaitVC), or for a credit of it
	// (WaitCredit).
	Source bool
	// Escape: the waited-for VC is an escape VC of a packet that may also
	// take adaptive ones (Duato's escape path: routing: adaptive). With
	// Kind WaitArb and For −1 it says that the escape VC is free while
	// every adaptive VC is held: the flit passes by the escape path, and
	// the waits reported after it for the same flit name the adaptive
	// VCs' holders (the host counts the cycles escape VCs broke).
	Escape bool
}

// WaitKind is what a flit waits for.
type WaitKind uint8

const (
	WaitVC     WaitKind = iota // an output virtual channel (every one it may take is held)
	WaitCredit                 // a credit: the buffer downstream is full
	WaitPort                   // an output port held by another packet
	WaitArb                    // lost an arbitration (passes)
	WaitStage                  // in a pipeline stage (routing, allocation delay: passes)
	// WaitTerminal: a head before its ejection port (AtSw, AtOut) whose
	// terminal refused it in this cycle (Host.Accept). For is −1: the host knows what
	// the terminal waits for (its next reply's way into the network).
	WaitTerminal
)

var waitKindNames = [...]string{"vc", "credit", "port", "arbitration", "stage", "terminal"}

func (w WaitKind) String() string { return waitKindNames[w] }

// New builds a model for the network host shows.
type New func(h Host) (Model, error)

// Info declares a model: its router.model name, what it is (flitsim list),
// and its constructor.
type Info struct {
	Name string
	Desc string
	New  New
	// VCs says whether the model reads buffers.vcs (a model that does not
	// is refused when buffers.vcs > 1).
	VCs bool
	// Replies says whether the model asks Host.Accept before it sends a
	// head to a terminal and injects from Host.ReplySource (a model that
	// does not is refused with traffic.reply_queue).
	Replies bool
}

var (
	mu     sync.RWMutex
	models = map[string]Info{}
)

// Register adds a model. It panics on an empty or duplicate name (a
// programming error, found when the program starts).
func Register(i Info) {
	mu.Lock()
	defer mu.Unlock()
	if i.Name == "" || i.New == nil {
		panic("model.Register: want a name and a constructor")
	}
	if _, dup := models[i.Name]; dup {
		panic(fmt.Sprintf("model.Register: %q registered twice", i.Name))
	}
	models[i.Name] = i
}

// Lookup finds a registered model by name.
func Lookup(name string) (Info, bool) {
	mu.RLock()
	defer mu.RUnlock()
	i, ok := models[name]
	return i, ok
}

// Models lists the registered models by name.
func Models() []Info {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Info, 0, len(models))
	for _, i := range models {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// Names lists the registered models' names, sorted.
func Names() []string {
	var n []string
	for _, i := range Models() {
		n = append(n, i.Name)
	}
	return slices.Clip(n)
}

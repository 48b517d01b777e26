// Package iq is the input-queued virtual-channel router (router.model: iq),
// after BookSim2's iq_router, written only against the public switch-model
// seam (package switch/model): it imports no internal package.
//
// Every switch input port has buffers.vcs virtual channels (VCs), each a
// FIFO of buffers.input flits. A VC is held by one packet from its head to
// its tail. Flow control is by credits per VC: an output VC's credit count
// is the free room of the VC it leads to, decremented when a flit is sent
// and incremented when that flit leaves the buffer downstream and its
// credit has come back. The terminals' injection links are fed the same way
// (the source takes a free injection VC for each packet, round-robin). An
// ejection port has as many output VCs as any other, with unbounded
// credits: a terminal takes every flit of a packet it has accepted. (It
// may refuse a head, traffic.reply_queue: asked by Host.Accept before the
// head asks for an ejection VC, a refused head waits, as WaitTerminal.)
//
// # Message classes
//
// With traffic.classes N (Params.Classes), message class c (flit.Worm.Class)
// owns VCs c·V/N … (c+1)·V/N − 1 of every port, injection and ejection
// included, and a routing's own classes (dateline, escape VCs) are laid out
// inside that share as in a router of V/N VCs (splitClasses).
//
// # One cycle, t (evaluate on the state registered at the end of t−1)
//
//  1. Credits due at t are added (and, with vc.release: tail-credit, an
//     output VC whose tail has left is freed when its last credit is back).
//  2. Injection: each terminal whose source register holds a flit ready
//     at t sends it if it holds (or, for a head, can take) an injection VC
//     with a credit; the flit is in the router's input VC, ready at t + L.
//     With traffic.reply_queue a terminal has a reply register too, tried
//     first, with its own injection VC; it sends one flit a cycle.
//  3. Each switch, independently (the switches share nothing written in
//     the cycle that another reads before t+1, so the order of switches
//     does not matter):
//     - Route computation: a head at the front of a VC, ready for
//     router.routing_delay cycles (RD), takes its output port from the
//     topology's routing function and the range of output VCs it may
//     take (all, or its class's share under a dateline: topology.ClassRouter).
//     - VC allocation (router.vc_allocator over inputs·V × outputs·V): a
//     routed head asks for every free output VC of its range; a granted
//     VC is held from t on, and its flits may ask for the switch from
//     t + router.vc_alloc_delay (VAD).
//     - Switch allocation (router.sw_allocator over inputs × outputs, with
//     router.alloc_iters for iSLIP; with router.input_speedup and
//     router.output_speedup, over crossbar ports: speedup.go): a VC whose front flit is ready, that
//     holds an output VC with a credit (or ejects) and whose VAD has
//     passed asks for its output port; an input port asks once per
//     output, and the winner among its VCs for the granted output is
//     chosen round-robin. The winning flit leaves its VC at t, and its
//     VC may ask again from t + router.sw_alloc_delay (SAD): the
//     allocator is not pipelined, as in BookSim.
//     - Switch traversal and link: the flit crosses the crossbar in
//     router.st_final_delay (STF) cycles after its allocation and then
//     the link in link.latency (L) cycles: it is ready in the next
//     router's VC at t + SAD + STF + L (or reaches its terminal then).
//     Its credit reaches the upstream router at t + L + router.credit_delay.
//     - A tail frees its input VC (the next packet's head, if queued
//     behind it, is routed from t+1) and, with vc.release: tail, its
//     output VC from t+1.
//
// A head that meets no contention thus spends RD + VAD + SAD + STF cycles
// in each router and L on each link: from generation to the tail's arrival
// a packet of P flits crossing H router-to-router links takes
// (H+2)·L + (H+1)·(RD+VAD+SAD+STF) + (P−1)·SAD cycles (ZeroLoadLatency).
package iq

import (
	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/switch/model"
)

func init() {
	model.Register(model.Info{Name: "iq", New: New, VCs: true, Replies: true,
		Desc: "input-queued virtual-channel router after BookSim2's iq_router: route, VC and switch allocation, credits per VC"})
}

// MaxVCs is the most virtual channels per input (buffers.vcs).
const MaxVCs = 64

// VC states.
const (
	stIdle   uint8 = iota // empty, or a head at the front not yet routed
	stVA                  // routed: asks for an output VC
	stActive              // holds an output VC: its flits ask for the switch
)

// terminalOwner marks an output VC held by a terminal's injection.
const terminalOwner = -2

// router is the state of one network of iq routers. Input VCs are
// numbered by global input port (base[switch] + port) times V plus the VC;
// output VCs the same by global output port, followed by the terminals'
// injection VCs ((ports + terminal)·V + VC).
type router struct {
	h       model.Host
	t       *topology.Topology
	v, d    int
	nGP     int32
	l, rd   int64
	vad     int64
	sad     int64
	stf     int64
	cd      int64
	classes int                     // the routing's VC classes (a dateline's two), inside each message class
	msgs    int                     // traffic.classes: message classes
	share   int                     // VCs per message class: message class m has VCs m·share … (m+1)·share − 1
	cr      topology.ClassRouter    // nil: every VC is open to every packet
	ar      topology.AdaptiveRouter // adaptive routing with escape VCs, or nil
	ug      topology.UGALRouter     // UGAL: a choice at the source (ugal.go), or nil
	nEsc    int                     // with ar: the escape VCs (0 … nEsc−1) of each input
	tailCr  bool                    // vc.release: tail-credit
	// noEscape: a head never asks for an escape VC (set by a test only,
	// to show that the escape path is what breaks the cycles)
	noEscape bool
	escTail  bool // with tailCr: the escape VCs are given again at the tail all the same

	base   []int32 // per switch: its first global port
	swOf   []int32 // per global port: its switch
	upOV   []int32 // per global input port: the first output VC feeding it
	downIn []int32 // per global output port: the global input port it leads to, or −1
	eject  []bool  // per global output port: it leads to a terminal

	vc []inputVC // the input VCs, one record each (what a move touches, together)
	ip []inPort  // per global input port: its VCs' sets

	// Output VCs.
	cred   []int32    // per output VC: its credits, the free room of the VC it leads to
	ovs    []outputVC // per output VC: who holds it
	freeOV []uint64   // per output port (global, then the terminals' injection ports): bit u, its VC u is free

	credits creditQueue
	va, sa  []xbar.Allocator     // per switch
	vaSet   []xbar.SetRequester  // per switch: va's, where it takes a port's requests at once, or nil
	vaOne   []xbar.SingleGranter // per switch: va's, where it grants a lone input at once, or nil
	saOne   []xbar.SingleGranter // per switch: sa's, likewise
	vaQ     []vaReq              // scratch: the requests of a VC allocation
	saWant  []uint64             // scratch: per r.saIn, the outputs it asks for
	swPorts []uint64             // per switch: bit p, a VC of input port p holds a flit and an output VC
	vaPorts []uint64             // per switch: bit p, a VC of input port p holds a flit and no output VC
	portOf  []int32              // per local VC number (port·V + VC): its port, without a division
	injPtr  []int32              // per terminal
	injVC   []int32              // per register lane (terminal; then, with replyQ, nTerm + terminal: its reply register): the injection VC its packet holds, or −1
	nTerm   int                  // terminals
	offer   []uint64             // the host's Offering (model.Offers: terminals with a flit in their source register), or nil
	replyQ  bool                 // traffic.reply_queue: terminals refuse requests (Host.Accepts) and send replies from a register of their own
	term    []int32              // per global output port: the terminal it leads to, or −1
	occ     []int32              // per switch: flits in its input VCs
	needVA  []int32              // per switch: VCs holding a head without an output VC
	vaAt    []int64              // per switch: no VC allocation has work before this cycle
	reqs    []int32              // scratch: input VCs that asked in a VC allocation
	saIn    []int32              // scratch: global input ports that asked in a switch allocation
	moving  flit.Flit            // scratch: the flit move sends
	cbuf    []int32              // scratch: candidates
	maxOcc  int                  // the most flits a VC has held

	// Speedups (speedup.go): BookSim's input_speedup and output_speedup.
	inS, outS int32        // crossbar inputs per input port, outputs per output port
	speedup   bool         // inS or outS above 1
	subMask   []uint64     // per crossbar input of a port (sub): its VCs, v with v mod inS = sub
	saPtr     []int32      // per crossbar input (global port·inS + sub): round-robin pointer over its VCs
	saSub     []int32      // scratch: per r.saIn, its crossbar input within the port
	outFree   []int64      // with outS > 1, per global output port: the first cycle a flit it sends may reach the far end
	outQ      []queuedFlit // with outS > 1: the flits in output buffers behind others
}

// inputVC is the state of one input VC.
type inputVC struct {
	buf   flit.Buffer
	saAt  int64 // the first cycle its front may ask for the switch
	ov    int32 // the output VC it holds, or −1
	out   int32 // the output port (local): the routed one, then the granted one
	state uint8
	lo    uint8 // the range of the VCs of its ports it may take: [lo, hi)
	hi    uint8
	escLo uint8 // and of its escape port's: [escLo, escHi) within 0 … nEsc−1
	escHi uint8
	esc   int32        // adaptive: the escape port, or −1
	cand  xbar.PortSet // the ports it may take
	since int64        // the cycle from which its front head may be routed
	mvAt  int64        // the last cycle a flit left it
	// refused: the last cycle its head's terminal refused it (Host.Accept)
	refused int64
}

// inPort is the state of one input port's VCs, as bit sets (bit v: VC v).
type inPort struct {
	occ   uint64 // the VCs holding a flit
	act   uint64 // those holding an output VC (stActive)
	elig  uint64 // in a switch allocation: the VCs that asked
	saPtr int32  // without speedup: round-robin pointer over its VCs
}

// outputVC is who holds an output VC (or a terminal's injection VC).
type outputVC struct {
	owner   int32 // the input VC holding it, terminalOwner, or −1
	holder  int32 // the packet holding it, or −1
	tailOut bool  // tail-credit: its tail has left; freed when its credits are back
}

// vaReq is a head's request, in a VC allocation, for the free VCs set of
// output port o.
type vaReq struct {
	iv, o int32
	set   uint64
}

// New builds the routers of the network host shows.
func New(h model.Host) (model.Model, error) {
	p := h.Params()
	if err := check(p); err != nil {
		return nil, err
	}
	t := h.Topology()
	r := &router{h: h, t: t, v: p.VCs, d: p.InputDepth, l: int64(p.LinkLatency),
		rd: int64(p.RoutingDelay), vad: int64(p.VCAllocDelay), sad: int64(p.SWAllocDelay),
		stf: int64(p.STFinalDelay), cd: int64(p.CreditDelay), classes: 1, tailCr: p.VCRelease == "tail-credit"}
	r.ug = ugalOf(t)
	if err := r.splitClasses(p); err != nil {
		return nil, err
	}
	if cr, ok := t.Router.(topology.ClassRouter); ok {
		r.cr, r.classes = cr, cr.Classes()
		if r.v < r.classes {
			return nil, inputerr.New("buffers.vcs", r.v, "at least %d with routing: %s (one virtual channel per class)", r.classes, p.Routing)
		}
		if r.share < r.classes {
			return nil, classesErr(p, r.classes, "one virtual channel per routing class in each message class")
		}
	}
	if ar, ok := t.Router.(topology.AdaptiveRouter); ok {
		r.ar, r.nEsc = ar, ar.EscapeVCs()
		if r.v <= r.nEsc {
			return nil, inputerr.New("buffers.vcs", r.v, "at least %d with routing: %s (%d escape VCs and adaptive ones)", r.nEsc+1, p.Routing, r.nEsc)
		}
		if r.share <= r.nEsc {
			return nil, classesErr(p, r.nEsc+1, "escape VCs and adaptive ones in each message class")
		}
		// Duato's escape works only if a head never waits behind another
		// packet in an adaptive VC, where it could not reach the escape
		// VCs: an adaptive VC is given again only once the buffer beyond
		// is empty. An escape VC may take a head behind another packet's
		// tail, as under plain dimension order: the packet ahead goes on
		// by the escape routing, or its head is at the front of an
		// adaptive VC, from where it may. So unless vc.release says
		// tail-credit for all, the escape VCs are released at the tail
		// (holding them to the last credit cost tornado traffic on the
		// 8×8 torus half its throughput: docs/vc.md). (A turn model has
		// no escape VCs and needs none: its channels close no cycle
		// whoever waits behind whom.)
		if r.nEsc > 0 {
			if p.VCRelease == "tail" {
				return nil, inputerr.New("vc.release", p.VCRelease, "tail-credit (or absent) with routing: %s: an adaptive VC is given again only when the buffer beyond is empty", p.Routing)
			}
			r.escTail, r.tailCr = p.VCRelease == "", true
		}
	}
	if err := r.layout(p); err != nil {
		return nil, err
	}
	if o, ok := h.(model.Offers); ok {
		r.offer = o.Offering()
	}
	return r, nil
}

// splitClasses divides the VCs of every port among the message classes
// (traffic.classes): message class m owns VCs m·share … (m+1)·share − 1,
// and a routing's own classes (dateline, escape) are laid out inside that
// share as they would be in a router of share VCs.
func (r *router) splitClasses(p model.Params) error {
	r.msgs = max(1, p.Classes)
	if r.msgs > r.v || r.v%r.msgs != 0 {
		return inputerr.New("traffic.classes", p.Classes, "a divisor of buffers.vcs (%d): each message class takes an equal, disjoint share of the virtual channels", r.v)
	}
	r.share = r.v / r.msgs
	return nil
}

// classesErr refuses traffic.classes when a message class's share of the
// VCs is less than the routing needs.
func classesErr(p model.Params, need int, why string) error {
	return inputerr.New("traffic.classes", p.Classes, "at most %d with buffers.vcs: %d and routing: %s (each class needs %d VCs: %s)", p.VCs/need, p.VCs, p.Routing, need, why)
}

// check refuses parameters the router cannot run with, naming the key.
func check(p model.Params) error {
	switch {
	case p.VCs < 1 || p.VCs > MaxVCs:
		return inputerr.New("buffers.vcs", p.VCs, "an integer from 1 to %d", MaxVCs)
	case p.InputDepth < 1:
		return inputerr.New("buffers.input", p.InputDepth, "an integer ≥ 1 with router.model: iq (flits per virtual channel)")
	case p.OutputDepth != 0:
		return inputerr.New("buffers.output", p.OutputDepth, "0 with router.model: iq (an input-queued router)")
	case p.RoutingDelay < 0:
		return inputerr.New("router.routing_delay", p.RoutingDelay, "an integer ≥ 0")
	case p.VCAllocDelay < 1:
		return inputerr.New("router.vc_alloc_delay", p.VCAllocDelay, "an integer ≥ 1")
	case p.SWAllocDelay < 1:
		return inputerr.New("router.sw_alloc_delay", p.SWAllocDelay, "an integer ≥ 1")
	case p.STFinalDelay < 1:
		return inputerr.New("router.st_final_delay", p.STFinalDelay, "an integer ≥ 1")
	case p.CreditDelay < 0:
		return inputerr.New("router.credit_delay", p.CreditDelay, "an integer ≥ 0")
	case p.AllocIters < 1:
		return inputerr.New("router.alloc_iters", p.AllocIters, "an integer ≥ 1")
	case p.InputSpeedup < 0 || p.InputSpeedup > MaxSpeedup:
		return inputerr.New("router.input_speedup", p.InputSpeedup, "an integer from 1 to %d", MaxSpeedup)
	case p.OutputSpeedup < 0 || p.OutputSpeedup > MaxSpeedup:
		return inputerr.New("router.output_speedup", p.OutputSpeedup, "an integer from 1 to %d", MaxSpeedup)
	case p.VCRelease != "" && p.VCRelease != "tail" && p.VCRelease != "tail-credit":
		return inputerr.New("vc.release", p.VCRelease, "tail, tail-credit")
	}
	return nil
}

// ZeroLoadLatency is the latency, from generation to the tail's arrival,
// of a packet of flits flits crossing hops router-to-router links when it
// meets no other packet (see the package documentation).
func ZeroLoadLatency(p model.Params, hops, flits int) int64 {
	per := int64(p.RoutingDelay + p.VCAllocDelay + p.SWAllocDelay + p.STFinalDelay)
	return int64(hops+2)*int64(p.LinkLatency) + int64(hops+1)*per + int64(flits-1)*int64(p.SWAllocDelay)
}

// layout numbers the ports and VCs and builds the allocators.
func (r *router) layout(p model.Params) error {
	t := r.t
	ns := len(t.Switches)
	r.base = make([]int32, ns+1)
	for s, sw := range t.Switches {
		r.base[s+1] = r.base[s] + int32(len(sw.Out))
	}
	r.nGP = r.base[ns]
	nIV := int(r.nGP) * r.v
	nOV := (int(r.nGP) + t.Terminals()) * r.v
	r.swOf = make([]int32, r.nGP)
	r.upOV, r.downIn = fill(int(r.nGP), -1), fill(int(r.nGP), -1)
	r.eject = make([]bool, r.nGP)
	for s, sw := range t.Switches {
		for o, e := range sw.Out {
			gp := r.base[s] + int32(o)
			r.swOf[gp] = int32(s)
			switch {
			case e.Switch >= 0:
				in := r.base[e.Switch] + e.Port
				r.downIn[gp], r.upOV[in] = in, gp*int32(r.v)
			case e.Terminal >= 0:
				r.eject[gp] = true
			}
		}
	}
	for term := range t.Terminals() {
		in := r.base[t.InSwitch[term]] + t.InPort[term]
		r.upOV[in] = (r.nGP + int32(term)) * int32(r.v)
	}
	r.initVCs(nIV, nOV)
	r.initSpeedups(p)
	r.nTerm, r.replyQ = t.Terminals(), p.ReplyQueue > 0
	lanes := r.nTerm
	if r.replyQ {
		lanes *= 2
	}
	r.injPtr, r.injVC = make([]int32, r.nTerm), fill(lanes, -1)
	r.term = fill(int(r.nGP), -1)
	for s, sw := range t.Switches {
		for o, e := range sw.Out {
			r.term[r.base[s]+int32(o)] = e.Terminal
		}
	}
	r.occ, r.needVA, r.ip = make([]int32, ns), make([]int32, ns), make([]inPort, r.nGP)
	r.vaAt = make([]int64, ns)
	r.va, r.sa = make([]xbar.Allocator, ns), make([]xbar.Allocator, ns)
	r.vaSet, r.swPorts, r.vaPorts = make([]xbar.SetRequester, ns), make([]uint64, ns), make([]uint64, ns)
	r.vaOne, r.saOne = make([]xbar.SingleGranter, ns), make([]xbar.SingleGranter, ns)
	r.portOf = make([]int32, xbar.MaxPorts*r.v)
	for g := range r.portOf {
		r.portOf[g] = int32(g / r.v)
	}
	for s, sw := range t.Switches {
		np := len(sw.Out)
		var err error
		if r.va[s], err = xbar.NewAllocator(p.VCAllocator, np*r.v, np*r.v, p.AllocIters); err != nil {
			return inputerr.New("router.vc_allocator", p.VCAllocator, "%s", allocNames())
		}
		if r.sa[s], err = xbar.NewAllocator(p.SWAllocator, np*int(r.inS), np*int(r.outS), p.AllocIters); err != nil {
			return inputerr.New("router.sw_allocator", p.SWAllocator, "%s", allocNames())
		}
		r.vaSet[s], _ = r.va[s].(xbar.SetRequester)
		r.vaOne[s], _ = r.va[s].(xbar.SingleGranter)
		r.saOne[s], _ = r.sa[s].(xbar.SingleGranter)
	}
	return nil
}

// initVCs makes the nIV input VCs (empty, holding nothing) and the nOV
// output VCs (free, full of credits).
func (r *router) initVCs(nIV, nOV int) {
	r.vc = make([]inputVC, nIV)
	slab := make([]flit.Flit, nIV*r.d)
	for i := range r.vc {
		c := &r.vc[i]
		c.buf.Init(slab[i*r.d : (i+1)*r.d])
		c.ov, c.esc, c.mvAt, c.refused = -1, -1, -1, -1
	}
	r.cred, r.ovs = fill(nOV, int32(r.d)), make([]outputVC, nOV)
	for i := range r.ovs {
		r.ovs[i] = outputVC{owner: -1, holder: -1}
	}
	r.freeOV = make([]uint64, nOV/r.v)
	for i := range r.freeOV {
		r.freeOV[i] = ^uint64(0) >> (64 - r.v)
	}
}

func allocNames() string {
	s := ""
	for i, n := range xbar.AllocatorNames() {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

func fill(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// creditQueue holds the credits on their way back, in the order they are
// due (every credit takes the same time, so that is the order they were
// sent): a ring that grows by doubling and then never allocates. Its
// size is a power of two, so an index wraps with a mask.
type creditQueue struct {
	ov        []int32
	due       []int64
	head, len int
}

func (q *creditQueue) push(ov int32, due int64) {
	if q.len == len(q.ov) {
		n := max(64, 2*len(q.ov))
		ov, due := make([]int32, n), make([]int64, n)
		for i := range q.len {
			j := (q.head + i) & (len(q.ov) - 1)
			ov[i], due[i] = q.ov[j], q.due[j]
		}
		q.ov, q.due, q.head = ov, due, 0
	}
	j := (q.head + q.len) & (len(q.ov) - 1)
	q.ov[j], q.due[j] = ov, due
	q.len++
}

// pop returns the next credit due by cycle now, or −1.
func (q *creditQueue) pop(now int64) int32 {
	if q.len == 0 || q.due[q.head] > now {
		return -1
	}
	ov := q.ov[q.head]
	q.head = (q.head + 1) & (len(q.ov) - 1)
	q.len--
	return ov
}

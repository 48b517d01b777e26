package model_test

import (
	"fmt"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/switch/model"
)

// oq is an output-queued router: every output port has a FIFO of
// buffers.output flits. A flit arriving at a switch (over a link or from
// its terminal) joins the queue of the port its packet takes there; each
// queue sends its front flit over its link once a cycle if the queue it
// joins beyond had room at the start of the cycle, and a queue takes at
// most one arrival a cycle: among its requesters the input port next after
// (cycle mod ports) wins, so no visiting order decides. Flits of different
// packets may share a queue; dimension-order routing is a pure function of
// the destination, so a packet's flits take one path and stay in order.
type oq struct {
	h            model.Host
	base         []int32       // per switch: its first global port
	q            []flit.Buffer // per global output port
	farSw, farIn []int32       // per global output port: the switch and input port it leads to (farSw −1: a terminal)
	rank, from   []int32       // per queue this cycle: the winning request's rank, and its sender (a queue, or −2−terminal)
	eject        []int32       // scratch: the ejection queues that send this cycle
}

func newOQ(h model.Host) (model.Model, error) {
	p, t := h.Params(), h.Topology()
	if p.OutputDepth < 1 || p.InputDepth != 0 {
		return nil, inputerr.New("buffers.output", p.OutputDepth, "≥ 1, with buffers.input 0, for router.model: example-oq")
	}
	r := &oq{h: h, base: make([]int32, len(t.Switches)+1)}
	for s, sw := range t.Switches {
		r.base[s+1] = r.base[s] + int32(len(sw.Out))
	}
	n := r.base[len(t.Switches)]
	r.q, r.farSw, r.farIn = make([]flit.Buffer, n), make([]int32, n), make([]int32, n)
	r.rank, r.from = make([]int32, n), make([]int32, n)
	for s, sw := range t.Switches {
		for o, e := range sw.Out {
			gp := r.base[s] + int32(o)
			r.q[gp] = flit.NewBuffer(p.OutputDepth)
			r.farSw[gp], r.farIn[gp] = e.Switch, e.Port
		}
	}
	return r, nil
}

// ask enters sender id's request for the queue that packet wi takes at
// switch s, arriving on input port in, if that queue has room.
func (r *oq) ask(s, in int, wi, id int32, now int64) {
	q := r.base[s] + int32(r.h.Route(s, in, wi).First())
	ports := int(r.base[s+1] - r.base[s])
	rank := int32((in - int(now%int64(ports)) + ports) % ports)
	if r.q[q].Free() > 0 && (r.rank[q] < 0 || rank < r.rank[q]) {
		r.rank[q], r.from[q] = rank, id
	}
}

func (r *oq) Step() {
	h, t, now := r.h, r.h.Topology(), r.h.Now()
	lat := int64(h.Params().LinkLatency)
	for i := range r.rank {
		r.rank[i] = -1
	}
	// Evaluate: every ready front flit asks (ejection needs no room).
	r.eject = r.eject[:0]
	for gp := range r.q {
		if r.q[gp].Empty() || !r.q[gp].Front().Ready(now) {
			continue
		}
		if r.farSw[gp] < 0 {
			r.eject = append(r.eject, int32(gp))
			continue
		}
		r.ask(int(r.farSw[gp]), int(r.farIn[gp]), r.q[gp].Front().Worm, int32(gp), now)
	}
	for term := range t.Terminals() {
		if f, ok := h.Source(term); ok {
			r.ask(int(t.InSwitch[term]), int(t.InPort[term]), f.Worm, int32(-2-term), now)
		}
	}
	// Commit: the winners move; every ready ejection queue sends.
	for q, id := range r.from {
		if r.rank[q] < 0 {
			continue
		}
		var f flit.Flit
		if id <= -2 {
			f, _ = h.Source(int(-2 - id))
			h.TakeSource(int(-2 - id))
		} else {
			f = r.q[id].Pop()
			s := int(switchOf(r.base, id))
			h.Send(s, -1, int(id-r.base[s]), &f, now+lat)
		}
		r.q[q].PushReady(&f, now+lat)
		h.Occupancy(r.q[q].Len())
	}
	for _, gp := range r.eject {
		f := r.q[gp].Pop()
		s := int(switchOf(r.base, gp))
		h.Send(s, -1, int(gp-r.base[s]), &f, now+lat)
	}
}

// switchOf is the switch of global port gp.
func switchOf(base []int32, gp int32) int32 {
	lo, hi := int32(0), int32(len(base)-1)
	for lo+1 < hi {
		if m := (lo + hi) / 2; base[m] <= gp {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// Waits: a ready front whose queue beyond is full waits for that queue's
// front packet; the rest lost an arbitration (passes).
func (r *oq) Waits(report func(model.Wait)) {
	now := r.h.Now()
	for gp := range r.q {
		if r.q[gp].Empty() || !r.q[gp].Front().Ready(now) || r.farSw[gp] < 0 {
			continue
		}
		s, f := int(switchOf(r.base, int32(gp))), *r.q[gp].Front()
		w := model.Wait{Flit: f, Sw: s, In: -1, Kind: model.WaitArb, For: -1, AtVC: -1}
		ns := int(r.farSw[gp])
		// (Route is pure for dor: asking again changes nothing.)
		q := r.base[ns] + int32(r.h.Route(ns, int(r.farIn[gp]), f.Worm).First())
		w.AtSw, w.AtOut = ns, int(q-r.base[ns])
		if r.q[q].Free() == 0 {
			w.Kind, w.For = model.WaitCredit, r.q[q].Front().Worm
		}
		report(w)
	}
}

func init() {
	model.Register(model.Info{Name: "example-oq", Desc: "an output-queued router (switch/model's example)", New: newOQ})
}

// A switch model of one's own: the output-queued router above (oq, about
// 150 lines), registered as example-oq and run on the 8×8 mesh with every
// statistic the built-in models have.
func Example_outputQueued() {
	c := network.Default() // 8×8 mesh, DOR, uniform traffic, 4-flit packets
	c.Router.Model = "example-oq"
	c.Buffers.Input, c.Buffers.Output = 0, 8
	c.Traffic.Load = 0.2
	c.Run.Warmup, c.Run.Measure = 500, 2000
	r, err := network.Run(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d of %d measured packets delivered, %.2f routers passed, deadlock %v, violations %d\n",
		r.Status, r.MeasuredDelivered, r.MeasuredPackets, r.Hops, r.Deadlock != nil, r.Violations.Total())
	// Output:
	// ok: 6351 of 6351 measured packets delivered, 6.26 routers passed, deadlock false, violations 0
}

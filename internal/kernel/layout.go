package kernel

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/configs/inputerr"
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/link"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/switch/model"
)

// KernelSpec is what NewKernel needs beyond the topology.
type KernelSpec struct {
	Mode     xbar.Mode
	InDepth  int
	OutDepth int
	Latency  int
	Delay    int
	Reuse    bool
	Policy   xbar.Policy
	Seed     uint64
	// Model names the switch model (switchModels; "" is the flit crossbar).
	Model string
	// Packet configures the packet-switched router (Model "packet").
	Packet PacketSpec
	// Lockstep configures the lock-step model (Model "lockstep").
	Lockstep LockstepSpec
	// Slotted configures the slotted hypercube router (Model "slotted").
	Slotted SlottedSpec
	// Public carries, for a model registered through the public seam
	// (switch/model), the keys the kernel does not read itself (VCs,
	// router.*); the adapter (public.go) fills in the rest.
	Public model.Params
}

// NewKernel lays out the buffers, ports and links of topology t.
func NewKernel(t *topology.Topology, s KernelSpec) (*Kernel, error) {
	if s.InDepth <= 0 && s.OutDepth <= 0 {
		return nil, &inputerr.Error{Key: "buffers", Value: "input 0, output 0", Allowed: "at least one of buffers.input and buffers.output ≥ 1"}
	}
	if s.Latency < 1 {
		return nil, inputerr.New("link.latency", s.Latency, "an integer ≥ 1")
	}
	k := &Kernel{
		Topo:   t,
		mode:   s.Mode,
		reuse:  s.Reuse,
		delay:  int64(s.Delay),
		src:    rand.NewPCG(s.Seed, 0x9e3779b97f4a7c15),
		outBuf: s.OutDepth > 0,
		fast:   s.Mode == xbar.Wormhole,
		// With one-cycle links and no routing delay a flit is ready from
		// the cycle after it arrives, the first in which it can be
		// looked at, so flow need not read its ready time.
		instant: s.Latency == 1 && s.Delay == 0,
		largeAt: largeBuffers,
	}
	if sr, ok := t.Router.(topology.StatefulRouter); ok {
		k.stateful = sr
	}
	k.rng = rand.New(k.src)
	k.spec = s
	k.layout(s, -1, 0)
	newStepper, ok := switchModels[s.Model]
	if !ok {
		info, public := model.Lookup(s.Model)
		if !public {
			names := append(slices.Sorted(maps.Keys(switchModels))[1:], model.Names()...) // (not "")
			return nil, inputerr.New("router.model", s.Model, "%s", strings.Join(names, ", "))
		}
		st, err := newPublic(k, info)
		if err != nil {
			return nil, err
		}
		k.stepper = st
		return k, nil
	}
	k.stepper = newStepper(k)
	return k, nil
}

// layout lays out the buffers, ports and links. With gapLen > 0 it puts
// gapLen empty ids (kindGap) at id gapAt, a group boundary, before the
// group that starts there.
func (k *Kernel) layout(s KernelSpec, gapAt, gapLen int32) {
	k.gapAt, k.gapLen = gapAt, gapLen
	np := k.layoutPorts()
	pl := k.layoutIDs(s, np, gapAt, gapLen)
	k.makeBuffers(pl)
	k.wire(s, np, pl)
	k.makeSideState(s, np)
}

// layoutPorts numbers the switches' output ports globally (portBase,
// portSw) and returns their number.
func (k *Kernel) layoutPorts() int32 {
	t := k.Topo
	ns := len(t.Switches)
	k.portBase = make([]int32, ns+1)
	for i, sw := range t.Switches {
		k.portBase[i+1] = k.portBase[i] + int32(len(sw.Out))
	}
	np := k.portBase[ns]
	k.portSw = make([]int32, np)
	for i := 0; i < ns; i++ {
		for p := k.portBase[i]; p < k.portBase[i+1]; p++ {
			k.portSw[p] = int32(i)
		}
	}
	return np
}

// idPlan is what layoutIDs decides: the buffer ids of every input and
// output port (-1: none), and each buffer's kind and depth.
type idPlan struct {
	inID, outID []int32
	kinds       []uint8
	depth       []int
}

// layoutIDs gives every buffer its id. Buffers are laid out in groups, one
// per switch: the buffers whose worms are routed at the switch (its input
// buffers; without input buffers, the output buffers of the switches
// feeding it), its other output buffers, and the source registers of the
// terminals injecting into it. A cut between groups (lanes.go) then leaves
// every switch on one side with everything that requests its ports.
func (k *Kernel) layoutIDs(s KernelSpec, np, gapAt, gapLen int32) *idPlan {
	t := k.Topo
	// Which input ports are fed (by a link or a terminal).
	fed := make([]bool, np)
	for _, sw := range t.Switches {
		for _, e := range sw.Out {
			if e.Switch >= 0 {
				fed[k.portBase[e.Switch]+e.Port] = true
			}
		}
	}
	for term := range t.InSwitch {
		fed[k.portBase[t.InSwitch[term]]+t.InPort[term]] = true
	}
	outs, outG := k.outBuffers(s, np)
	outAt, outOrder := bucket(len(t.Switches), outG)
	srcAt, srcOrder := bucket(len(t.Switches), t.InSwitch) // terminals by first switch
	nIn := 0
	if s.InDepth > 0 {
		for _, f := range fed {
			if f {
				nIn++
			}
		}
	}
	// Sized once: appends grew these through every doubling, a few hundred
	// MB of garbage at a million nodes and the collector's work with it.
	nb := nIn + len(outs) + int(t.Terminals()) + int(max(gapLen, 0))
	pl := &idPlan{inID: fill(int(np), -1), outID: fill(int(np), -1),
		kinds: make([]uint8, 0, nb), depth: make([]int, 0, nb)}
	k.bSw, k.bPort = make([]int32, 0, nb), make([]int32, 0, nb)
	k.grpAt = make([]int32, len(t.Switches)+1)
	add := func(kind uint8, sw, port int32, d int) int32 {
		id := int32(len(pl.kinds))
		pl.kinds = append(pl.kinds, kind)
		k.bSw = append(k.bSw, sw)
		k.bPort = append(k.bPort, port)
		pl.depth = append(pl.depth, d)
		return id
	}
	nterm := t.Terminals()
	k.srcBuf = make([]int32, nterm)
	k.issued = make([]int32, nterm)
	for si, sw := range t.Switches {
		g := int32(si)
		if int32(len(pl.kinds)) == gapAt {
			for range gapLen {
				add(kindGap, g-1, -1, 0) // (in the group before the boundary)
			}
		}
		k.grpAt[si] = int32(len(pl.kinds))
		for p := range sw.Out {
			if gp := k.portBase[si] + int32(p); s.InDepth > 0 && fed[gp] {
				pl.inID[gp] = add(kindIn, g, int32(p), s.InDepth)
			}
		}
		for _, i := range outOrder[outAt[si]:outAt[si+1]] {
			o := outs[i]
			pl.outID[k.portBase[o.sw]+o.port] = add(kindOut, o.sw, o.port, s.OutDepth)
		}
		for _, term := range srcOrder[srcAt[si]:srcAt[si+1]] {
			k.srcBuf[term] = add(kindSource, term, -1, 1)
		}
	}
	k.nb = int32(len(pl.kinds))
	k.grpAt[len(t.Switches)] = k.nb
	return pl
}

// swPort is a switch's output port.
type swPort struct{ sw, port int32 }

// outBuffers lists the output ports that get a buffer (none without
// output buffers) and the group each is laid out in: its switch's, or with
// output buffers only, the next switch's, where its worms are routed.
func (k *Kernel) outBuffers(s KernelSpec, np int32) (outs []swPort, group []int32) {
	if s.OutDepth <= 0 {
		return nil, nil
	}
	outs, group = make([]swPort, 0, np), make([]int32, 0, np)
	for si, sw := range k.Topo.Switches {
		for p, e := range sw.Out {
			if e.Switch >= 0 || e.Terminal >= 0 {
				g := int32(si)
				if s.InDepth == 0 && e.Switch >= 0 {
					g = e.Switch
				}
				outs, group = append(outs, swPort{int32(si), int32(p)}), append(group, g)
			}
		}
	}
	return outs, group
}

// makeBuffers allocates the buffers' storage in one array and sets every
// buffer's state to unbound and unwired. Past its length, k.bs holds a
// record per terminal (sinkRecords).
func (k *Kernel) makeBuffers(pl *idPlan) {
	nb := k.nb
	k.bs = make([]bufState, nb, int(nb)+k.Topo.Terminals())
	adviseHuge(k.bs)
	total := 0
	for _, d := range pl.depth {
		total += d
	}
	storage := make([]flit.Flit, total+1)
	adviseHuge(storage)
	off := 0
	for i, d := range pl.depth {
		k.bs[i].Init(storage[off : off+d : off+d])
		off += d
	}
	for all, i := k.sinkRecords(), nb; i < int32(len(all)); i++ {
		all[i].Init(storage[total:]) // one slot, never filled
	}
	for i := range k.bs {
		x := &k.bs[i]
		x.rSw, x.rIn, x.fixed, x.lat, x.rel, x.ch = -1, -1, -1, 1, -1, -1
		x.worm, x.ent, x.also, x.relT, x.ejT = -1, -1, -1, -1, -1
		x.kind = pl.kinds[i]
	}
}

// wire connects the buffers: where each port leads (pDest), the links, and
// per buffer where its moves go, which switch routes them, the channel
// they cross and how long they take.
func (k *Kernel) wire(s KernelSpec, np int32, pl *idPlan) {
	t, nb := k.Topo, k.nb
	nterm := t.Terminals()
	// farIn is the buffer or sink a flit reaches over a link to e.
	farIn := func(e topology.End) int32 {
		if e.Switch < 0 {
			return nb + e.Terminal
		}
		return pl.inID[k.portBase[e.Switch]+e.Port]
	}
	k.pDest = fill(int(np), -1)
	k.chans = make([]link.Link, int(np)+nterm)
	adviseHuge(k.chans)
	for i := range k.chans {
		k.chans[i] = link.New(s.Latency)
	}
	k.Links, k.injLinks = k.chans[:np:np], k.chans[np:]
	L := int32(s.Latency)
	for si, sw := range t.Switches {
		for p, e := range sw.Out {
			gp := k.portBase[si] + int32(p)
			if s.OutDepth > 0 {
				k.pDest[gp] = pl.outID[gp]
			} else if e.Switch >= 0 || e.Terminal >= 0 {
				k.pDest[gp] = farIn(e)
			}
			if b := pl.inID[gp]; b >= 0 {
				k.bs[b].rSw, k.bs[b].rIn = int32(si), int32(p)
				if s.OutDepth > 0 {
					k.bs[b].lat = 1 // crossbar only
				} else {
					k.bs[b].lat, k.bs[b].ch = L, chanRouted
				}
			}
			if b := pl.outID[gp]; b >= 0 {
				k.bs[b].lat, k.bs[b].rel, k.bs[b].ch = L, gp, gp
				switch {
				case s.InDepth > 0 || e.Switch < 0:
					k.bs[b].fixed = farIn(e)
				default: // output-buffered only: route at the next switch
					k.bs[b].rSw, k.bs[b].rIn = e.Switch, e.Port
				}
			}
		}
	}
	for term := 0; term < nterm; term++ {
		b := k.srcBuf[term]
		k.bs[b].lat, k.bs[b].ch = L, np+int32(term)
		in := k.portBase[t.InSwitch[term]] + t.InPort[term]
		if s.InDepth > 0 {
			k.bs[b].fixed = pl.inID[in]
		} else {
			k.bs[b].rSw, k.bs[b].rIn = t.InSwitch[term], t.InPort[term]
		}
	}
	for i := range k.bs {
		x := &k.bs[i]
		x.home, x.homeIn = x.rSw, x.rIn
		x.to, x.gp, x.wait, x.cur = x.fixed, -1, -1, x.ch
		if x.rSw < 0 && x.fixed >= nb {
			x.ejT = x.fixed - nb
		}
	}
}

// makeSideState allocates the per-terminal, per-port and per-switch state
// beside the buffers: relays, sinks, switches and their owner table,
// source queues, the buffer sets, lanes and allocation scratch.
func (k *Kernel) makeSideState(s KernelSpec, np int32) {
	t, nb := k.Topo, k.nb
	nterm, ns := t.Terminals(), len(t.Switches)
	// A path-based worm relayed at terminal t enters the network where t's
	// own packets do: t's injection buffer (input-buffered switches), or
	// through t's first switch's crossbar (output-buffered only).
	k.relayIn = fill(nterm, -1)
	if s.InDepth > 0 {
		for term := 0; term < nterm; term++ {
			k.relayIn[term] = k.bs[k.srcBuf[term]].fixed
		}
	}
	k.sinkWorm = fill(nterm, -1)
	k.sinkSeq = fill(nterm, -1)
	k.injOwner = fill(nterm, -1)
	k.rolledAt, k.rolledB, k.rolledBy = nil, nil, nil // (makeRolled)
	k.sw = make([]xbar.Switch, ns)
	k.owner = make([]int32, np)
	for i, sw := range t.Switches {
		k.sw[i] = xbar.New(len(sw.Out), s.Policy)
		o := k.owner[k.portBase[i]:k.portBase[i+1]:k.portBase[i+1]]
		copy(o, k.sw[i].Owner) // (all free)
		k.sw[i].Owner = o
	}
	k.queues = make([]wormQueue, nterm)
	k.active = newBitset(nb)
	k.alloc = newBitset(nb)
	k.whole = newLane(0, nb, nb)
	k.cutAt = nb
	k.parked = newBitset(nb)
	k.waiters = fill(int(np), -1)
	k.offers = make([]uint64, np)
	for i := range k.offers {
		k.offers[i] = noOffer
	}
	k.lastWin = fill64(ns, -1)
	k.byInput = s.Policy.ByInput()
	k.moves = nil // (the general path's flow appends; the fast path's are the lane's)
}

// bucket orders the items 0..len(group)-1 by their group in [0, n),
// keeping their order within a group: group g's items are
// order[at[g]:at[g+1]]. (One array for all groups, where a slice per group
// was an allocation per switch.)
func bucket(n int, group []int32) (at, order []int32) {
	at = make([]int32, n+1)
	for _, g := range group {
		at[g+1]++
	}
	for g := range n {
		at[g+1] += at[g]
	}
	next := slices.Clone(at[:n])
	order = make([]int32, len(group))
	for i, g := range group {
		order[next[g]] = int32(i)
		next[g]++
	}
	return at, order
}

func fill(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func fill64(n int, v int64) []int64 {
	s := make([]int64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

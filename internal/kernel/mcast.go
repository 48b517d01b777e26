package kernel

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/network/topology"
	xbar "github.com/flitsim/flitsim/switch"
)

// ErrTreeBlocked is EnqueueMulticast's answer for a multicast whose tree
// cannot be built (topology.TreeBlocks: a Random Branch tree on an ESMIN
// whose branches meet again). The packet was not queued.
var ErrTreeBlocked = errors.New("the multicast tree blocks: two branches need one switch output")

// Hardware multicast (Chiang 1995, digested in notes/seeds/001 §3).
//
// A tree multicast is one worm whose flits are replicated by the switches:
// at each switch of the multicast tree the worm takes a set of output ports,
// and a flit enters the switch only when every port it is copied to can take
// it. The tree is the union of the unicast routes from the source to every
// destination, built once per packet.
//
// Headers: with a one-flit header every branch is enabled by the head. With
// an all-destination header (one address flit per destination, then an
// end-of-header flit) a switch enables a port when the first address that
// needs it arrives, and from then on copies every flit to every enabled port
// (digest §3.5): the branch toward the j-th address starts j flits behind the
// head. The pseudo all-destination header pads the addresses so that the
// branch toward destination d starts d − d_1 flits behind. The bit-string
// and region headers are decoded by the switches themselves (mcast_hdr.go).
//
// Asynchronous worms let each buffer advance on its own; a synchronous worm
// moves all its flits or none in a cycle (the wired-AND of every branch's
// ready signal), and ports it was granted in a cycle in which it does not
// move are given back at once. A path-based worm visits its destinations in
// order; the interface of each intermediate destination keeps every flit and
// passes it on toward the next destination in the same cycle, over the
// node's one injection channel.

// Encoding is a multicast header format as the kernel sees it: how many
// header flits there are and which flit enables each destination's branch.
type Encoding uint8

const (
	// SingleFlit headers (region broadcast and the like) enable every branch
	// with the head.
	SingleFlit Encoding = iota
	// AllDestination headers carry one address flit per destination
	// (ascending) and an end-of-header flit.
	AllDestination
	// PseudoAllDestination headers pad the addresses so every branch lags
	// the head by a constant: destination d sits at flit d − d_1.
	PseudoAllDestination
	// The headers the switches decode flit by flit (mcast_hdr.go), in the
	// order of Table 3.1.
	BitString
	HierBitString
	RegionBroadcast
	RegionStride
	RegionMask
	RegionBitString
)

var encodingNames = []string{"single", "ad", "pseudo-ad", "bit-string", "hierarchical-bit-string",
	"region-broadcast", "region-stride", "region-mask", "region-bit-string"}

// EncodingNames lists the names ParseEncoding accepts (canonical ones).
func EncodingNames() []string { return slices.Clone(encodingNames) }

func (e Encoding) String() string { return encodingNames[e] }

// ParseEncoding reads a kernel header encoding name.
func ParseEncoding(s string) (Encoding, error) {
	switch strings.ToLower(s) {
	case "", "single", "region", "mrb", "one-flit":
		return SingleFlit, nil
	case "ad", "all-destination":
		return AllDestination, nil
	case "pseudo-ad", "pseudo-all-destination":
		return PseudoAllDestination, nil
	}
	if i := slices.Index(encodingNames, strings.ToLower(s)); i >= 0 {
		return Encoding(i), nil
	}
	return 0, fmt.Errorf("unknown header encoding %q (allowed: %s)", s, strings.Join(encodingNames, ", "))
}

type treeEntry struct {
	sw, in int32
	want   xbar.PortSet
	en     int32 // offset of this switch's per-port enable indexes in mcState.en
}

// mcState is a multicast worm's destinations and tree. It is kept per worm
// pool index and reused, so steady-state multicast traffic allocates
// nothing once the slices have grown.
type mcState struct {
	dests []int32 // path order (Path) or ascending (trees)
	pos   []int32 // header flit index that enables each destination
	tree  []treeEntry
	en    []int32
	hold  []int32 // cycles a decoded header's port waits for its deciding flit (beside en)
	next  int32   // Path: index of the current target in dests
}

// EnqueueMulticast creates a multicast packet from src to dests with
// payload flits of data (after the header flits of enc), delivered by cast
// (Tree, SyncTree or Path), and queues it at the source. For Path the
// destinations are visited in the order given. It returns the worm's pool
// index, or an error for an empty or invalid destination set, or
// ErrTreeBlocked for a tree that cannot be built (nothing queued).
func (k *Kernel) EnqueueMulticast(src int, dests []int, flits int, cast flit.Cast, enc Encoding) (int32, error) {
	n := k.Topo.Terminals()
	if len(dests) == 0 {
		return -1, fmt.Errorf("multicast from %d has no destinations", src)
	}
	for _, d := range dests {
		if d < 0 || d >= n {
			return -1, fmt.Errorf("destination %d is not a terminal (allowed: 0 to %d)", d, n-1)
		}
	}
	if _, ok := k.stepper.(*packetRouter); ok && (cast != flit.Unicast || len(dests) != 1) {
		return -1, fmt.Errorf("a multicast packet from %d: switching packet carries unicast packets only", src)
	}
	if cast == flit.Unicast {
		if len(dests) != 1 {
			return -1, fmt.Errorf("a unicast packet has one destination, not %d", len(dests))
		}
		return k.Enqueue(src, dests[0], flits), nil
	}
	wi := k.newWorm(src, flits)
	w := &k.Pool.Worms[wi]
	mc := &k.mc[wi]
	mc.dests, mc.pos, mc.tree, mc.en, mc.hold, mc.next = mc.dests[:0], mc.pos[:0], mc.tree[:0], mc.en[:0], mc.hold[:0], 0
	for _, d := range dests {
		// A path-based worm does not visit its own source: the source has
		// the message, and relaying there would share its own injection
		// channel with itself.
		if !slices.Contains(mc.dests, int32(d)) && !(cast == flit.Path && d == src) {
			mc.dests = append(mc.dests, int32(d))
		}
	}
	if len(mc.dests) == 0 {
		k.Pool.Put(wi)
		return -1, fmt.Errorf("path-based multicast from %d has no destination but itself", src)
	}
	w.Cast, w.Dests, w.Hdr = cast, int32(len(mc.dests)), 1
	if cast == flit.Path {
		w.Dst = mc.dests[0]
		k.Topo.Router.Init(w, k.rng)
		k.pathLive++
		k.castLive++
		k.queue(wi)
		return wi, nil
	}
	slices.Sort(mc.dests)
	w.Dst = mc.dests[0]
	k.Topo.Router.Init(w, k.rng)
	if topology.TreeBlocks(k.Topo.Router, w, mc.dests) {
		k.Pool.Put(wi) // dropped at the source: it never enters the network
		return -1, ErrTreeBlocked
	}
	if enc.Decoded() {
		if err := k.decodeTree(wi, enc); err != nil {
			k.Pool.Put(wi)
			return -1, err
		}
		w.Len = w.Hdr + int32(flits)
		return wi, k.queueTree(wi, cast)
	}
	addressHeader(w, mc, enc, flits)
	if err := k.buildTree(wi); err != nil {
		k.Pool.Put(wi)
		return -1, err
	}
	return wi, k.queueTree(wi, cast)
}

// queueTree queues tree worm wi, its tree built.
func (k *Kernel) queueTree(wi int32, cast flit.Cast) error {
	if cast == flit.SyncTree {
		k.syncLive++
	}
	k.castLive++
	k.queue(wi)
	return nil
}

// addressHeader sets the header flit enabling each destination's branch
// and the header length of worm w (one flit, all-destination or pseudo
// all-destination), destinations ascending.
func addressHeader(w *flit.Worm, mc *mcState, enc Encoding, flits int) {
	first := mc.dests[0]
	for i, d := range mc.dests {
		switch enc {
		case AllDestination:
			mc.pos = append(mc.pos, int32(i))
		case PseudoAllDestination:
			mc.pos = append(mc.pos, d-first)
		default:
			mc.pos = append(mc.pos, 0)
		}
	}
	switch enc {
	case AllDestination:
		w.Hdr = int32(len(mc.dests)) + 1
	case PseudoAllDestination:
		w.Hdr = mc.dests[len(mc.dests)-1] - first + 2
	}
	if enc != SingleFlit {
		w.Len = w.Hdr + int32(flits)
	}
}

// buildTree walks the unicast route to every destination and records, per
// switch of the tree, the ports taken and the header flit enabling each.
func (k *Kernel) buildTree(wi int32) error {
	w := &k.Pool.Worms[wi]
	mc := &k.mc[wi]
	t := k.Topo
	tmp := *w
	for i, d := range mc.dests {
		tmp.Dst = d
		s, in := t.InSwitch[w.Src], t.InPort[w.Src]
		for hops := 0; ; hops++ {
			if hops > len(t.Switches) {
				return fmt.Errorf("routing loop from %d to %d", w.Src, d)
			}
			p := t.Router.Route(int(s), int(in), &tmp).First()
			if p < 0 {
				return fmt.Errorf("no route from %d to %d at %s", w.Src, d, t.Switches[s].Label)
			}
			e := k.treeEntryFor(mc, s, in)
			e.want |= xbar.Port(p)
			if en := &mc.en[e.en+int32(p)]; mc.pos[i] < *en {
				*en = mc.pos[i]
			}
			out := t.Switches[s].Out[p]
			if out.Switch < 0 {
				break
			}
			s, in = out.Switch, out.Port
		}
	}
	return nil
}

func (k *Kernel) treeEntryFor(mc *mcState, s, in int32) *treeEntry {
	for i := range mc.tree {
		if mc.tree[i].sw == s && mc.tree[i].in == in {
			return &mc.tree[i]
		}
	}
	off := int32(len(mc.en))
	for range k.Topo.Switches[s].Out {
		mc.en = append(mc.en, math.MaxInt32)
		mc.hold = append(mc.hold, 0)
	}
	mc.tree = append(mc.tree, treeEntry{sw: s, in: in, en: off})
	return &mc.tree[len(mc.tree)-1]
}

// treeAt is the tree entry of worm wi at switch s entered on port in.
func (k *Kernel) treeAt(wi, s, in int32) treeEntry {
	for _, e := range k.mc[wi].tree {
		if e.sw == s && e.in == in {
			return e
		}
	}
	// A flit of a tree worm reached a switch off its tree: a routing bug.
	panic(fmt.Sprintf("network: worm %d reached %s off its multicast tree", k.Pool.Worms[wi].ID, k.Topo.Switches[s].Label))
}

// isDest reports whether terminal term is a destination of worm w.
func (k *Kernel) isDest(w *flit.Worm, wi, term int32) bool {
	if w.Cast == flit.Unicast {
		return term == w.Dst
	}
	return slices.Contains(k.mc[wi].dests, term)
}

// relaying reports whether an ejection buffer's front worm wi (a path
// worm) delivers to its current target here and goes on to another.
func (k *Kernel) relaying(x *bufState, wi int32) bool {
	return x.ejT >= 0 && x.ejT == k.Pool.Worms[wi].Dst && k.pathNext(wi) >= 0
}

// pathNext is the terminal after path worm wi's current target, or -1.
func (k *Kernel) pathNext(wi int32) int32 {
	mc := &k.mc[wi]
	if int(mc.next)+1 < len(mc.dests) {
		return mc.dests[mc.next+1]
	}
	return -1
}

// bindRelay binds a path worm at an ejection buffer toward its current
// target t with more targets to go: the flits are delivered to t and, in
// the same move, passed on into the network at t.
func (k *Kernel) bindRelay(b, wi int32) {
	x := &k.bs[b]
	w := &k.Pool.Worms[wi]
	t := x.ejT
	x.relT = t
	if in := k.relayIn[t]; in >= 0 {
		x.also = in // input-buffered: the flit enters t's injection buffer
		x.want = 0
		return
	}
	// Output-buffered: the flit crosses t's injection link and the first
	// switch's crossbar, routed toward the next target.
	tmp := *w
	tmp.Dst = k.pathNext(wi)
	x.rSw, x.rIn = k.Topo.InSwitch[t], k.Topo.InPort[t]
	x.want = k.Topo.Router.Route(int(x.rSw), int(x.rIn), &tmp)
	x.also = x.fixed
}

// bindRelayRouted adds the relay to a routed buffer whose path worm is
// ejected at its current target through this switch (input-buffered
// switches without output buffers).
func (k *Kernel) bindRelayRouted(x *bufState, wi int32) {
	t := k.Pool.Worms[wi].Dst
	if k.pathNext(wi) < 0 || k.relayIn[t] < 0 {
		return
	}
	base := k.portBase[x.rSw]
	for m := x.want; m != 0; {
		if k.pDest[base+int32(m.Next())] == k.nb+t {
			x.also, x.relT = k.relayIn[t], t
			return
		}
	}
}

// relayFree reports whether the path worm bound at x may use its relay
// terminal's injection channel this cycle. A node has one: a relay waits
// until the node's own packet has left, the node waits for a relay, and when
// both would start in the same cycle the node's own packet goes first.
func (k *Kernel) relayFree(x *bufState) bool {
	_, _, free := k.relayWait(x)
	return free
}

// relayWait says what a relay at x waits for: the worm holding the
// injection channel (and the buffer of its newest flit is found by the
// caller), or the node's source register about to start its own packet.
func (k *Kernel) relayWait(x *bufState) (who, srcBuf int32, free bool) {
	t := x.relT
	if o := k.injOwner[t]; o >= 0 {
		return o, -1, o == x.worm
	}
	src := k.srcBuf[t]
	if s := &k.bs[src]; !s.Empty() && s.Front().Seq == 0 && s.Front().Ready(k.now) {
		return -1, src, false
	}
	return -1, -1, true
}

// relay delivers the flit to the relay's extra destination and, with the
// head, moves the path worm on to its next target; the relay holds the
// terminal's injection channel from head to tail.
func (k *Kernel) relay(x *bufState, f flit.Flit, arrive int64) {
	k.arriveOne(&k.whole, x.also, &f, arrive)
	t := x.relT
	if x.also < k.nb { // input-buffered: the flit crossed t's injection link
		k.whole.carry(&k.injLinks[t], k.now)
	}
	if f.Kind == flit.Head || f.Kind == flit.HeadTail {
		mc := &k.mc[f.Worm]
		mc.next++
		k.Pool.Worms[f.Worm].Dst = mc.dests[mc.next]
		k.injOwner[t] = f.Worm
	}
	if f.Kind >= flit.Tail {
		k.injOwner[t] = -1
	}
}

// syncVeto holds back every synchronous worm that cannot move all of its
// flits this cycle, and recomputes the flow until no more worms are held
// back (holding one back can stall flits that needed its slots). Ports
// granted this cycle to a worm held back are given back, except under the
// non-atomic grab policy, whose whole point is that they are kept.
func (k *Kernel) syncVeto() {
	for {
		changed := false
		for b := range k.activeBuffers() {
			for i, f := range wormRuns(&k.bs[b]) {
				if k.Pool.Worms[f.Worm].Cast != flit.SyncTree || k.vetoAt[f.Worm] == k.now {
					continue
				}
				// Its first flit here must be at the front and moving.
				if i > 0 || !k.moving(b) {
					k.vetoAt[f.Worm] = k.now
					changed = true
				}
			}
		}
		if !changed {
			break
		}
		k.flow()
	}
	for _, g := range k.granted {
		if k.vetoAt[g.worm] != k.now || k.sw[g.sw].Policy == xbar.Grab {
			continue // a grabbing switch keeps what it took (Fig 4.6)
		}
		x := &k.bs[g.b]
		x.mask &^= g.got
		k.makeRolled()
		k.rolledB[g.b] = k.now
		for m := g.got; m != 0; {
			gp := k.portBase[g.sw] + int32(m.Next())
			k.release(g.sw, gp)
			// Remember who won it: a worm that lost this port to one that
			// gave it back waits for that worm as surely as for an owner.
			k.rolledAt[gp], k.rolledBy[gp] = k.now, g.worm
		}
		k.alloc.set(g.b)
	}
}

// makeRolled allocates the record of given-back grants (rolledB, rolledAt,
// rolledBy) at the first give-back: only synchronous worms give grants
// back, and 20 bytes a port for them in every network was a twelfth of a
// large network's memory. Until then the record is nil (see rolledPort).
func (k *Kernel) makeRolled() {
	if k.rolledB == nil {
		np := len(k.owner)
		k.rolledAt, k.rolledB, k.rolledBy = fill64(np, -1), fill64(int(k.nb), -1), fill(np, -1)
	}
}

// rolledPort reports whether port gp was given back in this cycle, and by
// which synchronous worm.
func (k *Kernel) rolledPort(gp int32) (bool, int32) {
	if k.rolledAt == nil || k.rolledAt[gp] != k.now {
		return false, -1
	}
	return true, k.rolledBy[gp]
}

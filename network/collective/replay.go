package collective

import (
	"slices"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// A plan is a static schedule written out: in slot Slot, node Node sends
// its packet Key over dimension Dim. The single-node and partial
// accumulations, the gather and the scatter of the folded cube are plans
// derived from a broadcast (the paper §3: reverse the transmissions,
// combining instead of copying; an MNB restricted to the packets' paths to
// one node is a gather): the task is static, so every node can compute the
// same plan in advance and carry out its own part of it.
type planEv struct {
	Slot      int64
	Node, Dim int32
	Key       int32
}

// hop is one recorded transmission of a hardware run: Key crossed the
// dimension-Dim link From → To in Slot.
type hop struct {
	Slot          int64
	From, To, Dim int32
	Key           int32
}

// recorder passes a schedule through and writes down every transmission
// (from the arrivals: the packet's Aux is its key).
type recorder struct {
	SlotScheduler scheduler
	x             *dims
	hops          []hop
}

func (r *recorder) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	return r.SlotScheduler.Sends(slot, node, out)
}

func (r *recorder) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	j := r.x.dimOf(node, inPort)
	r.hops = append(r.hops, hop{Slot: slot, From: r.x.nbr[int(node)*r.x.D+j], To: node, Dim: int32(j), Key: int32(w.Aux)})
	return r.SlotScheduler.Arrived(slot, node, inPort, w, wi)
}

// reversed is the plan that runs hops backwards in time: a hop in slot t
// of a T-slot run becomes the send To → From in slot T−1−t (a link's two
// directions share a dimension on the folded cube).
func reversed(hops []hop, T int64) []planEv {
	out := make([]planEv, len(hops))
	for i, h := range hops {
		out[i] = planEv{Slot: T - 1 - h.Slot, Node: h.To, Dim: h.Dim, Key: h.Key}
	}
	return out
}

// replaySched carries out a plan. A node holds at most one packet per key.
// Moving (combine false): a node sends a copy while it has later sends of
// the key, the packet itself at its last; an arrival is kept when the node
// has sends of the key left, else it is delivered there. Combining: a
// node's packet for a key is its partial result; an arrival is absorbed
// into the node's partial (union of the contributions), kept when the
// node has none but has sends left (a relay), or is the result when it
// reaches the key's sink.
type replaySched struct {
	x       *dims
	nk      int
	ev      [][]planEv // per node, by slot
	cur     []int32
	hold    []int32 // node × key: the packet, or −1
	left    []int32 // node × key: sends still to make
	isDest  func(node, key int) bool
	combine bool
	sink    func(key int) int
	uf      []int32 // combining: contributions (node × key) by union-find
	pk      []int32 // combining, per packet: its contribution set
	done    []bool  // combining, per key: the result reached the sink
	ck      *checker
	slots   int64 // the plan's length
}

func newReplay(x *dims, nk int, plan []planEv, ck *checker) *replaySched {
	s := &replaySched{x: x, nk: nk, ev: make([][]planEv, x.n), cur: make([]int32, x.n),
		hold: slices.Repeat([]int32{-1}, x.n*nk), left: make([]int32, x.n*nk), ck: ck}
	for _, e := range plan {
		s.ev[e.Node] = append(s.ev[e.Node], e)
		s.left[int(e.Node)*nk+int(e.Key)]++
		s.slots = max(s.slots, e.Slot+1)
	}
	for _, evs := range s.ev {
		slices.SortStableFunc(evs, func(a, b planEv) int { return int(a.Slot - b.Slot) })
	}
	return s
}

// setCombine makes the replay combine, with each key's sink.
func (s *replaySched) setCombine(sink func(key int) int) {
	s.combine, s.sink = true, sink
	s.uf = make([]int32, s.x.n*s.nk)
	for i := range s.uf {
		s.uf[i] = int32(i)
	}
	s.done = make([]bool, s.nk)
}

// add enqueues node's packet for key (bound for dst) and holds it.
func (s *replaySched) add(k *kernel.Kernel, node, key, dst int) {
	wi := k.EnqueueScheduled(s.x.term[node], s.x.term[dst], uint64(key))
	s.hold[node*s.nk+key] = wi
	if s.combine {
		for int(wi) >= len(s.pk) {
			s.pk = append(s.pk, -1)
		}
		s.pk[wi] = int32(node*s.nk + key)
	}
}

func (s *replaySched) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	evs, i := s.ev[node], int(s.cur[node])
	for i < len(evs) && evs[i].Slot < slot { // (a send of a packet the node never got: missing later)
		i++
	}
	for ; i < len(evs) && evs[i].Slot == slot; i++ {
		e := evs[i]
		h := int(node)*s.nk + int(e.Key)
		wi := s.hold[h]
		if wi < 0 {
			continue
		}
		s.left[h]--
		cp := !s.combine && s.left[h] > 0
		if !cp {
			s.hold[h] = -1
		}
		out = append(out, kernel.SlotSend{Packet: wi, Port: s.x.portOf(int(node), int(e.Dim)), Copy: cp})
	}
	s.cur[node] = int32(i)
	return out
}

func (s *replaySched) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	key := int(w.Aux)
	h := int(node)*s.nk + key
	if s.combine {
		switch {
		case s.hold[h] >= 0:
			s.union(s.pk[s.hold[h]], s.pk[wi])
		case s.left[h] > 0:
			s.hold[h] = wi
			return true
		case int(node) == s.sink(key):
			s.union(int32(h), s.pk[wi])
			s.done[key] = true
		default:
			s.ck.stray++
		}
		w.Dst = int32(s.x.term[node])
		return false
	}
	dest := s.isDest(int(node), key)
	if dest {
		s.ck.got(int(node), key, true)
	}
	if s.left[h] > 0 && s.hold[h] < 0 {
		s.hold[h] = wi
		return true
	}
	if !dest {
		s.ck.got(int(node), key, false)
	}
	w.Dst = int32(s.x.term[node])
	return false
}

func (s *replaySched) find(a int32) int32 {
	for s.uf[a] != a {
		s.uf[a] = s.uf[s.uf[a]]
		a = s.uf[a]
	}
	return a
}

func (s *replaySched) union(a, b int32) { s.uf[s.find(a)] = s.find(b) }

// tallyCombined checks each key's result at its sink: the checker expects
// (sink, v) for every contributor v, and gets it when v's contribution is
// in the result that reached the sink.
func (s *replaySched) tallyCombined(keys []int) {
	for _, key := range keys {
		sk := s.sink(key)
		if !s.done[key] {
			continue
		}
		root := s.find(int32(sk*s.nk + key))
		for v := 0; v < s.x.n; v++ {
			if v != sk && s.find(int32(v*s.nk+key)) == root {
				s.ck.got(sk, v, true)
			}
		}
	}
}

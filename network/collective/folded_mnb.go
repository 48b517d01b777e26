package collective

import (
	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/internal/kernel"
)

// foldedSplitMNB is the folded-cube MNB with splitting (thesis §7.4, digest
// 000b §4.14(b)): every packet is split into d+1 parts; part c is broadcast
// by 𝒜_c, recursive doubling over the d dimensions c, c+1, …, c+d−1
// (mod d+1) — a cyclic shift of ⟨0, 1, …, d−1, c⟩ with dimension c−1
// dropped (digest §7 item 20). In subphase l (1..d) every node sends, one
// per mini-slot, the 2^{l−1} class-c parts it holds over dimension
// c+l−1; the d+1 classes use different dimensions in every mini-slot.
// The router runs one slot per mini-slot: N−1 mini-slots, (N−1)/(d+1)
// slots.
type foldedSplitMNB struct {
	x    *dims
	held [][]int32 // node × class: parts held, in arrival order
	ck   *checker
}

func setupFoldedMNBSplit(k *kernel.Kernel, x *dims, px *proxy, r *Result) *checker {
	n, D := x.n, x.D
	ck := newCheckerCols(n, n*D)
	s := &foldedSplitMNB{x: x, held: make([][]int32, n*D), ck: ck}
	for o := 0; o < n; o++ {
		for c := 0; c < D; c++ {
			wi := k.EnqueueScheduled(x.term[o], x.term[o], uint64(o*D+c))
			s.held[o*D+c] = append(make([]int32, 0, n), wi)
			for v := 0; v < n; v++ {
				if v != o {
					ck.expect(v, o*D+c)
				}
			}
		}
	}
	px.SlotScheduler, px.limit, px.split = s, int64(n), int64(D)
	r.Packets = int64(n * D)
	f := float64(n-1) / float64(D)
	r.Formula, r.FormulaText = &f, "(N−1)/(d+1) (MNB with splitting, thesis §7.4)"
	r.LowerBound, r.LowerText = f, "(N−1)/(d+1): each node receives N−1 packets over d+1 links"
	r.Reading = "each packet split into d+1 parts; part c by 𝒜_c, recursive doubling over dimensions c, c+1, …, c+d−1 mod d+1 (digest 000b §7 item 20); the router runs one slot per mini-slot; packets counts parts; deliveries are per (node, packet, part)"
	return ck
}

// subphase is the subphase l (1..d) of mini-slot t and t's place in it:
// subphase l takes mini-slots 2^{l−1}−1 … 2^l−2.
func subphase(t int64) (l int, pos int) {
	l = 1
	for int64(1)<<l-1 <= t {
		l++
	}
	return l, int(t - (int64(1)<<(l-1) - 1))
}

func (s *foldedSplitMNB) Sends(slot int64, node int32, out []kernel.SlotSend) []kernel.SlotSend {
	x := s.x
	l, pos := subphase(slot)
	if l > x.d {
		return out
	}
	for c := 0; c < x.D; c++ {
		h := s.held[int(node)*x.D+c]
		if pos >= len(h) {
			continue
		}
		out = append(out, kernel.SlotSend{Packet: h[pos], Port: x.portOf(int(node), (c+l-1)%x.D), Copy: l < x.d})
	}
	return out
}

func (s *foldedSplitMNB) Arrived(slot int64, node, inPort int32, w *flit.Worm, wi int32) bool {
	key := int(w.Aux)
	s.ck.got(int(node), key, true)
	if l, _ := subphase(slot); l >= s.x.d { // (the last subphase: delivered here)
		w.Dst = int32(s.x.term[node])
		return false
	}
	i := int(node)*s.x.D + key%s.x.D
	s.held[i] = append(s.held[i], wi)
	return true
}

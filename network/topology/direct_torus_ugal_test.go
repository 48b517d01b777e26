package topology

import (
	"math/rand/v2"
	"testing"

	"github.com/flitsim/flitsim/flit"
)

// Walking UGAL's routes hop by hop, as a VC router does, on the 8×8 and
// 5×6 tori: a minimal packet arrives in the minimal hop count and a
// non-minimal one in the sum of its legs', passing its intermediate node;
// a minimal packet and the first leg take classes 0 and 1, the second leg
// 2 and 3, each taking its upper class for a dimension exactly when its
// run along that ring crosses the wraparound link, and keeping it to the
// end of the run (dor-dateline per leg).
func TestUGALRoutes(t *testing.T) {
	for _, k := range []string{"8", "5,6"} {
		kind, _ := Kind("torus")
		spec, _ := kind.Defaults()
		if err := spec.Set("k", k); err != nil {
			t.Fatal(err)
		}
		spec.Routing = "ugal"
		topo := mustBuild(t, spec)
		r := topo.Router.(UGALRouter)
		rng := rand.New(rand.NewPCG(1, 2))
		n := topo.Terminals()
		for range 3000 {
			w := &flit.Worm{Src: int32(rng.IntN(n)), Dst: int32(rng.IntN(n))}
			r.Init(w, rng)
			src := int(w.Src)
			mp, mh, np, nh, ok := r.Options(src, w)
			non := ok && rng.IntN(2) == 0
			r.Choose(w, non)
			want, first := mh, mp
			if non {
				want, first = nh, np
			}
			walkUGAL(t, topo, r, w, want, first, non)
		}
	}
}

func walkUGAL(t *testing.T, topo *Topology, r UGALRouter, w *flit.Worm, want, first int, non bool) {
	t.Helper()
	sw, in, cls, hops, sawMid := int(w.Src), int(topo.InPort[w.Src]), 0, 0, false
	m := int(w.Aux >> 32)
	runCls, runWrap := -1, false // the current run along one ring: its class, whether it wrapped
	endRun := func() {
		if runCls >= 0 && runCls%2 != b2i(runWrap) {
			t.Fatalf("%d→%d via %d: a run on class %d, wrapping %v", w.Src, w.Dst, m, runCls, runWrap)
		}
	}
	for {
		ps := r.RouteHead(sw, in, w, &w.Route)
		if ps.Count() != 1 {
			t.Fatalf("%d→%d: %d ports", w.Src, w.Dst, ps.Count())
		}
		out := ps.First()
		if hops == 0 && out != first {
			t.Fatalf("%d→%d: first port %d, Options said %d", w.Src, w.Dst, out, first)
		}
		sawMid = sawMid || sw == m
		e := topo.Switches[sw].Out[out]
		if e.ToTerminal() {
			if int(e.Terminal) != int(w.Dst) || hops != want || non && !sawMid {
				t.Fatalf("%d→%d via %d (non-minimal %v): ejected at %d after %d hops, want %d", w.Src, w.Dst, m, non, e.Terminal, hops, want)
			}
			endRun()
			return
		}
		c := r.Class(sw, in, out, cls, w)
		leg := 0 // (minimal, or the first leg: classes 0 and 1)
		if non && sawMid {
			leg = 2
		}
		wrap := out&1 == 1 && int(e.Switch) < sw || out&1 == 0 && int(e.Switch) > sw
		newRun := in >= 4 || in/2 != out/2 || cls/2 != leg/2
		if newRun {
			endRun()
			runCls, runWrap = c, false
		}
		runWrap = runWrap || wrap
		switch {
		case c/2 != leg/2:
			t.Fatalf("%d→%d at %d: class %d on leg %d", w.Src, w.Dst, sw, c, leg)
		case !newRun && c != cls:
			t.Fatalf("%d→%d at %d port %d: class %d after %d on along the ring", w.Src, w.Dst, sw, out, c, cls)
		}
		sw, in, cls, hops = int(e.Switch), int(e.Port), c, hops+1
	}
}

// rlb's routes, walked as ugal's: every packet passes its intermediate in
// the hops of its two legs, the legs on their classes; under tornado on
// the 8×8 torus (3 hops the short way) a packet goes the long way in a
// dimension with probability 3/8, so 1 − (5/8)² of them go round in at
// least one (checked to ±0.03 over 4000 packets), 5 hops there.
func TestRLBRoutes(t *testing.T) {
	kind, _ := Kind("torus")
	spec, _ := kind.Defaults()
	spec.Routing = "rlb"
	topo := mustBuild(t, spec)
	r := topo.Router.(UGALRouter)
	rng := rand.New(rand.NewPCG(3, 4))
	n, round, draws := topo.Terminals(), 0, 4000
	for i := range draws {
		src := rng.IntN(n)
		dst := (src%8+3)%8 + (src/8+3)%8*8 // tornado
		if i%2 == 1 {
			dst = rng.IntN(n)
		}
		w := &flit.Worm{Src: int32(src), Dst: int32(dst)}
		r.Init(w, rng)
		if _, _, _, _, ok := r.Options(src, w); ok {
			t.Fatalf("%d→%d: Options offers a choice", src, dst)
		}
		r.Choose(w, false)
		rr := r.(*rlbRouter)
		m := int(w.Aux >> 32)
		hops, first := rr.hops(src, m)+rr.hops(m, dst), rr.portTo(src, m, w.Aux)
		if m == src {
			first = rr.portTo(src, dst, w.Aux)
		}
		walkUGAL(t, topo, r, w, hops, first, m != src)
		if i%2 == 0 && hops > 6 {
			if hops != 8 && hops != 10 {
				t.Fatalf("tornado %d→%d via %d: %d hops, want 6, 8 or 10", src, dst, m, hops)
			}
			round++
		}
	}
	if f, want := float64(round)/float64(draws/2), 1-25.0/64; f < want-0.03 || f > want+0.03 {
		t.Errorf("tornado: %.3f of the packets go round, want %.3f", f, want)
	}
}

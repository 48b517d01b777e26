package kernel

import (
	"fmt"
	"strings"

	"github.com/flitsim/flitsim/switch/model"
)

// Cycles broken by an escape path (routing: adaptive, Duato's escape VCs).
// A head that finds every adaptive VC held also waits for its escape VC;
// in the wait-for graph it leaves the deadlocked set as soon as either
// holder does. When the check (detect) finds no deadlock but the waits
// without the escape ones would close a cycle, the escape VCs are what
// kept the run going: the check counts it and reports the first.

// EscapedCycle is a wait-for cycle among packets on adaptive VCs that only
// an escape VC broke.
type EscapedCycle struct {
	Cycle int64 `json:"cycle"` // the check that found it
	// Worms and Resources as in a Deadlock: each packet of the cycle and
	// its wait on the next.
	Worms     []DeadlockWorm `json:"worms"`
	Resources []string       `json:"resources"`
	// Escape is the escape VC one of them waits for too, held by a packet
	// outside the cycle: the way out.
	Escape string `json:"escape"`
}

// Escaper is a Tracer that also logs the first escaped cycle; the kernel
// asks its tracer for it (a tracer without it does not see them).
type Escaper interface {
	// Escaped: the check in cycle found packets worms (pool indices)
	// waiting in a cycle, waits[i] worms[i]'s wait on the next; the last
	// entry is the escape wait that breaks it.
	Escaped(cycle int64, worms []int32, waits []string)
}

// EscapedCycles reports how many deadlock checks found a cycle that only
// an escape VC broke, and the first (nil: none, or no public model).
func (k *Kernel) EscapedCycles() (int64, *EscapedCycle) {
	if p, ok := k.stepper.(*publicModel); ok {
		return p.escaped, p.firstEscape
	}
	return 0, nil
}

// escapes runs after a check (detect) that found no deadlock among waits
// ws, some of them on escape VCs: the largest set of packets that each
// wait only for packets of the set by their other waits is the set the
// escape VCs let go. Here a packet whose later flits still move up while
// its front waits is waiting too (its flits moving up free no VC another
// waits for). (It uses member as detect does, and clears it.)
func (p *publicModel) escapes(ws []model.Wait) {
	ws = append(append(p.escAll[:0], ws...), p.movedWaits...)
	p.escAll = ws
	for _, w := range ws {
		p.grow(max(w.Flit.Worm, w.For))
	}
	p.noEsc = p.noEsc[:0]
	for _, w := range ws {
		if !w.Escape {
			p.noEsc = append(p.noEsc, w)
			p.member[w.Flit.Worm] = true
		}
	}
	p.settleMembers(p.noEsc)
	found := false
	for _, w := range p.noEsc {
		found = found || p.member[w.Flit.Worm]
	}
	if found {
		p.escaped++
		if p.firstEscape == nil {
			p.firstEscape = p.escapeReport(ws)
		}
	}
	for _, w := range p.noEsc {
		p.member[w.Flit.Worm] = false
	}
}

// escapeReport names a cycle of the set escapes found (member), and the
// escape wait of one of its packets, on a holder outside the set if one
// does.
func (p *publicModel) escapeReport(ws []model.Wait) *EscapedCycle {
	k := p.k
	dl, cycle := p.cycleReport(p.noEsc)
	e := &EscapedCycle{Cycle: k.now, Worms: dl.Worms, Resources: dl.Resources}
	on := map[int32]bool{}
	for _, wi := range cycle {
		on[wi] = true
	}
	// The way out: an escape wait of a packet of the cycle, a free VC
	// (For −1) or one held outside the set if there is one.
	out := func(w *model.Wait) bool { return w.For < 0 || !p.member[w.For] }
	var esc *model.Wait
	for i := range ws {
		w := &ws[i]
		if w.Escape && on[w.Flit.Worm] && (esc == nil || !out(esc) && out(w)) {
			esc = w
		}
	}
	if esc != nil {
		x := *esc
		x.For, x.Kind = x.Flit.Worm, model.WaitVC // (describe's wording, its ending replaced)
		d := p.describe(x)
		d = strings.Replace(d[:strings.LastIndex(d, ", held by")], " waits for output VC ", " may take escape VC ", 1)
		switch {
		case esc.For < 0:
			e.Escape = d + ", which is free"
		case out(esc):
			e.Escape = fmt.Sprintf("%s, held by worm %d, which waits for none of them", d, k.Pool.Worms[esc.For].ID)
		default:
			e.Escape = fmt.Sprintf("%s, held by worm %d", d, k.Pool.Worms[esc.For].ID)
		}
	}
	if k.tr != nil {
		if t, ok := k.tr.(Escaper); ok {
			waits := append(append([]string(nil), e.Resources...), e.Escape)
			worms := append([]int32(nil), cycle...)
			if esc != nil {
				worms = append(worms, esc.Flit.Worm)
			} else {
				worms = append(worms, -1)
			}
			t.Escaped(k.now, worms, waits)
		}
	}
	return e
}

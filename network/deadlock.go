package network

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/flitsim/flitsim/flit"
	"github.com/flitsim/flitsim/link"
	xbar "github.com/flitsim/flitsim/switch"
)

// Deadlock detection works on a wait-for graph over buffers. Its nodes are
// the buffers whose front flit did not move in the cycle being checked; an
// edge b → c means b's front flit cannot move until c's front flit moves:
//   - c is a full destination buffer of b's flit, or
//   - b's head needs a port held by another worm, whose progress is waiting
//     at c, the buffer holding that worm's rearmost flit (the port is freed
//     only when its tail passes), or
//   - b's head waits, under store-and-forward, for its own tail at c.
//
// A front flit that is blocked only for a passing reason (a flit still on a
// link, a lost arbitration for a free port) has no edges and is not a node.
// The deadlocked buffers are the largest set in which every edge leads to a
// member: nothing in it can move before something else in it moves, so it
// never will. This is exact for deterministic routing, not a timeout guess.

// waitEdge is one edge of the graph.
type waitEdge struct {
	to   int32 // buffer waited for
	port int32 // global port waited for, or -1 for a space wait
	who  int32 // worm holding the port
}

type waitGraph struct {
	start []int32 // per node: first edge index; node ids are buffer ids
	edges []waitEdge
	in    []bool
	nodes []int32
	order []int32
}

// detect checks the state after this cycle's evaluation. It returns nil when
// no set of buffers is deadlocked.
func (k *Kernel) detect() *Deadlock {
	g := &k.wg
	if g.in == nil {
		g.in = make([]bool, k.nb)
		g.start = make([]int32, k.nb+1)
	}
	g.nodes = g.nodes[:0]
	g.edges = g.edges[:0]
	k.findRears()
	for wi, word := range k.active {
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			if k.moving(b) {
				continue
			}
			first := int32(len(g.edges))
			if k.waits(b) {
				g.nodes = append(g.nodes, b)
				g.start[b] = first
				g.in[b] = true
			} else {
				g.edges = g.edges[:first]
			}
		}
	}
	// Edge lists are contiguous per node in node order.
	for changed := true; changed; {
		changed = false
		for i, b := range g.nodes {
			if !g.in[b] {
				continue
			}
			for _, e := range g.edges[g.start[b]:g.end(i)] {
				if !g.in[e.to] {
					g.in[b] = false
					changed = true
					break
				}
			}
		}
	}
	var dl *Deadlock
	for i, b := range g.nodes {
		if g.in[b] {
			dl = k.report(b, i)
			break
		}
	}
	for _, b := range g.nodes {
		g.in[b] = false
	}
	return dl
}

func (g *waitGraph) end(i int) int32 {
	if i+1 < len(g.nodes) {
		return g.start[g.nodes[i+1]]
	}
	return int32(len(g.edges))
}

// waits appends b's wait edges and reports whether b is a node (blocked for
// a lasting reason).
func (k *Kernel) waits(b int32) bool {
	g := &k.wg
	f := k.bs[b].Front()
	if !f.Ready(k.now) {
		return false
	}
	w := &k.Pool.Worms[f.Worm]
	if s := k.bs[b].rSw; s >= 0 && k.bs[b].st != stGranted {
		if k.bs[b].st != stRequesting {
			return false
		}
		owners := 0
		for m := k.bs[b].mask; m != 0; {
			p := m.Next()
			o := k.sw[s].Owner[p]
			if o != xbar.Free && o != f.Worm {
				g.edges = append(g.edges, waitEdge{to: k.rear[o], port: k.portBase[s] + int32(p), who: o})
				owners++
			}
		}
		return owners > 0
	}
	need := 1
	if f.Seq == 0 && k.mode != link.Wormhole {
		if k.mode == link.SAF && k.bs[b].kind != kindSource && !k.wholeIn(&k.bs[b], w) {
			g.edges = append(g.edges, waitEdge{to: k.rear[f.Worm], port: -1, who: f.Worm})
			return true
		}
		if k.mode == link.VCT {
			need = int(w.Len)
		}
	}
	n := len(g.edges)
	if k.bs[b].rSw < 0 {
		k.spaceWait(k.bs[b].fixed, need)
	} else {
		base := k.portBase[k.bs[b].rSw]
		for m := k.bs[b].mask; m != 0; {
			k.spaceWait(k.pDest[base+int32(m.Next())], need)
		}
	}
	return len(g.edges) > n
}

func (k *Kernel) spaceWait(d int32, need int) {
	if d < k.nb && !k.hasRoom(d, need) {
		k.wg.edges = append(k.wg.edges, waitEdge{to: d, port: -1, who: -1})
	}
}

// report walks the deadlocked set from node b to a cycle and describes it.
func (k *Kernel) report(b int32, _ int) *Deadlock {
	g := &k.wg
	idx := make(map[int32]int) // reporting only; not on the hot path
	for i, n := range g.nodes {
		idx[n] = i
	}
	g.order = g.order[:0]
	seen := map[int32]int{}
	cur := b
	for {
		if at, ok := seen[cur]; ok {
			g.order = g.order[at:]
			break
		}
		seen[cur] = len(g.order)
		g.order = append(g.order, cur)
		i := idx[cur]
		for _, e := range g.edges[g.start[cur]:g.end(i)] {
			if g.in[e.to] {
				cur = e.to
				break
			}
		}
	}
	dl := &Deadlock{Cycle: k.now}
	wormSeen := map[int32]bool{}
	swSeen := map[string]bool{}
	for j, n := range g.order {
		if since := k.bs[n].moved + 1; since > dl.Since {
			dl.Since = since
		}
		f := k.bs[n].Front()
		w := &k.Pool.Worms[f.Worm]
		if !wormSeen[f.Worm] {
			wormSeen[f.Worm] = true
			dl.Worms = append(dl.Worms, DeadlockWorm{ID: w.ID, Src: w.Src, Dst: w.Dst})
		}
		next := g.order[(j+1)%len(g.order)]
		var e waitEdge
		for _, x := range g.edges[g.start[n]:g.end(idx[n])] {
			if x.to == next {
				e = x
				break
			}
		}
		if e.port >= 0 || e.who < 0 && k.bs[e.to].Front().Worm != f.Worm {
			// Only waits between different worms: a worm's flits waiting
			// behind its own flits add nothing to the picture.
			dl.Resources = append(dl.Resources, k.describeWait(n, w, e))
		}
		if k.bs[n].kind != kindSource {
			if l := k.Topo.Switches[k.bSw[n]].Label; !swSeen[l] {
				swSeen[l] = true
				dl.Switches = append(dl.Switches, l)
			}
		}
		if e.port >= 0 {
			if l := k.Topo.Switches[k.switchOf(e.port)].Label; !swSeen[l] {
				swSeen[l] = true
				dl.Switches = append(dl.Switches, l)
			}
		}
	}
	slices.Sort(dl.Switches)
	return dl
}

func (k *Kernel) describeWait(b int32, w *flit.Worm, e waitEdge) string {
	at := fmt.Sprintf("worm %d (%d→%d) at %s", w.ID, w.Src, w.Dst, k.BufferName(b))
	if e.port >= 0 {
		holder := k.Pool.Worms[e.who].ID
		return fmt.Sprintf("%s waits for port %s held by worm %d", at, k.PortName(e.port), holder)
	}
	if e.who >= 0 {
		return fmt.Sprintf("%s waits for its tail at %s", at, k.BufferName(e.to))
	}
	fw := k.Pool.Worms[k.bs[e.to].Front().Worm].ID
	return fmt.Sprintf("%s waits for space in %s (front: worm %d)", at, k.BufferName(e.to), fw)
}

// findRears records, for every worm with flits in the network, the buffer
// holding its newest flit (the one that must move for the worm to release
// what it holds behind its head).
func (k *Kernel) findRears() {
	n := len(k.Pool.Worms)
	if len(k.rear) < n {
		k.rear = make([]int32, n)
		k.rearSeq = make([]int32, n)
	}
	for i := range k.rearSeq[:n] {
		k.rearSeq[i] = -1
	}
	for wi, word := range k.active {
		for word != 0 {
			b := int32(wi<<6 | bits.TrailingZeros64(word))
			word &= word - 1
			x := &k.bs[b]
			for i := 0; i < x.Len(); i++ {
				f := x.At(i)
				if f.Seq > k.rearSeq[f.Worm] {
					k.rearSeq[f.Worm], k.rear[f.Worm] = f.Seq, b
				}
			}
		}
	}
}

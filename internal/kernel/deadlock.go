package kernel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/flit"
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
	port int32 // global port waited for (waitPort), or -1
	who  int32 // worm holding what is waited for, or -1
	kind uint8
}

// Kinds of wait.
const (
	waitSpace  uint8 = iota // room in a full buffer
	waitPort                // a port held by a worm
	waitTail                // store-and-forward: the worm's own tail
	waitSync                // a synchronous worm's other branch
	waitInject              // a node's injection channel (path relays)
)

type waitGraph struct {
	holds holds   // waits' scratch
	start []int32 // per node: first edge index; node ids are buffer ids
	edges []waitEdge
	in    []bool
	nodes []int32
	order []int32
	sync  []syncMember
	group []int32
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
	k.collectSync()
	for b := range k.activeBuffers() {
		if k.stepper.moves(k, b) {
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
	for _, b := range g.nodes {
		if g.in[b] {
			dl = k.report()
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
// a lasting reason). It takes what b's front flit waits for from the
// movement rule (rule.go) and keeps what lasts: a full buffer, a port held
// by a worm (waiting for that worm's rearmost flit, which frees it), an
// injection channel in use, its own tail; and, for a synchronous worm,
// every other branch.
func (k *Kernel) waits(b int32) bool {
	g := &k.wg
	x := &k.bs[b]
	f := x.Front()
	if !f.Ready(k.now) {
		return false
	}
	n0 := len(g.edges)
	if k.Pool.Worms[f.Worm].Cast == flit.SyncTree {
		// A synchronous worm moves all its flits or none: each of its
		// buffers waits for every other one.
		for _, m := range k.syncGroup(f.Worm) {
			if m != b {
				g.edges = append(g.edges, waitEdge{to: m, port: -1, who: f.Worm, kind: waitSync})
			}
		}
	}
	h := &g.holds
	h.all, h.list = true, h.list[:0]
	k.stepper.rule(k, b, h)
	soft := func() bool { g.edges = g.edges[:n0]; return false }
	ports, owners := false, 0
	for _, w := range h.list {
		switch w.why {
		case WaitArb:
			if w.at < 0 {
				return soft() // binds in the next routing pass
			}
			ports = true
			rolled, by := k.rolledPort(w.at)
			if !rolled || by == f.Worm {
				continue // lost an arbitration for a free port
			}
			// Won by a synchronous worm that gave it back: a worm that
			// lost it waits for that worm as surely as for an owner.
			w.who = by
			fallthrough
		case WaitPort:
			ports = true
			if k.rearSeq[w.who] < 0 {
				return soft() // the holder has no flit left to wait for
			}
			// Held, perhaps by this worm itself (a path worm crossing its
			// own earlier route): freed when the holder's rearmost flit
			// gets through.
			g.edges = append(g.edges, waitEdge{to: k.rear[w.who], port: w.at, who: w.who, kind: waitPort})
			owners++
		case WaitInject:
			switch {
			case w.buf >= 0: // the node's own packet goes first
				g.edges = append(g.edges, waitEdge{to: w.buf, port: w.at, who: w.who, kind: waitInject})
			case k.rearSeq[w.who] < 0:
				return soft()
			default:
				g.edges = append(g.edges, waitEdge{to: k.rear[w.who], port: w.at, who: w.who, kind: waitInject})
			}
		case WaitTail:
			if k.rear[w.who] == b {
				// The tail is in this buffer already, still on the link
				// (latency ≥ 2): it arrives by itself. (Was a self-loop:
				// a false deadlock with no resources.)
				return soft()
			}
			g.edges = append(g.edges, waitEdge{to: k.rear[w.who], port: -1, who: w.who, kind: waitTail})
		case WaitSpace:
			g.edges = append(g.edges, waitEdge{to: w.at, port: -1, who: -1, kind: waitSpace})
		}
	}
	if ports && owners == 0 {
		// Granted, but given back because another branch of this
		// synchronous worm could not move: it waits for that branch (the
		// sync edges). Otherwise it lost an arbitration for free ports.
		if k.rolledB != nil && k.rolledB[b] == k.now && len(g.edges) > n0 {
			return true
		}
		return soft()
	}
	return len(g.edges) > n0
}

// syncGroup lists the buffers holding flits of synchronous worm wi.
func (k *Kernel) syncGroup(wi int32) []int32 {
	g := &k.wg
	i, _ := slices.BinarySearchFunc(g.sync, wi, func(e syncMember, w int32) int { return int(e.worm - w) })
	j := i
	for j < len(g.sync) && g.sync[j].worm == wi {
		j++
	}
	g.group = g.group[:0]
	for _, e := range g.sync[i:j] {
		g.group = append(g.group, e.b)
	}
	return g.group
}

// collectSync records which buffers hold flits of which synchronous worms.
func (k *Kernel) collectSync() {
	g := &k.wg
	g.sync = g.sync[:0]
	if k.syncLive == 0 {
		return
	}
	for b := range k.activeBuffers() {
		for _, f := range wormRuns(&k.bs[b]) {
			if k.Pool.Worms[f.Worm].Cast == flit.SyncTree {
				g.sync = append(g.sync, syncMember{worm: f.Worm, b: b})
			}
		}
	}
	slices.SortFunc(g.sync, func(a, b syncMember) int {
		if a.worm != b.worm {
			return int(a.worm - b.worm)
		}
		return int(a.b - b.b)
	})
}

type syncMember struct{ worm, b int32 }

// report describes the deadlocked set: it projects the buffer-level waits
// onto worms, finds a cycle of worms waiting for one another and names, for
// each, the buffer it waits at and what it waits for. A set with no cycle
// between different worms is a worm blocking itself (a path-based worm
// crossing its own route, a synchronous worm waiting for space its own
// flits hold), reported with its self-waits.
func (k *Kernel) report() *Deadlock {
	ww := k.projectWaits()
	cycle := wormCycle(ww.worms, ww.next)
	dl := &Deadlock{Cycle: k.now}
	seen := map[string]bool{} // switch labels already in dl.Switches
	if len(cycle) == 0 && len(ww.worms) > 0 {
		cycle = ww.worms[:1]
		self := ww.self
		if len(self) == 0 {
			// No port of its own in the way: a synchronous worm whose
			// branches wait for space its own flits hold (1-flit buffers
			// without switch.reuse). Its waits are the resources.
			self = ww.selfOther
		}
		for _, r := range self {
			k.describeWaitRep(dl, seen, r)
		}
	}
	for i, wi := range cycle {
		w := &k.Pool.Worms[wi]
		dl.Worms = append(dl.Worms, DeadlockWorm{ID: w.ID, Src: w.Src, Dst: k.dests(wi)})
		if len(cycle) > 1 {
			k.describeWaitRep(dl, seen, ww.reps[[2]int32{wi, cycle[(i+1)%len(cycle)]}])
		}
	}
	slices.Sort(dl.Switches)
	return dl
}

// waitRep is one buffer-level wait: buffer b and its edge.
type waitRep struct {
	b int32
	e waitEdge
}

// wormWaits is the wait graph projected onto worms.
type wormWaits struct {
	worms []int32           // the waiting worms, in node order
	next  map[int32][]int32 // worm → the worms it waits for
	// reps is the first buffer-level wait behind each worm-level edge.
	reps map[[2]int32]waitRep
	// self and selfOther are a worm's waits on itself: for a port, and for
	// space or a synchronous branch.
	self, selfOther []waitRep
}

// projectWaits projects the buffer-level wait edges onto worms (maps only
// here, off the hot path).
func (k *Kernel) projectWaits() *wormWaits {
	g := &k.wg
	ww := &wormWaits{next: map[int32][]int32{}, reps: map[[2]int32]waitRep{}}
	for i, b := range g.nodes {
		if !g.in[b] {
			continue
		}
		wb := k.bs[b].Front().Worm
		if _, ok := ww.next[wb]; !ok {
			ww.next[wb] = nil
			ww.worms = append(ww.worms, wb)
		}
		for _, e := range g.edges[g.start[b]:g.end(i)] {
			wt := e.who
			if e.kind == waitSpace || e.kind == waitSync {
				wt = k.bs[e.to].Front().Worm
			}
			if wt == wb {
				if e.kind == waitPort {
					ww.self = append(ww.self, waitRep{b, e})
				} else {
					ww.selfOther = append(ww.selfOther, waitRep{b, e})
				}
				continue
			}
			if _, ok := ww.reps[[2]int32{wb, wt}]; !ok {
				ww.reps[[2]int32{wb, wt}] = waitRep{b, e}
				ww.next[wb] = append(ww.next[wb], wt)
			}
		}
	}
	return ww
}

// describeWaitRep adds wait r to dl: the resource it waits for, the
// switches involved (each once; seen holds those already listed) and the
// latest cycle since which its buffer has not moved.
func (k *Kernel) describeWaitRep(dl *Deadlock, seen map[string]bool, r waitRep) {
	addSwitch := func(s int) {
		if l := k.Topo.Switches[s].Label; !seen[l] {
			seen[l] = true
			dl.Switches = append(dl.Switches, l)
		}
	}
	x := &k.bs[r.b]
	w := &k.Pool.Worms[x.Front().Worm]
	dl.Resources = append(dl.Resources, k.describeWait(r.b, w, r.e))
	if x.kind != kindSource {
		addSwitch(int(k.bSw[r.b]))
	}
	if r.e.kind == waitPort {
		addSwitch(k.switchOf(r.e.port))
	}
	if since := k.bs[r.b].moved + 1; since > dl.Since {
		dl.Since = since
	}
}

// wormCycle finds a cycle in the worm-level wait graph (depth-first).
func wormCycle(worms []int32, next map[int32][]int32) []int32 {
	const (
		white = iota
		grey
		black
	)
	color := map[int32]int{}
	var stack []int32
	var found []int32
	var visit func(w int32) bool
	visit = func(w int32) bool {
		color[w] = grey
		stack = append(stack, w)
		for _, v := range next[w] {
			switch color[v] {
			case grey:
				i := slices.Index(stack, v)
				found = append([]int32(nil), stack[i:]...)
				return true
			case white:
				if visit(v) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[w] = black
		return false
	}
	for _, w := range worms {
		if color[w] == white && visit(w) {
			return found
		}
	}
	return nil
}

// dests lists worm wi's destinations.
func (k *Kernel) dests(wi int32) []int32 {
	w := &k.Pool.Worms[wi]
	if w.Cast == flit.Unicast {
		return []int32{w.Dst}
	}
	return append([]int32(nil), k.mc[wi].dests...)
}

func (k *Kernel) describeWait(b int32, w *flit.Worm, e waitEdge) string {
	at := fmt.Sprintf("worm %d (%d→%s) at %s", w.ID, w.Src, DestText(k.dests(k.bs[b].Front().Worm)), k.BufferName(b))
	switch e.kind {
	case waitPort:
		return fmt.Sprintf("%s waits for port %s held by worm %d", at, k.PortName(e.port), k.Pool.Worms[e.who].ID)
	case waitInject:
		return fmt.Sprintf("%s waits for terminal %d's injection channel, used by worm %d", at, e.port, k.Pool.Worms[e.who].ID)
	case waitTail:
		return fmt.Sprintf("%s waits for its tail at %s", at, k.BufferName(e.to))
	case waitSync:
		return fmt.Sprintf("%s moves only with its branch at %s", at, k.BufferName(e.to))
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
	for b := range k.activeBuffers() {
		x := &k.bs[b]
		for i := 0; i < x.Len(); i++ {
			f := x.At(i)
			if f.Seq > k.rearSeq[f.Worm] {
				k.rearSeq[f.Worm], k.rear[f.Worm] = f.Seq, b
			}
		}
	}
}

// DestText writes a destination list: 5, or {3,4,5}.
func DestText(d []int32) string {
	if len(d) == 1 {
		return fmt.Sprint(d[0])
	}
	s := make([]string, len(d))
	for i, v := range d {
		s[i] = fmt.Sprint(v)
	}
	return "{" + strings.Join(s, ",") + "}"
}

// Deadlock reports a cycle in the wait-for graph.
type Deadlock struct {
	// Cycle is the cycle in which the check found it; Since is the first
	// cycle in which none of the worms in it moved.
	Cycle int64 `json:"cycle"`
	Since int64 `json:"since"`
	// Worms in the cycle (serial IDs with source and destination).
	Worms []DeadlockWorm `json:"worms"`
	// Resources describe, in cycle order, each wait of one worm for another:
	// the buffer holding the waiting flit and the port or buffer it needs,
	// with the worm holding that.
	Resources []string `json:"resources"`
	// Switches named in the cycle.
	Switches []string `json:"switches"`
}

// DeadlockWorm names one worm of a deadlock.
type DeadlockWorm struct {
	ID  uint64  `json:"id"`
	Src int32   `json:"src"`
	Dst []int32 `json:"dst"` // one destination, or a multicast's set
}

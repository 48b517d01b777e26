package gridlayout

import (
	"container/heap"
	"fmt"
	"sort"
)

// Placement puts vertex v in cell (Col[v], Row[v]) of a Cols × Rows array;
// a cell holds at most one vertex, and cells may stay empty.
type Placement struct {
	Cols, Rows int
	Col, Row   []int
}

// ArrayLayout is a general grid embedding of any multigraph whose vertices
// are placed in an array (a Manhattan channel router, not one of the
// thesis's constructions). Between every two rows runs a horizontal channel
// and between every two columns a vertical one. Each edge is oriented
// (tail → head) so that no vertex is tail or head of more than ⌈deg/2⌉
// edges (an Euler orientation), and becomes the path
//
//	tail's top or bottom pin → up/down into the next horizontal channel
//	→ along it to the vertical channel beside the head → along that to one
//	of the head's left or right pins → into the head.
//
// Every channel is split in two halves: the half nearer a row (column)
// holds only the wires leaving (entering) that row's (column's) squares, so
// a pin's stub never meets a stub from the other side. Within a half, the
// wires' extents are intervals, packed onto the fewest tracks by greedy
// interval partitioning (optimal for intervals). Extents are computed on
// an order-preserving abstract axis (a whole channel counts as one point),
// so packing precedes coordinates without circularity: intervals disjoint
// there are disjoint in the real layout. Wires cross only at grid vertices.
//
// The vertex square side is ⌈deg/4⌉ (Def 5.2), raised if needed so that
// 2·side pins can take each vertex's tails and 2·side its heads.
func ArrayLayout(name string, nodes int, g []Pair, pl Placement) (*Embedding, error) {
	if err := pl.valid(nodes); err != nil {
		return nil, err
	}
	tails, maxOut, maxIn := eulerOrient(nodes, g)
	s := max(SideFor(MaxDegree(nodes, g)), (maxOut+1)/2, (maxIn+1)/2)
	ws := assignPins(g, tails, pl, s)
	// Pack each channel half: hw[j][h] tracks in horizontal channel j
	// (below row j), half h (0: wires from row j−1's top pins, 1: from row
	// j's bottom pins); vw[i][h] likewise for vertical channel i (left of
	// column i; half 0: into column i−1's right pins, 1: column i's left).
	hw := make([][2]int, pl.Rows+1)
	vw := make([][2]int, pl.Cols+1)
	packHalves(ws, hw, func(w *wire) (int, int, int, int) {
		a, b := w.pinX*(s+1)+1+w.hPin, w.vChan*(s+1)
		return w.hChan, w.hHalf, min(a, b), max(a, b)
	}, func(w *wire, t int) { w.hTrack = t })
	packHalves(ws, vw, func(w *wire) (int, int, int, int) {
		a, b := w.hChan*(s+1), w.pinY*(s+1)+1+w.vPin
		return w.vChan, w.vHalf, min(a, b), max(a, b)
	}, func(w *wire, t int) { w.vTrack = t })
	xs, colX := channelCoords(vw, s)
	ys, rowY := channelCoords(hw, s)
	e := &Embedding{Name: name, Side: s, Pos: make([]Point, nodes)}
	for v := range nodes {
		e.Pos[v] = Point{colX[pl.Col[v]], rowY[pl.Row[v]]}
	}
	for k := range ws {
		w := &ws[k]
		tp, hp := e.Pos[w.tail], e.Pos[w.head]
		yh := ys[w.hChan] + w.hTrack
		if w.hHalf == 1 {
			yh += hw[w.hChan][0]
		}
		xv := xs[w.vChan] + w.vTrack
		if w.vHalf == 1 {
			xv += vw[w.vChan][0]
		}
		start := Point{tp.X + w.hPin, tp.Y + s - 1} // top pin
		if w.hHalf == 1 {
			start.Y = tp.Y // bottom pin
		}
		end := Point{hp.X + s - 1, hp.Y + w.vPin} // right pin
		if w.vHalf == 1 {
			end.X = hp.X // left pin
		}
		path := polyline(start, Point{start.X, yh}, Point{xv, yh}, Point{xv, end.Y}, end)
		e.add(w.tail, w.head, w.label, path)
	}
	return e, nil
}

func (pl Placement) valid(nodes int) error {
	if len(pl.Col) != nodes || len(pl.Row) != nodes {
		return fmt.Errorf("array layout: placement of %d/%d vertices for %d", len(pl.Col), len(pl.Row), nodes)
	}
	seen := map[[2]int]int{}
	for v := range nodes {
		c, r := pl.Col[v], pl.Row[v]
		if c < 0 || c >= pl.Cols || r < 0 || r >= pl.Rows {
			return fmt.Errorf("array layout: vertex %d at cell (%d,%d) outside %d×%d", v, c, r, pl.Cols, pl.Rows)
		}
		if u, dup := seen[[2]int{c, r}]; dup {
			return fmt.Errorf("array layout: vertices %d and %d share cell (%d,%d)", u, v, c, r)
		}
		seen[[2]int{c, r}] = v
	}
	return nil
}

// wire is one edge being routed: its ends, pins, channels and tracks.
type wire struct {
	tail, head   int
	label        string
	pinX, pinY   int // the tail's column, the head's row
	hChan, hHalf int // horizontal channel and half (0 above the tail, 1 below)
	hPin         int // pin on the tail's top or bottom side
	vChan, vHalf int // vertical channel and half (0 right of the head, 1 left)
	vPin         int // pin on the head's right or left side
	hTrack       int
	vTrack       int
}

// assignPins picks each wire's sides and pins: the tail leaves upwards when
// the head lies higher, the head is entered from the side facing the tail,
// each falling back to the opposite side when its s pins are taken.
func assignPins(g []Pair, tails []int, pl Placement, s int) []wire {
	used := make(map[[2]int]int) // (vertex, side 0..3: top, bottom, right, left) → pins used
	pick := func(v, pref, other int) (side, pin int) {
		side = pref
		if used[[2]int{v, pref}] >= s {
			side = other
		}
		pin = used[[2]int{v, side}]
		used[[2]int{v, side}]++
		return side, pin
	}
	ws := make([]wire, len(g))
	for k, p := range g {
		t, h := p.U, p.V
		if tails[k] != t {
			t, h = h, t
		}
		w := wire{tail: t, head: h, label: "edge", pinX: pl.Col[t], pinY: pl.Row[h]}
		up, down := 0, 1
		if pl.Row[h] < pl.Row[t] || pl.Row[h] == pl.Row[t] && used[[2]int{t, 0}] > used[[2]int{t, 1}] {
			up, down = down, up
		}
		side, pin := pick(t, up, down)
		w.hHalf, w.hPin, w.hChan = side, pin, pl.Row[t]+1-side
		right, left := 2, 3
		if pl.Col[t] < pl.Col[h] || pl.Col[t] == pl.Col[h] && used[[2]int{h, 2}] > used[[2]int{h, 3}] {
			right, left = left, right
		}
		side, pin = pick(h, right, left)
		w.vHalf, w.vPin, w.vChan = side-2, pin, pl.Col[h]+3-side
		ws[k] = w
	}
	return ws
}

// packHalves packs the wires of every channel half onto tracks: key gives a
// wire's channel, half and abstract extent [lo, hi]; set records its track;
// width[channel][half] receives the track count.
func packHalves(ws []wire, width [][2]int, key func(*wire) (ch, half, lo, hi int), set func(*wire, int)) {
	type iv struct{ k, lo, hi int }
	groups := make([][2][]iv, len(width))
	for k := range ws {
		ch, h, lo, hi := key(&ws[k])
		groups[ch][h] = append(groups[ch][h], iv{k, lo, hi})
	}
	for ch := range groups {
		for h := range 2 {
			ivs := groups[ch][h]
			sort.Slice(ivs, func(i, j int) bool { return ivs[i].lo < ivs[j].lo || ivs[i].lo == ivs[j].lo && ivs[i].k < ivs[j].k })
			free := &trackHeap{}
			for _, x := range ivs {
				t := width[ch][h]
				if free.Len() > 0 && (*free)[0].hi < x.lo {
					t = heap.Pop(free).(trackEnd).track
				} else {
					width[ch][h]++
				}
				heap.Push(free, trackEnd{x.hi, t})
				set(&ws[x.k], t)
			}
		}
	}
}

type trackEnd struct{ hi, track int }

// trackHeap orders tracks by the right end of their last interval.
type trackHeap []trackEnd

func (h trackHeap) Len() int { return len(h) }
func (h trackHeap) Less(i, j int) bool {
	return h[i].hi < h[j].hi || h[i].hi == h[j].hi && h[i].track < h[j].track
}
func (h trackHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *trackHeap) Push(x any)   { *h = append(*h, x.(trackEnd)) }
func (h *trackHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// channelCoords lays channels and cells out along one axis: channel i
// starts at start[i] and holds width[i][0]+width[i][1] tracks; cell i
// (side s) follows it at cell[i].
func channelCoords(width [][2]int, s int) (start, cell []int) {
	start = make([]int, len(width))
	cell = make([]int, len(width)-1)
	pos := 0
	for i := range width {
		start[i] = pos
		pos += width[i][0] + width[i][1]
		if i < len(cell) {
			cell[i] = pos
			pos += s
		}
	}
	return start, cell
}

// eulerOrient orients every edge so that each vertex's out- and in-degree
// differ by at most one: pair the odd-degree vertices of each component by
// dummy edges, walk Euler circuits (Hierholzer) and orient along the walk.
// tails[k] is edge k's tail.
func eulerOrient(nodes int, g []Pair) (tails []int, maxOut, maxIn int) {
	type arc struct{ to, edge int } // edge ≥ len(g): a dummy
	adj := make([][]arc, nodes)
	addEdge := func(u, v, id int) {
		adj[u] = append(adj[u], arc{v, id})
		adj[v] = append(adj[v], arc{u, id})
	}
	for k, p := range g {
		addEdge(p.U, p.V, k)
	}
	odd := -1
	id := len(g)
	for v := range nodes {
		if len(adj[v])%2 == 1 {
			if odd < 0 {
				odd = v
			} else {
				addEdge(odd, v, id)
				id++
				odd = -1
			}
		}
	}
	done := make([]bool, id)
	next := make([]int, nodes)
	tails = make([]int, len(g))
	for s := range nodes {
		stack := []int{s}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			for next[v] < len(adj[v]) && done[adj[v][next[v]].edge] {
				next[v]++
			}
			if next[v] == len(adj[v]) {
				stack = stack[:len(stack)-1]
				continue
			}
			a := adj[v][next[v]]
			done[a.edge] = true
			if a.edge < len(g) {
				tails[a.edge] = v
			}
			stack = append(stack, a.to)
		}
	}
	out, in := make([]int, nodes), make([]int, nodes)
	for k, p := range g {
		if tails[k] == p.U {
			out[p.U]++
			in[p.V]++
		} else {
			out[p.V]++
			in[p.U]++
		}
	}
	for v := range nodes {
		maxOut, maxIn = max(maxOut, out[v]), max(maxIn, in[v])
	}
	return tails, maxOut, maxIn
}

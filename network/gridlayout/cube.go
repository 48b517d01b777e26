package gridlayout

import (
	"fmt"
	"sort"
)

// MaxCubeDim is the largest cube dimension Cube lays out; the 10-cube's
// layout already has about a million grid vertices.
const MaxCubeDim = 10

// Cube is a concrete grid embedding of the binary d-cube following the
// scheme of Brebner's Thm 5.8, whose own figure (Fig 5-2) and pin details
// are lost from the thesis text:
//
//   - the N = 2^d vertices form an array of 2^⌈d/2⌉ columns by 2^⌊d/2⌋ rows;
//     even dimensions run horizontally, odd ones vertically;
//   - as in the inductive doubling (two copies interleaved column by column,
//     so the newest dimension joins adjacent columns), dimension 2j is the
//     column index's bit ⌈d/2⌉−1−j and dimension 2j+1 the row index's bit
//     ⌊d/2⌋−1−j: dimensions 0 and 1 are the longest, half a side;
//   - dimension k's wires leave both endpoints towards the north, west,
//     south, east for k mod 4 = 0, 1, 2, 3, from pin k/4 of that side of a
//     square of side ⌈d/4⌉ (the side grows every four dimensions);
//   - each side's wires turn into a channel of tracks beside the row or
//     column of squares. The thesis double-spaces the old tracks and adds
//     one per step (2^m − 1 tracks for m doublings); here each channel gets
//     the fewest tracks its wire intervals need (greedy interval
//     partitioning, optimal for intervals), at most that many.
//
// This is a direct, non-inductive build of that scheme: the pin sides and
// the track-per-channel geometry are the thesis's, the track numbers are
// computed rather than doubled. The result is exactly N×N grid vertices for
// d ≤ 4 (digest §6.3) and Θ(N²) beyond, where the growing squares add a
// lower-order term. Measured (Check passes on each; TestCubeAreas):
//
//	d      2    3     4      5      6       7       8        9       10
//	w×h  4×4  8×8 16×16  40×36  72×72 144×128 256×256 544×480 960×960
//	/N²    1    1     1  1.406  1.266   1.125       1   0.996   0.879
func Cube(d int) (*Embedding, error) {
	if d < 1 || d > MaxCubeDim {
		return nil, fmt.Errorf("cube layout: d = %d, want 1 ≤ d ≤ %d", d, MaxCubeDim)
	}
	s := SideFor(d)
	mc, mr := (d+1)/2, d/2
	cols, rows := 1<<mc, 1<<mr
	// The four channels (sides N, W, S, E = k mod 4): for each, the track
	// of every wire of a row (N, S) or column (W, E), keyed by dimension and
	// the lower end's index along the row or column.
	var tracks [4]map[[2]int]int
	var width [4]int
	for side := range 4 {
		along := cols
		if side%2 == 1 {
			along = rows
		}
		tracks[side], width[side] = channelTracks(d, side, s, along, mc, mr)
	}
	tn, tw, ts, te := width[0], width[1], width[2], width[3]
	pitchX, pitchY := tw+s+te, ts+s+tn
	e := &Embedding{
		Name: fmt.Sprintf("%d-cube, Brebner Thm 5.8 scheme (%d×%d array of vertices)", d, cols, rows),
		Side: s,
		Pos:  make([]Point, 1<<d),
	}
	for v := range e.Pos {
		c, r := cubeColRow(v, d, mc, mr)
		e.Pos[v] = Point{c*pitchX + tw, r*pitchY + ts}
	}
	for k := range d {
		side, t := k%4, k/4
		for u := range e.Pos {
			if u>>k&1 != 0 {
				continue
			}
			v := u | 1<<k
			a, b := e.Pos[u], e.Pos[v]
			cu, ru := cubeColRow(u, d, mc, mr)
			lower := cu
			if side%2 == 1 {
				lower = ru
			}
			tr := tracks[side][[2]int{k, lower}]
			var path []Point
			switch side {
			case 0: // north: up from the top row of the squares
				y := a.Y + s + tr
				path = polyline(Point{a.X + t, a.Y + s - 1}, Point{a.X + t, y}, Point{b.X + t, y}, Point{b.X + t, b.Y + s - 1})
			case 1: // west
				x := a.X - 1 - tr
				path = polyline(Point{a.X, a.Y + t}, Point{x, a.Y + t}, Point{x, b.Y + t}, Point{b.X, b.Y + t})
			case 2: // south
				y := a.Y - 1 - tr
				path = polyline(Point{a.X + t, a.Y}, Point{a.X + t, y}, Point{b.X + t, y}, Point{b.X + t, b.Y})
			case 3: // east
				x := a.X + s + tr
				path = polyline(Point{a.X + s - 1, a.Y + t}, Point{x, a.Y + t}, Point{x, b.Y + t}, Point{b.X + s - 1, b.Y + t})
			}
			e.add(u, v, fmt.Sprintf("dim %d", k), path)
		}
	}
	return e, nil
}

// cubeColRow places vertex v: even dimension 2j is column bit mc−1−j, odd
// dimension 2j+1 row bit mr−1−j.
func cubeColRow(v, d, mc, mr int) (col, row int) {
	for k := range d {
		if v>>k&1 == 0 {
			continue
		}
		if k%2 == 0 {
			col |= 1 << (mc - 1 - k/2)
		} else {
			row |= 1 << (mr - 1 - k/2)
		}
	}
	return col, row
}

// channelTracks assigns tracks to the wires of one side's channel. The
// wires of dimension k (k mod 4 = side) join positions p and p+span along
// the row (or column) for every p whose dimension bit is 0; at the pin
// offsets t = k/4 < s the interval [p·s+t, (p+span)·s+t] orders and overlaps
// exactly as the wire's real extent does for any pitch ≥ s. Returns the
// track of each (k, p) and the number of tracks.
func channelTracks(d, side, s, along, mc, mr int) (map[[2]int]int, int) {
	type iv struct{ k, p, lo, hi int }
	var ivs []iv
	for k := side; k < d; k += 4 {
		bit := mc - 1 - k/2
		if k%2 == 1 {
			bit = mr - 1 - k/2
		}
		span := 1 << bit
		for p := range along {
			if p&span == 0 {
				ivs = append(ivs, iv{k, p, p*s + k/4, (p+span)*s + k/4})
			}
		}
	}
	sort.Slice(ivs, func(i, j int) bool { return ivs[i].lo < ivs[j].lo })
	out := make(map[[2]int]int, len(ivs))
	var last []int // right end of the last interval on each track
	for _, w := range ivs {
		tr := -1
		for i, r := range last {
			if r < w.lo {
				tr = i
				break
			}
		}
		if tr < 0 {
			tr = len(last)
			last = append(last, 0)
		}
		last[tr] = w.hi
		out[[2]int{w.k, w.p}] = tr
	}
	return out, len(last)
}

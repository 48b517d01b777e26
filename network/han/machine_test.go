package han

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// at is processor (r,c) of an 8-wide mesh.
func at(r, c int) int32 { return int32(r*8 + c) }

// load builds a router for an 8×8 mesh with messages at the keys of msgs.
func load(t *testing.T, buffers int, msgs map[int32]int32) (*router, map[int32]int32) {
	t.Helper()
	dests := make([][]int32, 64)
	for p, d := range msgs {
		dests[p] = []int32{d}
	}
	r, err := newRouter(8, 8, buffers, dests, Actual)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[int32]int32{} // message id → its source
	for p := range int32(64) {
		for _, id := range r.m.Pool(p) {
			ids[id] = p
		}
	}
	return r, ids
}

// names lists, sorted, the letters of the messages processor p holds.
func names(r *router, ids map[int32]int32, letter map[int32]string, p int32) string {
	var s []string
	for _, id := range r.m.Pool(p) {
		s = append(s, letter[ids[id]])
	}
	slices.Sort(s)
	return strings.Join(s, "")
}

// Fig. 3.3: four messages cross at a processor that keeps its own: after step
// 2 of Q's first move, (2,2) holds exactly E, A, B, C and D.
func TestFig33FiveAtOneProcessor(t *testing.T) {
	msgs := map[int32]int32{at(2, 2): at(1, 1), at(0, 2): at(5, 5), at(4, 2): at(3, 3), at(2, 0): at(0, 7), at(2, 4): at(0, 0)}
	letter := map[int32]string{at(2, 2): "E", at(0, 2): "A", at(4, 2): "D", at(2, 0): "B", at(2, 4): "C"}
	r, ids := load(t, 5, msgs)
	var held []string
	r.onStep = func() { held = append(held, names(r, ids, letter, at(2, 2))) }
	if err := r.move(8, 8, 4, 4, 8); err != nil {
		t.Fatal(err)
	}
	if want := []string{"E", "ABCDE", "E", "E", "E", "E", "E", "E"}; !slices.Equal(held, want) { // (A is diagonal: 8 steps)
		t.Errorf("(2,2) held %q after the steps, want %q", held, want)
	}

	// With 4 buffers the hardware refuses step 2 at (2,2), naming all five.
	r, _ = load(t, 4, msgs)
	err := r.move(8, 8, 4, 4, 8)
	var ref *Refusal
	if !errors.As(err, &ref) || ref.Step != 2 || ref.Row != 2 || ref.Col != 2 || len(ref.Messages) != 5 {
		t.Fatalf("4 buffers: %v, want a refusal of step 2 at (2,2) naming 5 messages", err)
	}
	if r.m.DataSteps != 1 || len(r.m.Pool(at(2, 2))) != 1 {
		t.Errorf("the refused step moved something: %d data steps, (2,2) holds %d", r.m.DataSteps, len(r.m.Pool(at(2, 2))))
	}
}

// Fig. 3.2: after the 8-step move (6,5) holds exactly D, F, G and H.
func TestFig32Move(t *testing.T) {
	msgs := map[int32]int32{at(0, 1): at(0, 5), at(2, 1): at(7, 7), at(6, 1): at(4, 4), at(2, 5): at(5, 6), at(6, 5): at(6, 6)}
	letter := map[int32]string{at(0, 1): "A", at(2, 1): "D", at(6, 1): "F", at(2, 5): "G", at(6, 5): "H"}
	r, ids := load(t, 5, msgs)
	steps := 0
	r.onStep = func() { steps++ }
	if err := r.move(8, 8, 4, 4, 8); err != nil {
		t.Fatal(err)
	}
	if got := names(r, ids, letter, at(6, 5)); got != "DFGH" || steps != 8 {
		t.Errorf("(6,5) holds %q after %d steps, want DFGH after 8", got, steps)
	}
	if got := names(r, ids, letter, at(0, 5)); got != "A" {
		t.Errorf("(0,5) holds %q, want A", got)
	}
}

// The machine refuses two messages on one link direction, a link the mesh
// lacks and a message the sender does not hold, and moves nothing.
func TestMachineRefuses(t *testing.T) {
	m := NewMachine(2, 2, 3)
	a, _ := m.Load(0)
	b, _ := m.Load(0)
	cases := []struct {
		moves []Move
		want  string
	}{
		{[]Move{{From: 0, Dir: East, Msg: a}, {From: 0, Dir: East, Msg: b}}, "two messages on its east link"},
		{[]Move{{From: 0, Dir: North, Msg: a}}, "no north link"},
		{[]Move{{From: 1, Dir: West, Msg: a}}, "does not hold"},
		{[]Move{{From: 0, Dir: East, Msg: a}, {From: 0, Dir: South, Msg: a}}, "two links without copying"},
	}
	for _, c := range cases {
		err := m.Data(c.moves)
		var ref *Refusal
		if !errors.As(err, &ref) || !strings.Contains(err.Error(), c.want) || ref.Row != 0 || ref.Col != 0 && c.want != "does not hold" {
			t.Errorf("%v: %v, want a refusal: %s", c.moves, err, c.want)
		}
		if len(m.Pool(0)) != 2 || m.DataSteps != 0 {
			t.Errorf("%v: a refused step moved something", c.moves)
		}
	}
	// Both channels of a link at once, and an emptied buffer refilled in the same step.
	c, _ := m.Load(1)
	if err := m.Data([]Move{{From: 0, Dir: East, Msg: a}, {From: 1, Dir: West, Msg: c}}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Integer([]IntSend{{0, East, 1}, {0, East, 2}}); err == nil || !strings.Contains(err.Error(), "two integer messages") {
		t.Errorf("integer step: %v", err)
	}
	if m.DataSteps != 1 || m.IntegerSteps != 0 {
		t.Errorf("steps %d data %d integer, want 1 and 0", m.DataSteps, m.IntegerSteps)
	}
}

// rowOf runs counting and row movement on a 4×8 region whose row 0 holds
// four messages (one a processor) and row 1 the counts given, and returns
// the row movement's steps and row 1's counts after it.
func rowOf(t *testing.T, row1 []int) (int64, []int) {
	t.Helper()
	r, err := newRouter(4, 8, 5, nil, Actual)
	if err != nil {
		t.Fatal(err)
	}
	for c := range 4 {
		r.m.Load(int32(c))
	}
	for c, k := range row1 {
		for range k {
			r.m.Load(int32(8 + c))
		}
	}
	if err := r.count(4, 8); err != nil {
		t.Fatal(err)
	}
	steps, err := r.rowMove(4, 8)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for c := range 8 {
		got = append(got, len(r.m.Pool(int32(8+c))))
	}
	return steps, got
}

// Fig. 2.1.b: five messages spread to the four rightmost processors and the
// leftmost (the extras of the row above end at column 3): [3,2,0,…] in 6
// steps (the largest flow is 4), [5,0,…] in 7.
func TestFig21bRowMovement(t *testing.T) {
	for _, c := range []struct {
		init []int
		want int64
	}{{[]int{3, 2, 0, 0, 0, 0, 0, 0}, 6}, {[]int{5, 0, 0, 0, 0, 0, 0, 0}, 7}} {
		steps, got := rowOf(t, c.init)
		if steps != c.want || !slices.Equal(got, []int{1, 0, 0, 0, 1, 1, 1, 1}) {
			t.Errorf("%v: %d steps to %v, want %d to [1 0 0 0 1 1 1 1]", c.init, steps, got, c.want)
		}
	}
}

// intLink gives every link direction of a 2-D mesh its own index in ilink
// (rows by row, east and west by column), so an integer step refuses two
// sends on one link and only then: on a square and both rectangles.
func TestIntLinkDistinct(t *testing.T) {
	for _, rc := range [][2]int{{5, 5}, {3, 7}, {7, 3}} {
		m := NewMachine(rc[0], rc[1], 1)
		seen := make([]bool, len(m.ilink))
		for p := range int32(m.Processors()) {
			for d := North; d <= West; d++ {
				l := m.intLink(p, d)
				if l < 0 || l >= len(seen) || seen[l] {
					t.Fatalf("%v: link (%d, %v) at %d, out of range or shared", rc, p, d, l)
				}
				seen[l] = true
			}
		}
		p := int32(rc[1] + 1) // (row 1, column 1: all four links)
		for d := North; d <= West; d++ {
			if _, err := m.Integer([]IntSend{{p, d, 1}, {p, (d + 1) % 4, 1}}); err != nil {
				t.Errorf("%v: two directions refused: %v", rc, err)
			}
			if _, err := m.Integer([]IntSend{{p, d, 1}, {p, d, 2}}); err == nil || !strings.Contains(err.Error(), "two integer messages") {
				t.Errorf("%v: two on %v: %v", rc, d, err)
			}
		}
	}
}

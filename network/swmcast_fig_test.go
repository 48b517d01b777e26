package network

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/traffic"
)

// figSends reads a figure's schedule written "a→b; c→d e→f; ..." (steps
// separated by ';', a step's unicasts by spaces) as sends.
func figSends(t *testing.T, fig string) []traffic.Send {
	t.Helper()
	var out []traffic.Send
	for i, step := range strings.Split(fig, ";") {
		for _, u := range strings.Fields(step) {
			var s traffic.Send
			if _, err := fmt.Sscanf(strings.Replace(u, "→", " ", 1), "%d %d", &s.From, &s.To); err != nil {
				t.Fatalf("figure unicast %q: %v", u, err)
			}
			s.Step = i + 1
			out = append(out, s)
		}
	}
	return out
}

// figMsg is one multicast of a figure: its source and its sends, step by
// step, as the figure lists them.
type figMsg struct {
	src   int
	sends string
}

// figRun replays the figure's multicasts (every one to the rest of the
// 3-cube, all at cycle 0) with the scheme on the simulated 8-node cube MIN
// and checks that the scheme's schedule is the figure's, step by step, and
// that the network delivered exactly the figure's unicasts. It returns the
// deliveries in delivery order and, for each message, the no-blocking
// oracle's deliveries (a pair both messages use, like 6→7 under U-min,
// appears in both).
func figRun(t *testing.T, scheme traffic.Scheme, msgs ...figMsg) (got []arrival, want [][]arrival) {
	t.Helper()
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	var pkts []string
	n0, err := Build(chiangMIN("cube", 2, 3, scheme.String()))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, m := range msgs {
		fig := figSends(t, m.sends)
		sched := traffic.Schedule(scheme, m.src, others(all, m.src))
		if !slices.Equal(byStep(sched), byStep(fig)) {
			t.Fatalf("%s from %d: schedule %v, figure %v", scheme, m.src, byStep(sched), byStep(fig))
		}
		pkts = append(pkts, packetLine(0, m.src, others(all, m.src), figL))
		var w []arrival
		for d, at := range oracle(n0.k.Topo, fig, m.src, figL, 3+figL) {
			w = append(w, arrival{d, at})
		}
		want = append(want, w)
		total += len(fig)
	}
	_, _, got = replayArrivals(t, chiangMIN("cube", 2, 3, scheme.String()), pkts...)
	if len(got) != total {
		t.Fatalf("%s: %d unicasts delivered, the figure has %d", scheme, len(got), total)
	}
	return got, want
}

// figL is the message length of the figure replays (flits).
const figL = 16

// at lists the delivery cycles of the unicast from→to, ascending.
func at(as []arrival, from, to int) []int64 {
	var out []int64
	for _, a := range as {
		if a.src == int32(from) && a.dst == int32(to) {
			out = append(out, a.at)
		}
	}
	slices.Sort(out)
	return out
}

// lastAt is the last delivery cycle.
func lastAt(as []arrival) int64 {
	var t int64
	for _, a := range as {
		t = max(t, a.at)
	}
	return t
}

// byStep writes sends as "step:from→to", sorted.
func byStep(s []traffic.Send) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.String()
	}
	slices.Sort(out)
	return out
}

// Fig 7.4: C-min from 100 in a 3-cube — step 1: 100→000; step 2: 100→110,
// 000→010; step 3: 100→101, 000→001, 110→111, 010→011. On the cube MIN
// every unicast arrives exactly when the no-blocking oracle says: the
// schedule is stepwise and depth contention-free.
func TestFig74OnTheNetwork(t *testing.T) {
	got, want := figRun(t, traffic.CMin, figMsg{4, "4→0; 4→6 0→2; 4→5 0→1 6→7 2→3"})
	for _, w := range want[0] {
		if g := at(got, int(w.src), int(w.dst)); len(g) != 1 || g[0] != w.at {
			t.Errorf("C-min from 100: %d→%d delivered at %v, want %d", w.src, w.dst, g, w.at)
		}
	}
}

// Fig 8.8: multicasts from 0 and 5 to the whole 3-cube at once, replayed
// step by step on the simulated cube MIN.
//
// (b) C-min: 0→4 and 5→1; then 0→2, 4→6, 5→7, 1→3; then 0→1, 2→3, 4→5,
// 6→7, 5→4, 1→0, 7→6, 3→2 — node-disjoint in every step. Nothing waits for
// a node: every unicast arrives at its own message's no-blocking time, give
// or take the one cycle a switch port takes to be granted again to another
// worm, and both messages finish when each would alone.
//
// (a) U-min: 0→4 and 5→3; then 0→2, 4→6, 5→6, 3→1; then 6→7 twice. With no
// blocking node 6 would receive 4→6 and 5→6, and later send 6→7 for both
// messages, with overlapping transfers (less than a message length apart);
// its one ejection channel and its one injection channel make each pair go
// one after the other (at least a message length apart), and the second
// 6→7 is the run's last delivery, a message length or more after C-min's.
func TestFig88StepByStep(t *testing.T) {
	got, want := figRun(t, traffic.CMin,
		figMsg{0, "0→4; 0→2 4→6; 0→1 2→3 4→5 6→7"},
		figMsg{5, "5→1; 5→7 1→3; 5→4 1→0 7→6 3→2"})
	for _, w := range append(want[0], want[1]...) {
		if g := at(got, int(w.src), int(w.dst)); len(g) != 1 || g[0] < w.at || g[0] > w.at+1 {
			t.Errorf("C-min 0 and 5: %d→%d delivered at %v, want %d (+1 at most)", w.src, w.dst, g, w.at)
		}
	}
	cmin := lastAt(got)
	if alone := max(lastAt(want[0]), lastAt(want[1])); cmin != alone {
		t.Errorf("C-min 0 and 5: last delivery at %d, alone %d", cmin, alone)
	}

	got, want = figRun(t, traffic.UMin,
		figMsg{0, "0→4; 0→2 4→6; 0→1 2→3 4→5 6→7"},
		figMsg{5, "5→3; 5→6 3→1; 5→4 3→2 1→0 6→7"})
	for _, p := range [][3]int{{4, 5, 6}, {6, 6, 7}} { // senders (for each message) and receiver
		ideal := []int64{at(want[0], p[0], p[2])[0], at(want[1], p[1], p[2])[0]}
		slices.Sort(ideal)
		seen := append(at(got, p[0], p[2]), at(got, p[1], p[2])...)
		if p[0] == p[1] {
			seen = at(got, p[0], p[2])
		}
		slices.Sort(seen)
		if ideal[1]-ideal[0] >= figL || len(seen) != 2 || seen[1]-seen[0] < figL {
			t.Errorf("U-min 0 and 5: %d→%d and %d→%d delivered at %v, no-blocking %v: want overlapping transfers serialised", p[0], p[2], p[1], p[2], seen, ideal)
		}
	}
	if umin, six := lastAt(got), at(got, 6, 7); six[len(six)-1] != umin || umin < cmin+figL {
		t.Errorf("U-min 0 and 5: last delivery at %d (6→7 at %v), C-min's at %d: want the second 6→7 last, a message later", umin, six, cmin)
	}
}

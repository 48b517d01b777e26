// Package copynet holds the copy networks Chiang 1995 §8.1 reviews as
// related work (digest notes/seeds/001 §4.7): Turner's copy network, which
// makes m copies of a packet by splitting the copy count in the switches of
// a MIN, and Lee's, whose running adder gives every multicast an interval
// of output ports.
package copynet

import (
	"fmt"

	"github.com/flitsim/flitsim/network/topology"
)

// Split is one switch's decision for a copy of the packet in Turner's copy
// network: M copies arrive; Up copies leave on output 0 and Down on output
// 1 (one of them 0 when the switch forwards without replicating).
type Split struct {
	Switch   string // the switch's label, e.g. "s2,1"
	M        int
	Up, Down int
}

func (s Split) String() string { return fmt.Sprintf("%s: %d → %d/%d", s.Switch, s.M, s.Up, s.Down) }

// Turner routes a packet with header (B, m, c) from terminal src through
// the copy network t (a MIN of 2×2 switches). A switch whose outputs each
// reach at least m output ports forwards on one of them, chosen by
// pick(switch) (Turner chooses arbitrarily, to spread the load); otherwise
// it replicates, with m_u = ⌊(m+1)/2⌋ up and m_ℓ = ⌊m/2⌋ down when the
// broadcast channel number c is even, and the other way round when odd.
// It returns every switch's decision, depth first with the upper branch
// first, and the output ports that receive a copy.
func Turner(t *topology.Topology, src, m, c int, pick func(sw int) int) ([]Split, []int, error) {
	n := t.Terminals()
	if m < 1 || m > n {
		return nil, nil, fmt.Errorf("copy count %d: want 1 to %d", m, n)
	}
	reach := make(map[topology.End]int)
	var splits []Split
	var outs []int
	var walk func(sw, m int)
	walk = func(sw, m int) {
		out := t.Switches[sw].Out
		if len(out) != 2 {
			panic("copynet: Turner's copy network has 2×2 switches")
		}
		var up, down int
		switch {
		case reaches(t, out[0], reach) >= m && reaches(t, out[1], reach) >= m:
			if pick(sw) == 0 {
				up = m
			} else {
				down = m
			}
		case c%2 == 0:
			up, down = (m+1)/2, m/2
		default:
			up, down = m/2, (m+1)/2
		}
		splits = append(splits, Split{Switch: t.Switches[sw].Label, M: m, Up: up, Down: down})
		for p, k := range []int{up, down} {
			switch e := out[p]; {
			case k == 0:
			case e.ToTerminal():
				outs = append(outs, int(e.Terminal))
			default:
				walk(int(e.Switch), k)
			}
		}
	}
	walk(int(t.InSwitch[src]), m)
	return splits, outs, nil
}

// reaches is the number of terminals reachable through the link e.
func reaches(t *topology.Topology, e topology.End, memo map[topology.End]int) int {
	if e.ToTerminal() {
		return 1
	}
	if v, ok := memo[e]; ok {
		return v
	}
	seen := map[int32]bool{}
	var dfs func(sw int32)
	dfs = func(sw int32) {
		for _, o := range t.Switches[sw].Out {
			if o.ToTerminal() {
				seen[o.Terminal] = true
			} else {
				dfs(o.Switch)
			}
		}
	}
	dfs(e.Switch)
	memo[e] = len(seen)
	return len(seen)
}

// Interval is the output ports [Lo, Hi] Lee's running adder gives one
// multicast; Blocked when the interval runs past the last output port (the
// multicast, and every later one, waits for the next cycle).
type Interval struct {
	Lo, Hi  int
	Blocked bool
}

// Lee gives each multicast, in input-port order, the interval of output
// ports (b_i, b_i + m_i − 1), b_i being the sum of the copy counts m_j of
// the multicasts before it, in a copy network of ports output ports. A
// multicast whose interval does not fit blocks, and so does every later
// one (the implicit priority by input port that can starve high ports).
func Lee(copies []int, ports int) []Interval {
	out := make([]Interval, len(copies))
	b, blocked := 0, false
	for i, m := range copies {
		out[i] = Interval{Lo: b, Hi: b + m - 1}
		blocked = blocked || b+m > ports
		out[i].Blocked = blocked
		b += m
	}
	return out
}

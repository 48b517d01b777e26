package network

import (
	xbar "github.com/flitsim/flitsim/switch"
	"github.com/flitsim/flitsim/switch/iq"
)

// ZeroLoadLatency is the latency, in cycles from generation to delivery, of
// a packet of f flits that crosses r switches in an otherwise empty network
// built from c. It is the closed form docs/hardware.md states and the tests check
// the simulation against (it assumes full pipelining: switch.reuse on, or
// buffers deep enough to cover the credit round trip).
//
// The packet's head makes one move per buffer on its path, and each move
// costs its latency λ: L for a move over a link, 1 for a crossbar move from
// an input buffer to an output buffer. Summed over the path,
//
//	input buffers only:  Σλ = (r+1)·L
//	output buffers only: Σλ = (r+1)·L
//	both:                Σλ = (r+1)·L + r
//
// A head also waits switch.delay = D at each of the r routing decisions.
// Then the tail follows f−1 cycles behind (wormhole, virtual cut-through):
//
//	T = Σλ + r·D + (f−1)
//
// Under store-and-forward a head leaves a buffer only when its tail is
// there, so every buffer after the source adds max(D_b, f−1), where D_b is D
// at a routing buffer and 0 elsewhere (and a source that routes adds D):
//
//	T = Σλ + (f−1) + Σ_b max(D_b, f−1) [+ D]
//
// With D = 0 that is Σλ + m·(f−1) for m moves: latency grows with
// hops × (flits − 1).
func ZeroLoadLatency(c Config, r, f int) int64 {
	if p, ok := iqParams(&c); ok {
		return iq.ZeroLoadLatency(p, r-1, f) // (r routers: r−1 links between them)
	}
	L := int64(c.Link.Latency)
	D := int64(c.Switch.Delay)
	R := int64(r)
	F := int64(f) - 1
	in, out := c.Buffers.Input > 0, c.Buffers.Output > 0
	sum := (R + 1) * L
	if in && out {
		sum += R
	}
	mode, _ := xbar.ParseMode(c.Switching)
	if mode != xbar.SAF {
		return sum + R*D + F
	}
	wait := func(d int64) int64 { return max(d, F) }
	t := sum + F
	switch {
	case in && out: // r routing input buffers, r plain output buffers
		t += R*wait(D) + R*wait(0)
	case in: // r routing input buffers
		t += R * wait(D)
	default: // source routes; r−1 routing output buffers, the last plain
		t += D + (R-1)*wait(D) + wait(0)
	}
	return t
}

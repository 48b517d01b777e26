// Package kernel is the cycle kernel: it holds the state of every switch,
// link and terminal of a network and advances them all one clock cycle per
// Step. Package network builds it from a configuration and runs it.
//
// # One cycle
//
// The whole fabric is one kernel whose Step advances every switch, link and
// terminal exactly one clock cycle in two phases, like clocked RTL:
//
// Evaluate (reads only the state registered at the end of the previous cycle):
//  1. Traffic: terminals create packets and queue them at their source
//     interface; a new head may leave in the same cycle.
//  2. Routing: every head flit at the front of a buffer asks the routing unit
//     for the SET of output ports it needs at the next switch.
//  3. Allocation: each switch grants output ports that no worm holds, one
//     winner per port chosen by the arbiter policy, all-or-nothing per head.
//  4. Flow: a front flit moves if its worm holds the ports on its way and every
//     destination buffer has a free slot. A slot counts as free if it was free
//     at the start of the cycle or (with switch.reuse) its own front flit moves
//     on in this cycle — a combinational ready chain, resolved by a memoised
//     walk so the answer does not depend on visiting order. Virtual
//     cut-through needs room for the whole packet; store-and-forward moves a
//     head only when its tail is in the same buffer.
//
// Commit: all moving flits leave their buffers, then all are written into
// their destinations (every destination of a replicated flit gets a copy);
// tails release the ports they held; flits reaching a terminal are delivered.
//
// A move crosses at most one link, whose latency L delays the flit: it may
// leave its new buffer from cycle t+L on. The slot it will occupy is reserved
// from cycle t, as credit flow control does, so no flit is ever dropped.
//
// # Buffers and moves
//
// With input buffers only, a flit moves from an input buffer through the
// crossbar and the link into the next switch's input buffer. With output
// buffers only (Chiang's switch), it moves from an output buffer over the link
// and through the next crossbar into one or more output buffers. With both, the
// crossbar move (input to output buffer, one cycle) and the link move (output
// buffer to next input buffer, L cycles) are separate.
//
// # Switch models and files
//
// Step runs the network's Stepper, its switch model (step.go). The flit
// crossbar described above has two: the general stepper and the fast one
// for wormhole unicast cycles (step_fast.go, flow_fast.go, commit_fast.go,
// on one or two threads: lanes.go, crew.go, tune.go, presample.go). The
// phases live in inject.go, route.go, allocate.go, flow.go, commit.go and
// eject.go; rule.go states the movement rule the general flow, the tracer
// (tracer.go) and the deadlock detector (deadlock.go) share.
package kernel

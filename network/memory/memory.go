// Package memory estimates a command's peak memory from its configuration,
// before anything is built, so that a run too big for the machine is
// refused with one line instead of dying in Go's out-of-memory crash.
//
// # The formula
//
// An estimate is a sum of terms, each a count known from the configuration
// times a cost per item measured on this simulator (max RSS, Go 1.26,
// linux/amd64; TestEstimateAgainstMeasured keeps each within 2×):
//
//	base            16 MB                 the program, its tables, the runtime
//	port            750 B  × ports        a switch port of the built network:
//	                                      topology, link, buffer and router state
//	buffer slot     4 B    × ports × (buffers.input + buffers.output)
//	                                      (the two lines above: the packet,
//	                                      slotted and lock-step routers and
//	                                      router.model's; the flit crossbar's
//	                                      layout costs the four below)
//	kernel port     290 B  × ports        the flit crossbar's port: buffer
//	                                      record, link, switch, the lanes'
//	                                      memo and the scratch a run may grow
//	flit slot       16 B   × ports × (buffers.input + buffers.output)
//	output buffer   170 B  × ports        with input and output buffers both
//	terminal        640 B  × terminals    source register, sink record,
//	                                      injection link, queue, traffic
//	built port      400 B  × ports        distances: a port of the network its
//	                                      validation builds and never runs
//	packet          700 B  × live packets a packet alive at once (worm record,
//	                                      flits, queue entries)
//	node detail     16.5 kB × terminals   run.per_node or run.per_pair: two
//	                                      latency histograms per terminal
//	pair            16 B   × terminals²   run.per_pair: a count and a sum per pair
//	scheduled       24 B   × packets      a collective's packet record
//	trace record    550 B  × packets      a collective packet traced packet by
//	                                      packet (its worm record)
//	deferred record 100 B  × packets      a collective packet whose record waits
//	                                      for its first traced event (traces
//	                                      with --trace-window or --trace-only;
//	                                      records then made for at most
//	                                      ports × window cycles, from cycle 0
//	                                      with --trace-perfetto)
//
// Every command's configuration is validated by building its network, so
// distances and collective count the ports too.
//
// Live packets: a batch holds traffic.h × terminals at once, times the
// experiments that run at once (run.experiments, at most one per core); an
// open-loop run holds at most every packet it generates in run.warmup +
// run.measure + run.drain cycles (its sources go on through the drain; the
// Bernoulli count's mean plus 6 standard deviations, twice that with
// traffic.reply_flits), and stops at run.max_backlog packets per terminal
// waiting (the worst case, reached when saturated): the smaller of the
// two, the latter alone for a workload with a generator of its own (tasks,
// multicasts); a trace or packet list holds its packets.
//
// The packet's 700 B: its record (flit.Worm, 80 B), the kernel's
// per-packet multicast state and veto cycle (136 B) and its queue entries,
// about 230 B, in slices grown by append and copied as they grow, with the
// collector's slack; measured: 680 B of max RSS per live packet (an 8×8
// mesh at load 1, run.max_backlog 0: 221 000 packets alive after 20 000
// cycles, 150 MB above a 10-cycle run).
// A collective holds N(N−1) packets in its all-to-all tasks (te,
// te-greedy, kl-exchange, pe) and at most N(d+1) in the others. A sweep
// runs --jobs points at once: the largest estimates of that many points.
package memory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/network"
	"github.com/flitsim/flitsim/network/topology"
)

// Per-item costs in bytes (the formula above).
const (
	Base          = 16e6
	PerPort       = 750
	PerSlot       = 4
	PerBuiltPort  = 400
	PerPacket     = 700
	PerNodeDetail = 16.5e3
	PerPair       = 16
	PerScheduled  = 24
	PerTraced     = 550
	PerDeferred   = 100
	// SlottedPlace is a place for a packet in the slotted router (a link
	// register, its next-slot copy, or a FIFO place): 8 bytes.
	SlottedPlace = 8
)

// The flit crossbar's costs (flitKernel), from the live heap after the
// build (the 12- and 16-cube, a 32×32 torus; internal/kernel's
// BenchmarkScale reports it per port) with room for what a run adds: 230 B
// a port built, up to 56 B of request lists a switch makes when its first
// request is posted (policies that rank more than inputs, multicast) and the
// lanes' lists, which grow with the busy buffers.
const (
	KernelPort     = 290
	FlitSlot       = 16
	KernelBuffer   = 170
	KernelTerminal = 640
)

// Term is one part of an estimate.
type Term struct {
	// What names the part and how it was counted, e.g. "run.per_pair
	// (65536 terminals: 65536² pairs × 16 B)".
	What string
	// Shrink says what makes it smaller ("turn off run.per_pair").
	Shrink string
	Bytes  float64
}

// Estimate is a command's expected peak memory.
type Estimate struct {
	Command string // the command, as the refusal names it
	Terms   []Term
	// Limit is run.max_memory (0: DefaultLimit).
	Limit network.ByteSize
	// Size is the network's, counted from the configuration (sweep: zero).
	Size topology.Size
}

// Total is the sum of the terms in bytes.
func (e *Estimate) Total() float64 {
	var s float64
	for _, t := range e.Terms {
		s += t.Bytes
	}
	return s
}

// Largest is the biggest term.
func (e *Estimate) Largest() Term {
	return slices.MaxFunc(e.Terms, func(a, b Term) int {
		switch {
		case a.Bytes < b.Bytes:
			return -1
		case a.Bytes > b.Bytes:
			return 1
		}
		return 0
	})
}

func (e *Estimate) add(what, shrink string, bytes float64) {
	if bytes > 0 {
		e.Terms = append(e.Terms, Term{What: what, Shrink: shrink, Bytes: bytes})
	}
}

// Check refuses an estimate above e.Limit (run.max_memory; 0: the
// default, DefaultLimit) with one line: the estimate, the largest term and
// what shrinks it.
func (e *Estimate) Check() error {
	limit := e.Limit
	given := limit > 0
	if !given {
		limit = DefaultLimit()
	}
	total := e.Total()
	if total <= float64(limit) {
		return nil
	}
	l := e.Largest()
	lim := fmt.Sprintf("run.max_memory %s", limit.Human())
	if !given {
		lim = fmt.Sprintf("run.max_memory %s (80 %% of this machine's memory)", limit.Human())
	}
	return &Error{Estimate: network.ByteSize(total), Limit: limit,
		msg: fmt.Sprintf("%s: estimated peak memory %s > %s; largest term: %s; %s or raise run.max_memory",
			e.Command, network.ByteSize(total).Human(), lim, l.What, l.Shrink)}
}

// Error is a refusal: bad input (the configuration asks for too much).
type Error struct {
	Estimate, Limit network.ByteSize
	msg             string
}

func (e *Error) Error() string { return e.msg }

// count writes a count with thousands run together, as the terms name them.
func count(n float64) string { return fmt.Sprintf("%.0f", n) }

// bytesEach writes a per-item cost ("16 B", "16.5 kB").
func bytesEach(b float64) string { return strings.TrimSpace(network.ByteSize(b).Human()) }
